//! When a search must end early: its deadline, a cancellation from outside the run
//! (`Cancel`, which `check_lemma`'s caller holds), and the portfolio's "another tester
//! answered" flag. Searches look at their `Budget` between batches of cases; a single case
//! is bounded by the deadline and its fuel only (`runner`).

use crate::runner::Stop;
use crate::testers::End;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Cancels runs from outside: clones share one flag, so a clone handed to another thread
/// (a signal handler, a server answering a client that left) ends every run it was given
/// to, promptly, with a report that says so. There is no way back: a cancelled token stays
/// cancelled.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    pub fn new() -> Cancel {
        Cancel::default()
    }

    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    pub(crate) fn flag(&self) -> &AtomicBool {
        &self.0
    }
}

/// A flag never set: the budget of a search nobody cancels.
static NEVER: AtomicBool = AtomicBool::new(false);

/// When a search must end early.
#[derive(Clone, Copy)]
pub struct Budget<'a> {
    pub deadline: Instant,
    /// Set from outside the run (`Cancel`).
    pub cancel: &'a AtomicBool,
    /// Set by the portfolio when another tester has answered.
    pub answered: &'a AtomicBool,
    /// Target's setting (benches only; `hol check` never sets it): a size ends, as far as
    /// asked, once this many of its cases have passed the premises (`End::Enough`).
    pub enough: Option<u64>,
}

impl Budget<'static> {
    /// A budget that only the deadline ends (benchmarks, tests of one search).
    pub fn until(deadline: Instant) -> Budget<'static> {
        Budget { deadline, cancel: &NEVER, answered: &NEVER, enough: None }
    }
}

impl Budget<'_> {
    pub fn exceeded(&self) -> bool {
        self.cancelled() || Instant::now() >= self.deadline
    }

    /// Cancelled from outside or by the portfolio.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed) || self.answered.load(Ordering::Relaxed)
    }

    /// Cancelled from outside (`Cancel`).
    pub fn cancelled_from_outside(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// `self` that also ends a size once `passed` cases passed its premises.
    pub fn enough(self, passed: u64) -> Self {
        Budget { enough: Some(passed), ..self }
    }

    /// How a search that has seen `passed` cases pass the premises in this size ends: as
    /// `over`, or with `End::Enough` once it has seen as many as the budget asks for.
    pub fn over_at(&self, passed: u64) -> Option<End> {
        self.over().or_else(|| self.enough.is_some_and(|n| passed >= n).then_some(End::Enough))
    }

    /// How a search ends when the budget is spent, if it is.
    pub fn over(&self) -> Option<End> {
        if self.cancelled() {
            Some(End::Cancelled)
        } else if Instant::now() >= self.deadline {
            Some(End::Stopped(Stop::Timeout))
        } else {
            None
        }
    }
}

/// `now + limit`, or a point beyond any run when that is not representable: a time limit
/// of centuries means "no limit", never an overflow panic.
pub fn deadline_after(now: Instant, limit: Duration) -> Instant {
    now.checked_add(limit).or_else(|| now.checked_add(Duration::from_secs(u64::from(u32::MAX)))).unwrap_or(now)
}
