//! Runtime values, shared by the reference interpreter (`crate::interp`) and compiled code
//! (the `codegen` crate), which converts them to and from its words: the values and their
//! structural order (`repr`), unbounded numbers with Isabelle's conventions (`arith`), holes
//! and demands of partial values with the comparisons on them (`holes`, the narrowing
//! tester's semantics), the universes of finite types (`enumerate`), and the contract of an
//! evaluation on either engine: its `Limits` and how it can end without a value
//! (`EvalError`).
//!
//! What this module does not know: how a value is computed (no evaluation here), except
//! that a `λ` value carries the interpreter's code, opaque.

pub(crate) mod arith;
mod enumerate;
pub(crate) mod holes;
mod repr;

pub use arith::Int;
pub(crate) use enumerate::most_frequent;
pub use enumerate::{enumerate, ENUM_CAP};
pub use holes::{compare_partial, first_hole, Comparison, Demand, Hole};
pub use repr::{Closure, Fields, SetValue, Value};

use crate::core::ir::Undef;
use std::time::Instant;

/// Resource limits for one evaluation.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Function calls, loop iterations and enumeration steps allowed.
    pub fuel: u64,
    /// Nesting depth of calls allowed.
    pub max_depth: u32,
    /// Wall-clock deadline, checked every few thousand steps.
    pub deadline: Option<Instant>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { fuel: 200_000_000, max_depth: 100_000, deadline: None }
    }
}

/// Why evaluation ended without a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// An underspecified function was applied outside its domain (`hd []`).
    Undefined(Undef),
    OutOfFuel,
    Timeout,
    TooDeep,
    /// The memory for values ran out (the JIT's arena).
    OutOfMemory,
    /// Something that cannot be computed (a quantifier over an infinite type), said why.
    NotExecutable(String),
    /// Evaluation must know more of a partial value (`partial`): only an evaluation given
    /// holes ends so, and only the narrowing tester gives them.
    Need(Demand),
}

impl std::fmt::Display for EvalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EvalError::Undefined(Undef::Match(name)) => write!(f, "undefined: no equation of `{name}` matches"),
            EvalError::Undefined(Undef::Undefined) => write!(f, "undefined: `undefined` was evaluated"),
            EvalError::Undefined(Undef::Case(_)) => write!(f, "undefined: no arm of a `case` expression matches"),
            EvalError::OutOfFuel => write!(f, "evaluation did not finish: out of fuel"),
            EvalError::Timeout => write!(f, "evaluation did not finish: timeout"),
            EvalError::TooDeep => write!(f, "evaluation did not finish: recursion too deep"),
            EvalError::OutOfMemory => write!(f, "evaluation did not finish: out of memory"),
            EvalError::NotExecutable(why) => write!(f, "not executable: {why}"),
            EvalError::Need(d) => write!(f, "needs the value of hole {} of a partial value", d.hole.id),
        }
    }
}
