//! Cancelling a run from outside: `check_lemma` runs on this thread, another cancels it
//! (`Cancel`), and the run returns within 100 ms of the cancel with a report that says it
//! was cancelled, whichever tester runs (and the portfolio).

use quickcheck::{check_lemma, Cancel, Engine, Options, OutcomeKind, Registry, TesterName};
use std::time::{Duration, Instant};

/// A lemma that holds, over a space that grows without end: no tester answers on its own.
const THEORY: &str = "theory T imports Main begin\nlemma \"rev (rev xs) = (xs :: nat list)\" oops\nend";

/// How long the run goes before it is cancelled.
const RUN_FOR: Duration = Duration::from_millis(400);

/// How soon after the cancel the run must return.
const PROMPTLY: Duration = Duration::from_millis(100);

/// The timed tests run one at a time: on a small machine, runs side by side would measure
/// each other.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Runs the lemma with `tester` (`None`: the portfolio) at the largest size and a time
/// limit of an hour, cancels it after `RUN_FOR`, and checks how it ended.
fn cancelled(tester: Option<&'static str>) {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let th = lang::check_theory(THEORY);
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    let opts = Options {
        testers: tester.map(TesterName::new).into_iter().collect(),
        size: 10_000,
        timeout: Duration::from_secs(3600),
        seed: Some(1),
        ..Options::default()
    };
    let registry = Registry::standard();
    let cancel = Cancel::new();
    let canceller = {
        let cancel = cancel.clone();
        std::thread::spawn(move || {
            std::thread::sleep(RUN_FOR);
            cancel.cancel();
            Instant::now()
        })
    };
    let report = check_lemma(&th, 0, &opts, Engine::Tiered, &registry, &cancel);
    let returned = Instant::now();
    let cancelled_at = canceller.join().expect("the cancelling thread");
    let late = returned.saturating_duration_since(cancelled_at);
    eprintln!("{tester:?}: returned {late:?} after the cancel, {} tests", report.tests);
    assert!(cancel.is_cancelled() && returned >= cancelled_at, "{tester:?} returned before the cancel: {report:?}");
    assert!(late < PROMPTLY, "{tester:?}: returned {late:?} after the cancel");
    assert!(report.cancelled, "{tester:?}: {report:?}");
    assert_eq!(report.outcome, OutcomeKind::Timeout);
    assert_eq!(report.message.as_deref(), Some("cancelled before an answer"));
    assert!(report.tests > 0, "{tester:?} had started: {report:?}");
}

#[test]
fn a_long_exhaustive_run_is_cancelled_promptly() {
    cancelled(Some("exhaustive"));
}

#[test]
fn a_long_random_run_is_cancelled_promptly() {
    cancelled(Some("random"));
}

#[test]
fn a_long_portfolio_run_is_cancelled_promptly() {
    cancelled(None);
}

/// A run cancelled before it starts tests nothing.
#[test]
fn a_run_cancelled_before_it_starts_tests_nothing() {
    let th = lang::check_theory(THEORY);
    let cancel = Cancel::new();
    cancel.cancel();
    let opts = Options { testers: vec![TesterName::new("exhaustive")], ..Options::default() };
    let report = check_lemma(&th, 0, &opts, Engine::Tiered, &Registry::standard(), &cancel);
    assert!(report.cancelled && report.tests == 0, "{report:?}");
}
