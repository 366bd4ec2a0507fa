//! Narrowing against the exhaustive tester on every lemma of the repository's theories:
//! at size `s` narrowing decides every assignment the exhaustive tester enumerates at size
//! `s + 1` (Isabelle's narrowing counts depth from 0), so where both finish they must agree
//! on the outcome and on the size of the first counterexample (the shared examples at
//! sizes 1 to 5, the other theories at 1 to 3). (That narrowing refutes no
//! lemma a theory marks `expect = no_counterexample` is the fixture harness's soundness
//! trial, which runs every built tester over every theory.)

use quickcheck::{check_lemma, Cancel, Options, OutcomeKind, Registry, Report, TesterName};
use std::sync::Mutex;
use std::time::Duration;

#[path = "support/corpus_walk.rs"]
mod corpus_walk;

fn registry() -> Registry {
    Registry::standard().with(narrowing::NarrowingTester)
}

fn run(th: &lang::CheckedTheory, index: usize, tester: &'static str, size: u64) -> Report {
    let opts = Options {
        testers: vec![TesterName::new(tester)],
        size,
        timeout: Duration::from_millis(300),
        ..Options::default()
    };
    check_lemma(th, index, &opts, false, &registry(), &Cancel::new())
}

/// Outcomes whose comparison says something (a search cut short says nothing).
fn finished(r: &Report) -> bool {
    matches!(r.outcome, OutcomeKind::Counterexample | OutcomeKind::NoCounterexample | OutcomeKind::PotentiallySpurious)
        && !r.message.as_ref().is_some_and(|m| m.contains("too big") || m.contains("cut short"))
}

#[test]
fn narrowing_agrees_with_exhaustive_one_size_up() {
    let tally = Mutex::new((0, 0, Vec::new()));
    corpus_walk::each_lemma_size(|f, th, index, size| {
        let n = run(th, index, "narrowing", size);
        let e = run(th, index, "exhaustive", size + 1);
        if !finished(&n) || !finished(&e) {
            return false;
        }
        let mut tally = tally.lock().unwrap();
        let (compared, refuted, problems) = &mut *tally;
        *compared += 1;
        let found = |r: &Report| r.outcome != OutcomeKind::NoCounterexample;
        // The first counterexample's size: exhaustive's size 1 is inside its size 2.
        let agree = n.outcome == e.outcome && (!found(&n) || n.size == e.size.saturating_sub(1).max(1));
        if found(&n) {
            *refuted += 1;
        }
        if !agree {
            problems.push(format!(
                "{}: lemma {index}, size {size}:\n  narrowing:  {:?} at size {} {:?}\n  exhaustive: {:?} at size {} {:?}",
                f.display(),
                n.outcome,
                n.size,
                n.counterexample.map(|c| c.assignment),
                e.outcome,
                e.size,
                e.counterexample.map(|c| c.assignment)
            ));
        }
        agree
    });
    let (compared, refuted, problems) = tally.into_inner().unwrap();
    eprintln!("{compared} (lemma, size) pairs compared, {refuted} refuted");
    assert!(compared > 300 && refuted > 50, "only {compared} compared, {refuted} refuted");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
