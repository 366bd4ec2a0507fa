//! JIT compile time of a program lowered from the prelude `Main.thy` plus `Trees.thy` (a copy
//! of `/work/shared/examples/Trees.thy` next to this file): every `fun`/`primrec`/
//! `definition`/`function` of both theories instantiated at `nat` (as the differential tests
//! do), together with what they call, lowered into one program and compiled by `Jit::compile`.
//! Lowering is done once, outside the measurement.

use codegen::Jit;
use criterion::{criterion_group, criterion_main, Criterion};
use lang::core::ir::{Expr, Program};

#[path = "../tests/support/signatures.rs"]
mod signatures;
use signatures::{instantiate, signatures};

const TREES: &str = include_str!("Trees.thy");

/// Trees.thy with a `value` per function of Main.thy and Trees.thy at nat, lowered together.
fn program() -> Program {
    // Every value's function and what it calls, monomorphic: one program.
    let end = TREES.rfind("end").expect("Trees.thy ends with end");
    let mut text = TREES[..end].to_string();
    for (name, ty) in signatures(lang::prelude::MAIN_THY).into_iter().chain(signatures(TREES)) {
        text.push_str(&format!("value \"({name} :: {})\"\n", instantiate(&ty, "nat")));
    }
    text.push_str("end\n");
    let mut th = lang::check_theory(&text);
    // A few names are infix syntax (`dvd`) and do not parse as `(name :: type)`: those
    // values are reported and left out, as the differential tests leave them out.
    for e in th.diagnostics.iter().filter(|d| d.severity == lang::Severity::Error) {
        let a = e.primary.span.start as usize;
        let line_start = text[..a].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[a..].find('\n').map_or(text.len(), |i| a + i);
        eprintln!("compile: left out: {} ({})", &text[line_start..line_end], e.message);
    }
    th.lower_values().0.clone()
}

/// Number of IR nodes in `e`.
fn nodes(e: &Expr) -> usize {
    let mut n = 1;
    e.for_each_child(&mut |child, _| n += nodes(child));
    n
}

fn bench(c: &mut Criterion) {
    let p = program();
    eprintln!(
        "compile: {} functions, {} datatypes, {} IR nodes",
        p.funs.len(),
        p.datas.len(),
        p.funs.iter().map(|f| nodes(&f.body)).sum::<usize>()
    );
    let mut g = c.benchmark_group("compile");
    g.sample_size(20);
    g.bench_function("main_and_trees_at_nat", |b| b.iter(|| Jit::compile(&p).unwrap()));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
