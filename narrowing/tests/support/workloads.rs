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

/// Lazy SmallCheck 0.6's partial cases at depth 5 (`shared/peers/README.md`, results
/// table): (b) 4,695, (c) 57,522.
pub const LSC_B_CASES: u64 = 4_695;
pub const LSC_C_CASES: u64 = 57_522;

/// The lemma named `name` of the workloads theory, at its only instance.
pub fn conjecture(name: &str) -> Conjecture {
    let th = lang::check_theory(THEORY);
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    let index = th.lemma_named(name).unwrap_or_else(|| panic!("no lemma {name}"));
    th.lower_conjecture(index, &[])
}

/// One whole generator size of a new search of `tester` on `c` (compiling included).
pub fn run_size(tester: &dyn Tester, c: &Conjecture, size: u64) -> SizeResult {
    let options = Options::default();
    let budget = Budget::until(Instant::now() + Duration::from_secs(3600));
    let setup = Setup { options: &options, deadline: budget.deadline, engine: Engine::Compiled };
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0);
    let r = tester.search(c, &setup).run_size(&mut Turn::new(size, budget, false, &mut rng));
    assert!(r.end.is_none(), "the search ended early: {:?}", r.end);
    r
}
