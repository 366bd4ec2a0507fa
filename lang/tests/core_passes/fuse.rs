//! The `core::fuse` pass: conjunctions of structural predicates on one value become one
//! fused predicate, which holds of exactly the values the conjunction holds of (the
//! interpreter on every small tree, before and after).

use lang::core::ir::*;
use lang::interp::{call, Int, Limits, Value};

const RBT: &str = "theory T imports Main begin
  datatype color = Red | Black
  datatype 'a tree = Leaf | Node \"'a tree\" 'a \"'a tree\"
  type_synonym 'a rbt = \"('a × color) tree\"
  fun color :: \"'a rbt ⇒ color\" where
    \"color Leaf = Black\" | \"color (Node _ (_, c) _) = c\"
  fun invc :: \"'a rbt ⇒ bool\" where
    \"invc Leaf = True\"
  | \"invc (Node l (a, c) r) = ((c = Red ⟶ color l = Black ∧ color r = Black) ∧ invc l ∧ invc r)\"
  fun bheight :: \"'a rbt ⇒ nat\" where
    \"bheight Leaf = 0\"
  | \"bheight (Node l (x, c) r) = (if c = Black then Suc (bheight l) else bheight l)\"
  fun invh :: \"'a rbt ⇒ bool\" where
    \"invh Leaf = True\" | \"invh (Node l (x, c) r) = (bheight l = bheight r ∧ invh l ∧ invh r)\"
  definition rbt :: \"nat rbt ⇒ bool\" where \"rbt t = (invc t ∧ invh t ∧ color t = Black)\"
  value \"rbt Leaf\"
  end";

/// Every tree of at most `depth` levels (`Leaf` and `Node l key r`) with the given keys.
fn trees(depth: u32, keys: &[Value]) -> Vec<Value> {
    let mut out = vec![Value::ctor_from(0, [])];
    if depth == 0 {
        return out;
    }
    let below = trees(depth - 1, keys);
    for l in &below {
        for r in &below {
            for key in keys {
                out.push(Value::ctor_from(1, [l.clone(), key.clone(), r.clone()]));
            }
        }
    }
    out
}

#[test]
fn a_fused_invariant_holds_of_the_trees_the_conjunction_holds_of() {
    let mut th = lang::check_theory(RBT);
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    let (p, _) = th.lower_values();
    let p = p.clone();
    let mut fused = p.clone();
    assert!(lang::core::fuse::apply(&mut fused));
    let id = |prog: &Program, name: &str| {
        let names: Vec<&str> = prog.funs.iter().map(|f| f.name.as_str()).collect();
        let at = names.iter().position(|n| *n == name).unwrap_or_else(|| panic!("no {name} in {names:?}"));
        FunId(at as u32)
    };
    // `rbt` calls the fused predicate, which calls itself on the subtrees: the two cases on
    // the pair became one, so its calls on the subtrees met in one conjunction.
    let both = id(&fused, "(invc[nat] ∧ invh[nat])");
    let calls = |f: FunId| fused.fun(f).body.count(&|e| matches!(e, Expr::Call(g, _) if *g == both));
    assert_eq!((calls(id(&fused, "rbt")), calls(both)), (1, 2));
    for f in ["invc[nat]", "invh[nat]"] {
        assert_eq!(calls(id(&fused, f)), 0, "{f} is left as it was");
    }
    let (before, after) = (id(&p, "rbt"), id(&fused, "rbt"));
    let mut valid = 0;
    // Keys 0 and 1, either colour.
    let keys: Vec<Value> = (0..2i64)
        .flat_map(|key| {
            (0..2).map(move |colour| Value::ctor_from(0, [Value::Int(Int::from(key)), Value::ctor_from(colour, [])]))
        })
        .collect();
    for t in trees(3, &keys) {
        let expected = call(&p, before, vec![t.clone()], &Limits::default());
        assert_eq!(call(&fused, after, vec![t.clone()], &Limits::default()), expected, "{t:?}");
        valid += (expected == Ok(Value::Bool(true))) as u32;
    }
    // Black-rooted red-black trees of up to 3 levels among the 40,805 trees.
    assert!(valid > 100, "{valid}");
}

#[test]
fn a_quantifier_over_a_subtree_is_fused_as_a_predicate_with_the_bound_as_input() {
    let mut th = lang::check_theory(&(super::set_quantifiers::BST.replace("KEY", "nat") + "value \"ordered E\" end"));
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    let (p, _) = th.lower_values();
    let p = p.clone();
    // As the smart generators prepare their copy: the quantifiers walk the subtrees, the
    // walks take the bound instead of a closure, and fusion puts them into `ordered`.
    let mut fused = p.clone();
    assert!(lang::core::set_quantifiers::apply(&mut fused));
    assert!(lang::core::specialize::apply(&mut fused));
    assert!(lang::core::fuse::apply(&mut fused));
    let with_inputs: Vec<&FunDef> = fused.funs.iter().filter(|f| f.name.contains('∧') && f.params.len() > 1).collect();
    assert!(!with_inputs.is_empty(), "no fused predicate with an input");
    // The fused predicates stay finitely many: a walk met again with another bound is a
    // check, not a new fusion.
    assert!(fused.funs.len() < p.funs.len() + 16, "{} functions", fused.funs.len());
    let id = |prog: &Program| FunId(prog.funs.iter().position(|f| f.name == "ordered").expect("ordered") as u32);
    let mut valid = 0;
    let keys: Vec<Value> = (0..3i64).map(|k| Value::Int(Int::from(k))).collect();
    for t in trees(3, &keys) {
        let expected = call(&p, id(&p), vec![t.clone()], &Limits::default());
        assert_eq!(call(&fused, id(&fused), vec![t.clone()], &Limits::default()), expected, "{t:?}");
        valid += (expected == Ok(Value::Bool(true))) as u32;
    }
    // Search trees of the keys 0 to 2 of at most 3 levels.
    assert!(valid > 10, "{valid}");
}
