//! Narrowing's throughput on the peers' workloads (b) and (c) at depth 5 (`cargo bench -p
//! narrowing`), in partial cases per second, against Lazy SmallCheck measured in the same
//! run: the peers' program (`quickcheck/benches/peers/LSC.hs`, a copy of `shared/peers/`'s)
//! is built with `ghc -O2` and run next to narrowing, interleaved, and its own timing
//! around its check is compared with one whole size of narrowing's search compiled once
//! (neither counts its compiler). The space is exactly Lazy SmallCheck's
//! (`Workloads.thy`), which `tests/peers.rs` checks by count. The exhaustive tester over
//! the same space is the in-process baseline for (b) (c's space, trees of five levels, is
//! far too large to enumerate). A third workload has an existential inside
//! (`append_witness`), with the most slots alive at once (the search's memory).
//! Criterion's rows: `narrowing` compiles the program in each run, `narrowing_compiled_once`
//! runs the size again and again on one search. `HOL_NARROWING_ONLY=<workload id>` runs one
//! workload (criterion's filter does not skip the start-up measurements).

#[path = "../../tests/support/ghc.rs"]
mod ghc;
#[path = "../tests/support/workloads.rs"]
mod workloads;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use narrowing::NarrowingTester;
use quickcheck::testers::exhaustive::ExhaustiveTester;
use quickcheck::testers::{Setup, SizeResult, Tester};
use quickcheck::{Budget, Engine, Options, Turn};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::Path;
use std::time::{Duration, Instant};
use workloads::{conjecture, run_size, DEPTH_5};

/// The peers' Lazy SmallCheck program, the copy the smart bench builds too.
const LSC_SOURCE: &str = "../quickcheck/benches/peers/LSC.hs";
/// Lazy SmallCheck's depth for `DEPTH_5`'s space.
const LSC_DEPTH: &str = "5";
/// Interleaved runs of each side for the medians.
const RUNS: usize = 21;

fn bench(c: &mut Criterion) {
    let only = std::env::var("HOL_NARROWING_ONLY").ok();
    let lsc = ghc::build(&Path::new(env!("CARGO_MANIFEST_DIR")).join(LSC_SOURCE), "lsc-peers");
    if let Err(why) = &lsc {
        eprintln!("Lazy SmallCheck is not measured: {why}");
    }
    for (id, lemma, peer, baseline) in [
        ("b_sorted_insort", "sorted_insort", Some("b"), true),
        ("c_bst_ins", "ordered_ins", Some("c"), false),
        // An existential inside (issue 15): no peer runs it; its peak memory is printed.
        ("pnf_append_witness", "append_witness", None, false),
    ] {
        if only.as_deref().is_some_and(|o| o != id) {
            continue;
        }
        let conj = conjecture(lemma);
        let options = Options::default();
        let budget = Budget::until(Instant::now() + Duration::from_secs(3600));
        let setup = Setup { options: &options, deadline: budget.deadline, engine: Engine::Compiled };
        // One search, compiled by its first size, run again and again.
        let mut search = NarrowingTester.search(&conj, &setup);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(0);
        let mut one_size = move || -> SizeResult {
            let r = search.run_size(&mut Turn::new(DEPTH_5, budget, false, &mut rng));
            assert!(r.end.is_none(), "the search ended early: {:?}", r.end);
            r
        };
        let first = one_size();
        let partial = first.tests;
        let peer = match (peer, &lsc) {
            (Some(w), Ok(bin)) => Some(bin.clone()).map(|b| (w, b)),
            _ => None,
        };
        let (mut ours, mut theirs, mut their_cases) = (Vec::new(), Vec::new(), 0);
        for _ in 0..RUNS {
            let t = Instant::now();
            one_size();
            ours.push(t.elapsed().as_secs_f64());
            if let Some((w, bin)) = &peer {
                let (n, s) = ghc::lazy_smallcheck_run(bin, w, LSC_DEPTH);
                their_cases = n;
                theirs.push(s);
            }
        }
        let t = median(ours);
        eprint!(
            "{id}: narrowing {partial} partial cases in {:.2} ms ({:.0}/s, compiled once), at most {} slots alive",
            t * 1e3,
            partial as f64 / t,
            first.peak_slots.unwrap_or(0),
        );
        if peer.is_some() {
            let s = median(theirs);
            let (rate, their_rate) = (partial as f64 / t, their_cases as f64 / s);
            eprint!(
                "; Lazy SmallCheck {their_cases} in {:.2} ms ({their_rate:.0}/s): {:.2}x its rate per partial case",
                s * 1e3,
                rate / their_rate
            );
        }
        eprintln!(" (medians of {RUNS} interleaved runs)");
        let mut g = c.benchmark_group(id);
        g.throughput(Throughput::Elements(partial));
        g.bench_function("narrowing", |b| b.iter(|| run_size(&NarrowingTester, &conj, DEPTH_5)));
        g.bench_function("narrowing_compiled_once", |b| b.iter(&mut one_size));
        if baseline {
            let cases = run_size(&ExhaustiveTester, &conj, DEPTH_5 + 1).tests;
            g.throughput(Throughput::Elements(cases));
            g.bench_function("exhaustive_same_space", |b| b.iter(|| run_size(&ExhaustiveTester, &conj, DEPTH_5 + 1)));
        }
        g.finish();
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

criterion_group!(benches, bench);
criterion_main!(benches);
