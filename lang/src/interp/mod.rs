//! The reference interpreter over the core IR: unbounded `nat`/`int`, Isabelle's arithmetic
//! conventions, finite sets and complements, closures, quantifiers over finite types by
//! enumeration, and `Undefined` as a result callers can tell apart from a value.
//! Fuel, depth and deadline limits turn runaway evaluation into an `EvalError`, never a
//! crash: evaluation never overflows the machine stack.
//!
//! API (the contract the rest of the workspace codes against):
//! - `Value`: a runtime value.
//! - `Limits { fuel, max_depth, deadline }` with `Limits::default()`.
//! - `EvalError::{Undefined(Undef), OutOfFuel, Timeout, TooDeep, NotExecutable(String),
//!   Need(Demand)}` (`Need` only for partial values: `Interp::partial`, `Value::Hole`).
//! - `eval(&Program, &Expr, num_vars, &Limits) -> Result<Value, EvalError>` for closed terms.
//! - `call(&Program, FunId, Vec<Value>, &Limits) -> Result<Value, EvalError>`.
//! - `print_value(&Program, &Value, &Ty) -> String` in theory syntax (`[3, 2, 1]`, `{1, 2}`,
//!   `(a, b)`, `Some 3`, `-4`, `Node Leaf 2 Leaf`, `a1`).
//! - `enumerate(&Program, &Ty) -> Option<Vec<Value>>`: every value of a finite type.
//! - `Interp`: the same operations on one program, sharing compiled code between calls
//!   (use it when evaluating many times), plus `apply` and `equal`.
//!
//! Values passed in must be well-typed and canonical: sets sorted (use `SetValue::finite`)
//! and, over finite element types, not complements; functions as `Value::fun_map`.
//! Datatype values are `Value::ctor(tag, fields)` with the tag the constructor's index.
//! Values share structure through `Rc`: they, and an `Interp`, stay on one thread.
//!
//! Limits: every call, closure application, quantifier or comprehension step and clause
//! attempt costs one unit of fuel (arithmetic on big numbers and operations on big sets cost
//! in proportion to their size). Depth counts nested calls; calls in tail position do not
//! nest, so tail-recursive loops are bounded by fuel only. Deep recursion moves to large
//! stacks of its own (see `stack`); the calling thread needs about 512 KiB of free stack.
//!
//! Modules: `sets`, `compile` (IR → interpreter tree), `eval` (the machine), `partial`
//! (evaluation on holes), `compare` (equality and order at a type), `pred` (inductive
//! predicates), `types` (per-type facts), `print` (theory syntax). The values themselves,
//! numbers, holes, finite types' universes, `Limits` and `EvalError` are `crate::value`'s.

mod compare;
mod compile;
mod eval;
mod forward;
mod outputs;
mod partial;
mod pred;
mod print;
mod sets;
mod types;

pub use crate::core::cardinality::cardinality;
// The values the interpreter computes with are `crate::value`'s, which compiled code
// shares: they are named here too, as the interpreter's API.
pub use crate::value::{
    compare_partial, enumerate, first_hole, Closure, Comparison, Demand, EvalError, Fields, Hole, Int, Limits,
    SetValue, Value, ENUM_CAP,
};
pub use compile::LambdaCode;

use crate::core::ir::{Expr, FunId, Program, Ty};
use compile::Code;
use eval::Run;

/// The reference interpreter for one program. Compiled code is kept between calls.
pub struct Interp<'p> {
    code: Code<'p>,
    stack: Vec<Value>,
    /// Steps (units of fuel) of every evaluation so far: the work done, for an owner that
    /// decides whether compiling would pay.
    steps: u64,
}

impl<'p> Interp<'p> {
    pub fn new(program: &'p Program) -> Interp<'p> {
        Interp { code: Code::new(program), stack: Vec::new(), steps: 0 }
    }

    /// An interpreter for partial values (`Value::Hole`, the narrowing tester's): it also
    /// finds holes nested inside the operands of comparisons, set operations and
    /// predicates, which costs a walk of each operand.
    pub fn partial(program: &'p Program) -> Interp<'p> {
        let mut code = Code::new(program);
        code.partial = true;
        Interp { code, stack: Vec::new(), steps: 0 }
    }

    pub fn program(&self) -> &'p Program {
        self.code.prog
    }

    /// Steps (units of fuel) of every evaluation of this interpreter so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Runs `f` on a fresh `Run` with the given limits, with the machine stack guarded.
    fn run<T>(&mut self, limits: &Limits, f: impl FnOnce(&mut Run<'_, 'p>) -> T) -> T {
        let code = &self.code;
        let stack = std::mem::take(&mut self.stack);
        let (r, mut stack, steps) = crate::stack::guarded(|| {
            let mut run = Run::new(code, limits, stack);
            let r = f(&mut run);
            (r, std::mem::take(&mut run.stack), run.steps())
        });
        self.steps = self.steps.saturating_add(steps);
        stack.clear();
        self.stack = stack;
        r
    }

    /// Evaluates a closed term whose local variables are below `num_vars`.
    pub fn eval(&mut self, e: &Expr, num_vars: u32, limits: &Limits) -> Result<Value, EvalError> {
        self.run(limits, |run| {
            let node = run.code.compile_root(e, num_vars as usize);
            run.stack.resize(num_vars as usize, Value::FILLER);
            run.eval(&node)
        })
    }

    /// Calls top-level function `f` with all its arguments.
    pub fn call(&mut self, f: FunId, args: Vec<Value>, limits: &Limits) -> Result<Value, EvalError> {
        self.run(limits, |run| run.call_fun(f, args))
    }

    /// Applies a function value to arguments (curried: fewer arguments give a closure).
    pub fn apply(&mut self, f: Value, args: Vec<Value>, limits: &Limits) -> Result<Value, EvalError> {
        self.run(limits, |run| run.apply(f, args))
    }

    /// Equality at a type (extensional on functions over finite domains).
    pub fn equal(&mut self, a: &Value, b: &Value, ty: &Ty, limits: &Limits) -> Result<bool, EvalError> {
        self.run(limits, |run| run.eq_typed(a, b, ty))
    }

    /// `v` of type `ty` in theory syntax. Functions over finite domains are tabulated with
    /// `PRINT_LIMITS`; one that cannot be prints as `<function>`.
    pub fn print(&mut self, v: &Value, ty: &Ty) -> String {
        self.run(&print_limits(), |run| run.print(v, ty))
    }

    /// `v` of type `ty` with its holes named by `names` (`_` where it gives none).
    pub fn print_named(&mut self, v: &Value, ty: &Ty, names: &dyn Fn(&Hole) -> Option<String>) -> String {
        self.run(&print_limits(), |run| run.print_named(v, ty, names))
    }

    /// Every value of a finite type, ascending; `None` when infinite or larger than
    /// `ENUM_CAP`.
    pub fn enumerate(&self, ty: &Ty) -> Option<Vec<Value>> {
        self.code.ty(ty).univ(self.code.prog).map(|u| u.to_vec())
    }
}

/// Limits for the evaluation a printer does (tabulating functions).
fn print_limits() -> Limits {
    Limits { fuel: 10_000_000, max_depth: 100_000, deadline: None }
}

/// Evaluates a closed term whose local variables are below `num_vars`.
pub fn eval(p: &Program, e: &Expr, num_vars: u32, l: &Limits) -> Result<Value, EvalError> {
    Interp::new(p).eval(e, num_vars, l)
}

/// Calls top-level function `f` with all its arguments.
pub fn call(p: &Program, f: FunId, args: Vec<Value>, l: &Limits) -> Result<Value, EvalError> {
    Interp::new(p).call(f, args, l)
}

/// `v` of type `ty` in theory syntax.
pub fn print_value(p: &Program, v: &Value, ty: &Ty) -> String {
    Interp::new(p).print(v, ty)
}
