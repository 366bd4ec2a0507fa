//! `quickcheck`: tests a lemma of a checked theory and says whether it is false, with the
//! smallest counterexample found. It never prints: a `Report` is a function of the theory,
//! the options and the seed.
//!
//! Data flow: `lang` lowers the lemma at each type instance (finite types `a1 ... an`, or
//! `default_type`) into a `Conjecture`; `program` orders its steps (generate, compute, check);
//! a tester (`exhaustive` over `space`s, `random` with shrinking) walks that schedule with a
//! `runner` that evaluates parts in the JIT, falling back to the interpreter; every
//! counterexample is re-checked by the interpreter (`case`) before it becomes an `outcome`.
//! Without a named tester the `portfolio` runs the testers side by side.

pub mod case;
pub mod exhaustive;
pub mod options;
pub mod outcome;
mod portfolio;
pub mod program;
pub mod random;
pub mod runner;
pub mod search;
pub mod space;
pub mod types;

pub use options::{Expect, Options, Overrides, Tester};
pub use outcome::{Counterexample, Evaluated, OutcomeKind, Report, ShrinkStats};
pub use runner::Engine;

use lang::core::conjecture::{needs_numeric, Conjecture, TypeChoice};
use lang::CheckedTheory;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use search::{Budget, End};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The type instances a lemma is tested at: finite types of 1 to `finite_type_size` elements
/// for every type variable (those whose sort asks for arithmetic get `default_type`), or
/// `default_type` everywhere when `finite_types` is false.
pub fn instances(theory: &CheckedTheory, index: usize, opts: &Options) -> Vec<Vec<TypeChoice>> {
    let lemma = theory.lemma(index);
    if lemma.params.is_empty() {
        return vec![Vec::new()];
    }
    let named = TypeChoice::Named(opts.default_type.clone());
    if !opts.finite_types {
        return vec![vec![named; lemma.params.len()]];
    }
    let mut out: Vec<Vec<TypeChoice>> = Vec::new();
    for k in 1..=opts.finite_type_size.max(1) {
        let inst: Vec<TypeChoice> = (0..lemma.params.len())
            .map(|i| if needs_numeric(lemma, i) { named.clone() } else { TypeChoice::Finite(k) })
            .collect();
        if !out.contains(&inst) {
            out.push(inst);
        }
    }
    out
}

/// A seed when none was given: different on every run, printed with the result.
pub fn fresh_seed() -> u64 {
    let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let mut x = t.as_nanos() as u64 ^ (u64::from(std::process::id()) << 32);
    // SplitMix64 finalizer, so close clock readings give unrelated seeds.
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Tests lemma item `index` of `theory` with `opts`, running cases on `engine`
/// (`Engine::Tiered` for the front ends; a `bool` says compiled or interpreted). Setting
/// `cancel` stops every tester of the run between batches of cases.
pub fn check_lemma(
    theory: &CheckedTheory,
    index: usize,
    opts: &Options,
    engine: impl Into<Engine>,
    cancel: &AtomicBool,
) -> Report {
    let engine = engine.into();
    let conjectures: Vec<Conjecture> =
        instances(theory, index, opts).iter().map(|inst| theory.lower_conjecture(index, inst)).collect();
    let seed = opts.seed.unwrap_or_else(fresh_seed);
    match opts.tester {
        Some(t) => run_tester(t, &conjectures, opts, seed, cancel, engine),
        None => portfolio::run(&conjectures, opts, seed, engine, cancel),
    }
}

/// The pairs (instance, size) of `instances` instances and sizes `1..=max_size` in the
/// order of `instance + size`, then instance: produced one at a time, since a large `size`
/// must cost time only as far as the search gets, not memory up front.
fn schedule(instances: usize, max_size: u64) -> impl Iterator<Item = (usize, u64)> {
    let last_diagonal = instances as u64 + max_size;
    (1..=last_diagonal).flat_map(move |d| {
        (0..instances).filter_map(move |i| {
            let k = d.checked_sub(i as u64)?;
            (1..=max_size).contains(&k).then_some((i, k))
        })
    })
}

/// One instance's tester, kept across sizes (its JIT is compiled once).
enum InstanceTester<'c> {
    Exhaustive(exhaustive::Exhaustive<'c>),
    Random(random::Random<'c>),
}

/// Runs one tester over every instance. As in Isabelle, instance `i` (finite types of `i`
/// elements) and size `k` are tried in the order of `i + k`, and size `k` means generator
/// size `k - 1`.
pub fn run_tester(
    tester: Tester,
    conjectures: &[Conjecture],
    opts: &Options,
    seed: u64,
    cancel: &AtomicBool,
    engine: Engine,
) -> Report {
    let t0 = Instant::now();
    let budget = Budget { deadline: search::deadline_after(t0, opts.timeout.max(Duration::from_millis(1))), cancel };
    let mut report = Report::new(tester, OutcomeKind::NoCounterexample);
    if tester == Tester::Random {
        report.seed = Some(seed);
    }
    if matches!(tester, Tester::SmartExhaustive | Tester::Narrowing) {
        report.outcome = OutcomeKind::Error;
        report.message = Some(format!("the `{}` tester is not available yet", tester.name()));
        return report;
    }
    if let Some(why) = conjectures.iter().find_map(|c| c.not_executable.clone()) {
        report.outcome = OutcomeKind::NotExecutable;
        report.message = Some(why);
        return report;
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut testers: Vec<InstanceTester> = conjectures
        .iter()
        .map(|c| match tester {
            Tester::Exhaustive => {
                InstanceTester::Exhaustive(exhaustive::Exhaustive::new(c, opts.genuine_only, &budget, engine))
            }
            _ => InstanceTester::Random(random::Random::new(c, opts.genuine_only, &budget, engine)),
        })
        .collect();
    let order = schedule(testers.len(), opts.size.max(1));
    if opts.verbose && engine != Engine::Interpreter {
        // Functions too large to compile cheaply run in the interpreter, which is slower:
        // say so, as a timeout may follow from it.
        for (c, inst) in conjectures.iter().zip(instance_names(conjectures)) {
            for f in codegen::too_large_to_compile(&c.program) {
                report.log.push(format!("{inst}`{}` runs in the interpreter: {}", f.name, f.why));
            }
        }
    }
    let mut too_big = vec![false; testers.len()];
    // The largest size each instance has covered completely.
    let mut covered = vec![0u64; testers.len()];
    let mut end = None;
    for (i, k) in order {
        let res = match &mut testers[i] {
            InstanceTester::Exhaustive(t) if t.exhausted => continue,
            _ if too_big[i] => continue,
            InstanceTester::Exhaustive(t) => t.run_size(k - 1, budget),
            InstanceTester::Random(t) => t.run_size(k - 1, opts.iterations, &mut rng, budget),
        };
        report.tests += res.tests;
        report.passed_premises += res.passed;
        report.too_large += res.too_large;
        if opts.verbose {
            let inst: Vec<String> = conjectures[i].instance.iter().map(|(a, t)| format!("{a} = {t}")).collect();
            let inst = if inst.is_empty() { String::new() } else { format!(" ({})", inst.join(", ")) };
            let plural = if res.tests == 1 { "" } else { "s" };
            let skipped =
                if res.too_large > 0 { format!(", {} too large to build", res.too_large) } else { String::new() };
            report.log.push(format!(
                "size {k}{inst}: {} test{plural}, {} passed the premises{skipped}",
                res.tests, res.passed
            ));
        }
        if res.shrink.is_some() {
            report.shrink = res.shrink;
        }
        match res.end {
            None => {
                report.size = report.size.max(k);
                covered[i] = k;
            }
            Some(End::TooBig) => too_big[i] = true,
            Some(e) => {
                report.size = k;
                end = Some(e);
                break;
            }
        }
    }
    for (i, t) in testers.iter().enumerate() {
        if matches!(t, InstanceTester::Exhaustive(e) if e.exhausted) {
            covered[i] = opts.size.max(1);
        }
    }
    // A time limit met after every instance covered some sizes completely still answers
    // for those sizes: the report names the bound that was searched.
    let bound = covered.iter().copied().min().unwrap_or(0);
    let (outcome, message, cx) = match end {
        None => (OutcomeKind::NoCounterexample, None, None),
        Some(End::Stopped(runner::Stop::Timeout)) if bound > 0 => {
            report.size = bound;
            (
                OutcomeKind::NoCounterexample,
                Some(format!(
                    "none up to size {bound}; size {} was cut short by the time limit ({} s)",
                    bound + 1,
                    opts.timeout.as_secs_f64()
                )),
                None,
            )
        }
        Some(End::Genuine(cx)) => (OutcomeKind::Counterexample, None, Some(cx)),
        Some(End::Spurious(cx)) => (OutcomeKind::PotentiallySpurious, None, Some(cx)),
        Some(End::Stopped(runner::Stop::Timeout)) => {
            (OutcomeKind::Timeout, Some(format!("no answer within {} s", opts.timeout.as_secs_f64())), None)
        }
        Some(End::Stopped(runner::Stop::NotExecutable(why))) => (OutcomeKind::NotExecutable, Some(why), None),
        Some(End::Stopped(runner::Stop::Diverged(why))) => {
            (OutcomeKind::Error, Some(format!("a test case did not finish: {why}")), None)
        }
        Some(End::Disagreement(why)) => (OutcomeKind::Error, Some(why), None),
        Some(End::Cancelled) => (OutcomeKind::Timeout, Some("cancelled: another tester answered first".into()), None),
        Some(End::TooBig) => (OutcomeKind::NoCounterexample, None, None),
    };
    report.outcome = outcome;
    report.message = message;
    report.counterexample = cx;
    if report.outcome == OutcomeKind::NoCounterexample && report.message.is_none() {
        let exhausted = testers.iter().all(|t| matches!(t, InstanceTester::Exhaustive(e) if e.exhausted));
        report.exhausted = exhausted;
        report.message = Some(if exhausted {
            "the statement holds for these types: every value was tested".into()
        } else if too_big.iter().any(|b| *b) {
            // Every instance covered at least `bound`; the ones cut short by a space too big
            // to enumerate covered no more.
            report.size = bound;
            format!("none up to size {bound} (larger spaces are too big to enumerate)")
        } else if tester == Tester::Random {
            format!("none in {} random tests up to size {}", report.tests, opts.size)
        } else {
            format!("none up to size {}", report.size)
        });
    }
    if report.too_large > 0 {
        // Said, so that "none in n tests" is not read as covering cases that never ran.
        let n = report.too_large;
        let skipped = format!(
            "{n} random case{} too large to build {} skipped",
            if n == 1 { "" } else { "s" },
            if n == 1 { "was" } else { "were" }
        );
        report.message = Some(match report.message.take() {
            Some(m) => format!("{m}; {skipped}"),
            None => skipped,
        });
    }
    report.seconds = t0.elapsed().as_secs_f64();
    report
}

/// For verbose lines about one instance: `"(a = a2) "`, or nothing for a lemma with one.
fn instance_names(conjectures: &[Conjecture]) -> Vec<String> {
    conjectures
        .iter()
        .map(|c| {
            let inst: Vec<String> = c.instance.iter().map(|(a, t)| format!("{a} = {t}")).collect();
            if inst.is_empty() || conjectures.len() == 1 {
                String::new()
            } else {
                format!("({}) ", inst.join(", "))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::schedule;

    /// The lazy schedule visits exactly what sorting every pair by `instance + size` (a
    /// stable sort, so instance order breaks ties) visits.
    #[test]
    fn schedule_is_diagonal_order() {
        for instances in 0..5 {
            for max_size in 1..7u64 {
                let mut eager: Vec<(usize, u64)> =
                    (0..instances).flat_map(|i| (1..=max_size).map(move |k| (i, k))).collect();
                eager.sort_by_key(|(i, k)| *i as u64 + k);
                assert_eq!(schedule(instances, max_size).collect::<Vec<_>>(), eager);
            }
        }
    }

    /// The largest size costs nothing until it is reached.
    #[test]
    fn schedule_is_lazy() {
        let first: Vec<_> = schedule(64, u64::MAX / 2).take(3).collect();
        assert_eq!(first, vec![(0, 1), (0, 2), (1, 1)]);
    }
}
