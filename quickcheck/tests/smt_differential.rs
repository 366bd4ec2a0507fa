//! `smt` in Target's loop (mode a: models of the premises, the conclusion run on each,
//! `SmtTester::ENUMERATING`) against the exhaustive tester, over the same bounded space:
//! on every quantifier-free lemma of the acceptance theories whose variables' types are
//! built from finite types (no numbers), at the same size, both give the same outcome (genuine counterexamples
//! only, since which counterexample each meets first differs). Needs an SMT solver
//! (`scripts/test` installs z3).

use lang::core::ir::{Expr, Ty};
use quickcheck::testers::smt::SmtTester;
use quickcheck::{check_lemma, instances, Cancel, Engine, Options, OutcomeKind, Registry, TesterName};
use std::path::Path;
use std::time::Duration;

struct NoSiblings;

impl lang::TheoryLoader for NoSiblings {
    fn load(&self, path: &str) -> Result<String, String> {
        Err(format!("no theory `{path}` here"))
    }
}

fn has_quantifier(e: &Expr) -> bool {
    e.count(&|e| matches!(e, Expr::Quant { .. })) > 0
}

/// Whether every instance of lemma item `index` is quantifier-free (no function its
/// program holds has a quantifier) over variables whose types are built from finite types
/// (`'a list` at `finite_2`: finitely many values up to each size; numbers are not).
fn compared(th: &lang::CheckedTheory, index: usize, opts: &Options) -> bool {
    instances(th, index, opts).iter().all(|inst| {
        let c = th.lower_conjecture(index, inst);
        c.not_executable.is_none()
            && !c.vars.iter().any(|v| c.program.type_contains(&v.ty, &|t| matches!(t, Ty::Nat | Ty::Int)))
            && !c.program.funs.iter().any(|f| has_quantifier(&f.body))
    })
}

#[test]
fn enumerating_smt_agrees_with_exhaustive_on_finite_lemmas() {
    quickcheck::smt::solver::find().expect("an SMT solver (scripts/test installs z3, or set HOL_SMT_SOLVER)");
    let registry = Registry::standard().with(SmtTester::ENUMERATING);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/acceptance");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/acceptance")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "thy"))
        .collect();
    files.sort();
    let (mut agreed, mut disagreed, mut skipped) = (0usize, Vec::new(), Vec::new());
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a theory");
        let th = lang::check_theory_with(&text, &NoSiblings, &registry.names());
        for (index, item) in th.items.iter().enumerate() {
            if !matches!(item.kind, lang::ItemKind::Lemma { .. }) {
                continue;
            }
            let mut opts = Options {
                size: 3,
                timeout: Duration::from_secs(20),
                genuine_only: true,
                seed: Some(1),
                ..Default::default()
            };
            if !compared(&th, index, &opts) {
                continue;
            }
            let mut outcome = |tester: &'static str| {
                opts.testers = vec![TesterName::new(tester)];
                check_lemma(&th, index, &opts, Engine::Tiered, &registry, &Cancel::new())
            };
            let (ex, smt) = (outcome("exhaustive"), outcome("smt_enumerating"));
            let line = text[..item.span.start as usize].lines().count() + 1;
            let at = format!("{}:{line}", file.file_name().unwrap().to_string_lossy());
            let decided = |o: OutcomeKind| matches!(o, OutcomeKind::Counterexample | OutcomeKind::NoCounterexample);
            if !decided(ex.outcome) || !decided(smt.outcome) {
                skipped.push(format!("{at}: exhaustive {:?}, smt {:?} ({:?})", ex.outcome, smt.outcome, smt.message));
            } else if ex.outcome == smt.outcome {
                agreed += 1;
            } else {
                disagreed.push(format!("{at}: exhaustive {:?}, smt {:?} ({:?})", ex.outcome, smt.outcome, smt.message));
            }
        }
    }
    assert!(disagreed.is_empty(), "{} disagree:\n{}", disagreed.len(), disagreed.join("\n"));
    eprintln!("{agreed} agree; skipped:\n{}", skipped.join("\n"));
    assert!(agreed >= 20, "only {agreed} lemmas compared; skipped:\n{}", skipped.join("\n"));
    assert!(skipped.len() * 5 <= agreed, "{} skipped:\n{}", skipped.len(), skipped.join("\n"));
}
