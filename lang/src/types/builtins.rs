//! The constants the theory language cannot define for itself: logic, equality, order,
//! arithmetic on `nat`/`int`, sets. Each has a type scheme (overloaded ones over a sorted
//! type variable) and an arity; `core::lower` picks the primitive from the instance type.

use super::hir::Scheme;
use super::ty::Type;
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    True,
    False,
    Not,
    And,
    Or,
    Imp,
    Eq,
    Less,
    LessEq,
    Plus,
    Minus,
    Times,
    Div,
    Mod,
    Uminus,
    Suc,
    IntOfNat,
    NatOfInt,
    EmptySet,
    Insert,
    Member,
    Union,
    Inter,
    Univ,
    SubsetEq,
    Subset,
    /// `[m..n]`: `upt m (Suc n)` on `nat`, `upto m n` on `int`.
    RangeIncl,
    Undefined,
    /// `sorted_list_of_set`: the elements of a finite set, ascending.
    SetToList,
    /// `finite :: 'a set ⇒ bool`: a primitive because only the set's representation tells
    /// (a complement over an infinite type is infinite, every other set is finite).
    Finite,
    /// `size :: 'a::size ⇒ nat`: Isabelle's overloaded size, defined by the datatype package
    /// for every datatype (and as the identity on `nat`); `core::lower` builds the function
    /// of each instance from the datatype's declaration, so it works for user datatypes too.
    Size,
    /// `of_nat :: nat ⇒ 'a::semiring_1`: the identity on `nat`, `int` on `int` (Isabelle's
    /// code equations for both).
    OfNat,
}

impl Builtin {
    /// Every builtin, in declaration order (so `ALL[b as usize] == b`): how an environment
    /// image (`types::image`) reads them back.
    pub const ALL: [Builtin; 32] = {
        use Builtin::*;
        [
            True, False, Not, And, Or, Imp, Eq, Less, LessEq, Plus, Minus, Times, Div, Mod, Uminus, Suc, IntOfNat,
            NatOfInt, EmptySet, Insert, Member, Union, Inter, Univ, SubsetEq, Subset, RangeIncl, Undefined, SetToList,
            Finite, Size, OfNat,
        ]
    };
}

/// Builtins a theory can name directly.
pub const NAMED: &[(&str, Builtin)] = &[
    ("True", Builtin::True),
    ("False", Builtin::False),
    ("Not", Builtin::Not),
    ("conj", Builtin::And),
    ("disj", Builtin::Or),
    ("implies", Builtin::Imp),
    ("Suc", Builtin::Suc),
    ("int", Builtin::IntOfNat),
    ("nat", Builtin::NatOfInt),
    ("insert", Builtin::Insert),
    ("UNIV", Builtin::Univ),
    ("undefined", Builtin::Undefined),
    ("sorted_list_of_set", Builtin::SetToList),
    ("finite", Builtin::Finite),
    ("size", Builtin::Size),
    ("of_nat", Builtin::OfNat),
    ("plus", Builtin::Plus),
    ("minus", Builtin::Minus),
    ("times", Builtin::Times),
    ("uminus", Builtin::Uminus),
    ("less", Builtin::Less),
    ("less_eq", Builtin::LessEq),
    ("union", Builtin::Union),
    ("inter", Builtin::Inter),
];

impl Builtin {
    /// Number of arguments the primitive takes when saturated.
    pub fn arity(self) -> usize {
        use Builtin::*;
        match self {
            True | False | EmptySet | Univ | Undefined => 0,
            Not | Uminus | Suc | IntOfNat | NatOfInt | SetToList | Finite | Size | OfNat => 1,
            _ => 2,
        }
    }

    pub fn scheme(self) -> Scheme {
        use Builtin::*;
        let a = || Type::param("'a");
        let sorted = |class: &str, ty: Type| Scheme { params: vec![(Arc::from("'a"), vec![Arc::from(class)])], ty };
        let poly = |ty: Type| Scheme { params: vec![(Arc::from("'a"), vec![])], ty };
        let mono = |ty: Type| Scheme { params: vec![], ty };
        let b = Type::bool;
        let bin = |t: Type| Type::curried(vec![t.clone(), t.clone()], t);
        let pred2 = |t: Type| Type::curried(vec![t.clone(), t], Type::bool());
        match self {
            True | False => mono(b()),
            Not => mono(Type::fun(b(), b())),
            And | Or | Imp => mono(bin(b())),
            Eq => poly(pred2(a())),
            Less | LessEq => sorted("ord", pred2(a())),
            Plus => sorted("plus", bin(a())),
            Minus => sorted("minus", bin(a())),
            Times => sorted("times", bin(a())),
            Div => sorted("divide", bin(a())),
            Mod => sorted("modulo", bin(a())),
            Uminus => sorted("uminus", Type::fun(a(), a())),
            Suc => mono(Type::fun(Type::nat(), Type::nat())),
            IntOfNat => mono(Type::fun(Type::nat(), Type::int())),
            NatOfInt => mono(Type::fun(Type::int(), Type::nat())),
            EmptySet | Univ => poly(Type::set(a())),
            Insert => poly(Type::curried(vec![a(), Type::set(a())], Type::set(a()))),
            Member => poly(Type::curried(vec![a(), Type::set(a())], b())),
            Union | Inter => poly(bin(Type::set(a()))),
            SubsetEq | Subset => poly(pred2(Type::set(a()))),
            RangeIncl => sorted("range", Type::curried(vec![a(), a()], Type::list(a()))),
            Undefined => poly(a()),
            SetToList => poly(Type::fun(Type::set(a()), Type::list(a()))),
            Finite => poly(Type::fun(Type::set(a()), b())),
            Size => sorted("size", Type::fun(a(), Type::nat())),
            OfNat => sorted("semiring_1", Type::fun(Type::nat(), a())),
        }
    }
}
