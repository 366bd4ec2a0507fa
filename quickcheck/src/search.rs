//! What testers share: the result of testing one type instance of a conjecture, and what to
//! do with a failing case (re-check it in the interpreter; go on past a spurious one under
//! `genuine_only`).

use crate::case::{recheck, Recheck};
use crate::outcome::{Counterexample, ShrinkStats};
use crate::program::Schedule;
use crate::runner::Stop;
use lang::core::conjecture::Conjecture;
use lang::interp::Value;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// When a search must end early.
#[derive(Clone, Copy)]
pub struct Budget<'a> {
    pub deadline: Instant,
    /// Set by the portfolio when another tester has answered.
    pub cancel: &'a AtomicBool,
}

impl Budget<'_> {
    pub fn exceeded(&self) -> bool {
        self.cancelled() || Instant::now() >= self.deadline
    }

    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

/// `now + limit`, or a point beyond any run when that is not representable: a time limit
/// of centuries means "no limit", never an overflow panic.
pub fn deadline_after(now: Instant, limit: std::time::Duration) -> Instant {
    now.checked_add(limit)
        .or_else(|| now.checked_add(std::time::Duration::from_secs(u64::from(u32::MAX))))
        .unwrap_or(now)
}

/// How a search ended before covering its space.
#[derive(Clone, Debug, PartialEq)]
pub enum End {
    Genuine(Counterexample),
    Spurious(Counterexample),
    Stopped(Stop),
    /// The JIT reported a counterexample the interpreter does not confirm.
    Disagreement(String),
    /// The space of this size is too big to build.
    TooBig,
    Cancelled,
}

/// What testing one instance at one size did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SizeResult {
    /// `None`: the size was covered without an answer.
    pub end: Option<End>,
    pub tests: u64,
    pub passed: u64,
    pub shrink: Option<ShrinkStats>,
    /// Random cases abandoned while drawing their values, too large to build
    /// (`random::CASE_BUILD_STEPS`); not among `tests`.
    pub too_large: u64,
}

/// What a tester does with a failing case: `Some(end)` ends the search.
pub fn on_failure(
    c: &Conjecture,
    sched: &Schedule,
    generated: &[Option<Value>],
    genuine_only: bool,
    deadline: Instant,
) -> Option<End> {
    match recheck(c, sched, generated, deadline) {
        Recheck::Genuine(cx) => Some(End::Genuine(cx)),
        Recheck::Spurious(_) if genuine_only => None,
        Recheck::Spurious(cx) => Some(End::Spurious(cx)),
        Recheck::Disagrees(why) => Some(End::Disagreement(why)),
        Recheck::Stopped(s) => Some(End::Stopped(s)),
    }
}
