//! The walk of the whole-corpus narrowing tests (`agreement.rs`, `compiled.rs`): every lemma
//! of the repository's theories, size by size, the shared examples at sizes 1 to 5 as the
//! issues ask and the fixtures and hundreds of bundled lemmas at 1 to 3, which keeps the
//! suite's time in bounds. Shared by `#[path]`.

use std::path::Path;

#[path = "../../../tests/support/theories.rs"]
mod corpus;

/// Calls `compare(file, theory, lemma index, size)` for every lemma at its sizes in
/// increasing order, going on to the next lemma once it returns `false`. The files are
/// shared out among as many threads as the machine has cores (the walk is the whole of
/// its test binary, which would otherwise use one core of CI's two).
pub fn each_lemma_size(compare: impl Fn(&Path, &lang::CheckedTheory, usize, u64) -> bool + Sync) {
    let files = corpus::theories(&Path::new(env!("CARGO_MANIFEST_DIR")).join(".."));
    assert!(files.len() > 20, "theories found: {files:?}");
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                while let Some(f) = files.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed)) {
                    walk_file(f, &compare);
                }
            });
        }
    });
}

fn walk_file(f: &Path, compare: &impl Fn(&Path, &lang::CheckedTheory, usize, u64) -> bool) {
    let th = lang::check_theory(&std::fs::read_to_string(f).unwrap());
    let max_size = if f.components().any(|c| c.as_os_str() == "acceptance") { 5 } else { 3 };
    for item in &th.items {
        let lang::ItemKind::Lemma { index, .. } = item.kind else { continue };
        for size in 1..=max_size {
            if !compare(f, &th, index, size) {
                break;
            }
        }
    }
}
