//! The default when no tester is named, and the testers named when several are: the rows
//! that apply run side by side, each on its own thread (each compiles its own JIT: compiled code is not shared
//! across threads), and the first definite answer wins. A genuine counterexample from any
//! tester is definite and cancels the others; otherwise an answer that covered every case
//! up to its size (`Coverage::Complete`, the exhaustive tester's) is preferred, since "none
//! up to size n" says more than "none in n random tests". Once such an answer is in, the
//! others get a grace period (`grace`) and are then cancelled.

use crate::driver;
use crate::options::Options;
use crate::outcome::{OutcomeKind, Report};
use crate::registry::TesterName;
use crate::runner::Engine;
use crate::testers::{Coverage, Tester};
use lang::core::conjecture::Conjecture;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Stack of a tester's thread. Compiled code moves a case that runs low to a bigger stack
/// (`codegen::on_big_stack`) and the interpreter grows its own (`lang::stack`), so this
/// only has to hold the testers' frames; it is kept small because a stack is reserved
/// address space that counts against a data limit (`RLIMIT_DATA`), with the worker's and
/// the heap's.
const TESTER_STACK: usize = 32 << 20;

/// Runs the testers `rows` side by side. `by_default`: the registry's default portfolio,
/// where a row runs only where it suits the lemma (`Tester::suits`); testers a user named
/// run wherever they apply.
pub fn run(
    rows: Vec<&dyn Tester>,
    by_default: bool,
    conjectures: &[Conjecture],
    opts: &Options,
    seed: u64,
    engine: Engine,
    cancel: &AtomicBool,
) -> Report {
    // Each row with whether it applies to every instance (asked once: `smt` encodes the
    // parts to answer).
    // The row a report names when none ran.
    let first = rows.first().map(|t| TesterName::new(t.name()));
    let rows: Vec<(&dyn Tester, bool)> = rows
        .into_iter()
        .map(|t| (t, conjectures.iter().all(|c| t.applies(c).is_ok() && (!by_default || t.suits(c)))))
        .collect();
    // A tester that would run but cannot on this machine is left out, and said so.
    let unavailable: Vec<String> = rows
        .iter()
        .filter(|(_, applies)| *applies)
        .filter_map(|(t, _)| t.unavailable().map(|why| format!("{}: not run: {why}", t.name())))
        .collect();
    let rows: Vec<(&dyn Tester, bool)> = rows.into_iter().filter(|(t, _)| t.unavailable().is_none()).collect();
    // When none applies, they all run, so the report says why.
    let any_applies = rows.iter().any(|(_, applies)| *applies);
    let rows: Vec<&dyn Tester> =
        rows.into_iter().filter(|(_, applies)| *applies || !any_applies).map(|(t, _)| t).collect();
    let answered = AtomicBool::new(false);
    let started = Instant::now();
    let (tx, rx) = mpsc::channel();
    // With each report, its row's place in the portfolio (for ties).
    let mut reports: Vec<(Coverage, usize, Report)> = Vec::new();
    std::thread::scope(|s| {
        for (row, t) in rows.into_iter().enumerate() {
            let tx = tx.clone();
            let answered = &answered;
            let run = move || driver::run(t, conjectures, opts, seed, engine, cancel, Some(answered));
            let spawned = std::thread::Builder::new().stack_size(TESTER_STACK).spawn_scoped(s, move || {
                // A panic in one tester is that tester's error, not the portfolio's end.
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)).unwrap_or_else(|_| {
                    Report::new(TesterName::new(t.name()), OutcomeKind::Error)
                        .with_message("internal error: the tester panicked")
                });
                let _ = tx.send((t.coverage(), row, r));
            });
            if spawned.is_err() {
                // No thread: run it here instead.
                reports.push((t.coverage(), row, run()));
            }
        }
        drop(tx);
        let mut grace_end: Option<Instant> = None;
        loop {
            let received = match grace_end {
                None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
                Some(end) => rx.recv_timeout(end.saturating_duration_since(Instant::now())),
            };
            let (coverage, row, r) = match received {
                Ok(report) => report,
                Err(RecvTimeoutError::Timeout) => {
                    // The grace is over: the others stop and report that they were
                    // cancelled; the complete answer stands.
                    answered.store(true, Ordering::Relaxed);
                    grace_end = None;
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => break,
            };
            if r.outcome == OutcomeKind::Counterexample {
                answered.store(true, Ordering::Relaxed);
            } else if complete_answer(coverage, &r, opts.size)
                && grace_end.is_none()
                && !answered.load(Ordering::Relaxed)
            {
                grace_end = Some(Instant::now() + grace(started.elapsed()));
            }
            reports.push((coverage, row, r));
        }
    });
    let mut report =
        pick(reports).unwrap_or_else(|| Report::new(first.unwrap_or(TesterName::new("none")), OutcomeKind::Error));
    report.log.splice(0..0, unavailable);
    report
}

/// The least grace the other testers get once one has covered every case up to the size:
/// enough for the SMT solver to start and answer an easy query (`x * x = 1849`: about
/// 30 ms), little enough that a theory of true arithmetic lemmas is not held up long
/// (FIXME(issue 25): still 50 ms and the solver's slice in progress per lemma z3 cannot
/// decide: `theories/Divides.thy` 0.15 s without the smt tester, 2.4 s with it, 4.6 s
/// before idle solvers were reused).
const GRACE_MIN: Duration = Duration::from_millis(50);

/// Whether a report covered every case up to the requested size and found nothing: "none up
/// to size n", with no size cut short.
fn complete_answer(coverage: Coverage, r: &Report, size: u64) -> bool {
    coverage == Coverage::Complete
        && r.outcome == OutcomeKind::NoCounterexample
        && (r.exhausted || r.size >= size.max(1))
}

/// How much longer the other testers may run once a complete answer came after `elapsed`:
/// as long again, and at least `GRACE_MIN`. A tester that searches a different space (the
/// smart generators' premise-satisfying values, larger than the exhaustive tester's at the
/// same size) may still find a counterexample, but a true lemma must not wait for the
/// slowest tester's time limit: with the smart generators in the portfolio, a true
/// balanced-tree lemma took its whole 10 s where the exhaustive tester had answered in 0.1 s.
fn grace(elapsed: Duration) -> Duration {
    elapsed.max(GRACE_MIN)
}

/// The answer of the portfolio from the testers' reports, which arrive in finishing order.
/// The first counterexample wins (the others were cancelled by it). Otherwise the best kind
/// of answer wins, and among answers of the same kind the one that searched the largest
/// size, then the earlier row, so that which tester happened to finish first never changes
/// the answer.
fn pick(mut reports: Vec<(Coverage, usize, Report)>) -> Option<Report> {
    let rank = |coverage: &Coverage, r: &Report| match (r.outcome, coverage) {
        (OutcomeKind::Counterexample, _) => 0,
        (OutcomeKind::NoCounterexample, Coverage::Complete) => 1,
        (OutcomeKind::PotentiallySpurious, _) => 2,
        (OutcomeKind::NoCounterexample, _) => 3,
        (OutcomeKind::NotExecutable, _) => 4,
        (OutcomeKind::Error, _) => 5,
        (OutcomeKind::Timeout, _) => 6,
    };
    if let Some(i) = reports.iter().position(|(_, _, r)| r.outcome == OutcomeKind::Counterexample) {
        return Some(reports.swap_remove(i).2);
    }
    reports.sort_by_key(|(coverage, row, r)| (rank(coverage, r), std::cmp::Reverse(r.size), *row));
    reports.into_iter().next().map(|(_, _, r)| r)
}
