//! The `core::specialize` pass, tested through the interpreter.

use lang::core::ir::*;
use lang::core::specialize::*;
use lang::interp::{call, Limits};

fn applies(e: &Expr) -> bool {
    e.count(&|e| matches!(e, Expr::Apply(..))) > 0
}

#[test]
fn known_closures_become_direct_code_with_the_same_values() {
    let mut th = lang::check_theory(
        "theory T imports Main begin
         value \"rev [1, 2, 3 :: nat]\"
         value \"map (λx. x + 1) [1, 2 :: nat]\"
         value \"map (λy. y + 1) [3 :: nat] @ map Suc [4]\"
         value \"filter (λx. x > 1) (map (λx. x * 2) [0, 1, 2 :: nat])\"
         value \"let n = (2 :: nat); m = (5 :: nat) in filter (λy. y < n) [3, 1, 0] @ filter (λz. z < m) [7, 4]\"
         end",
    );
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    let (p, values) = th.lower_values();
    let code = p.with_code_equations().expect("the prelude's rev has a code equation");
    let s = specialize_closure_args(&code).expect("closures to specialise");
    // `fold Cons`: a copy of `fold` without its function parameter and no closure call.
    let fold = s.funs.iter().find(|f| f.name.starts_with("fold[") && f.name.contains(".spec")).expect("fold copy");
    assert_eq!(fold.params.len(), 2, "{}", fold.name);
    assert!(!applies(&fold.body), "{:?}", fold.body);
    // `map` with `λx. x + 1` and `λy. y + 1`: one copy (the same closure up to names);
    // with `Suc` (a λ over the constructor-like builtin) another.
    let maps = s.funs.iter().filter(|f| f.name.starts_with("map[") && f.name.contains(".spec")).count();
    assert_eq!(maps, 3, "{:?}", s.funs.iter().map(|f| &f.name).collect::<Vec<_>>());
    // `filter` with `λy. y < n` and `λz. z < m`: one copy, taking the captured bound as
    // a parameter after the list.
    let filters: Vec<&FunDef> =
        s.funs.iter().filter(|f| f.name.starts_with("filter[") && f.name.contains(".spec")).collect();
    assert_eq!(filters.len(), 2, "{:?}", filters.iter().map(|f| &f.name).collect::<Vec<_>>());
    let captured = filters.iter().find(|f| f.params.len() == 2).expect("a copy with the capture as a parameter");
    assert!(!applies(&captured.body), "{:?}", captured.body);
    // Existing functions keep their ids and parameters.
    for (a, b) in code.funs.iter().zip(&s.funs) {
        assert_eq!((&a.name, &a.params), (&b.name, &b.params));
    }
    for f in values {
        assert_eq!(call(&s, f, vec![], &Limits::default()), call(p, f, vec![], &Limits::default()));
    }
}

#[test]
fn nothing_to_specialise_is_none() {
    let mut th = lang::check_theory("theory T imports Main begin value \"length [1, 2 :: nat]\" end");
    let (p, _) = th.lower_values();
    assert!(specialize_closure_args(p).is_none());
}
