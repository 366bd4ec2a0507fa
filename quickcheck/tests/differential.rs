//! The exhaustive tester run twice on every lemma of every theory in the repository and the
//! shared examples: once on compiled code (the JIT, handing cases over to the interpreter
//! where it must) and once on the reference interpreter alone. Where both finish, they must
//! give the same outcome and the same counterexample, since the search order is the same.
//! Also: no tester panics on any of these lemmas, whatever the theory, and compiled code
//! errs only where a theory's `[code]` lemma is false (compiled code runs code equations,
//! the interpreter the definitions), which the interpreter must then refute.

use quickcheck::{check_lemma, Cancel, Options, OutcomeKind, Registry, Report, TesterName};
use std::path::{Path, PathBuf};
use std::time::Duration;

#[path = "../../tests/support/theories.rs"]
mod corpus;

fn theories() -> Vec<PathBuf> {
    corpus::theories(&Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
}

fn same(a: &Report, b: &Report) -> bool {
    a.outcome == b.outcome
        && a.counterexample.as_ref().map(|c| &c.assignment) == b.counterexample.as_ref().map(|c| &c.assignment)
}

#[test]
fn jit_and_interpreter_agree_on_every_lemma() {
    let files = theories();
    assert!(files.len() > 20, "theories found: {files:?}");
    let opts = Options {
        testers: vec![TesterName::new("exhaustive")],
        size: 3,
        timeout: Duration::from_millis(500),
        ..Options::default()
    };
    let (registry, cancel) = (Registry::standard(), Cancel::new());
    let (mut compared, mut problems) = (0, Vec::new());
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let th = lang::check_theory(&text);
        let mut false_code_lemma = false;
        for item in &th.items {
            let lang::ItemKind::Lemma { index, .. } = item.kind else { continue };
            let jit = check_lemma(&th, index, &opts, true, &registry, &cancel);
            let interp = check_lemma(&th, index, &opts, false, &registry, &cancel);
            false_code_lemma |= th.lemma(index).code && interp.outcome == OutcomeKind::Counterexample;
            // An error both give (a premise whose evaluation never ends) is agreement.
            if jit.outcome == OutcomeKind::Error && interp.outcome != OutcomeKind::Error {
                let blames_code = jit.message.as_ref().is_some_and(|m| m.contains("`[code]` equation"));
                assert!(false_code_lemma && blames_code, "{}: lemma {index}: {jit:?}", f.display());
                continue;
            }
            if jit.outcome == OutcomeKind::Timeout || interp.outcome == OutcomeKind::Timeout {
                continue;
            }
            compared += 1;
            if !same(&jit, &interp) {
                problems.push(format!("{}: lemma {index}:\n  jit:    {jit:?}\n  interp: {interp:?}", f.display()));
            }
        }
    }
    eprintln!("{compared} lemmas compared");
    assert!(compared > 50, "only {compared} lemmas compared");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The smart tester on the engine `hol check` uses (tiered: the interpreter, then the code
/// compiled on another thread) and on the interpreter alone, on every lemma with premises:
/// where both finish, the same outcome, counterexample and number of tests. (The order of
/// the premises is chosen by probes that count steps, the same on both engines; a run whose
/// deadline passed while they chose tests nothing.)
#[test]
fn smart_tiered_and_interpreter_agree_on_every_lemma_with_premises() {
    let opts = Options {
        testers: vec![TesterName::new("smart_exhaustive")],
        size: 3,
        timeout: Duration::from_millis(200),
        generalize: false,
        ..Options::default()
    };
    let (registry, cancel) = (Registry::standard(), Cancel::new());
    let (mut compared, mut problems) = (0, Vec::new());
    for f in &theories() {
        let th = lang::check_theory(&std::fs::read_to_string(f).unwrap());
        for item in &th.items {
            let lang::ItemKind::Lemma { index, .. } = item.kind else { continue };
            if th.lemma(index).premises.is_empty() || th.lemma(index).code {
                continue;
            }
            let tiered = check_lemma(&th, index, &opts, quickcheck::Engine::Tiered, &registry, &cancel);
            let interp = check_lemma(&th, index, &opts, false, &registry, &cancel);
            // Only runs that finished every size compare: the interpreter is slower.
            let cut = |r: &Report| {
                matches!(r.outcome, OutcomeKind::Timeout | OutcomeKind::Error)
                    || r.message.as_ref().is_some_and(|m| m.contains("cut short"))
            };
            if cut(&tiered) || cut(&interp) {
                continue;
            }
            compared += 1;
            if !same(&tiered, &interp) || tiered.tests != interp.tests {
                problems.push(format!("{}: lemma {index}:\n  tiered: {tiered:?}\n  interp: {interp:?}", f.display()));
            }
        }
    }
    eprintln!("{compared} lemmas compared");
    assert!(compared > 50, "only {compared} lemmas compared");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
