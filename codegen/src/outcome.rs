//! How a run ends without a value (`JitOutcome`), and where a loop over many cases
//! (`Jit::run_rows`) stopped (`LevelEnd`, `LevelCounts`).

use lang::core::ir::Undef;
use lang::value::Demand;

/// Why a run ended without a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JitOutcome {
    /// An underspecified function was applied outside its domain, as the interpreter says.
    Undefined(Undef),
    OutOfFuel,
    TooDeep,
    Timeout,
    /// The arena is exhausted.
    OutOfMemory,
    /// A number did not fit 64 bits: re-run in the interpreter.
    Overflow,
    /// Something the JIT does not compile (sets, quantifiers, ...): re-run in the interpreter.
    NotSupported,
    /// Narrowing mode (`Jit::narrowing`): evaluation must know more of a partial value.
    Need(Demand),
}

impl JitOutcome {
    /// Whether the interpreter must decide this case (the JIT gave no answer).
    pub fn hand_over(&self) -> bool {
        matches!(self, JitOutcome::Overflow | JitOutcome::NotSupported)
    }
}

/// Where `Jit::run_rows` stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelEnd {
    /// Every case ran: each was rejected by a check or passed them all.
    Done,
    /// Case `i` passed every check of a level that descends: the caller goes on from it.
    Descend(usize),
    /// The last check returned False on case `i` of a level that does not descend.
    Failed(usize),
    /// A check on case `i` ended without a truth value: the caller runs that case itself.
    Handover(usize),
}

/// The cases `Jit::run_rows` ran to the end before it stopped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LevelCounts {
    /// Rejected by a check that is a premise.
    pub rejected: u64,
    /// Passed every check (the last one the conclusion).
    pub passed: u64,
}
