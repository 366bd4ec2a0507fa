//! The walk of the whole-corpus narrowing tests (`agreement.rs`, `compiled.rs`): every lemma
//! of the repository's theories, size by size, the shared examples at sizes 1 to 5 as the
//! issues ask and the fixtures and hundreds of bundled lemmas at 1 to 3, which keeps the
//! suite's time in bounds. Shared by `#[path]`.

use std::path::Path;

#[path = "../../../tests/support/theories.rs"]
mod corpus;

/// Calls `compare(file, theory, lemma index, size)` for every lemma at its sizes in
/// increasing order, going on to the next lemma once it returns `false`.
pub fn each_lemma_size(mut compare: impl FnMut(&Path, &lang::CheckedTheory, usize, u64) -> bool) {
    let files = corpus::theories(&Path::new(env!("CARGO_MANIFEST_DIR")).join(".."));
    assert!(files.len() > 20, "theories found: {files:?}");
    for f in &files {
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
}
