//! What the workload benches share: lowering a property from a theory string, the input
//! spaces of `/work/shared/peers/README.md` (nat lists and BSTs with elements 0..5) built as
//! interpreter values, and the case loops of the JIT and the interpreter.

#![allow(dead_code)] // each bench uses a subset

use codegen::{Jit, LevelEnd};
use lang::core::ir::{FunId, Program, Ty};
use lang::interp::{Interp, Limits, Value};

/// The program of the theory's first `value` command and the function named `name`.
pub fn program(theory: &str, name: &str) -> (Program, FunId) {
    let mut th = lang::check_theory(theory);
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    let (p, _, _) = th.lower_value(0);
    let p = p.clone();
    let f = p.funs.iter().position(|f| f.name.starts_with(name)).unwrap_or_else(|| panic!("{name} lowered"));
    (p, FunId(f as u32))
}

/// `p` without its code equations: compiled, it runs the definitions, as the interpreter
/// does (`jit_definitions` in the benches).
pub fn definitions_only(p: &Program) -> Program {
    let mut d = p.clone();
    d.code.clear();
    d
}

/// All lists of length <= `max_len` over 0..=5, shortest first.
pub fn lists(max_len: usize) -> Vec<Vec<u64>> {
    let mut all = vec![vec![]];
    let mut layer = vec![vec![]];
    for _ in 0..max_len {
        let mut next = Vec::new();
        for l in &layer {
            for x in 0..=5 {
                let mut m: Vec<u64> = l.clone();
                m.push(x);
                next.push(m);
            }
        }
        all.extend(next.iter().cloned());
        layer = next;
    }
    all
}

/// A nat list as an interpreter value (`Nil` is tag 0, `Cons` tag 1).
pub fn list_value(l: &[u64]) -> Value {
    let mut v = Value::nullary(0);
    for x in l.iter().rev() {
        v = Value::ctor(1, vec![Value::nat(*x), v]);
    }
    v
}

/// A binary search tree shape with keys: `datatype bst = E | T bst nat bst`.
#[derive(Clone, Debug)]
pub enum Tree {
    E,
    T(Box<Tree>, u64, Box<Tree>),
}

/// All trees with at most `max_nodes` nodes and keys 0..=5, by node count (345,895 for 5).
pub fn trees(max_nodes: usize) -> Vec<Tree> {
    let mut levels: Vec<Vec<Tree>> = vec![vec![Tree::E]];
    for n in 1..=max_nodes {
        let mut out = Vec::new();
        for i in 0..n {
            for l in &levels[i] {
                for k in 0..=5 {
                    for r in &levels[n - 1 - i] {
                        out.push(Tree::T(Box::new(l.clone()), k, Box::new(r.clone())));
                    }
                }
            }
        }
        levels.push(out);
    }
    levels.into_iter().flatten().collect()
}

/// A tree as an interpreter value (`E` is tag 0, `T` tag 1).
pub fn tree_value(t: &Tree) -> Value {
    match t {
        Tree::E => Value::nullary(0),
        Tree::T(l, k, r) => Value::ctor(1, vec![tree_value(l), Value::nat(*k), tree_value(r)]),
    }
}

/// Builds every input once in the JIT's arena (before the caller's `mark`).
pub fn words(jit: &mut Jit, vals: &[Value], ty: &Ty) -> Vec<u64> {
    vals.iter().map(|v| jit.word_of(v, ty).expect("input fits the arena")).collect()
}

/// Runs `prop x v` in the JIT for every `x` in 0..=5 and input `v`, releasing the arena to
/// `m` before each case; returns how many cases held.
pub fn jit_cases(jit: &mut Jit, prop: FunId, inputs: &[u64], limits: &Limits) -> u64 {
    let m = jit.mark();
    let mut ok = 0;
    for x in 0..=5u64 {
        for v in inputs {
            jit.release(m);
            ok += jit.run(prop, &[x, *v], limits).expect("a value");
        }
    }
    ok
}

/// The cases of `prop` on every pair `(a, b)` of `firsts` × `seconds`, run as the exhaustive
/// tester runs a level: per `a`, the rows `[a, b]` built and one `Jit::run_rows` over them
/// (the arena released before each case). Returns how many held; every case must hold.
pub fn jit_level(jit: &mut Jit, prop: FunId, firsts: &[u64], seconds: &[u64], limits: &Limits) -> u64 {
    let mut ok = 0;
    let mut rows = Vec::with_capacity(2 * seconds.len());
    for a in firsts {
        rows.clear();
        rows.extend(seconds.iter().flat_map(|b| [*a, *b]));
        let (end, counts) = jit.run_rows(&[prop], false, &rows, 2, limits);
        assert_eq!(end, LevelEnd::Done, "a case did not hold");
        ok += counts.passed;
    }
    ok
}

/// The same cases in the reference interpreter.
pub fn interp_cases(it: &mut Interp, prop: FunId, inputs: &[Value], limits: &Limits) -> u64 {
    let mut ok = 0;
    for x in 0..=5u64 {
        for v in inputs {
            let r = it.call(prop, vec![Value::nat(x), v.clone()], limits).expect("a value");
            ok += (r == Value::Bool(true)) as u64;
        }
    }
    ok
}
