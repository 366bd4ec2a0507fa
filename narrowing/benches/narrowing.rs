//! Narrowing's throughput on the peers' workloads (b) and (c) at depth 5 (`cargo bench -p
//! narrowing`), in partial cases per second, with Lazy SmallCheck's figures on this machine
//! for reference (printed at start-up: its counts and times are constants from
//! `shared/peers/`, not measured here). The space is exactly Lazy SmallCheck's
//! (`Workloads.thy`), which `tests/peers.rs` checks by count. The baseline measured in the
//! same run is the exhaustive tester over the same space, for (b) only: (c)'s space (trees
//! of five levels) is far too large to enumerate. A third workload has an existential
//! inside (`append_witness`), with the most slots alive at once (the search's memory).
//! `narrowing` counts compiling the program in each run; `narrowing_compiled_once` runs the
//! size again and again on one search, compiled once (Lazy SmallCheck's figures do not
//! count GHC either).

#[path = "../tests/support/workloads.rs"]
mod workloads;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use narrowing::NarrowingTester;
use quickcheck::testers::exhaustive::ExhaustiveTester;
use std::time::Instant;
use workloads::{conjecture, run_size, run_sizes, DEPTH_5, LSC_B, LSC_C};

fn bench(c: &mut Criterion) {
    for (id, lemma, lsc, baseline) in [
        ("b_sorted_insort", "sorted_insort", Some(LSC_B), true),
        ("c_bst_ins", "ordered_ins", Some(LSC_C), false),
        // An existential inside (issue 15): no peer runs it; its peak memory is printed.
        ("pnf_append_witness", "append_witness", None, false),
    ] {
        let conj = conjecture(lemma);
        let t0 = Instant::now();
        let r = run_size(&NarrowingTester, &conj, DEPTH_5);
        let (partial, secs) = (r.tests, t0.elapsed().as_secs_f64());
        let peer = lsc.map_or(String::new(), |(n, t)| {
            format!("; Lazy SmallCheck {n} in {:.1} ms ({:.0}/s)", t * 1e3, n as f64 / t)
        });
        eprintln!(
            "{id}: narrowing {partial} partial cases in {:.1} ms ({:.0}/s), at most {} slots alive{peer}",
            secs * 1e3,
            partial as f64 / secs,
            r.peak_slots.unwrap_or(0),
        );
        let mut g = c.benchmark_group(id);
        g.throughput(Throughput::Elements(partial));
        g.bench_function("narrowing", |b| b.iter(|| run_size(&NarrowingTester, &conj, DEPTH_5)));
        // The search alone: one compilation for all the iterations.
        g.bench_function("narrowing_compiled_once", |b| {
            b.iter_custom(|n| {
                let t = Instant::now();
                run_sizes(&NarrowingTester, &conj, DEPTH_5, n);
                t.elapsed()
            })
        });
        if baseline {
            let cases = run_size(&ExhaustiveTester, &conj, DEPTH_5 + 1).tests;
            g.throughput(Throughput::Elements(cases));
            g.bench_function("exhaustive_same_space", |b| b.iter(|| run_size(&ExhaustiveTester, &conj, DEPTH_5 + 1)));
        }
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
