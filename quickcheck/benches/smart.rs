//! The `smart_exhaustive` tester (issue 16) against the baselines it is meant to beat, as
//! ratios measured in one run (`cargo bench -p quickcheck --bench smart`; the process rows
//! need `cargo build --release -p hol` first). The lemmas and their options are
//! `Smart.thy`'s, next to this file.
//!
//! - **Hotel** (`shared/examples/Hotel.thy`, copied): time to the counterexample of
//!   `⟦hotel s; g ∈ isin s r⟧ ⟹ owns s r = Some g` (`depth = 6`) and of the attack on
//!   `feels_safe` (`depth = 10`), through the driver (`run_tester`, sizes 1 to 5, the engine
//!   `hol check` uses), against the exhaustive tester on the same lemma (sizes up to 10, at
//!   most `EXHAUSTIVE_TIMEOUT`; not found in that time, the ratio is a lower bound, and that
//!   run is made once at start-up, not sampled).
//! - **Workloads (b) and (c)** of `shared/peers/README.md`, elements a type of six values:
//!   one whole size of `smart_exhaustive` at the size and depth its lemma names (cases
//!   evaluated: the tester's `SizeResult::tests`), against the exhaustive tester over the
//!   smallest of its spaces that holds the workload's (generator size 6: lists of at most
//!   five elements, trees of at most five levels), and `hol check` on a theory of the
//!   workload alone, run as a child process (sizes 1 to 5, as a user runs it), against Lazy
//!   SmallCheck's process on the same workload at depth 5, measured in the same run: the
//!   peers' program (`peers/LSC.hs`, a copy of `shared/peers/haskell`'s) is built with
//!   `ghc -O2` into the target directory when `ghc` and Debian's `libghc-lazysmallcheck-dev`
//!   are installed (`shared/peers/run.sh` installs them); without them the row says why.
//!   At start-up the bench checks what the produced assignments are: it runs the premise
//!   search alone at the driver's last size and sorts what it produces with the
//!   companion lemma's conclusion (`sorted_short`, `ordered_short`: the premise alone, the
//!   conclusion "at most five elements"), so it says how many distinct assignments of the
//!   workload's space are produced, compared with the workload's premise-satisfying count
//!   (2,772 and 3,594), and how many outside it (a depth that covers (c)'s space also
//!   produces some ordered trees of six nodes). That run, timed once, is the line's "premise
//!   search alone" (its set-up and the companion's conclusion on each produced value
//!   included).
//!
//! - **Allocations**: every heap allocation of the process is counted
//!   (`CountingAllocator`), per produced assignment of the smart search and per case of the
//!   exhaustive tester, in a new search and in one that ran the size before.
//!
//! A summary line per workload is printed at start-up with the ratios.

#[path = "../../tests/support/ghc.rs"]
mod ghc;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use lang::core::conjecture::Conjecture;
use lang::interp::{Limits, Value};
use quickcheck::smart::enumerate::Flow;
use quickcheck::smart::premises::PremiseSearch;
use quickcheck::space::Spaces;
use quickcheck::{
    run_tester, Budget, Cancel, Engine, Options, OutcomeKind, Registry, Report, Search, Setup, SizeResult, Tester,
    TesterName, Turn,
};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime};

const THEORY: &str = include_str!("Smart.thy");

/// Counts the heap allocations of this process (`allocations`), to compare what the smart
/// search allocates per produced assignment with what the exhaustive tester allocates per
/// case (issue 16: no more).
struct CountingAllocator;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: every call is passed on to the system allocator unchanged; only a counter is added.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// `f`'s result and the allocations (reallocations included) made while it ran, by every
/// thread: the bench runs one search at a time.
fn allocations<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let r = f();
    (r, ALLOCATIONS.load(Ordering::Relaxed) - before)
}

/// The peers' Lazy SmallCheck program, and the depth it runs the workloads at: its depth-5
/// space is (b)'s exactly and a superset of (c)'s (trees of five levels).
const LSC_SOURCE: &str = "benches/peers/LSC.hs";
const LSC_DEPTH: &str = "5";

/// Interleaved runs of `hol check` and of Lazy SmallCheck behind the summary line's ratio.
const PROCESS_RUNS: usize = 21;

/// How long the exhaustive tester may look for Hotel's counterexamples, and up to which size.
const EXHAUSTIVE_TIMEOUT: Duration = Duration::from_secs(10);
const EXHAUSTIVE_SIZE: u64 = 10;

/// The exhaustive tester's generator size whose space holds each workload's: lists of at
/// most five elements (9,331), trees of at most five levels (a path of five nodes).
const EXHAUSTIVE_GEN_SIZE: u64 = 6;

/// How long the exhaustive tester runs on (c)'s space at start-up, to measure its rate.
const C_EXHAUSTIVE_PROBE: Duration = Duration::from_secs(1);

struct Hotel {
    id: &'static str,
    lemma: &'static str,
    depth: u64,
}

const HOTEL: [Hotel; 2] = [
    Hotel { id: "isin", lemma: "hotel_isin", depth: 6 },
    Hotel { id: "feels_safe", lemma: "hotel_feels_safe", depth: 10 },
];

struct Workload {
    id: &'static str,
    lemma: &'static str,
    /// The premise alone, the conclusion "in the workload's space".
    in_space: &'static str,
    size: u64,
    depth: u64,
    /// Premise-satisfying assignments in the workload's space, and the whole space
    /// (`shared/peers/README.md`).
    satisfying: u64,
    space: u64,
    /// Values of `x` per produced list or tree.
    xs: u64,
    /// The workload's name in `peers/LSC.hs`.
    lsc: &'static str,
}

const WORKLOADS: [Workload; 2] = [
    Workload {
        id: "b_sorted_insort",
        lemma: "sorted_insort",
        in_space: "sorted_short",
        size: 5,
        depth: 5,
        satisfying: 2_772,
        space: 55_986,
        xs: 6,
        lsc: "b",
    },
    Workload {
        id: "c_bst_ins",
        lemma: "ordered_ins",
        in_space: "ordered_short",
        size: 5,
        depth: 7,
        satisfying: 3_594,
        space: 2_075_370,
        xs: 6,
        lsc: "c",
    },
];

// ---------------------------------------------------------------- the theory

/// The text of lemma `name`'s block: from `lemma name:` to its `oops`.
fn lemma_block(name: &str) -> &'static str {
    let start = THEORY.find(&format!("lemma {name}:")).unwrap_or_else(|| panic!("Smart.thy has no lemma {name}"));
    let end = start + THEORY[start..].find("  oops\n").expect("the lemma ends with oops") + "  oops\n".len();
    &THEORY[start..end]
}

/// Checks that lemma `name` carries the smart options the bench runs it with.
fn expect_options(name: &str, command: &str) {
    assert!(lemma_block(name).contains(command), "Smart.thy: lemma {name} should say `{command}`");
}

/// The lemma named `name` of `Smart.thy`, at its only instance.
fn conjecture(name: &str) -> Conjecture {
    let th = lang::check_theory(THEORY);
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    let index = th.lemma_named(name).unwrap_or_else(|| panic!("no lemma {name}"));
    th.lower_conjecture(index, &[])
}

/// A theory of the workloads' definitions and lemma `name` alone, for `hol check`.
fn workload_theory(name: &str) -> String {
    let header = &THEORY[..THEORY.find("section").expect("sections")];
    let start = THEORY.find("section ‹Workloads").expect("the workloads' section");
    let end = THEORY.find("section ‹The lemmas›").expect("the lemmas' section");
    format!(
        "{}{}{}\nend\n",
        header.replace("theory Smart", &format!("theory Smart_{name}")),
        &THEORY[start..end],
        lemma_block(name)
    )
}

// ---------------------------------------------------------------- running the testers

/// The time to a counterexample is the search's: its generalization, which comes after, is
/// not timed (`generalize = false`, as `hol mutants` runs).
fn options(tester: &'static str, size: u64, depth: u64, timeout: Duration) -> Options {
    Options {
        testers: vec![TesterName::new(tester)],
        size,
        depth: Some(depth),
        timeout,
        seed: Some(0),
        generalize: false,
        ..Options::default()
    }
}

/// The lemma through the driver, as `hol check` runs it (sizes 1 to `opts.size`): the
/// report and the wall time.
fn drive(tester: &dyn Tester, c: &Conjecture, opts: &Options) -> (Report, f64) {
    let t0 = Instant::now();
    let r = run_tester(tester, std::slice::from_ref(c), opts, 0, Engine::Tiered, &Cancel::new());
    (r, t0.elapsed().as_secs_f64())
}

fn far_budget() -> Budget<'static> {
    Budget::until(Instant::now() + Duration::from_secs(3600))
}

/// A search of `tester` on `c` (mode analysis, compiling), made with `opts`.
fn search<'c>(tester: &dyn Tester, c: &'c Conjecture, opts: &Options, budget: &Budget) -> Box<dyn Search + 'c> {
    tester.search(c, &Setup { options: opts, deadline: budget.deadline, engine: Engine::Compiled })
}

/// Generator size `size` of `s`, which must cover it.
fn size_of(s: &mut dyn Search, size: u64, budget: Budget) -> SizeResult {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0);
    let r = s.run_size(&mut Turn::new(size, budget, false, &mut rng));
    assert!(r.end.is_none(), "the search ended early: {:?}", r.end);
    r
}

/// One whole generator size of a new search (its set-up included).
fn one_size(tester: &dyn Tester, c: &Conjecture, opts: &Options, size: u64) -> SizeResult {
    let budget = far_budget();
    size_of(&mut *search(tester, c, opts, &budget), size, budget)
}

/// What the premise search of `in_space` (the premise alone, the conclusion "in the
/// workload's space") produces at the driver's last size of `opts` (derivation depth
/// `depth`, generated values at `size`): the distinct assignments in the workload's space,
/// and those outside it.
#[allow(clippy::mutable_key_type)]
fn produced_in_space(in_space: &Conjecture, opts: &Options) -> (u64, u64) {
    let search = PremiseSearch::new(in_space, Engine::Tiered, None);
    let (mut inside, mut outside) = (BTreeSet::new(), BTreeSet::new());
    let depth = u32::try_from(opts.depth.expect("the workloads give a depth")).expect("a small depth");
    let stats = search.run(depth, opts.size, &|| false, &mut |vals, holds| {
        assert!(holds, "the premise alone holds on what it produces");
        let vals: Vec<Value> = vals.iter().map(|v| v.clone().unwrap_or(Value::Bool(false))).collect();
        match lang::interp::call(&in_space.program, in_space.conclusion.fun, vals.clone(), &Limits::default()) {
            Ok(Value::Bool(true)) => inside.insert(vals),
            Ok(Value::Bool(false)) => outside.insert(vals),
            r => panic!("the conclusion of the companion lemma on {vals:?}: {r:?}"),
        };
        Flow::Continue
    });
    assert!(stats.undecided == 0 && !stats.expired && !stats.too_big, "{stats:?}");
    (inside.len() as u64, outside.len() as u64)
}

fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t0 = Instant::now();
    let r = f();
    (r, t0.elapsed().as_secs_f64())
}

// ---------------------------------------------------------------- the hol process

/// `target/release/hol`, next to this bench's `deps/`, if built; a warning when it is
/// older than a source file of the workspace.
fn hol_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let hol = exe.parent()?.parent()?.join("hol");
    let built = std::fs::metadata(&hol).ok()?.modified().ok()?;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent()?;
    let newest = ["lang", "codegen", "quickcheck", "narrowing", "analysis", "hol"]
        .iter()
        .filter_map(|c| newest_mtime(&root.join(c).join("src")))
        .max();
    if newest.is_some_and(|n| n > built) {
        eprintln!("warning: {} is older than the sources: `cargo build --release -p hol` first", hol.display());
    }
    Some(hol)
}

fn newest_mtime(dir: &Path) -> Option<SystemTime> {
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let ty = e.file_type().ok()?;
            if ty.is_dir() {
                newest_mtime(&e.path())
            } else {
                e.metadata().ok()?.modified().ok()
            }
        })
        .max()
}

/// `hol check file` as a child process; it must succeed (every `expect` met).
fn hol_check(hol: &Path, file: &Path) {
    let out = Command::new(hol).arg("check").arg(file).output().expect("hol runs");
    assert!(out.status.success(), "hol check {}: {}", file.display(), String::from_utf8_lossy(&out.stdout));
}

// ---------------------------------------------------------------- Lazy SmallCheck

/// `peers/LSC.hs` compiled with `ghc -O2` under the target directory, or why not.
fn build_lsc() -> Result<PathBuf, String> {
    ghc::build(&Path::new(env!("CARGO_MANIFEST_DIR")).join(LSC_SOURCE), "lsc-peers")
}

/// One run of Lazy SmallCheck on `workload`: the partial cases it reports and the seconds it
/// measured around its check.
fn lsc_run(lsc: &Path, workload: &str) -> (u64, f64) {
    ghc::lazy_smallcheck_run(lsc, workload, LSC_DEPTH)
}

/// Medians of `PROCESS_RUNS` interleaved wall times of `a` and `b`, so that both see the
/// same machine.
fn interleaved_medians(mut a: impl FnMut(), mut b: impl FnMut()) -> (f64, f64) {
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    for _ in 0..PROCESS_RUNS {
        ta.push(timed(&mut a).1);
        tb.push(timed(&mut b).1);
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    (median(ta), median(tb))
}

// ---------------------------------------------------------------- (c)'s exhaustive space

/// Trees of at most `g - 1` levels with six keys: the exhaustive space of `tree` at
/// generator size `g` (`T(1) = 1`, `T(g) = 1 + 6 T(g-1)²`).
fn trees(g: u64) -> u128 {
    (2..=g).fold(1u128, |t, _| 1 + 6 * t * t)
}

fn sci(x: f64) -> String {
    let e = x.log10().floor();
    format!("{:.1}e{e}", x / 10f64.powf(e))
}

fn bench(c: &mut Criterion) {
    let registry = Registry::standard();
    let smart = registry.get("smart_exhaustive").expect("the registry has smart_exhaustive");
    let exhaustive = registry.get("exhaustive").expect("the registry has exhaustive");
    let hol = hol_binary();
    if hol.is_none() {
        eprintln!("no target/release/hol: the process rows are skipped (`cargo build --release -p hol`)");
    }
    let lsc = build_lsc();
    if let Err(why) = &lsc {
        eprintln!("no Lazy SmallCheck: its process rows are skipped ({why})");
    }
    let dir = std::env::temp_dir().join(format!("hol-smart-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");

    // ------------------------------------------------------------ Hotel
    let mut g = c.benchmark_group("hotel");
    g.sample_size(10).sampling_mode(SamplingMode::Flat);
    for h in &HOTEL {
        expect_options(h.lemma, &format!("quickcheck[smart_exhaustive, depth = {}", h.depth));
        let conj = conjecture(h.lemma);
        let sopts = options("smart_exhaustive", 5, h.depth, Duration::from_secs(10));
        let eopts = options("exhaustive", EXHAUSTIVE_SIZE, 5, EXHAUSTIVE_TIMEOUT);
        let (s, st) = drive(smart, &conj, &sopts);
        assert_eq!(s.outcome, OutcomeKind::Counterexample, "{}: {:?}", h.lemma, s.message);
        let (e, et) = drive(exhaustive, &conj, &eopts);
        let (baseline, ratio) = match e.outcome {
            OutcomeKind::Counterexample => (
                format!("counterexample at size {} after {} tests in {:.3} s", e.size, e.tests, et),
                format!("{:.1}×", et / st),
            ),
            _ => (
                format!(
                    "not found in {} s ({} tests, sizes up to {} covered)",
                    EXHAUSTIVE_TIMEOUT.as_secs(),
                    e.tests,
                    e.size
                ),
                format!("≥ {:.0}×", et / st),
            ),
        };
        eprintln!(
            "hotel_{}: smart_exhaustive (depth {}) counterexample at size {} after {} tests in {:.3} s; exhaustive {baseline}; \
             ratio {ratio}",
            h.id, h.depth, s.size, s.tests, st
        );
        g.bench_function(format!("{}/smart_exhaustive", h.id), |b| {
            b.iter(|| assert_eq!(drive(smart, &conj, &sopts).0.outcome, OutcomeKind::Counterexample))
        });
        if e.outcome == OutcomeKind::Counterexample {
            g.bench_function(format!("{}/exhaustive", h.id), |b| {
                b.iter(|| assert_eq!(drive(exhaustive, &conj, &eopts).0.outcome, OutcomeKind::Counterexample))
            });
        }
    }
    g.finish();

    // ------------------------------------------------------------ (b) and (c)
    for w in &WORKLOADS {
        let command = format!("quickcheck[smart_exhaustive, size = {}, depth = {}", w.size, w.depth);
        expect_options(w.lemma, &command);
        expect_options(w.in_space, &command);
        let conj = conjecture(w.lemma);
        let sopts = options("smart_exhaustive", w.size, w.depth, Duration::from_secs(3600));
        // The driver's last size: derivation depth `depth`, generated values at size `size`.
        let gen = w.size - 1;

        // What the premise produces: how much of the workload's space, and what outside it.
        let ((smart_r, smart_t), smart_allocs) = allocations(|| timed(|| one_size(smart, &conj, &sopts, gen)));
        let produced = smart_r.tests;
        // Again on a search that ran this size before (its set-up and compiling done, its
        // remembered calls kept): what each produced assignment costs by itself.
        let warm_allocs = {
            let budget = far_budget();
            let mut s = search(smart, &conj, &sopts, &budget);
            size_of(&mut *s, gen, budget);
            let (r, n) = allocations(|| size_of(&mut *s, gen, budget));
            assert_eq!(r.tests, produced);
            n
        };
        let in_space = conjecture(w.in_space);
        let ((inside, outside), premise_t) = timed(|| produced_in_space(&in_space, &sopts));
        assert_eq!((inside + outside) * w.xs, produced, "the lemma's cases are the premise's assignments times x");
        let (inside, outside) = (inside * w.xs, outside * w.xs);
        let covered = match (inside == w.satisfying, outside) {
            (true, 0) => format!("all {produced} in the workload's space, which has {}: covered", w.satisfying),
            (true, _) => {
                format!("all {} of the workload's space and {outside} outside it (larger trees): covered", w.satisfying)
            }
            (false, _) => format!(
                "{inside} of the workload's {} ({:.1}%) and {outside} outside it",
                w.satisfying,
                100.0 * inside as f64 / w.satisfying as f64
            ),
        };
        let note = smart_r.note.clone().unwrap_or_default();

        // The exhaustive tester over the space that holds the workload's.
        let eopts = options("exhaustive", EXHAUSTIVE_GEN_SIZE + 1, 5, Duration::from_secs(3600));
        let budget = Budget::until(Instant::now() + C_EXHAUSTIVE_PROBE);
        let mut es = search(exhaustive, &conj, &eopts, &budget);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(0);
        let ((er, et), probe_allocs) =
            allocations(|| timed(|| es.run_size(&mut Turn::new(EXHAUSTIVE_GEN_SIZE, budget, false, &mut rng))));
        drop(es);
        let per = |n: u64, of: u64| n as f64 / of.max(1) as f64;
        let mut alloc_note = format!(
            "allocations per produced assignment: {:.1} in a new search, {:.2} in a search that ran the size before",
            per(smart_allocs, produced),
            per(warm_allocs, produced)
        );
        let exhaustive_whole = er.end.is_none();
        let baseline = if exhaustive_whole {
            // Again with the whole set-up inside the time (the first run's budget was short).
            let ((er, et), cold) = allocations(|| timed(|| one_size(exhaustive, &conj, &eopts, EXHAUSTIVE_GEN_SIZE)));
            assert_eq!(er.passed, w.satisfying, "the exhaustive space holds the workload's premise-satisfying cases");
            let warm = {
                let budget = far_budget();
                let mut s = search(exhaustive, &conj, &eopts, &budget);
                size_of(&mut *s, EXHAUSTIVE_GEN_SIZE, budget);
                allocations(|| size_of(&mut *s, EXHAUSTIVE_GEN_SIZE, budget)).1
            };
            alloc_note += &format!(
                "; exhaustive per case: {:.1} in a new search, {:.2} in one that ran the size before",
                per(cold, er.tests),
                per(warm, er.tests)
            );
            format!(
                "exhaustive {} cases ({} passed the premise) in {:.2} ms: {:.1}× the cases, {:.1}× the time",
                er.tests,
                er.passed,
                et * 1e3,
                er.tests as f64 / produced as f64,
                et / smart_t
            )
        } else {
            alloc_note += &format!("; exhaustive per case in its probe: {:.2}", per(probe_allocs, er.tests));
            // The formula, checked against the tester's space one size below.
            let small = Spaces::new(&conj.program).space(&conj.vars[var(&conj, "t")].ty, EXHAUSTIVE_GEN_SIZE - 1);
            let small = small.map(|s| u128::from(s.count())).ok();
            assert_eq!(small, Some(trees(EXHAUSTIVE_GEN_SIZE - 1)), "the tree count formula");
            let all = trees(EXHAUSTIVE_GEN_SIZE);
            format!(
                "exhaustive: {} trees of five levels (≥ {} cases), {} cases in a {:.1} s probe: {} years at that rate, ≥ \
                 {}× the cases",
                sci(all as f64),
                sci(all as f64),
                er.tests,
                et,
                sci(all as f64 / (er.tests as f64 / et) / 3.156e7),
                sci(all as f64 / produced as f64)
            )
        };

        // `hol check` on the workload alone.
        let file = dir.join(format!("Smart_{}.thy", w.lemma));
        std::fs::write(&file, workload_theory(w.lemma)).expect("the workload's theory is written");
        let process = match (&hol, &lsc) {
            (None, _) => "no hol binary".to_owned(),
            (Some(_), Err(why)) => format!("no Lazy SmallCheck to compare with ({why})"),
            (Some(hol), Ok(lsc)) => {
                hol_check(hol, &file);
                let (lsc_n, lsc_t) = lsc_run(lsc, w.lsc);
                let (p, lsc_wall) = interleaved_medians(
                    || hol_check(hol, &file),
                    || {
                        lsc_run(lsc, w.lsc);
                    },
                );
                format!(
                    "hol check {:.1} ms, {:.2}× Lazy SmallCheck's process ({:.1} ms, medians of {PROCESS_RUNS} \
                     interleaved runs; its check alone {:.1} ms, {} partial cases)",
                    p * 1e3,
                    p / lsc_wall,
                    lsc_wall * 1e3,
                    lsc_t * 1e3,
                    lsc_n
                )
            }
        };
        eprintln!(
            "{}: smart_exhaustive (size {}, depth {}) {} cases in {:.2} ms ({note}; the premise search alone {:.2} ms), \
             {covered}; {baseline} (of the {} in the whole space); {process}; {alloc_note}",
            w.id,
            w.size,
            w.depth,
            produced,
            smart_t * 1e3,
            premise_t * 1e3,
            w.space
        );

        let mut g = c.benchmark_group(w.id);
        g.sample_size(10);
        if smart_t > 0.1 {
            g.sampling_mode(SamplingMode::Flat);
        }
        g.throughput(Throughput::Elements(produced));
        g.bench_function("smart_exhaustive", |b| {
            b.iter(|| assert_eq!(one_size(smart, &conj, &sopts, gen).tests, produced))
        });
        if smart_t < 0.1 {
            let budget = far_budget();
            let mut s = search(smart, &conj, &sopts, &budget);
            g.bench_function("smart_exhaustive_search_only", |b| {
                b.iter(|| assert_eq!(size_of(&mut *s, gen, budget).tests, produced))
            });
        }
        if exhaustive_whole {
            let budget = far_budget();
            let mut s = search(exhaustive, &conj, &eopts, &budget);
            let cases = size_of(&mut *s, EXHAUSTIVE_GEN_SIZE, budget).tests;
            g.throughput(Throughput::Elements(cases));
            g.bench_function("exhaustive", |b| {
                b.iter(|| assert_eq!(one_size(exhaustive, &conj, &eopts, EXHAUSTIVE_GEN_SIZE).tests, cases))
            });
            g.bench_function("exhaustive_search_only", |b| {
                b.iter(|| assert_eq!(size_of(&mut *s, EXHAUSTIVE_GEN_SIZE, budget).tests, cases))
            });
        }
        g.finish();
        if let Some(hol) = &hol {
            let mut g = c.benchmark_group(format!("{}_process", w.id));
            g.sample_size(10).sampling_mode(SamplingMode::Flat);
            g.bench_function("hol_check", |b| b.iter(|| hol_check(hol, &file)));
            if let Ok(lsc) = &lsc {
                g.bench_function("lazysmallcheck", |b| b.iter(|| lsc_run(lsc, w.lsc)));
            }
            g.finish();
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn var(c: &Conjecture, name: &str) -> usize {
    c.vars.iter().position(|v| v.name == name).unwrap_or_else(|| panic!("no variable {name}"))
}

criterion_group!(benches, bench);
criterion_main!(benches);
