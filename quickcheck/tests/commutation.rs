//! Many small lemmas through the whole pipeline: does `f (g xs) = g (f xs)` hold for every
//! pair of list functions of the prelude? Each is checked with both testers under tight
//! limits. Whatever the answer, a run must end in a definite outcome (never `error`), a
//! counterexample must name the variable, and the testers must agree where both are
//! certain: a lemma the random tester refutes genuinely is never one the exhaustive tester
//! has proved for every value.

use quickcheck::{check_lemma, Cancel, Engine, Options, OutcomeKind, Registry, TesterName};
use std::time::Duration;

const FUNCTIONS: [&str; 10] = [
    "rev",
    "remdups",
    "tl",
    "butlast",
    "(λys. ys @ ys)",
    "take 2",
    "drop 1",
    "(λys. x # ys)",
    "(filter (λy. y ≠ x))",
    "(map (λy. x))",
];

#[test]
fn list_functions_commute_or_not() {
    let mut text = String::from("theory Commute imports Main begin\n");
    let mut pairs = Vec::new();
    for f in FUNCTIONS {
        for g in FUNCTIONS {
            text.push_str(&format!("lemma \"{f} ({g} xs) = {g} ({f} xs)\"\n  oops\n"));
            pairs.push(format!("{f} ∘ {g}"));
        }
    }
    text.push_str("end\n");
    let th = lang::check_theory(&text);
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    let lemmas: Vec<usize> = th
        .items
        .iter()
        .filter_map(|it| match it.kind {
            lang::ItemKind::Lemma { index, .. } => Some(index),
            _ => None,
        })
        .collect();
    assert_eq!(lemmas.len(), pairs.len());
    let (registry, cancel) = (Registry::standard(), Cancel::new());
    let (mut refuted, mut problems) = (0, Vec::new());
    for (index, pair) in lemmas.iter().zip(&pairs) {
        let run = |tester: &'static str| {
            let opts = Options {
                testers: vec![TesterName::new(tester)],
                size: 4,
                timeout: Duration::from_millis(500),
                seed: Some(1),
                ..Options::default()
            };
            check_lemma(&th, *index, &opts, Engine::Tiered, &registry, &cancel)
        };
        let (ex, rnd) = (run("exhaustive"), run("random"));
        for r in [&ex, &rnd] {
            if r.outcome == OutcomeKind::Error {
                problems.push(format!("{pair}: {:?}", r));
            }
            if let Some(cx) = &r.counterexample {
                if !cx.assignment.iter().any(|(n, _)| n == "xs") {
                    problems.push(format!("{pair}: counterexample without xs: {cx:?}"));
                }
            }
        }
        if rnd.outcome == OutcomeKind::Counterexample && ex.exhausted {
            problems.push(format!("{pair}: random refutes what exhaustive enumerated completely"));
        }
        refuted += usize::from(ex.outcome == OutcomeKind::Counterexample);
    }
    eprintln!("{refuted} of {} commutations refuted by the exhaustive tester", pairs.len());
    // rev ∘ rev commutes, rev ∘ tl does not: the pool has both kinds.
    assert!(refuted > 10 && refuted < pairs.len(), "{refuted} refuted");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
