//! The interpreter's evaluation of partial values (the narrowing tester's), by the rules
//! of `crate::value::holes`: a binary primitive, a case or an application that meets a hole
//! demands it, and `if` with a truth-valued branch decides in parallel.
//!
//! Only an interpreter made with `Interp::partial` looks for holes inside operands (a cost
//! the other testers do not pay); holes at the top of an operand are caught everywhere, in
//! branches that were errors before.

use super::compile::{Node, Op};
use super::eval::{Run, R};
use crate::value::holes::{cmp_partial, eq_partial, first_hole, need, Hole};
use crate::value::{EvalError, Value};
use std::cmp::Ordering;

impl Run<'_, '_> {
    /// A binary primitive on operands that hold a hole somewhere (partial mode only);
    /// `None` when neither does.
    pub(crate) fn prim2_partial(&mut self, op: &Op, a: &Value, b: &Value) -> Option<R<Value>> {
        let hole = first_hole(a).or_else(|| first_hole(b))?;
        let demand = |h| need(h, true);
        let bool = |r: Result<bool, Hole>| r.map(Value::Bool).map_err(demand);
        Some(match op {
            Op::EqPlain => bool(eq_partial(a, b)),
            Op::Eq(t) if !t.has_fun => bool(eq_partial(a, b)),
            Op::LtPlain => bool(cmp_partial(a, b).map(Ordering::is_lt)),
            Op::LePlain => bool(cmp_partial(a, b).map(Ordering::is_le)),
            Op::Lt(t) if t.plain_order => bool(cmp_partial(a, b).map(Ordering::is_lt)),
            Op::Le(t) if t.plain_order => bool(cmp_partial(a, b).map(Ordering::is_le)),
            _ => Err(demand(hole)),
        })
    }

    /// `if` whose condition demanded `d`: decided anyway when one branch is the truth value
    /// `b` and the other evaluates to `b` as well.
    pub(crate) fn parallel_if(&mut self, d: EvalError, t: &Node, f: &Node) -> R<Value> {
        let (lit, other) = match (t, f) {
            (Node::Const(Value::Bool(b)), other) | (other, Node::Const(Value::Bool(b))) => (*b, other),
            _ => return Err(d),
        };
        match self.eval(other) {
            Ok(Value::Bool(x)) if x == lit => Ok(Value::Bool(lit)),
            _ => Err(d),
        }
    }

    /// `eval`, except that in partial mode a value whose computation needs a hole becomes
    /// `Value::Stuck` rather than failing: the demand is raised only if something inspects
    /// the value (a constructor's field, a `let`, an argument). Only computations stuck on a
    /// hole are deferred, so what is computed is what strict evaluation computes, and the
    /// search refines only holes that decide the result, as lazy evaluation would.
    #[inline]
    pub(crate) fn eval_lazy(&mut self, e: &Node) -> R<Value> {
        let len = self.stack.len();
        match self.eval(e) {
            Err(EvalError::Need(d)) if self.code.partial => {
                // The failed evaluation may have left values above the frame.
                self.stack.truncate(len);
                Ok(Value::Stuck(d))
            }
            r => r,
        }
    }

    /// In partial mode, the demand for the first hole among `args`.
    pub(crate) fn holes_in(&self, args: &[Value]) -> R<()> {
        if self.code.partial {
            if let Some(h) = args.iter().find_map(first_hole) {
                return Err(need(h, true));
            }
        }
        Ok(())
    }
}
