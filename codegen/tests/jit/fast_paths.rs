//! The JIT's specialised paths against the interpreter: set algebra written straight into
//! the arena (`rt_set_scalar` for elements ordered as words, `rt_set` for structured ones,
//! cells shared when a result equals an input), and the compiled per-datatype comparisons
//! (tail-calling along lists, handing deep left spines to the iterative `rt_cmp`).

use crate::common::{check_call, Tally};
use crate::gen::{value, Rng};
use codegen::Jit;
use lang::core::ir::{FunId, Ty};
use lang::interp::{Interp, Limits, Value};

const SETS: &str = r#"theory S imports Main begin
definition ops :: "'a set ⇒ 'a set ⇒ 'a ⇒ 'a set list" where
  "ops A B x = [A ∪ B, A ∩ B, A - B, B - A, insert x A, insert x B, A ∪ {}, {} ∪ B, A - {}, {x} ∪ A, - A, - (A ∪ B) ∩ B]"
definition rels :: "'a set ⇒ 'a set ⇒ 'a ⇒ bool list" where
  "rels A B x = [x ∈ A, x ∈ B, A ⊆ B, A ⊂ B, A = B, B ⊆ A, insert x A = A, A ∪ B = B ∪ A]"
value "(ops :: nat set ⇒ nat set ⇒ nat ⇒ nat set list)"
value "(rels :: nat set ⇒ nat set ⇒ nat ⇒ bool list)"
value "(ops :: int list set ⇒ int list set ⇒ int list ⇒ int list set list)"
value "(rels :: int list set ⇒ int list set ⇒ int list ⇒ bool list)"
end"#;

#[test]
fn set_algebra_agrees() {
    let mut th = lang::check_theory(SETS);
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    let p = th.lower_values().0.clone();
    // The instances of `ops` and `rels` (the `value` functions only return them).
    let fs: Vec<FunId> = (0..p.funs.len() as u32)
        .map(FunId)
        .filter(|f| ["ops", "rels"].iter().any(|n| p.fun(*f).name.starts_with(n)))
        .collect();
    assert_eq!(fs.len(), 4);
    let mut jit = Jit::compile(&p).unwrap();
    let limits = Limits::default();
    let mut tally = Tally::default();
    let mut rng = Rng::new(11);
    for f in fs {
        let tys: Vec<Ty> = p.fun(f).params.iter().map(|(_, t)| t.clone()).collect();
        for k in 0..300 {
            // Small element ranges, so the two sets overlap and `x` is often in them.
            let args: Vec<Value> = tys.iter().map(|t| value(&p, t, (k % 5) as u32, &mut rng).unwrap()).collect();
            match check_call(&mut jit, f, &args, &limits) {
                Ok(v) => tally.add(v),
                Err(msg) => panic!("{} {args:?}\n{msg}", p.fun(f).name),
            }
        }
    }
    assert!(tally.agree >= 1100, "{tally:?}");
}

const TREES: &str = r#"theory T imports Main begin
datatype tree = Lf | Nd tree nat tree
definition cmp :: "tree ⇒ tree ⇒ bool list" where "cmp s t = [s = t, s < t, s ≤ t]"
definition lcmp :: "nat list ⇒ nat list ⇒ bool list" where "lcmp s t = [s = t, s < t, s ≤ t]"
value "cmp Lf Lf"
value "lcmp [] []"
end"#;

/// A tree whose left spine is `n` nodes long, with `last` as the key of its deepest node.
fn left_spine(n: u64, last: u64) -> Value {
    let mut t = Value::nullary(0);
    for i in 0..n {
        let k = if i == 0 { last } else { i };
        t = Value::ctor(1, vec![t, Value::nat(k), Value::nullary(0)]);
    }
    t
}

fn list(n: u64, last: u64) -> Value {
    let mut l = Value::nullary(0);
    for i in 0..n {
        let k = if i == 0 { last } else { i };
        l = Value::ctor(1, vec![Value::nat(k), l]);
    }
    l
}

#[test]
fn compiled_comparisons_agree_on_long_and_deep_values() {
    let mut th = lang::check_theory(TREES);
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    let p = th.lower_values().0.clone();
    let find = |name: &str| FunId(p.funs.iter().position(|f| f.name.starts_with(name)).unwrap() as u32);
    let (cmp, lcmp) = (find("cmp"), find("lcmp"));
    let limits = Limits { fuel: u64::MAX, max_depth: u32::MAX, deadline: None };
    // Lists compare along a tail call, trees recurse on the left and fall back to `rt_cmp`
    // when the stack runs low: neither may take a small thread down.
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            let bools = |v: &[bool]| {
                let mut l = Value::nullary(0);
                for b in v.iter().rev() {
                    l = Value::ctor(1, vec![Value::Bool(*b), l]);
                }
                l
            };
            let (eq, lt, gt) = ([true, false, true], [false, true, true], [false, false, false]);
            let mut jit = Jit::with_arena(&p, 1 << 24).unwrap();
            let mut it = Interp::new(&p);
            for (f, a, b, want) in [
                (lcmp, list(300_000, 1), list(300_000, 1), eq),
                (lcmp, list(300_000, 1), list(300_000, 2), lt),
                (cmp, left_spine(200_000, 3), left_spine(200_000, 3), eq),
                (cmp, left_spine(200_000, 4), left_spine(200_000, 3), gt),
                (cmp, left_spine(200_000, 3), left_spine(199_999, 3), gt),
            ] {
                let j = jit.call(f, &[a.clone(), b.clone()], &limits).unwrap();
                let i = it.call(f, vec![a, b], &limits).unwrap();
                assert_eq!(j, i);
                assert_eq!(j, bools(&want));
            }
        })
        .unwrap()
        .join()
        .unwrap();
    let mut tally = Tally::default();
    // Small random trees and lists, both orders.
    let mut th = lang::check_theory(TREES);
    let (p, _) = th.lower_values();
    let p = p.clone();
    let mut jit = Jit::compile(&p).unwrap();
    let mut rng = Rng::new(5);
    for f in [cmp, lcmp] {
        let tys: Vec<Ty> = p.fun(f).params.iter().map(|(_, t)| t.clone()).collect();
        for k in 0..400 {
            let args: Vec<Value> = tys.iter().map(|t| value(&p, t, (k % 4) as u32, &mut rng).unwrap()).collect();
            tally.add(check_call(&mut jit, f, &args, &Limits::default()).unwrap_or_else(|m| panic!("{m}")));
        }
    }
    // Generated numbers past 64 bits are handed over.
    assert!(tally.agree >= 700 && tally.agree + tally.handed_over == 800, "{tally:?}");
}
