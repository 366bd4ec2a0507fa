//! Narrowing evaluates no more partial cases than Lazy SmallCheck on the peers' workloads
//! (b) and (c) at depth 5, over the same space (the counts are deterministic; the times
//! are the bench's, `benches/narrowing.rs`); and a search with an existential inside keeps
//! only its path in memory.

#[path = "support/workloads.rs"]
mod workloads;

use narrowing::NarrowingTester;
use workloads::{conjecture, run_size, DEPTH_5, LSC_B_CASES, LSC_C_CASES};

#[test]
fn no_more_partial_cases_than_lazy_smallcheck() {
    for (lemma, lsc) in [("sorted_insort", LSC_B_CASES), ("ordered_ins", LSC_C_CASES)] {
        let r = run_size(&NarrowingTester, &conjecture(lemma), DEPTH_5);
        eprintln!("{lemma}: {} partial cases, {:?} refinements (Lazy SmallCheck: {lsc})", r.tests, r.refinements);
        assert!(r.tests <= lsc, "{lemma}: {} partial cases, Lazy SmallCheck needs {lsc}", r.tests);
    }
}

/// A statement with an existential inside is searched with memory for the path, not the
/// tree: thousands of partial cases, a few dozen slots alive at once.
#[test]
fn existential_search_memory_is_the_depth_of_its_tree() {
    let r = run_size(&NarrowingTester, &conjecture("append_witness"), DEPTH_5);
    let peak = r.peak_slots.expect("narrowing counts its slots");
    eprintln!("append_witness: {} partial cases, {:?} refinements, at most {peak} slots", r.tests, r.refinements);
    assert!(r.tests > 5_000 && peak < 64, "{} partial cases, {peak} slots at once", r.tests);
}
