//! Partial values in the one-word layout, for code compiled in narrowing mode
//! (`Jit::narrowing`): a hole (`lang::value::Hole`) or a stuck computation
//! (`Value::Stuck`) is a *partial word*, and a demand leaves compiled code as the status
//! `ST_REFINE` with a *demand word* in `RunContext::detail`.
//!
//! Every partial word has bit 63 set, so it is negative as an `i64`:
//!
//! | bits | meaning |
//! |---|---|
//! | 0..32 | the hole's id |
//! | 32 | stuck: a computation that demanded the hole, not the hole itself |
//! | 33 | (stuck only) the demand needs the whole value |
//! | 34..63 | (`nat` holes only) the `Suc`s above the hole |
//!
//! No value of `bool`, `nat`, a datatype, a set or a function is negative (immediates are
//! small, cells are user-space addresses), so one sign test tells a partial word at those
//! types. An `int` can be negative: at `int` the partial words are the range
//! `[i64::MIN, INT_PARTIAL_END)` (an `int` hole has no `Suc`s), and compiled code in
//! narrowing mode hands over (`Overflow`) any number in that range it would produce.
//! A demand word is `BIT63 | whole << 33 | id`, never 0.

use lang::core::ir::Ty;
use lang::value::{Demand, Hole, Value};

pub(crate) const PARTIAL: u64 = 1 << 63;
pub(crate) const STUCK: u64 = 1 << 32;
pub(crate) const WHOLE: u64 = 1 << 33;
pub(crate) const SUC_SHIFT: u32 = 34;
/// One more `Suc` on a `nat` hole's word.
pub(crate) const ONE_SUC: i64 = 1 << SUC_SHIFT;
const ID_MASK: u64 = (1 << 32) - 1;
/// The end of the range of partial words at `int`.
pub(crate) const INT_PARTIAL_END: i64 = i64::MIN + (1 << SUC_SHIFT);
/// The most `Suc`s a hole's word holds: a `Suc` beyond hands the case over.
pub(crate) const MAX_SUC: u32 = (1 << (63 - SUC_SHIFT)) - 1;

/// How a consumer meeting a partial word demands it (the interpreter's rules, `lang::value`'s
/// `partial` module): `Shape` and `Whole` as `blocked(v, whole)` (a stuck computation keeps
/// its own demand), `FirstHole` as a demand for the first hole of an operand, whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DemandKind {
    Shape = 0,
    Whole = 1,
    FirstHole = 2,
}

/// Whether `w`, a word of type `ty`, is partial.
pub(crate) fn is_partial(w: u64, ty: &Ty) -> bool {
    match ty {
        Ty::Int => (w as i64) < INT_PARTIAL_END,
        _ => (w as i64) < 0,
    }
}

/// Whether the number `n` at `int` (or any number, for `nat`) collides with a partial word.
pub(crate) fn int_collides(n: i64) -> bool {
    n < INT_PARTIAL_END
}

/// The word of a hole. `None` when it has more `Suc`s than a word holds.
pub(crate) fn hole_word(h: Hole) -> Option<u64> {
    (h.suc <= MAX_SUC).then_some(PARTIAL | ((h.suc as u64) << SUC_SHIFT) | h.id as u64)
}

/// The word of a computation stuck on `d`.
pub(crate) fn stuck_word(d: Demand) -> u64 {
    demand_word(d) | STUCK
}

pub(crate) fn demand_word(d: Demand) -> u64 {
    PARTIAL | if d.whole { WHOLE } else { 0 } | d.hole.id as u64
}

/// The demand a demand word stands for.
pub(crate) fn demand_of_word(w: u64) -> Demand {
    Demand { hole: Hole::new((w & ID_MASK) as u32), whole: w & WHOLE != 0 }
}

/// The partial value of a partial word.
pub(crate) fn value_of_partial(w: u64) -> Value {
    if w & STUCK != 0 {
        Value::Stuck(demand_of_word(w))
    } else {
        Value::Hole(Hole { id: (w & ID_MASK) as u32, suc: ((w & !PARTIAL) >> SUC_SHIFT) as u32 })
    }
}

/// The demand word a consumer of kind `kind` raises on partial word `w`.
pub(crate) fn demand_on(w: u64, kind: DemandKind) -> u64 {
    let id = w & ID_MASK;
    match kind {
        DemandKind::Shape if w & STUCK != 0 => w & !STUCK,
        DemandKind::Whole if w & STUCK != 0 => w & !STUCK,
        DemandKind::Shape => PARTIAL | id,
        DemandKind::Whole | DemandKind::FirstHole => PARTIAL | WHOLE | id,
    }
}

/// `=` (`op` 0), `<` (1) or `≤` (2) on words `a`, `b` of a scalar type (`bool`, `nat`,
/// `int` when `int`, an enumeration), at least one partial, decided on the words as
/// `lang::value::compare_partial` decides on the values they stand for: two holes of one id
/// by their `Suc`s, `Suc^k ?` against a number below k by its `Suc`s; else `Err` with the
/// demand for the whole of the left operand's unknown, or the right's.
pub(crate) fn compare_scalar_words(op: i64, a: u64, b: u64, int: bool) -> Result<bool, u64> {
    let partial = |w: u64| if int { (w as i64) < INT_PARTIAL_END } else { (w as i64) < 0 };
    // A hole's id and `Suc`s (a stuck word is no hole).
    let hole = |w: u64| (partial(w) && w & STUCK == 0).then_some((w & ID_MASK, (w & !PARTIAL) >> SUC_SHIFT));
    // Only a hole with `Suc`s above it is a `nat`; compared with a number below them it is
    // greater.
    let above = |h: Option<(u64, u64)>, c: u64| matches!(h, Some((_, k)) if k > 0 && !partial(c) && c < k);
    let order = match (hole(a), hole(b)) {
        (Some((x, j)), Some((y, k))) if x == y => j.cmp(&k),
        (h, _) if above(h, b) => std::cmp::Ordering::Greater,
        (_, h) if above(h, a) => std::cmp::Ordering::Less,
        _ => {
            let w = if partial(a) { a } else { b };
            return Err(PARTIAL | WHOLE | (w & ID_MASK));
        }
    };
    Ok(match op {
        0 => order.is_eq(),
        1 => order.is_lt(),
        _ => order.is_le(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip() {
        let h = Hole { id: 7, suc: 3 };
        let w = hole_word(h).unwrap();
        assert!(is_partial(w, &Ty::Nat) && is_partial(w, &Ty::Bool));
        assert_eq!(value_of_partial(w), Value::Hole(h));
        let d = Demand { hole: Hole::new(9), whole: true };
        let s = stuck_word(d);
        assert!(is_partial(s, &Ty::Int));
        assert_eq!(value_of_partial(s), Value::Stuck(d));
        assert_eq!(demand_of_word(demand_on(s, DemandKind::Shape)), d);
        assert_eq!(demand_of_word(demand_on(w, DemandKind::Shape)), Demand { hole: Hole::new(7), whole: false });
        assert_eq!(demand_of_word(demand_on(s, DemandKind::FirstHole)), d);
        // An `int` hole is in the `int` range; ordinary negative numbers are not.
        assert!(is_partial(hole_word(Hole::new(u32::MAX)).unwrap(), &Ty::Int));
        assert!(!is_partial((-5i64) as u64, &Ty::Int));
        assert!(is_partial((-5i64) as u64, &Ty::Nat));
    }

    /// Scalar comparisons on words decide as `compare_partial` on the values.
    #[test]
    fn scalar_comparisons_agree_with_values() {
        use lang::value::{compare_partial, Comparison};
        let nat = |n: i64| (n as u64, Value::nat(n as u64));
        let hole = |id, suc| (hole_word(Hole { id, suc }).unwrap(), Value::Hole(Hole { id, suc }));
        let stuck = |id| {
            let d = Demand { hole: Hole::new(id), whole: false };
            (stuck_word(d), Value::Stuck(d))
        };
        let words = [nat(0), nat(1), nat(3), hole(0, 0), hole(0, 2), hole(1, 1), hole(1, 3), stuck(2)];
        for (op, c) in [(0, Comparison::Eq), (1, Comparison::Lt), (2, Comparison::Le)] {
            for (a, x) in &words {
                for (b, y) in &words {
                    if !is_partial(*a, &Ty::Nat) && !is_partial(*b, &Ty::Nat) {
                        continue;
                    }
                    let want = compare_partial(c, x, y).map_err(demand_word);
                    assert_eq!(compare_scalar_words(op, *a, *b, false), want, "{op} on {x:?}, {y:?}");
                }
            }
        }
        // At `int` a hole may be negative: nothing is decided against a number.
        let (h, v) = (hole_word(Hole::new(4)).unwrap(), Value::Hole(Hole::new(4)));
        let minus = (-1i64) as u64;
        let want = compare_partial(Comparison::Lt, &Value::int(-1), &v).map_err(demand_word);
        assert_eq!(compare_scalar_words(1, minus, h, true), want);
    }
}
