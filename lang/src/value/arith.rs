//! Unbounded integer arithmetic with Isabelle's conventions, shared by `nat` and `int`.
//!
//! `Int` is an `i64` fast path with checked operations that fall back to `BigInt`; the
//! representation is canonical (`Big` only for values outside `i64`), so derived equality is
//! numeric equality. `nat` values are the non-negative `Int`s; the operations that differ
//! between the two (`-`, and nothing else once the inputs are non-negative) take a `NumTy`.
//! Conventions: `x div 0 = 0`, `x mod 0 = x`, `int` division floors and `int` remainder has
//! the sign of the divisor, `nat` subtraction truncates at 0. No result is ever wrapped.

use crate::core::ir::NumTy;
use num_bigint::{BigInt, Sign};
use num_integer::Integer;
use num_traits::{Signed, ToPrimitive};
use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;
use std::rc::Rc;

/// An unbounded integer: `Small` whenever the value fits an `i64`, `Big` otherwise.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum Int {
    Small(i64),
    /// Never holds a value that fits an `i64`.
    Big(Rc<BigInt>),
}

impl From<i64> for Int {
    fn from(i: i64) -> Int {
        Int::Small(i)
    }
}

impl From<u64> for Int {
    fn from(u: u64) -> Int {
        match i64::try_from(u) {
            Ok(i) => Int::Small(i),
            Err(_) => Int::Big(Rc::new(BigInt::from(u))),
        }
    }
}

impl From<BigInt> for Int {
    fn from(b: BigInt) -> Int {
        match b.to_i64() {
            Some(i) => Int::Small(i),
            None => Int::Big(Rc::new(b)),
        }
    }
}

impl From<&BigInt> for Int {
    fn from(b: &BigInt) -> Int {
        match b.to_i64() {
            Some(i) => Int::Small(i),
            None => Int::Big(Rc::new(b.clone())),
        }
    }
}

impl From<&num_bigint::BigUint> for Int {
    fn from(b: &num_bigint::BigUint) -> Int {
        match b.to_i64() {
            Some(i) => Int::Small(i),
            None => Int::Big(Rc::new(BigInt::from(b.clone()))),
        }
    }
}

impl Int {
    pub const ZERO: Int = Int::Small(0);

    pub fn big(&self) -> Cow<'_, BigInt> {
        match self {
            Int::Small(i) => Cow::Owned(BigInt::from(*i)),
            Int::Big(b) => Cow::Borrowed(b),
        }
    }

    pub fn to_bigint(&self) -> BigInt {
        self.big().into_owned()
    }

    pub fn to_i64(&self) -> Option<i64> {
        match self {
            Int::Small(i) => Some(*i),
            Int::Big(_) => None,
        }
    }

    pub fn is_zero(&self) -> bool {
        matches!(self, Int::Small(0))
    }

    pub fn is_negative(&self) -> bool {
        match self {
            Int::Small(i) => *i < 0,
            Int::Big(b) => b.is_negative(),
        }
    }

    /// Number of 64-bit words of the magnitude (1 for small values): the cost unit of the
    /// interpreter's fuel accounting for big arithmetic.
    pub fn words(&self) -> u64 {
        match self {
            Int::Small(_) => 1,
            Int::Big(b) => b.bits().div_ceil(64).max(1),
        }
    }

    pub fn add(&self, o: &Int) -> Int {
        if let (Int::Small(a), Int::Small(b)) = (self, o) {
            if let Some(c) = a.checked_add(*b) {
                return Int::Small(c);
            }
        }
        Int::from(&*self.big() + &*o.big())
    }

    /// Integer subtraction (never truncates).
    pub fn sub(&self, o: &Int) -> Int {
        if let (Int::Small(a), Int::Small(b)) = (self, o) {
            if let Some(c) = a.checked_sub(*b) {
                return Int::Small(c);
            }
        }
        Int::from(&*self.big() - &*o.big())
    }

    /// Subtraction on `nat` (truncating at 0) or `int`.
    pub fn sub_ty(&self, o: &Int, ty: NumTy) -> Int {
        match ty {
            NumTy::Int => self.sub(o),
            NumTy::Nat => {
                if self <= o {
                    Int::ZERO
                } else {
                    self.sub(o)
                }
            }
        }
    }

    pub fn mul(&self, o: &Int) -> Int {
        if let (Int::Small(a), Int::Small(b)) = (self, o) {
            if let Some(c) = a.checked_mul(*b) {
                return Int::Small(c);
            }
        }
        Int::from(&*self.big() * &*o.big())
    }

    /// Floor division with `x div 0 = 0` (on non-negative inputs this is `nat` division).
    pub fn div(&self, o: &Int) -> Int {
        match (self, o) {
            (_, Int::Small(0)) => Int::ZERO,
            (Int::Small(a), Int::Small(b)) => match (a.checked_div(*b), a.checked_rem(*b)) {
                (Some(q), Some(r)) => Int::Small(if r != 0 && ((r < 0) != (*b < 0)) { q - 1 } else { q }),
                _ => Int::from(self.big().div_floor(&o.big())),
            },
            _ => Int::from(self.big().div_floor(&o.big())),
        }
    }

    /// Remainder with the sign of the divisor and `x mod 0 = x`.
    pub fn modulo(&self, o: &Int) -> Int {
        match (self, o) {
            (_, Int::Small(0)) => self.clone(),
            (Int::Small(a), Int::Small(b)) => match a.checked_rem(*b) {
                Some(r) => Int::Small(if r != 0 && ((r < 0) != (*b < 0)) { r + b } else { r }),
                None => Int::from(self.big().mod_floor(&o.big())),
            },
            _ => Int::from(self.big().mod_floor(&o.big())),
        }
    }

    pub fn neg(&self) -> Int {
        match self {
            Int::Small(a) => match a.checked_neg() {
                Some(c) => Int::Small(c),
                None => Int::from(-BigInt::from(*a)),
            },
            Int::Big(b) => Int::from(-&**b),
        }
    }

    pub fn suc(&self) -> Int {
        self.add(&Int::Small(1))
    }

    /// `nat :: int ⇒ nat`: negative values give 0.
    pub fn nat_of_int(&self) -> Int {
        if self.is_negative() {
            Int::ZERO
        } else {
            self.clone()
        }
    }
}

impl Ord for Int {
    fn cmp(&self, o: &Int) -> Ordering {
        match (self, o) {
            (Int::Small(a), Int::Small(b)) => a.cmp(b),
            // A `Big` is outside the `i64` range: its sign decides against a `Small`.
            (Int::Small(_), Int::Big(b)) => {
                if b.sign() == Sign::Minus {
                    Ordering::Greater
                } else {
                    Ordering::Less
                }
            }
            (Int::Big(a), Int::Small(_)) => {
                if a.sign() == Sign::Minus {
                    Ordering::Less
                } else {
                    Ordering::Greater
                }
            }
            (Int::Big(a), Int::Big(b)) => a.cmp(b),
        }
    }
}

impl PartialOrd for Int {
    fn partial_cmp(&self, o: &Int) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Int::Small(i) => write!(f, "{i}"),
            Int::Big(b) => write!(f, "{b}"),
        }
    }
}

impl fmt::Debug for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
