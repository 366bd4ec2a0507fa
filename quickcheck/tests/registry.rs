//! The tester registry: the standard rows and what they say about themselves, and a toy
//! tester (`support/smallest.rs`) added through the registry alone, accepted by `lang` in
//! `quickcheck[...]` and run by `check_lemma`, which names it in the report.

#[path = "support/smallest.rs"]
mod smallest;

use quickcheck::{check_lemma, Cancel, Coverage, Engine, Options, OutcomeKind, Registry, Report, TesterName};
use smallest::Smallest;

/// Theories here import nothing but `Main`.
struct NoSiblings;

impl lang::TheoryLoader for NoSiblings {
    fn load(&self, path: &str) -> Result<String, String> {
        Err(format!("no theory `{path}` here"))
    }
}

/// Checks `body` in a theory importing `Main`, with the tester names of `registry`.
fn theory(registry: &Registry, body: &str) -> lang::CheckedTheory {
    lang::check_theory_with(&format!("theory T imports Main begin\n{body}\nend"), &NoSiblings, &registry.names())
}

/// The options of the `quickcheck` command under lemma item `item` of `th`.
fn command_options(th: &lang::CheckedTheory, item: usize) -> Options {
    let lang::ItemKind::Lemma { quickchecks, .. } = &th.items[item].kind else { panic!("not a lemma") };
    let mut opts = Options::default();
    opts.apply(&quickchecks[0].options, false);
    opts
}

fn run(registry: &Registry, th: &lang::CheckedTheory, index: usize, opts: &Options) -> Report {
    check_lemma(th, index, opts, Engine::Tiered, registry, &Cancel::new())
}

/// The standard registry offers Isabelle's testers (those `lang` accepts by default), in
/// Isabelle's order; the portfolio starts with the tester whose "none" covers every case.
#[test]
fn the_standard_registry() {
    let registry = Registry::standard();
    let isabelle = lang::types::options::ISABELLE_TESTERS;
    assert_eq!(registry.names()[..isabelle.len()], *isabelle);
    let portfolio: Vec<&str> = registry.portfolio().iter().map(|t| t.name()).collect();
    assert_eq!(portfolio, ["exhaustive", "smart_exhaustive", "smt", "random"]);
    assert_eq!(registry.default_name(), "exhaustive");
    assert_eq!(registry.get("random").map(|t| t.coverage()), Some(Coverage::Sampled));
    assert_eq!(registry.get("random").map(|t| t.reads()), Some(&["iterations"][..]));
    assert!(registry.get("smallest").is_none());
    assert!(registry.testers().all(|t| !t.about().is_empty() && !t.about().contains('\n')));
}

/// A tester not built in this crate says so when named (`narrowing` lives in a crate above,
/// whose registry replaces the row); `smart_exhaustive` runs.
#[test]
fn testers_not_built_here_say_so() {
    let registry = Registry::standard();
    let th =
        theory(&registry, "lemma \"rev xs = xs\"\n  quickcheck[smart_exhaustive]\n  quickcheck[narrowing]\n  oops");
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    let lang::ItemKind::Lemma { index, quickchecks, .. } = &th.items[0].kind else { panic!("not a lemma") };
    let report = |k: usize| {
        let mut opts = Options::default();
        opts.apply(&quickchecks[k].options, false);
        run(&registry, &th, *index, &opts)
    };
    let smart = report(0);
    assert_eq!((smart.tester.name(), smart.outcome), ("smart_exhaustive", OutcomeKind::Counterexample));
    let narrowing = report(1);
    assert_eq!((narrowing.tester.name(), narrowing.outcome), ("narrowing", OutcomeKind::Error));
    assert_eq!(narrowing.message.as_deref(), Some("the `narrowing` tester is not available yet"));
}

/// `with` adds a row, or replaces the row of the same name in place.
#[test]
fn with_adds_or_replaces_a_row() {
    let registry = Registry::standard().with(Smallest);
    assert_eq!(registry.names(), ["random", "exhaustive", "smart_exhaustive", "narrowing", "smt", "smallest"]);
    let again = registry.with(Smallest);
    assert_eq!(again.names().len(), 6);
    // Not in the portfolio: the default runs stay as they were.
    assert_eq!(again.portfolio().len(), 4);
}

/// The toy tester, added through the registry alone: `lang` accepts its name (as `tester =`
/// and bare), still refuses an unknown one, and `check_lemma` runs it, finding the
/// counterexample at the smallest values and naming the tester in the report.
#[test]
fn a_tester_added_through_the_registry_runs() {
    let registry = Registry::standard().with(Smallest);
    let th = theory(
        &registry,
        "lemma \"n + m > (0 :: nat)\"\n  quickcheck[tester = smallest]\n  oops\n\
         lemma \"n = (0 :: nat)\"\n  quickcheck[smallest]\n  oops",
    );
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    let opts = command_options(&th, 0);
    assert_eq!(opts.testers, [TesterName::new("smallest")]);
    let r = run(&registry, &th, 0, &opts);
    assert_eq!((r.tester.name(), r.outcome), ("smallest", OutcomeKind::Counterexample), "{r:?}");
    let cx = r.counterexample.expect("a counterexample");
    assert_eq!(cx.assignment, [("n".to_owned(), "0".to_owned()), ("m".to_owned(), "0".to_owned())]);
    assert_eq!(r.tests, 1);
    // False at 1 only: the smallest values pass, and nothing else is tried.
    let opts = command_options(&th, 1);
    let r = run(&registry, &th, 1, &opts);
    assert_eq!((r.tester.name(), r.outcome, r.tests), ("smallest", OutcomeKind::NoCounterexample, 1), "{r:?}");
    let exhaustive = Options { testers: vec![TesterName::new("exhaustive")], ..opts.clone() };
    assert_eq!(run(&registry, &th, 1, &exhaustive).outcome, OutcomeKind::Counterexample);
    // Both named, both run (Isabelle's `quickcheck[smallest, exhaustive]`): the
    // counterexample of one stands over the other's "none".
    let both = Options { testers: vec![TesterName::new("smallest"), TesterName::new("exhaustive")], ..opts };
    let r = run(&registry, &th, 1, &both);
    assert_eq!((r.tester.name(), r.outcome), ("exhaustive", OutcomeKind::Counterexample), "{r:?}");

    // Without the row, the same names are errors at their spans, listing the testers.
    let standard = Registry::standard();
    let th =
        theory(&standard, "lemma \"n = (0 :: nat)\"\n  quickcheck[tester = smallest]\n  quickcheck[smallest]\n  oops");
    let messages: Vec<&str> = th.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "`smallest` is not a tester (random, exhaustive, smart_exhaustive, narrowing or smt)",
            "unknown quickcheck option `smallest`"
        ]
    );
    // With it, an unknown name is still an error, and the list names it.
    let th = theory(&registry, "lemma \"n = (0 :: nat)\"\n  quickcheck[tester = smalest]\n  oops");
    let messages: Vec<&str> = th.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        ["`smalest` is not a tester (random, exhaustive, smart_exhaustive, narrowing, smt or smallest)"]
    );
}

/// A name no row has (only a caller that bypassed `lang` can pass one) is the run's error.
#[test]
fn an_unknown_tester_is_an_error_report() {
    let registry = Registry::standard();
    let th = theory(&registry, "lemma \"n = (0 :: nat)\" oops");
    let opts = Options { testers: vec![TesterName::from("smallest".to_owned())], ..Options::default() };
    let r = run(&registry, &th, 0, &opts);
    assert_eq!((r.tester.name(), r.outcome), ("smallest", OutcomeKind::Error));
    assert_eq!(
        r.message.as_deref(),
        Some("unknown tester `smallest` (the testers are random, exhaustive, smart_exhaustive, narrowing, smt)")
    );
}

/// The portfolio runs `smart_exhaustive` only on lemmas with premises, from which it
/// generates; named, it runs on any.
#[test]
fn smart_exhaustive_suits_lemmas_with_premises() {
    let registry = Registry::standard();
    let th = theory(
        &registry,
        "lemma \"rev (xs :: nat list) = xs\"\n  oops\nlemma \"(xs :: nat list) = [] ⟹ rev xs = xs\"\n  oops",
    );
    let smart = registry.get("smart_exhaustive").expect("a row");
    let suits: Vec<bool> = [0, 1].iter().map(|i| smart.suits(&th.lower_conjecture(*i, &[]))).collect();
    assert_eq!(suits, [false, true]);
}

/// Once a tester has covered every case up to the size ("none up to size 5"), the others
/// get a grace period and are then cancelled: a true lemma does not wait for the slowest
/// tester's time limit. Here the smart generators' size 5 (every AVL tree of derivation
/// depth 5, its elements and stored heights from size 5) takes far longer than the time
/// limit allows, while the exhaustive tester covers its size 5 in about 0.1 s.
#[test]
fn the_portfolio_does_not_wait_for_the_slowest_tester_after_a_complete_answer() {
    let registry = Registry::standard();
    let th = theory(
        &registry,
        r#"datatype tree = Leaf | Node tree nat nat tree
fun ht :: "tree ⇒ nat" where "ht Leaf = 0" | "ht (Node l a h r) = h"
fun height :: "tree ⇒ nat" where
  "height Leaf = 0"
| "height (Node l a h r) = max (height l) (height r) + 1"
fun avl :: "tree ⇒ bool" where
  "avl Leaf = True"
| "avl (Node l a h r) =
    ((height l = height r ∨ height l = height r + 1 ∨ height r = height l + 1) ∧
     h = max (height l) (height r) + 1 ∧ avl l ∧ avl r)"
lemma "avl t ⟹ ht t = height t"
  oops"#,
    );
    let opts = Options { timeout: std::time::Duration::from_secs(120), ..Options::default() };
    let started = std::time::Instant::now();
    let r = run(&registry, &th, 0, &opts);
    assert_eq!((r.outcome, r.tester.name(), r.size), (OutcomeKind::NoCounterexample, "exhaustive", 5), "{r:?}");
    // Far below the time limit (the smart generators alone take it all); a bound, not a
    // measurement: the answer comes after about 0.3 s.
    assert!(started.elapsed() < std::time::Duration::from_secs(60), "{:?}", started.elapsed());
}

/// The same when the slowest is the SMT solver on a query it cannot decide (sums of three
/// cubes): its check runs in slices, cancellation looked at between them, so the
/// portfolio answers with the exhaustive tester's "none up to size 5" long before the time
/// limit, which z3 alone would have taken.
#[test]
fn the_portfolio_does_not_wait_for_a_hard_smt_query() {
    let registry = Registry::standard();
    let th = theory(&registry, "lemma \"(x::int) * x * x + y * y * y + z * z * z ≠ 33\"\n  oops");
    let opts = Options { timeout: std::time::Duration::from_secs(120), ..Options::default() };
    let started = std::time::Instant::now();
    let r = run(&registry, &th, 0, &opts);
    assert_eq!((r.outcome, r.tester.name(), r.size), (OutcomeKind::NoCounterexample, "exhaustive", 5), "{r:?}");
    // A bound, not a measurement: the answer comes after about 0.3 s.
    assert!(started.elapsed() < std::time::Duration::from_secs(60), "{:?}", started.elapsed());
}
