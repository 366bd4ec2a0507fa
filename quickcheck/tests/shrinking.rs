//! Shrinking, measured: over 100 seeds the random tester's counterexample to `rev xs = xs`
//! has exactly two elements, and to `remdups (xs @ ys) = remdups xs @ remdups ys` at most
//! two in total, at finite types and at `nat`. The random tester is run at size 20 only
//! (lists of up to 20 elements), so the counterexamples it first finds are long. Prints the
//! mean size before and after shrinking and the time shrinking took (`cargo test -p
//! quickcheck --test shrinking -- --nocapture`).

use lang::core::conjecture::TypeChoice;
use quickcheck::testers::random::Random;
use quickcheck::{Budget, End, Engine, Options, Setup, Turn};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::{Duration, Instant};

const THEORY: &str = r#"theory S imports Main begin
lemma rev_id: "rev xs = xs"
  oops
lemma remdups_app: "remdups (xs @ ys) = remdups xs @ remdups ys"
  oops
end"#;

const SEEDS: u64 = 100;

/// Runs lemma `index` with the random tester for every seed and returns the shrunk sizes,
/// checking each report along the way.
fn shrunk_sizes(index: usize, finite_types: bool) -> Vec<u64> {
    let th = lang::check_theory(THEORY);
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    let choice = if finite_types { TypeChoice::Finite(3) } else { TypeChoice::Named("nat".into()) };
    let conj = th.lower_conjecture(index, &[choice]);
    let deadline = Instant::now() + Duration::from_secs(60);
    let budget = Budget::until(deadline);
    let mut tester = Random::new(&conj, &Setup { options: &Options::default(), deadline, engine: Engine::Compiled });
    let (mut before, mut after, mut seconds) = (0u64, 0u64, 0f64);
    let mut sizes = Vec::new();
    for seed in 0..SEEDS {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let r = tester.run_iterations(1000, &mut Turn::new(20, budget, false, &mut rng));
        assert!(matches!(r.end, Some(End::Genuine(..))), "seed {seed}: {r:?}");
        let s = r.shrink.clone().unwrap_or_else(|| panic!("seed {seed}: no shrink statistics: {r:?}"));
        before += s.size_before;
        after += s.size_after;
        seconds += s.seconds;
        sizes.push(s.size_after);
    }
    eprintln!(
        "lemma {index} (finite types: {finite_types}): mean size {:.2} before shrinking, {:.2} after; \
         shrinking took {:.3} ms per counterexample",
        before as f64 / SEEDS as f64,
        after as f64 / SEEDS as f64,
        1000.0 * seconds / SEEDS as f64
    );
    sizes
}

#[test]
fn rev_counterexamples_shrink_to_two_elements() {
    for finite in [true, false] {
        let sizes = shrunk_sizes(0, finite);
        assert!(sizes.iter().all(|s| *s == 2), "finite types {finite}: sizes {sizes:?}");
    }
}

#[test]
fn remdups_counterexamples_shrink_to_two_elements_in_total() {
    for finite in [true, false] {
        let sizes = shrunk_sizes(1, finite);
        assert!(sizes.iter().all(|s| *s <= 2), "finite types {finite}: sizes {sizes:?}");
    }
}
