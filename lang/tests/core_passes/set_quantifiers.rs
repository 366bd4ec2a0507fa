//! The `core::set_quantifiers` pass, tested through the interpreter.

use lang::core::ir::*;
use lang::core::set_quantifiers::*;
use lang::interp::{call, Limits};

fn builds_sets(e: &Expr) -> bool {
    e.count(&|e| matches!(e, Expr::Prim(Prim::SetUnion(_) | Prim::SetInsert(_), _))) > 0
}

/// Search trees with keys of type `KEY`, ordered by quantifiers over their sets of keys.
pub(crate) const BST: &str = "theory T imports Main begin
         datatype bst = E | T bst KEY bst
         primrec tset :: \"bst ⇒ KEY set\" where
           \"tset E = {}\" | \"tset (T l x r) = tset l ∪ {x} ∪ tset r\"
         primrec ordered :: \"bst ⇒ bool\" where
           \"ordered E = True\"
         | \"ordered (T l x r) = (ordered l ∧ ordered r ∧ (∀y ∈ tset l. y < x) ∧ (∀y ∈ tset r. x < y))\"";

#[test]
fn quantifiers_over_set_functions_walk_with_the_same_values() {
    let mut th = lang::check_theory(
        &(BST.replace("KEY", "nat")
            + "
         fun evens :: \"nat ⇒ nat set\" where
           \"evens 0 = {0}\" | \"evens (Suc n) = (if n mod 2 = 1 then insert (Suc n) (evens n) else evens n)\"
         value \"ordered (T (T E 1 E) 2 (T E 3 E))\"
         value \"ordered (T (T E 1 E) 2 (T E 2 E))\"
         value \"∃y ∈ tset (T (T E 1 E) 2 (T E 3 E)). y > 2\"
         value \"∃y ∈ tset (T (T E 1 E) 2 (T E 3 E)). y > 3\"
         value \"∀y ∈ evens 9. y mod 2 = 0\"
         value \"∃y ∈ evens 9. y = 7\"
         value \"∀y ∈ tset (T E 1 E) ∩ {1, 2}. y = 1\"
         end"),
    );
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    let (p, values) = th.lower_values();
    let w = distribute_set_quantifiers(p).expect("quantifiers over tset");
    let names: Vec<&str> = w.funs.iter().map(|f| f.name.as_str()).collect();
    for walk in ["tset.all", "tset.ex", "evens.all", "evens.ex"] {
        let f = w.funs.iter().find(|f| f.name.starts_with(walk)).unwrap_or_else(|| panic!("{walk}: {names:?}"));
        assert!(!builds_sets(&f.body), "{walk} builds a set: {:?}", f.body);
    }
    for (a, b) in p.funs.iter().zip(&w.funs) {
        assert_eq!((&a.name, &a.params), (&b.name, &b.params));
    }
    let results: Vec<_> = values.iter().map(|f| call(&w, *f, vec![], &Limits::default())).collect();
    let expected: Vec<_> = values.iter().map(|f| call(p, *f, vec![], &Limits::default())).collect();
    assert_eq!(results, expected);
}

/// Narrowing evaluates a conjecture's `lazy_program`: there a quantifier over `tset t` is a
/// walk over `t`, so a partial `t` is refined only where the walk goes (a built set needs
/// all of it), and the parts keep their ids.
#[test]
fn a_conjectures_lazy_program_walks_its_set_quantifiers() {
    let th = lang::check_theory(
        &(BST.replace("KEY", "int")
            + "
         lemma \"ordered t ⟹ ∀y ∈ tset t. y ≠ x\" oops
         end"),
    );
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    let c = th.lower_conjecture(0, &[]);
    let lazy = c.lazy_program();
    let quantifies_a_call =
        |e: &Expr| e.count(&|e| matches!(e, Expr::Quant { domain: Some(d), .. } if matches!(**d, Expr::Call(..)))) > 0;
    let ordered = |p: &Program| p.funs.iter().find(|f| f.name == "ordered").expect("ordered").body.clone();
    assert!(quantifies_a_call(&ordered(&c.program)));
    assert!(!quantifies_a_call(&ordered(lazy)), "{:?}", ordered(lazy));
    assert!(!quantifies_a_call(&lazy.fun(c.conclusion.fun).body));
    assert!(lazy.funs.iter().any(|f| f.name.starts_with("tset.all")));
    for (a, b) in c.program.funs.iter().zip(&lazy.funs) {
        assert_eq!((&a.name, &a.params), (&b.name, &b.params));
    }
}
