//! Cancelling: an analysis in the middle of a long quickcheck run returns soon after its
//! token is set, and reports nothing about the run it stopped.

use analysis::{analyse, Cancel, Ended, Event, FsLoader, Options};
use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How soon after the cancel the analysis must have returned.
const PROMPT: Duration = Duration::from_millis(100);

/// A lemma that holds, whose search would take far longer than the test: nat lists up to
/// size 1000, with 1000 s to go.
fn theory(tester: &str) -> String {
    format!(
        "theory Long imports Main begin
lemma \"length (xs :: nat list) ≥ 0\"
  quickcheck[{tester}size = 1000, timeout = 1000]
  oops
value \"1 :: nat\"
end
"
    )
}

fn cancel_during_the_run(tester: &str) {
    let text = theory(tester);
    let cancel = Cancel::new();
    let (tx, rx) = mpsc::channel();
    let worker = {
        let cancel = cancel.clone();
        std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(move || {
                let mut sink = |e: Event| tx.send(e).expect("the test keeps the receiver");
                let ended = analyse(
                    Path::new("Long.thy"),
                    &text,
                    &FsLoader::default(),
                    &Options::default(),
                    &cancel,
                    &mut sink,
                );
                (ended, Instant::now())
            })
            .expect("a thread")
    };
    // Wait until the run has started, and give it time to get going (compiling included).
    loop {
        match rx.recv_timeout(Duration::from_secs(60)).expect("the run starts") {
            Event::QuickcheckStarted { .. } => break,
            Event::Lemma { .. } => {}
            other => panic!("unexpected event before the run: {other:?}"),
        }
    }
    std::thread::sleep(Duration::from_millis(1500));
    assert!(!worker.is_finished(), "the run ended on its own");
    let cancelled_at = Instant::now();
    cancel.cancel();
    let (ended, returned_at) = worker.join().expect("no panic");
    let latency = returned_at.duration_since(cancelled_at);
    eprintln!("quickcheck[{tester}...]: returned {latency:?} after the cancel");
    assert_eq!(ended, Ended::Cancelled);
    assert!(latency <= PROMPT, "the analysis returned {latency:?} after the cancel");
    // Neither the stopped run nor the `value` after it is reported.
    let rest: Vec<Event> = rx.into_iter().collect();
    assert!(rest.is_empty(), "{rest:#?}");
}

/// One after the other, so that the two runs do not compete for the processor and the
/// time measured is the analysis's own.
#[test]
fn cancelling_stops_a_run_promptly() {
    // One tester.
    cancel_during_the_run("exhaustive, ");
    // The portfolio: a tester on each of its threads.
    cancel_during_the_run("");
}

#[test]
fn a_cancelled_token_checks_nothing() {
    let cancel = Cancel::new();
    cancel.cancel();
    let mut events = Vec::new();
    let ended =
        analyse(Path::new("Long.thy"), &theory(""), &FsLoader::default(), &Options::default(), &cancel, &mut |e| {
            events.push(e)
        });
    assert_eq!(ended, Ended::Cancelled);
    assert!(events.is_empty(), "{events:#?}");
}
