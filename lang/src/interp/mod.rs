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
