//! Narrowing evaluates no more partial cases than Lazy SmallCheck on the peers' workloads
//! (b) and (c) at depth 5, over the same space (the counts are deterministic; the times
//! are the bench's, `benches/narrowing.rs`).

#[path = "support/workloads.rs"]
mod workloads;

use narrowing::NarrowingTester;
use workloads::{conjecture, run_size, DEPTH_5, LSC_B, LSC_C};

#[test]
fn no_more_partial_cases_than_lazy_smallcheck() {
    for (lemma, lsc) in [("sorted_insort", LSC_B.0), ("ordered_ins", LSC_C.0)] {
        let r = run_size(&NarrowingTester, &conjecture(lemma), DEPTH_5);
        eprintln!("{lemma}: {} partial cases, {:?} refinements (Lazy SmallCheck: {lsc})", r.tests, r.refinements);
        assert!(r.tests <= lsc, "{lemma}: {} partial cases, Lazy SmallCheck needs {lsc}", r.tests);
    }
}
