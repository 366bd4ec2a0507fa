//! Workloads (b) `sorted xs ⟹ sorted (insort x xs)` and (c) `ordered t ⟹ ordered (ins x t)`
//! of `shared/peers/README.md` over exactly Lazy SmallCheck's space at depth 5
//! (`benches/Workloads.thy`: elements of a six-valued type, lists of up to 5 elements,
//! trees of up to 5 levels), for the test that holds narrowing to Lazy SmallCheck's counts
//! and for the bench that times it. Shared by `#[path]`.

#![allow(dead_code)]

use lang::core::conjecture::Conjecture;
use quickcheck::testers::{Setup, SizeResult, Tester};
use quickcheck::{Budget, Engine, Options, Turn};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::{Duration, Instant};

pub const THEORY: &str = include_str!("../../benches/Workloads.thy");

/// The generator size whose space is Lazy SmallCheck's depth 5 on these types (narrowing
/// size 6: Isabelle's size minus one).
pub const DEPTH_5: u64 = 5;

/// Lazy SmallCheck 0.6's partial cases at depth 5 on this machine
/// (`shared/peers/README.md`, results table): (b) 4,695 in 4.7 ms, (c) 57,522 in 77.8 ms.
pub const LSC_B: (u64, f64) = (4_695, 0.0047);
pub const LSC_C: (u64, f64) = (57_522, 0.0778);

/// The lemma named `name` of the workloads theory, at its only instance.
pub fn conjecture(name: &str) -> Conjecture {
    let th = lang::check_theory(THEORY);
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    let index = th.lemma_named(name).unwrap_or_else(|| panic!("no lemma {name}"));
    th.lower_conjecture(index, &[])
}

/// One whole generator size of `tester`'s search on `c` (compiling included).
pub fn run_size(tester: &dyn Tester, c: &Conjecture, size: u64) -> SizeResult {
    run_sizes(tester, c, size, 1)
}

/// The same generator size of one search of `tester` on `c`, `times` times: compiled
/// once, so the later runs measure the search alone.
pub fn run_sizes(tester: &dyn Tester, c: &Conjecture, size: u64, times: u64) -> SizeResult {
    let options = Options::default();
    let budget = Budget::until(Instant::now() + Duration::from_secs(3600));
    let setup = Setup { options: &options, deadline: budget.deadline, engine: Engine::Compiled };
    let mut search = tester.search(c, &setup);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0);
    let mut r = SizeResult::default();
    for _ in 0..times {
        r = search.run_size(&mut Turn::new(size, budget, false, &mut rng));
        assert!(r.end.is_none(), "the search ended early: {:?}", r.end);
    }
    r
}
