//! The default when no tester is named: every tester that applies runs on its own thread
//! (each compiles its own JIT: compiled code is not shared across threads), and the first
//! definite answer wins. A genuine counterexample from any tester is definite and cancels
//! the others; otherwise the exhaustive tester's answer is preferred, since "none up to size
//! n" says more than "none in n random tests".

use crate::options::{Options, Tester};
use crate::outcome::{OutcomeKind, Report};
use crate::run_tester;
use crate::runner::Engine;
use lang::core::conjecture::Conjecture;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

const TESTERS: [Tester; 2] = [Tester::Exhaustive, Tester::Random];

/// How often the portfolio passes a cancel from outside on to its testers.
const WATCH_CANCEL: std::time::Duration = std::time::Duration::from_millis(5);

pub fn run(conjectures: &[Conjecture], opts: &Options, seed: u64, engine: Engine, external: &AtomicBool) -> Report {
    let cancel = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel();
    let mut reports: Vec<Report> = Vec::new();
    std::thread::scope(|s| {
        for t in TESTERS {
            let tx = tx.clone();
            let cancel = &cancel;
            let spawned = std::thread::Builder::new().stack_size(64 << 20).spawn_scoped(s, move || {
                // A panic in one tester is that tester's error, not the portfolio's end.
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    run_tester(t, conjectures, opts, seed, cancel, engine)
                }))
                .unwrap_or_else(|_| {
                    Report::new(t, OutcomeKind::Error).with_message("internal error: the tester panicked")
                });
                let _ = tx.send(r);
            });
            if spawned.is_err() {
                // No thread: run it here instead (only a cancel from outside can stop it).
                reports.push(run_tester(t, conjectures, opts, seed, external, engine));
            }
        }
        drop(tx);
        loop {
            match rx.recv_timeout(WATCH_CANCEL) {
                Ok(r) => {
                    if r.outcome == OutcomeKind::Counterexample {
                        cancel.store(true, Ordering::Relaxed);
                    }
                    reports.push(r);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if external.load(Ordering::Relaxed) {
                        cancel.store(true, Ordering::Relaxed);
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
    });
    pick(reports)
}

/// The answer of the portfolio from the testers' reports.
fn pick(mut reports: Vec<Report>) -> Report {
    let rank = |r: &Report| match (r.outcome, r.tester) {
        (OutcomeKind::Counterexample, _) => 0,
        (OutcomeKind::NoCounterexample, Tester::Exhaustive) => 1,
        (OutcomeKind::PotentiallySpurious, _) => 2,
        (OutcomeKind::NoCounterexample, _) => 3,
        (OutcomeKind::NotExecutable, _) => 4,
        (OutcomeKind::Error, _) => 5,
        (OutcomeKind::Timeout, _) => 6,
    };
    // Among equals, the one that answered first (reports arrive in finishing order).
    reports.sort_by_key(rank);
    reports.into_iter().next().unwrap_or_else(|| Report::new(Tester::Exhaustive, OutcomeKind::Error))
}
