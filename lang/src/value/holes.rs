//! Partial values, for the narrowing tester: a `Value::Hole` stands for a value not chosen
//! yet. Evaluation that must look inside a hole (a `case` on it, arithmetic, a comparison it
//! cannot decide without it, a set operation, an application) stops with
//! `EvalError::Need(Demand)` naming the hole: an ordinary error value, nothing unwinds. The
//! tester then refines that hole and evaluates again. Whatever is decided without looking
//! at a hole holds for every value the hole stands for, so one evaluation decides a whole
//! family of cases.
//!
//! The rules, which compiled code must follow too (the demanded hole shapes the narrowing
//! tree, so both engines must demand the same one):
//! - evaluation order is the interpreter's: left to right, arguments before the call,
//!   scrutinee before branches;
//! - `nat` holes are lazy: `Suc` of `Suc^k ?` is `Suc^(k+1) ?`, a `case` on it with `k > 0`
//!   takes the `Suc` branch, and a comparison with a number is decided from the lower
//!   bound `k` where it can be (`0 = Suc ?` is `False` without refining `?`);
//! - equality walks both values: a difference anywhere decides `False`, otherwise the first
//!   hole met (preorder, left operand first) is demanded; a hole equals itself;
//! - order is lexicographic: the first hole met before a difference is demanded;
//! - `if c then t else f` with one branch a truth value `b` (the lowering of `∧`, `∨`, `⟶`):
//!   when `c` demands a hole, the other branch is evaluated, and if it gives `b` too the
//!   result is `b` with nothing refined (Lazy SmallCheck's parallel conjunction); otherwise
//!   `c`'s demand stands;
//! - anything else that meets a hole demands the first hole of its operands.
//!
//! This module holds the holes, the demands and the comparisons on partial values, which
//! compiled code calls too; the interpreter's evaluation by these rules is
//! `crate::interp`'s `partial` module.

use super::repr::{Closure, Value};
use super::EvalError;
use std::cmp::Ordering;

/// A hole: `id` numbers it for the tester; `suc` counts the `Suc`s applied to it, so a
/// `nat` hole stands for `Suc^suc ?id` (always 0 for holes of other types).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hole {
    pub id: u32,
    pub suc: u32,
}

impl Hole {
    pub fn new(id: u32) -> Hole {
        Hole { id, suc: 0 }
    }
}

/// What an evaluation needs to know to go on: the outermost constructor of `hole`, or,
/// when `whole`, its whole value (arithmetic needs the number, not only whether it is `0`
/// or a `Suc`). The hole is named by its id alone (`suc` is 0): what is demanded is the
/// unknown below the `Suc`s, whichever position met it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Demand {
    pub hole: Hole,
    pub whole: bool,
}

pub(crate) fn need(hole: Hole, whole: bool) -> EvalError {
    EvalError::Need(Demand { hole: Hole::new(hole.id), whole })
}

/// The demand inspecting `v` raises, if it is a hole or a stuck value (`whole`: the
/// inspection needs the whole value of a hole).
pub(crate) fn blocked(v: &Value, whole: bool) -> Option<EvalError> {
    match v {
        Value::Hole(h) => Some(need(*h, whole)),
        Value::Stuck(d) => Some(EvalError::Need(*d)),
        _ => None,
    }
}

/// The hole a hole or a stuck value waits for.
fn unknown(v: &Value) -> Option<Hole> {
    match v {
        Value::Hole(h) => Some(*h),
        Value::Stuck(d) => Some(d.hole),
        _ => None,
    }
}

/// The first hole of `v` in preorder (fields left to right), if any.
pub fn first_hole(v: &Value) -> Option<Hole> {
    let mut work = vec![v];
    while let Some(v) = work.pop() {
        match v {
            Value::Hole(h) => return Some(*h),
            Value::Stuck(d) => return Some(d.hole),
            Value::Bool(_) | Value::Int(_) => {}
            Value::Ctor(_, fields) => work.extend(fields.iter().rev()),
            Value::Set(s) => work.extend(s.elems().iter().rev()),
            Value::Fun(c) => match &**c {
                Closure::Partial { args, .. } => work.extend(args.iter().rev()),
                Closure::Lambda { captured, args, .. } => {
                    work.extend(args.iter().rev());
                    work.extend(captured.iter().rev());
                }
                Closure::Map { default, entries } => {
                    for (k, x) in entries.iter().rev() {
                        work.push(x);
                        work.push(k);
                    }
                    work.push(default);
                }
            },
        }
    }
    None
}

/// Whether `Suc^k ?` is certainly above the number `c` (so differs from it). Only a hole
/// with `Suc`s above it is known to be a `nat`: an `int` hole (`k = 0`) may be negative.
fn above(h: &Hole, c: &Value) -> bool {
    match c {
        Value::Int(c) => h.suc > 0 && *c < super::Int::from(h.suc as i64),
        _ => false,
    }
}

/// Structural equality of values that may hold holes: `Ok` when decided for every value
/// of the holes, `Err(hole)` naming the first hole that must be known.
pub(crate) fn eq_partial(a: &Value, b: &Value) -> Result<bool, Hole> {
    let mut work = vec![(a, b)];
    let mut first = None;
    while let Some((a, b)) = work.pop() {
        match (a, b) {
            (Value::Hole(x), Value::Hole(y)) if x.id == y.id => {
                if x.suc != y.suc {
                    return Ok(false);
                }
            }
            (Value::Hole(h), c) | (c, Value::Hole(h)) if above(h, c) => return Ok(false),
            (a, b) if unknown(a).or(unknown(b)).is_some() => {
                // The left operand's first.
                first = first.or(unknown(a)).or(unknown(b));
            }
            (Value::Ctor(t, f), Value::Ctor(u, g)) => {
                if t != u || f.len() != g.len() {
                    return Ok(false);
                }
                work.extend(f.iter().zip(g.iter()).rev());
            }
            (a, b) => {
                if a != b {
                    return Ok(false);
                }
            }
        }
    }
    match first {
        Some(h) => Err(h),
        None => Ok(true),
    }
}

/// The structural (lexicographic) order of values that may hold holes: `Err(hole)` when a
/// hole is met before the first difference.
pub(crate) fn cmp_partial(a: &Value, b: &Value) -> Result<Ordering, Hole> {
    let mut work = vec![(a, b)];
    while let Some((a, b)) = work.pop() {
        let o = match (a, b) {
            (Value::Hole(x), Value::Hole(y)) if x.id == y.id => x.suc.cmp(&y.suc),
            (Value::Hole(h), c) if above(h, c) => Ordering::Greater,
            (c, Value::Hole(h)) if above(h, c) => Ordering::Less,
            (a, b) if unknown(a).or(unknown(b)).is_some() => {
                return Err(unknown(a).or(unknown(b)).unwrap_or(Hole::new(0)))
            }
            (Value::Ctor(t, f), Value::Ctor(u, g)) => {
                if t == u {
                    if f.len() != g.len() {
                        return Ok(f.len().cmp(&g.len()));
                    }
                    work.extend(f.iter().zip(g.iter()).rev());
                }
                t.cmp(u)
            }
            (a, b) => a.cmp(b),
        };
        if o != Ordering::Equal {
            return Ok(o);
        }
    }
    Ok(Ordering::Equal)
}

/// Which comparison `compare_partial` makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comparison {
    Eq,
    Lt,
    Le,
}

/// `=`, `<` or `≤` on values that may hold holes, by the rules above: `Err` with the demand
/// (for the whole value) when a hole decides. For compiled code in narrowing mode, which
/// must decide comparisons exactly as the interpreter does; at types whose equality and
/// order are structural (no functions or sets inside).
pub fn compare_partial(c: Comparison, a: &Value, b: &Value) -> Result<bool, Demand> {
    let r = match c {
        Comparison::Eq => eq_partial(a, b),
        Comparison::Lt => cmp_partial(a, b).map(Ordering::is_lt),
        Comparison::Le => cmp_partial(a, b).map(Ordering::is_le),
    };
    r.map_err(|hole| Demand { hole: Hole::new(hole.id), whole: true })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hole(id: u32, suc: u32) -> Value {
        Value::Hole(Hole { id, suc })
    }

    #[test]
    fn equality_decides_on_any_difference() {
        let cons = |x, xs| Value::ctor(1, vec![x, xs]);
        let nil = Value::nullary(0);
        // [?0, 1] = [2, 3]: the second elements differ, so no refinement is needed.
        let a = cons(hole(0, 0), cons(Value::nat(1), nil.clone()));
        let b = cons(Value::nat(2), cons(Value::nat(3), nil.clone()));
        assert_eq!(eq_partial(&a, &b), Ok(false));
        // [?0] = [2]: ?0 decides.
        let a = cons(hole(0, 0), nil.clone());
        let b = cons(Value::nat(2), nil.clone());
        assert_eq!(eq_partial(&a, &b), Err(Hole::new(0)));
        // A hole equals itself; Suc ?0 differs from ?0 and from 0.
        assert_eq!(eq_partial(&hole(0, 0), &hole(0, 0)), Ok(true));
        assert_eq!(eq_partial(&hole(0, 1), &hole(0, 0)), Ok(false));
        assert_eq!(eq_partial(&Value::nat(0), &hole(3, 1)), Ok(false));
        assert_eq!(eq_partial(&Value::nat(1), &hole(3, 1)), Err(Hole { id: 3, suc: 1 }));
        // An `int` hole may be negative: nothing is decided against -1.
        assert_eq!(eq_partial(&Value::int(-1), &hole(4, 0)), Err(Hole::new(4)));
        assert_eq!(cmp_partial(&Value::int(-1), &hole(4, 0)), Err(Hole::new(4)));
    }

    #[test]
    fn order_demands_the_first_hole_before_a_difference() {
        assert_eq!(cmp_partial(&Value::nat(1), &hole(0, 2)), Ok(Ordering::Less));
        assert_eq!(cmp_partial(&hole(0, 2), &Value::nat(2)), Err(Hole { id: 0, suc: 2 }));
        assert_eq!(cmp_partial(&hole(0, 2), &hole(0, 1)), Ok(Ordering::Greater));
        let pair = |x, y| Value::ctor(0, vec![x, y]);
        assert_eq!(cmp_partial(&pair(Value::nat(1), hole(1, 0)), &pair(Value::nat(2), hole(2, 0))), Ok(Ordering::Less));
        assert_eq!(
            cmp_partial(&pair(hole(1, 0), Value::nat(1)), &pair(Value::nat(2), Value::nat(0))),
            Err(Hole::new(1))
        );
    }
}
