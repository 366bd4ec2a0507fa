//! Arithmetic laws on random inputs, small and big: the `i64` fast path agrees with plain
//! `BigInt` arithmetic, division and remainder follow Isabelle's conventions.

use lang::core::ir::{Expr, Lit, NumTy, Prim, Program};
use lang::interp::{eval, Int, Limits, Value};
use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_traits::{Signed, Zero};
use proptest::prelude::*;

/// Integers near the edges of the fast path, small ones, and big ones.
fn any_bigint() -> impl Strategy<Value = BigInt> {
    prop_oneof![
        prop::sample::select(vec![
            0i64,
            1,
            -1,
            2,
            -2,
            i64::MAX,
            i64::MIN,
            i64::MAX - 1,
            i64::MIN + 1,
            1 << 32,
            -(1 << 32)
        ])
        .prop_map(BigInt::from),
        (-1000i64..1000).prop_map(BigInt::from),
        any::<i64>().prop_map(BigInt::from),
        any::<i128>().prop_map(BigInt::from),
        (any::<bool>(), prop::collection::vec(any::<u32>(), 0..6))
            .prop_map(|(neg, digits)| BigInt::from_slice(if neg { Sign::Minus } else { Sign::Plus }, &digits)),
    ]
}

fn any_nat() -> impl Strategy<Value = BigInt> {
    any_bigint().prop_map(|b| b.abs())
}

fn int(b: &BigInt) -> Int {
    Int::from(b.clone())
}

/// The reference: Isabelle's `div`/`mod` on plain `BigInt`s.
fn ref_div(a: &BigInt, b: &BigInt) -> BigInt {
    if b.is_zero() {
        BigInt::zero()
    } else {
        a.div_floor(b)
    }
}

fn ref_mod(a: &BigInt, b: &BigInt) -> BigInt {
    if b.is_zero() {
        a.clone()
    } else {
        a.mod_floor(b)
    }
}

/// `Int`s are canonical: `Small` exactly when the value fits an `i64`.
fn canonical(i: &Int) -> bool {
    match i {
        Int::Small(_) => true,
        Int::Big(b) => i64::try_from(&**b).is_err(),
    }
}

fn lit(ty: NumTy, b: &BigInt) -> Expr {
    match ty {
        NumTy::Nat => Expr::Lit(Lit::Nat(b.to_biguint().unwrap_or_else(BigUint::zero))),
        NumTy::Int => Expr::Lit(Lit::Int(b.clone())),
    }
}

/// Evaluates `prim(a, b)` through the interpreter.
fn eval_prim(prim: Prim, ty: NumTy, a: &BigInt, b: &BigInt) -> BigInt {
    let e = Expr::Prim(prim, vec![lit(ty, a), lit(ty, b)]);
    match eval(&Program::default(), &e, 0, &Limits::default()) {
        Ok(Value::Int(i)) => i.to_bigint(),
        other => panic!("unexpected {other:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn fast_path_agrees_with_bigint(a in any_bigint(), b in any_bigint()) {
        let (x, y) = (int(&a), int(&b));
        for (got, want) in [
            (x.add(&y), &a + &b),
            (x.sub(&y), &a - &b),
            (x.mul(&y), &a * &b),
            (x.div(&y), ref_div(&a, &b)),
            (x.modulo(&y), ref_mod(&a, &b)),
            (x.neg(), -&a),
            (x.suc(), &a + 1),
        ] {
            prop_assert!(canonical(&got), "not canonical: {got:?}");
            prop_assert_eq!(got.to_bigint(), want);
        }
        prop_assert_eq!(x.cmp(&y), a.cmp(&b));
        prop_assert_eq!(x == y, a == b);
    }

    #[test]
    fn int_div_mod_law(a in any_bigint(), b in any_bigint()) {
        let (x, y) = (int(&a), int(&b));
        let (q, r) = (x.div(&y), x.modulo(&y));
        prop_assert_eq!(q.mul(&y).add(&r), x.clone());
        if !b.is_zero() {
            // The remainder has the sign of the divisor and is smaller in magnitude.
            prop_assert!(r.is_zero() || r.is_negative() == b.is_negative());
            prop_assert!(r.to_bigint().abs() < b.abs());
        }
    }

    #[test]
    fn nat_div_mod_law(a in any_nat(), b in any_nat()) {
        let (x, y) = (int(&a), int(&b));
        let (q, r) = (x.div(&y), x.modulo(&y));
        prop_assert_eq!(q.mul(&y).add(&r), x.clone());
        prop_assert!(!q.is_negative() && !r.is_negative());
        if !b.is_zero() {
            prop_assert!(r < y);
        }
    }

    #[test]
    fn nat_subtraction_truncates(a in any_nat(), b in any_nat()) {
        let d = int(&a).sub_ty(&int(&b), NumTy::Nat).to_bigint();
        prop_assert_eq!(d, if a > b { &a - &b } else { BigInt::zero() });
    }

    #[test]
    fn commutative_and_associative(a in any_bigint(), b in any_bigint(), c in any_bigint()) {
        let (x, y, z) = (int(&a), int(&b), int(&c));
        prop_assert_eq!(x.add(&y), y.add(&x));
        prop_assert_eq!(x.mul(&y), y.mul(&x));
        prop_assert_eq!(x.add(&y).add(&z), x.add(&y.add(&z)));
        prop_assert_eq!(x.mul(&y).mul(&z), x.mul(&y.mul(&z)));
        prop_assert_eq!(x.mul(&y.add(&z)), x.mul(&y).add(&x.mul(&z)));
    }

    #[test]
    fn interpreter_primitives(a in any_bigint(), b in any_bigint()) {
        let (na, nb) = (a.abs(), b.abs());
        prop_assert_eq!(eval_prim(Prim::Div(NumTy::Int), NumTy::Int, &a, &b), ref_div(&a, &b));
        prop_assert_eq!(eval_prim(Prim::Mod(NumTy::Int), NumTy::Int, &a, &b), ref_mod(&a, &b));
        prop_assert_eq!(eval_prim(Prim::Sub(NumTy::Int), NumTy::Int, &a, &b), &a - &b);
        prop_assert_eq!(eval_prim(Prim::Mul(NumTy::Int), NumTy::Int, &a, &b), &a * &b);
        prop_assert_eq!(eval_prim(Prim::Div(NumTy::Nat), NumTy::Nat, &na, &nb), ref_div(&na, &nb));
        prop_assert_eq!(eval_prim(Prim::Mod(NumTy::Nat), NumTy::Nat, &na, &nb), ref_mod(&na, &nb));
        let d = eval_prim(Prim::Sub(NumTy::Nat), NumTy::Nat, &na, &nb);
        prop_assert_eq!(d, if na > nb { &na - &nb } else { BigInt::zero() });
    }
}

#[test]
fn examples_from_isabelle() {
    let i = |n: i64| Int::from(n);
    assert_eq!(i(7).div(&i(-2)), i(-4));
    assert_eq!(i(7).modulo(&i(-2)), i(-1));
    assert_eq!(i(-7).div(&i(2)), i(-4));
    assert_eq!(i(-7).modulo(&i(2)), i(1));
    assert_eq!(i(5).div(&i(0)), i(0));
    assert_eq!(i(5).modulo(&i(0)), i(5));
    assert_eq!(i(3).sub_ty(&i(5), NumTy::Nat), i(0));
    assert_eq!(i(-3).nat_of_int(), i(0));
    assert_eq!(i(i64::MIN).div(&i(-1)).to_bigint(), -BigInt::from(i64::MIN));
}
