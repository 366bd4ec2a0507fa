//! The `core::reuse_cells` pass, tested through the interpreter.

use lang::core::ir::*;
use lang::core::reuse_cells::*;
use lang::interp::{call, Limits};

fn cons_cells(e: &Expr) -> usize {
    e.count(&|e| matches!(e, Expr::Ctor(_, args) if !args.is_empty()))
}

#[test]
fn rebuilt_cells_become_the_matched_value_with_the_same_values() {
    let mut th = lang::check_theory(
        "theory T imports Main begin
         fun ascending :: \"nat list ⇒ bool\" where
           \"ascending (x # y # zs) = (x ≤ y ∧ ascending (y # zs))\" | \"ascending _ = True\"
         fun swap_pairs :: \"nat list ⇒ nat list\" where
           \"swap_pairs (x # y # zs) = y # x # swap_pairs zs\" | \"swap_pairs xs = xs\"
         fun shadow :: \"nat list ⇒ nat list\" where
           \"shadow (x # xs) = (let x = x + 1 in x # xs)\" | \"shadow [] = []\"
         value \"ascending [1, 2, 2, 5]\"
         value \"ascending [1, 3, 2]\"
         value \"swap_pairs [1, 2, 3, 4, 5]\"
         value \"shadow [1, 2]\"
         end",
    );
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    let (p, values) = th.lower_values();
    let mut q = p.clone();
    assert!(apply(&mut q));
    let body = |p: &Program, name: &str| p.funs.iter().find(|f| f.name.starts_with(name)).unwrap().body.clone();
    // `y # zs` is the matched tail: no cell left to build.
    assert_eq!(cons_cells(&body(&q, "ascending")), 0, "{:?}", body(&q, "ascending"));
    // `x # swap_pairs zs` and `y # ...` are new cells; so is `x # xs` under a new `x`.
    assert_eq!(cons_cells(&body(&q, "swap_pairs")), cons_cells(&body(p, "swap_pairs")));
    assert_eq!(cons_cells(&body(&q, "shadow")), cons_cells(&body(p, "shadow")));
    let results: Vec<_> = values.iter().map(|f| call(&q, *f, vec![], &Limits::default())).collect();
    let expected: Vec<_> = values.iter().map(|f| call(p, *f, vec![], &Limits::default())).collect();
    assert_eq!(results, expected);
}
