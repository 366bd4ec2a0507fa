//! Narrowing on compiled code (`codegen::Jit::narrowing`) against narrowing on the
//! reference interpreter, on every lemma of the repository's theories (the shared examples
//! at sizes 1 to 5, the other theories at 1 to 3): where both finish, they agree on the
//! outcome, the counterexample (concrete and partial), the number of partial cases and the
//! number of refinements, since compiled code demands the hole the interpreter demands.
//! (The random terms of `codegen/tests/jit/terms.rs` check the same on generated programs
//! and partial values, demand by demand.)

use quickcheck::{check_lemma, Cancel, Engine, Options, OutcomeKind, Registry, Report, TesterName};
use std::sync::Mutex;
use std::time::Duration;

#[path = "support/corpus_walk.rs"]
mod corpus_walk;

fn run(th: &lang::CheckedTheory, index: usize, engine: Engine, size: u64) -> Report {
    let opts = Options { testers: vec![TesterName::new("narrowing")], size, timeout: TIMEOUT, ..Options::default() };
    let registry = Registry::standard().with(narrowing::NarrowingTester);
    check_lemma(th, index, &opts, engine, &registry, &Cancel::new())
}

/// Each run's time limit.
const TIMEOUT: Duration = Duration::from_millis(400);

/// Outcomes whose comparison says something. A search cut short says nothing, nor one
/// that ran into its time limit, nor one in which a step was put off for the other
/// instances (the driver's time slices): a put-off step's cases count when it runs again,
/// which it does not when another step ends the run first, so the count then depends on
/// the time each engine took.
///
/// FIXME: `(∀x::int. x < n ⟶ f x = 0) ⟶ f (n - 1) = 0` at size 3 ended potentially spurious
/// in both engines within the time, but the interpreter's partial cases varied from run to
/// run on a loaded machine (35,836 to 49,660 against compiled code's 49,828): some part of
/// the quantified search's count depends on time. Not yet found; the lemma is not in the
/// fixtures.
fn finished(r: &Report) -> bool {
    matches!(r.outcome, OutcomeKind::Counterexample | OutcomeKind::NoCounterexample | OutcomeKind::PotentiallySpurious)
        && !r.message.as_ref().is_some_and(|m| m.contains("cut short"))
        && r.seconds < 0.9 * TIMEOUT.as_secs_f64()
        && !r.log.iter().any(|l| l.contains("put off"))
}

/// What must be the same whichever engine ran.
fn summary(r: &Report) -> String {
    format!(
        "{:?} at size {}, {} partial cases, {:?} refinements, {:?}",
        r.outcome,
        r.size,
        r.tests,
        r.refinements,
        r.counterexample.as_ref().map(|c| (&c.assignment, &c.partial))
    )
}

#[test]
fn compiled_narrowing_agrees_with_the_interpreter() {
    let tally = Mutex::new((0, 0, Vec::new()));
    corpus_walk::each_lemma_size(|f, th, index, size| {
        let compiled = run(th, index, Engine::Compiled, size);
        let interpreted = run(th, index, Engine::Interpreter, size);
        if !finished(&compiled) || !finished(&interpreted) {
            return false;
        }
        let mut tally = tally.lock().unwrap();
        let (compared, refuted, problems) = &mut *tally;
        *compared += 1;
        *refuted += usize::from(compiled.outcome != OutcomeKind::NoCounterexample);
        let (c, i) = (summary(&compiled), summary(&interpreted));
        if c != i {
            problems
                .push(format!("{}: lemma {index}, size {size}:\n  compiled:    {c}\n  interpreter: {i}", f.display()));
            return false;
        }
        true
    });
    let (compared, refuted, problems) = tally.into_inner().unwrap();
    eprintln!("{compared} (lemma, size) pairs compared, {refuted} refuted");
    assert!(compared > 300 && refuted > 50, "only {compared} compared, {refuted} refuted");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
