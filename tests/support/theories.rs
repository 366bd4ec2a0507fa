//! Every theory file of the repository a whole-corpus test runs over: the fixtures, the
//! bundled theories and the acceptance theories, sorted. `errors/` holds inputs that do not
//! check, and `limits/` inputs at the edge of the front end's limits (terms nested 999 deep,
//! 100,000 constructors) run through the binary with its large stack by the fixture
//! harness, not on a test thread.

use std::path::{Path, PathBuf};

/// The `.thy` files under `tests/fixtures`, `theories` and `tests/acceptance` of the
/// workspace whose root is `root`.
pub fn theories(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.join("tests/fixtures"), root.join("theories"), root.join("tests/acceptance")];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for p in entries.flatten().map(|e| e.path()) {
            if p.is_dir() && !p.ends_with("errors") && !p.ends_with("limits") {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "thy") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}
