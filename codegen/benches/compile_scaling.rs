//! Compile time as a function of the source's size: the whole way from theory text to
//! compiled code (parse, type-check with the prelude, lower, `Jit::compile`) of
//!
//! - `equations/N`: `fun f` with `N` numeral equations `f 0 = 0 | … | f (N-1) = …` and a
//!   catch-all, used by one `value`; and
//! - `numeral/K`: `fun g` with the equations `g K = 1 | g (Suc (Suc n)) = n | g _ = 0`
//!   and a `case (x :: nat) of K ⇒ …` expression.
//!
//! Code size must be linear in the source (issue 21): `equations/4000` should take about
//! twice `equations/2000` (less the fixed cost of the prelude), and `numeral/1000000` the
//! same as `numeral/1000`. The parts are also measured apart (front end and lowering, JIT)
//! so a regression can be placed.

use codegen::Jit;
use criterion::{criterion_group, BenchmarkId, Criterion};

fn equations(n: usize) -> String {
    let eqs: Vec<String> = (0..n).map(|i| format!("\"f {i} = {}\"", (i * 7) % 1000)).collect();
    format!(
        "theory E imports Main begin\nfun f :: \"nat ⇒ nat\" where {} | \"f _ = 1\"\nvalue \"f {}\"\nend\n",
        eqs.join(" | "),
        n / 2
    )
}

fn numeral(k: u64) -> String {
    format!(
        "theory N imports Main begin
fun g :: \"nat ⇒ nat\" where \"g {k} = 1\" | \"g (Suc (Suc n)) = n\" | \"g _ = 0\"
value \"g {k} + (case (5::nat) of {k} ⇒ 1 | _ ⇒ 0)\"
end\n"
    )
}

/// Parse, check and lower the file's values: the program `Jit::compile` takes.
fn front_end(text: &str) -> lang::core::ir::Program {
    let mut th = lang::check_theory(text);
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    th.lower_values().0.clone()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("compile_scaling");
    g.sample_size(10);
    let cases: Vec<(&str, String, String)> = [1000usize, 2000, 4000]
        .iter()
        .map(|n| ("equations", n.to_string(), equations(*n)))
        .chain([1000u64, 1_000_000].iter().map(|k| ("numeral", k.to_string(), numeral(*k))))
        .collect();
    for (what, param, text) in &cases {
        let p = front_end(text);
        let nodes: usize = p.funs.iter().map(|f| f.body.count(&|_| true)).sum();
        let jit = Jit::compile(&p).unwrap();
        assert!(jit.interpreted().is_empty(), "everything compiles: {:?}", jit.interpreted());
        eprintln!("compile_scaling: {what}/{param}: {} functions, {nodes} IR nodes", p.funs.len());
        g.bench_with_input(BenchmarkId::new(format!("{what}_total"), param), text, |b, t| {
            b.iter(|| Jit::compile(&front_end(t)).unwrap())
        });
        g.bench_with_input(BenchmarkId::new(format!("{what}_front_end"), param), text, |b, t| b.iter(|| front_end(t)));
        g.bench_with_input(BenchmarkId::new(format!("{what}_jit"), param), &p, |b, p| {
            b.iter(|| Jit::compile(p).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, bench);

/// `criterion_main!` on a thread with `hol`'s worker stack (512 MiB): the JIT leaves a
/// body nested deeper than the compiling thread's stack allows to the interpreter, and a
/// chain of 4,000 numeral tests is 4,000 deep, more than the main thread's 8 MiB allow.
fn main() {
    std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(|| {
            benches();
            Criterion::default().configure_from_args().final_summary();
        })
        .expect("spawn the bench thread")
        .join()
        .expect("the bench ran");
}
