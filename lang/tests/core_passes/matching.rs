//! The `core::matching` pass, tested through the interpreter.

use lang::core::ir::*;
use lang::interp::Limits;
use lang::ValueOutcome;
use num_bigint::BigUint;

/// The `value`s of `defs` (theory text) with their printed results, by the interpreter.
fn values(defs: &str, terms: &[&str]) -> Vec<String> {
    let values: String = terms.iter().map(|t| format!("value \"{t}\"\n")).collect();
    let mut th = lang::check_theory(&format!("theory T imports Main begin\n{defs}\n{values}end"));
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    th.value_indices()
        .into_iter()
        .map(|i| match th.eval_value(i, &Limits::default()) {
            ValueOutcome::Value { printed, .. } => printed,
            ValueOutcome::Failed(e) => format!("error: {e}"),
        })
        .collect()
}

/// The body of the function named `name` after lowering `defs` with `value "use"`.
fn body(defs: &str, name: &str, use_: &str) -> Expr {
    let mut th = lang::check_theory(&format!("theory T imports Main begin\n{defs}\nvalue \"{use_}\"\nend"));
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    let (p, _) = th.lower_values();
    p.funs.iter().find(|f| f.name.starts_with(name)).expect("the function").body.clone()
}

fn nodes(e: &Expr) -> usize {
    e.count(&|_| true)
}

fn nat_cases(e: &Expr) -> usize {
    e.count(&|e| matches!(e, Expr::NatCase { .. }))
}

#[test]
fn a_large_numeral_pattern_is_one_comparison() {
    let def = |n: u64| format!("fun g :: \"nat ⇒ nat\" where \"g {n} = 1\" | \"g _ = 0\"");
    let big = body(&def(1_000_000), "g", "g 3");
    // `if x = 1000000 then 1 else 0`: no `Suc` peeled.
    assert_eq!(nat_cases(&big), 0, "{big:?}");
    let eq = |e: &Expr| {
        matches!(e, Expr::Prim(Prim::Eq(Ty::Nat), args)
            if matches!(&args[1], Expr::Lit(Lit::Nat(n)) if *n == BigUint::from(1_000_000u32)))
    };
    assert_eq!(big.count(&eq), 1, "{big:?}");
    // The IR's size does not depend on the numeral's value.
    for n in [9, 1000, 1u64 << 40] {
        assert_eq!(nodes(&body(&def(n), "g", "g 3")), nodes(&big), "g {n}");
    }
    assert_eq!(values(&def(1_000_000), &["g 1000000", "g 999999", "g 0"]), ["1", "0", "0"]);
}

#[test]
fn a_large_numeral_in_a_case_expression_is_compared() {
    let vs = values(
        "",
        &[
            "case (5::nat) of 1000000 ⇒ True | _ ⇒ False",
            "case (1000000::nat) of 1000000 ⇒ True | _ ⇒ False",
            "case (18446744073709551616::nat) of 18446744073709551616 ⇒ 1 | n ⇒ n + (1::nat)",
            "case (7::nat) of 18446744073709551616 ⇒ 1 | n ⇒ n + (1::nat)",
        ],
    );
    assert_eq!(vs, ["False", "True", "1", "8"]);
}

#[test]
fn suc_patterns_over_large_numerals_compare_and_subtract() {
    let def = "fun h :: \"nat ⇒ nat\" where
          \"h 0 = 100\" | \"h (Suc 999999) = 7\" | \"h (Suc (Suc n)) = n\" | \"h _ = 42\"";
    let b = body(def, "h", "h 3");
    assert_eq!(nat_cases(&b), 0, "{b:?}");
    // `h 1000000` is the second equation, `Suc (Suc n)` binds `n = x - 2` elsewhere.
    let vs = values(def, &["h 0", "h 1", "h 2", "h 5", "h 1000000", "h 1000001", "h 999999"]);
    assert_eq!(vs, ["100", "42", "0", "3", "7", "999999", "999997"]);
    // A deeper `Suc` chain first, a shallower one after: each binds its own difference.
    let def = "fun k :: \"nat ⇒ nat ⇒ nat\" where
          \"k 1000 _ = 1\" | \"k (Suc (Suc (Suc n))) 0 = n\" | \"k (Suc m) _ = m + 10\" | \"k 0 y = y\"";
    let vs = values(def, &["k 1000 0", "k 5 0", "k 5 1", "k 2 0", "k 1 9", "k 0 9", "k 3 0"]);
    assert_eq!(vs, ["1", "2", "14", "11", "10", "9", "0"]);
}

#[test]
fn small_numerals_still_peel() {
    let def = "fun fib :: \"nat ⇒ nat\" where
          \"fib 0 = 0\" | \"fib (Suc 0) = 1\" | \"fib (Suc (Suc n)) = fib n + fib (Suc n)\"";
    let b = body(def, "fib", "fib 3");
    assert!(nat_cases(&b) >= 2, "{b:?}");
    assert_eq!(values(def, &["fib 10"]), ["55"]);
}

#[test]
fn many_numeral_equations_grow_linearly() {
    let def = |n: usize| {
        let eqs: Vec<String> = (0..n).map(|i| format!("\"f {i} = {}\"", i * 3)).collect();
        format!("fun f :: \"nat ⇒ nat\" where {} | \"f _ = 1\"", eqs.join(" | "))
    };
    let (a, b) = (nodes(&body(&def(100), "f", "f 3")), nodes(&body(&def(200), "f", "f 3")));
    assert!(b <= 2 * a + 2, "100 equations: {a} nodes, 200: {b}");
    assert_eq!(values(&def(200), &["f 0", "f 199", "f 200", "f 57"]), ["0", "597", "1", "171"]);
}

#[test]
fn int_numeral_patterns_compare_negative_literals() {
    let def = "fun s :: \"int ⇒ int\" where \"s (-1000000) = 1\" | \"s 3 = 2\" | \"s (-3) = 4\" | \"s x = x * 10\"";
    let vs = values(def, &["s (-1000000)", "s 3", "s (-3)", "s 7", "s (-999999)"]);
    assert_eq!(vs, ["1", "2", "4", "70", "-9999990"]);
}
