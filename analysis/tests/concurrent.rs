//! Analyses share nothing: two theories checked on two threads at once each produce their
//! own events, in file order. Events and results can be sent between threads.

use analysis::{analyse, Analysis, Cancel, Ended, Event, FsLoader, LoadError, Options, QuickcheckRun};
use std::path::Path;
use std::sync::{mpsc, Arc, Barrier};

#[allow(dead_code)]
fn assert_send<T: Send>() {}
#[allow(dead_code)]
fn assert_send_sync<T: Send + Sync>() {}

/// Checked at compile time: what an analysis produces can go to another thread, and the
/// token that cancels it is shared between threads.
const _: fn() = || {
    assert_send::<Event>();
    assert_send::<QuickcheckRun>();
    assert_send::<Analysis>();
    assert_send::<Ended>();
    assert_send::<LoadError>();
    assert_send_sync::<Cancel>();
    assert_send_sync::<Options>();
    assert_send_sync::<FsLoader>();
};

const REFUTED: &str = r#"theory Refuted imports Main begin
lemma rev_id: "rev xs = xs"
  quickcheck[exhaustive, expect = counterexample]
  oops
end
"#;

const VALUES: &str = r#"theory Values imports Main begin
fun double :: "nat ⇒ nat" where "double n = n + n"
value "double 21"
value "rev [1, 2, 3 :: nat]"
end
"#;

/// Runs one analysis on its own thread, sending each event to the returned channel as it
/// comes. At its first event it waits for the other analysis to reach its own, so the two
/// are certainly under way at once.
fn spawn(
    name: &'static str,
    text: &'static str,
    both: Arc<Barrier>,
) -> (std::thread::JoinHandle<Ended>, mpsc::Receiver<Event>) {
    let (tx, rx) = mpsc::channel();
    let handle = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let mut first = true;
            let mut sink = |e: Event| {
                if std::mem::take(&mut first) {
                    both.wait();
                }
                tx.send(e).expect("the test keeps the receiver");
            };
            analyse(Path::new(name), text, &FsLoader::default(), &Options::default(), &Cancel::new(), &mut sink)
        })
        .expect("a thread");
    (handle, rx)
}

#[test]
fn two_theories_on_two_threads_at_once() {
    let both = Arc::new(Barrier::new(2));
    let (refuted, refuted_events) = spawn("Refuted.thy", REFUTED, both.clone());
    let (values, values_events) = spawn("Values.thy", VALUES, both);
    assert_eq!(refuted.join().expect("no panic"), Ended::Completed);
    assert_eq!(values.join().expect("no panic"), Ended::Completed);

    let events: Vec<Event> = refuted_events.into_iter().collect();
    assert!(
        matches!(events.as_slice(), [Event::Lemma { .. }, Event::QuickcheckStarted { .. }, Event::Quickcheck(_)]),
        "{events:#?}"
    );
    let Event::Lemma { span, name, statement, statement_span, quickchecks } = &events[0] else { unreachable!() };
    assert_eq!((name.as_deref(), statement.as_str()), (Some("rev_id"), "rev xs = xs"));
    assert_eq!(&REFUTED[span.start as usize..span.start as usize + 5], "lemma");
    assert_eq!(&REFUTED[statement_span.start as usize..statement_span.end as usize], "rev xs = xs");
    assert_eq!(quickchecks.len(), 1);
    let Event::QuickcheckStarted { span: started } = &events[1] else { unreachable!() };
    let Event::Quickcheck(run) = &events[2] else { unreachable!() };
    assert_eq!(*started, run.span);
    assert_eq!(run.span, quickchecks[0].span);
    assert_eq!(run.report.outcome, quickcheck::OutcomeKind::Counterexample);
    assert_eq!(run.expect_met, Some(true));
    let cx = run.report.counterexample.as_ref().expect("a counterexample");
    assert_eq!(cx.assignment.len(), 1);
    assert_eq!(cx.assignment[0].0, "xs");

    let events: Vec<Event> = values_events.into_iter().collect();
    let values: Vec<(&str, &str, &str)> = events
        .iter()
        .map(|e| match e {
            Event::Value { term, result, ty, .. } => (term.as_str(), result.as_str(), ty.as_str()),
            other => panic!("only values expected: {other:?}"),
        })
        .collect();
    assert_eq!(values, [("double 21", "42", "nat"), ("rev [1, 2, 3 :: nat]", "[3, 2, 1]", "nat list")]);
}

#[test]
fn an_analysis_can_be_collected() {
    let result = analysis::analyse_all(
        Path::new("Values.thy"),
        VALUES,
        &FsLoader::default(),
        &Options { skip_tests: true, ..Options::default() },
        &Cancel::new(),
    );
    assert_eq!(result.ended, Ended::Completed);
    assert_eq!(result.events.len(), 2);
    let Event::Value { span, term_span, .. } = &result.events[0] else { panic!("{:?}", result.events) };
    assert!(VALUES[span.start as usize..].starts_with("value \"double 21\""));
    assert_eq!(&VALUES[term_span.start as usize..term_span.end as usize], "double 21");
}
