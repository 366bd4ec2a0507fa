//! Workload (b) of `/work/shared/peers/README.md`: `sorted xs ⟶ sorted (insort x xs)` (the
//! prelude's `sorted` and `insort`) over all nat lists of length <= 5 with elements 0..5 and
//! `x` in 0..5 (55,986 cases), measured in one run: the JIT (running the prelude's code
//! equations `sorted (x # y # zs) = (x ≤ y ∧ sorted (y # zs))`, as Isabelle's generated code
//! does), the JIT on the definitions alone (`∀y∈set ys. x ≤ y` at every element, as the
//! interpreter runs it), the reference interpreter, and hand-written Rust on slices following
//! the code equations. Throughput is in test cases. `jit_entry_len5` runs a property that is
//! `True` at once over the same cases: the fixed cost of entering compiled code from Rust.
//! Each JIT variant runs once with one `Jit::run` per case and once as the exhaustive tester
//! runs the cases, one `Jit::run_rows` per `x`: a loop compiled with the property inlined
//! (`Jit::with_levels`), `jit_level_*`.

mod common;

use codegen::{Jit, DEFAULT_ARENA_WORDS};
use common::*;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use lang::interp::{Interp, Limits, Value};
use std::hint::black_box;

const THEORY: &str = r#"theory B imports Main begin
definition sorted_insort :: "nat ⇒ nat list ⇒ bool" where
  "sorted_insort x xs = (sorted xs ⟶ sorted (insort x xs))"
definition entry_only :: "nat ⇒ nat list ⇒ bool" where
  "entry_only x xs = True"
value "sorted_insort 0 [] ∧ entry_only 0 []"
end"#;

/// The code equations `sorted (x # y # zs) = (x ≤ y ∧ sorted (y # zs))`, on a slice.
fn sorted_native(xs: &[u64]) -> bool {
    xs.windows(2).all(|w| w[0] <= w[1])
}

/// `insort x (y # ys) = (if x ≤ y then x # y # ys else y # insort x ys)`, into `out`.
fn insort_native(x: u64, xs: &[u64], out: &mut Vec<u64>) {
    out.clear();
    let pos = xs.iter().position(|y| x <= *y).unwrap_or(xs.len());
    out.extend_from_slice(&xs[..pos]);
    out.push(x);
    out.extend_from_slice(&xs[pos..]);
}

fn bench(c: &mut Criterion) {
    let (p, prop) = program(THEORY, "sorted_insort");
    let list_ty = p.fun(prop).params[1].1.clone();
    let limits = Limits::default();
    let mut g = c.benchmark_group("sorted_insort");
    g.sample_size(10);

    let all = lists(5);
    let n = 6 * all.len() as u64;
    assert_eq!(n, 55_986);
    // The property is a theorem: every case holds (the premise in 2,772 of them).
    let holds = n;
    g.throughput(Throughput::Elements(n));
    let (_, entry) = program(THEORY, "entry_only");
    let runs = [
        ("jit_len5", p.clone(), prop),
        ("jit_definitions_len5", definitions_only(&p), prop),
        ("jit_entry_len5", p.clone(), entry),
    ];
    let xs: Vec<u64> = (0..=5).collect();
    let vals: Vec<Value> = all.iter().map(|l| list_value(l)).collect();
    for (name, prog, f) in runs {
        let mut jit = Jit::with_levels(&prog, DEFAULT_ARENA_WORDS, &[f]).unwrap();
        let ws = words(&mut jit, &vals, &list_ty);
        // One `run` per case, and the same cases as the exhaustive tester runs them: one
        // level (`Jit::run_rows`) per `x`.
        let level_name = name.replace("jit_", "jit_level_");
        g.bench_function(name, |b| b.iter(|| black_box(jit_cases(&mut jit, f, &ws, &limits))));
        g.bench_function(level_name, |b| b.iter(|| black_box(jit_level(&mut jit, f, &xs, &ws, &limits))));
        assert_eq!((jit_cases(&mut jit, f, &ws, &limits), jit_level(&mut jit, f, &xs, &ws, &limits)), (holds, holds));
    }
    g.bench_function("native_len5", |b| {
        let mut buf = Vec::with_capacity(6);
        b.iter(|| {
            let (mut ok, mut premise) = (0u64, 0u64);
            for x in 0..=5u64 {
                for xs in &all {
                    let xs = black_box(xs);
                    let r = if sorted_native(xs) {
                        premise += 1;
                        insort_native(black_box(x), xs, &mut buf);
                        sorted_native(&buf)
                    } else {
                        true
                    };
                    ok += r as u64;
                }
            }
            assert_eq!((ok, premise), (holds, 2_772));
            black_box(ok)
        })
    });
    g.bench_function("interp_len5", |b| {
        let mut it = Interp::new(&p);
        let vals: Vec<Value> = all.iter().map(|l| list_value(l)).collect();
        b.iter(|| {
            let ok = interp_cases(&mut it, prop, &vals, &limits);
            assert_eq!(ok, holds);
            black_box(ok)
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
