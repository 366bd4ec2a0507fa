//! The reference interpreter over the core IR: unbounded `nat`/`int`, Isabelle's arithmetic
//! conventions, finite sets and complements, closures, quantifiers over finite types by
//! enumeration, and `Undefined` as a result callers can tell apart from a value.
//! Fuel, depth and deadline limits turn runaway evaluation into an `EvalError`, never a
//! crash: evaluation never overflows the machine stack.
//!
//! API (the contract the rest of the workspace codes against):
//! - `Value`: a runtime value.
//! - `Limits { fuel, max_depth, deadline }` with `Limits::default()`.
//! - `EvalError::{Undefined(Undef), OutOfFuel, Timeout, TooDeep, NotExecutable(String)}`.
//! - `eval(&Program, &Expr, num_vars, &Limits) -> Result<Value, EvalError>` for closed terms.
//! - `call(&Program, FunId, Vec<Value>, &Limits) -> Result<Value, EvalError>`.
//! - `print_value(&Program, &Value, &Ty) -> String` in theory syntax (`[3, 2, 1]`, `{1, 2}`,
//!   `(a, b)`, `Some 3`, `-4`, `Node Leaf 2 Leaf`, `a1`).
//! - `enumerate(&Program, &Ty) -> Option<Vec<Value>>`: every value of a finite type.

use crate::core::ir::{Expr, FunId, Program, Ty, Undef};
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
    /// Something that cannot be computed (a quantifier over an infinite type), said why.
    NotExecutable(String),
}

impl std::fmt::Display for EvalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EvalError::Undefined(Undef::Match(name)) => write!(f, "undefined: no equation of `{name}` matches"),
            EvalError::Undefined(Undef::Undefined) => write!(f, "undefined: `undefined` was evaluated"),
            EvalError::OutOfFuel => write!(f, "evaluation did not finish: out of fuel"),
            EvalError::Timeout => write!(f, "evaluation did not finish: timeout"),
            EvalError::TooDeep => write!(f, "evaluation did not finish: recursion too deep"),
            EvalError::NotExecutable(why) => write!(f, "not executable: {why}"),
        }
    }
}

/// Placeholder runtime value (the interpreter replaces it).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {}

pub fn eval(_p: &Program, _e: &Expr, _num_vars: u32, _l: &Limits) -> Result<Value, EvalError> {
    Err(EvalError::NotExecutable("interpreter not built yet".into()))
}

pub fn call(_p: &Program, _f: FunId, _args: Vec<Value>, _l: &Limits) -> Result<Value, EvalError> {
    Err(EvalError::NotExecutable("interpreter not built yet".into()))
}

pub fn print_value(_p: &Program, v: &Value, _ty: &Ty) -> String {
    match *v {}
}

pub fn enumerate(_p: &Program, _ty: &Ty) -> Option<Vec<Value>> {
    None
}
