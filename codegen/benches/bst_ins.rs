//! Workload (c) of `/work/shared/peers/README.md`: `ordered t ⟶ ordered (ins x t)` for the
//! binary search trees of `/work/shared/examples/Trees.thy` (its definitions are copied into
//! the theory below) over all trees with <= 5 nodes and keys 0..5 and `x` in 0..5
//! (2,075,370 cases), measured three ways in one run: the JIT, the reference interpreter
//! (trees with <= 4 nodes, with the JIT at that bound too for the ratio), and hand-written
//! Rust on `Rc` trees. Throughput is in test cases. The JIT runs once with one `Jit::run` per
//! case and once as the exhaustive tester runs the cases, one `Jit::run_rows` per `x`: a
//! loop compiled with the property inlined (`Jit::with_levels`), `jit_level_*`.

mod common;

use codegen::Jit;
use common::*;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use lang::interp::{Interp, Limits, Value};
use std::hint::black_box;
use std::rc::Rc;

/// Trees.thy (the copy beside this bench) with the property as a function and a `value`
/// that lowers it.
fn theory() -> String {
    let trees = include_str!("Trees.thy");
    let body = trees.trim_end().strip_suffix("end").expect("Trees.thy ends with `end`");
    format!(
        "{body}\ndefinition ins_ordered_prop :: \"nat ⇒ bst ⇒ bool\" where\n  \"ins_ordered_prop x t = (ordered t ⟶ ordered (ins x t))\"\nvalue \"ins_ordered_prop 0 E\"\nend\n"
    )
}

/// The tree as native Rust data: shared subtrees, as `ins` shares them.
enum N {
    E,
    T(Rc<N>, u64, Rc<N>),
}

fn native(t: &Tree) -> Rc<N> {
    Rc::new(match t {
        Tree::E => N::E,
        Tree::T(l, k, r) => N::T(native(l), *k, native(r)),
    })
}

/// `∀y ∈ tset t. p y`, without building the set.
fn all_keys(t: &N, p: &impl Fn(u64) -> bool) -> bool {
    match t {
        N::E => true,
        N::T(l, k, r) => p(*k) && all_keys(l, p) && all_keys(r, p),
    }
}

/// `ordered`, equation by equation.
fn ordered_native(t: &N) -> bool {
    match t {
        N::E => true,
        N::T(l, x, r) => ordered_native(l) && ordered_native(r) && all_keys(l, &|y| y < *x) && all_keys(r, &|y| *x < y),
    }
}

/// `ins`, copying the path and sharing the rest.
fn ins_native(x: u64, t: &Rc<N>) -> Rc<N> {
    match &**t {
        N::E => Rc::new(N::T(Rc::new(N::E), x, Rc::new(N::E))),
        N::T(l, y, r) => {
            if x < *y {
                Rc::new(N::T(ins_native(x, l), *y, r.clone()))
            } else if *y < x {
                Rc::new(N::T(l.clone(), *y, ins_native(x, r)))
            } else {
                t.clone()
            }
        }
    }
}

fn bench(c: &mut Criterion) {
    let (p, prop) = program(&theory(), "ins_ordered_prop");
    let tree_ty = p.fun(prop).params[1].1.clone();
    let limits = Limits::default();
    let mut g = c.benchmark_group("bst_ins");
    g.sample_size(10);

    let xs: Vec<u64> = (0..=5).collect();
    for (max_nodes, cases, premise) in [(5, 2_075_370u64, 3_594u64), (4, 115_818, 0)] {
        let ts = trees(max_nodes);
        assert_eq!(6 * ts.len() as u64, cases);
        g.throughput(Throughput::Elements(cases));
        // Every tree built once: about 7M words at 5 nodes.
        let mut jit = Jit::with_levels(&p, 16 << 20, &[prop]).unwrap();
        let vals: Vec<Value> = ts.iter().map(tree_value).collect();
        let ws = words(&mut jit, &vals, &tree_ty);
        drop(vals);
        // One `run` per case, and one `Jit::run_rows` per `x` as the exhaustive tester runs
        // them (a loop compiled with the property inlined, `Jit::with_levels`).
        g.bench_function(format!("jit_nodes{max_nodes}"), |b| {
            b.iter(|| black_box(jit_cases(&mut jit, prop, &ws, &limits)))
        });
        g.bench_function(format!("jit_level_nodes{max_nodes}"), |b| {
            b.iter(|| black_box(jit_level(&mut jit, prop, &xs, &ws, &limits)))
        });
        assert_eq!(jit_cases(&mut jit, prop, &ws, &limits), cases);
        if max_nodes == 5 {
            g.bench_function(format!("native_nodes{max_nodes}"), |b| {
                let ns: Vec<Rc<N>> = ts.iter().map(native).collect();
                b.iter(|| {
                    let (mut ok, mut pre) = (0u64, 0u64);
                    for x in 0..=5u64 {
                        for t in &ns {
                            let t = black_box(t);
                            let r = if ordered_native(t) {
                                pre += 1;
                                ordered_native(&ins_native(black_box(x), t))
                            } else {
                                true
                            };
                            ok += r as u64;
                        }
                    }
                    assert_eq!((ok, pre), (cases, premise));
                    black_box(ok)
                })
            });
        } else {
            g.bench_function(format!("interp_nodes{max_nodes}"), |b| {
                let mut it = Interp::new(&p);
                let vals: Vec<Value> = ts.iter().map(tree_value).collect();
                b.iter(|| {
                    let ok = interp_cases(&mut it, prop, &vals, &limits);
                    assert_eq!(ok, cases);
                    black_box(ok)
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
