//! Workload (a) of `/work/shared/peers/README.md`: `rev (xs @ ys) = rev ys @ rev xs` over all
//! pairs of nat lists with elements 0..5, measured three ways in one run: the JIT, the
//! reference interpreter (shorter lists), and hand-written Rust on `Vec`. Throughput is in
//! test cases (pairs).

use codegen::Jit;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use lang::core::ir::{FunId, Program};
use lang::interp::{Interp, Limits, Value};
use std::hint::black_box;

mod common;
use common::lists;

const THEORY: &str = r#"theory B imports Main begin
definition rev_app :: "nat list ⇒ nat list ⇒ bool" where "rev_app xs ys = (rev (xs @ ys) = rev ys @ rev xs)"
value "rev_app [] []"
end"#;

/// The program and the `prop` instance.
fn program() -> (Program, FunId) {
    let mut th = lang::check_theory(THEORY);
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    let (p, _, _) = th.lower_value(0);
    let p = p.clone();
    let f = p.funs.iter().position(|f| f.name.starts_with("rev_app")).expect("rev_app lowered");
    (p, FunId(f as u32))
}

fn to_value(l: &[u64]) -> Value {
    let mut v = Value::nullary(0);
    for x in l.iter().rev() {
        v = Value::ctor(1, vec![Value::nat(*x), v]);
    }
    v
}

fn rev_native(xs: &[u64]) -> Vec<u64> {
    // The primrec: rev (x # xs) = rev xs @ [x], with a user-level append.
    let mut acc: Vec<u64> = Vec::new();
    for x in xs {
        let mut r = Vec::with_capacity(acc.len() + 1);
        r.push(*x);
        r.extend_from_slice(&acc);
        acc = r;
    }
    acc
}

fn append_native(xs: &[u64], ys: &[u64]) -> Vec<u64> {
    let mut r = Vec::with_capacity(xs.len() + ys.len());
    r.extend_from_slice(xs);
    r.extend_from_slice(ys);
    r
}

fn bench(c: &mut Criterion) {
    let (p, prop) = program();
    let list_ty = p.fun(prop).params[0].1.clone();
    let limits = Limits::default();
    let mut g = c.benchmark_group("rev_append");
    g.sample_size(10);

    let big = lists(4);
    let n_big = (big.len() * big.len()) as u64;
    g.throughput(Throughput::Elements(n_big));
    g.bench_function("jit_len4", |b| {
        let mut jit = Jit::compile(&p).unwrap();
        let words: Vec<u64> = big.iter().map(|l| jit.word_of(&to_value(l), &list_ty).unwrap()).collect();
        let m = jit.mark();
        b.iter(|| {
            let mut ok = 0u64;
            for x in &words {
                for y in &words {
                    jit.release(m);
                    ok += jit.run(prop, &[*x, *y], &limits).unwrap();
                }
            }
            assert_eq!(ok, n_big);
            black_box(ok)
        })
    });
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
        let vals: Vec<Value> = small.iter().map(|l| to_value(l)).collect();
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
    g.bench_function("jit_len3", |b| {
        let mut jit = Jit::compile(&p).unwrap();
        let words: Vec<u64> = small.iter().map(|l| jit.word_of(&to_value(l), &list_ty).unwrap()).collect();
        let m = jit.mark();
        b.iter(|| {
            let mut ok = 0u64;
            for x in &words {
                for y in &words {
                    jit.release(m);
                    ok += jit.run(prop, &[*x, *y], &limits).unwrap();
                }
            }
            black_box(ok)
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
