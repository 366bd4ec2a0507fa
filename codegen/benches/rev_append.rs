//! Workload (a) of `/work/shared/peers/README.md`: `rev (xs @ ys) = rev ys @ rev xs` over all
//! pairs of nat lists with elements 0..5, measured in one run: the JIT (running the prelude's
//! code equation `rev xs = fold Cons xs []`, as Isabelle's generated code does), the JIT on
//! the definitions alone (the quadratic primrec, as the interpreter runs it), the reference
//! interpreter (shorter lists), and hand-written Rust on `Vec` following the code equations
//! (a linear reverse). Throughput is in test cases (pairs). The JIT at length <= 4 runs once
//! with one `Jit::run` per case and once as the exhaustive tester runs the cases, one
//! `Jit::run_rows` per `xs`: a loop compiled with the property inlined (`Jit::with_levels`),
//! `jit_level_*`.

use codegen::{Jit, DEFAULT_ARENA_WORDS};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use lang::core::ir::FunId;
use lang::interp::{Interp, Limits, Value};
use std::hint::black_box;

mod common;
use common::{definitions_only, jit_level, list_value, lists, program, words};

const THEORY: &str = r#"theory B imports Main begin
definition rev_app :: "nat list ⇒ nat list ⇒ bool" where "rev_app xs ys = (rev (xs @ ys) = rev ys @ rev xs)"
value "rev_app [] []"
end"#;

/// Runs `prop` on every pair of `words` in the JIT, releasing the arena before each case;
/// returns how many cases held.
fn jit_pairs(jit: &mut Jit, prop: FunId, words: &[u64], limits: &Limits) -> u64 {
    let m = jit.mark();
    let mut ok = 0u64;
    for x in words {
        for y in words {
            jit.release(m);
            ok += jit.run(prop, &[*x, *y], limits).unwrap();
        }
    }
    ok
}

fn rev_native(xs: &[u64]) -> Vec<u64> {
    // The code equation: rev xs = fold Cons xs [].
    let mut acc: Vec<u64> = Vec::with_capacity(xs.len());
    acc.extend(xs.iter().rev());
    acc
}

fn append_native(xs: &[u64], ys: &[u64]) -> Vec<u64> {
    let mut r = Vec::with_capacity(xs.len() + ys.len());
    r.extend_from_slice(xs);
    r.extend_from_slice(ys);
    r
}

fn bench(c: &mut Criterion) {
    let (p, prop) = program(THEORY, "rev_app");
    let list_ty = p.fun(prop).params[0].1.clone();
    let limits = Limits::default();
    let mut g = c.benchmark_group("rev_append");
    g.sample_size(10);

    let big = lists(4);
    let n_big = (big.len() * big.len()) as u64;
    g.throughput(Throughput::Elements(n_big));
    for (name, prog) in [("jit_len4", p.clone()), ("jit_definitions_len4", definitions_only(&p))] {
        let mut jit = Jit::with_levels(&prog, DEFAULT_ARENA_WORDS, &[prop]).unwrap();
        let inputs = words(&mut jit, &big.iter().map(|l| list_value(l)).collect::<Vec<_>>(), &list_ty);
        // One `run` per case, and one `Jit::run_rows` per `xs` as the exhaustive tester runs
        // them (a loop compiled with the property inlined, `Jit::with_levels`).
        let level_name = name.replace("jit_", "jit_level_");
        g.bench_function(name, |b| b.iter(|| black_box(jit_pairs(&mut jit, prop, &inputs, &limits))));
        g.bench_function(level_name, |b| b.iter(|| black_box(jit_level(&mut jit, prop, &inputs, &inputs, &limits))));
        assert_eq!(jit_pairs(&mut jit, prop, &inputs, &limits), n_big);
    }
    g.bench_function("native_len4", |b| {
        b.iter(|| {
            let mut ok = 0u64;
            for x in &big {
                for y in &big {
                    let l = rev_native(&append_native(x, y));
                    let r = append_native(&rev_native(y), &rev_native(x));
                    ok += (l == r) as u64;
                }
            }
            assert_eq!(ok, n_big);
            black_box(ok)
        })
    });

    let small = lists(3);
    let n_small = (small.len() * small.len()) as u64;
    g.throughput(Throughput::Elements(n_small));
    g.bench_function("interp_len3", |b| {
        let mut it = Interp::new(&p);
        let vals: Vec<Value> = small.iter().map(|l| list_value(l)).collect();
        b.iter(|| {
            let mut ok = 0u64;
            for x in &vals {
                for y in &vals {
                    let r = it.call(prop, vec![x.clone(), y.clone()], &limits).unwrap();
                    ok += (r == Value::Bool(true)) as u64;
                }
            }
            assert_eq!(ok, n_small);
            black_box(ok)
        })
    });
    for (name, prog) in [("jit_len3", p.clone()), ("jit_definitions_len3", definitions_only(&p))] {
        g.bench_function(name, |b| {
            let mut jit = Jit::compile(&prog).unwrap();
            let inputs = words(&mut jit, &small.iter().map(|l| list_value(l)).collect::<Vec<_>>(), &list_ty);
            b.iter(|| black_box(jit_pairs(&mut jit, prop, &inputs, &limits)))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
