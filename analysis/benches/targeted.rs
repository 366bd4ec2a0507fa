//! Target's Figure 8 (issue 25): how deep each tester gets on constrained inputs, next to
//! Lazy SmallCheck run in the same process tree, and the time to the first counterexample
//! of each lemma of `tests/acceptance/Targeted.thy`.
//!
//! `cargo bench -p analysis --bench targeted` (a table on stdout, no criterion: a depth
//! takes up to a minute). Environment: `HOL_TARGET_SECONDS` (per size, default 60),
//! `HOL_TARGET_MAX_DEPTH` (default 20, Target's deepest), `HOL_TARGET_ENOUGH` (default
//! 1000), `HOL_TARGET_ONLY` (a workload: `sorted`, `rbt`, `wbt`), `HOL_TARGET_TESTERS`
//! (testers, comma-separated; `lsc` for Lazy SmallCheck).
//!
//! **Workloads** (`Target.thy`, and `target/LSC.hs` for Lazy SmallCheck): insertion into a
//! sorted list, red-black insertion with its three invariants, deletion from a
//! weight-balanced tree (`Data.Map`), each `premise t ⟹ premise (op x t)`, all true.
//!
//! **Depth.** Lazy SmallCheck's and Target's: a list of depth d has at most d elements, a
//! tree at most d levels, keys of the top-level variable in -d..d. hol's testers run at the
//! generator size d + 1 (`space.rs`: at most d elements, d levels, numbers in -(d+1)..d+1
//! at the top), a superset of Lazy SmallCheck's depth-d space; `smart_exhaustive` at
//! derivation depth d + 1.
//!
//! **Two settings, each size at most `HOL_TARGET_SECONDS`, sizes increasing, the deepest
//! one completed in time reported:**
//! - *first 1000*, Target's: a size is completed once `HOL_TARGET_ENOUGH` of its cases met
//!   the premise (`Budget::enough`), or its whole space was tested;
//! - *complete*: a size is completed when its whole space was tested (every input up to
//!   it that meets the premise): the guarantee "no counterexample up to size d". The `smt`
//!   tester decides a size in one query (the negated conclusion asserted); Target's loop
//!   (`smt_enumerating`) enumerates every model.
//!
//! Lazy SmallCheck is built with `ghc -O2` into the target directory when `ghc` and
//! Debian's `libghc-lazysmallcheck-dev` are installed (`shared/peers/run.sh` installs them);
//! without them its column says so.

#[path = "../../tests/support/ghc.rs"]
mod ghc;

use lang::core::conjecture::Conjecture;
use quickcheck::testers::smt::SmtTester;
use quickcheck::{Budget, End, Engine, Options, OutcomeKind, Search, Setup, Tester, TesterName, Turn};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const THEORY: &str = include_str!("Target.thy");
const LSC_SOURCE: &str = "benches/target/LSC.hs";
const TARGETED: &str = include_str!("../../tests/acceptance/Targeted.thy");

struct Workload {
    id: &'static str,
    lemma: &'static str,
    /// Lazy SmallCheck's name for it (`LSC.hs`).
    lsc: &'static str,
    /// The depth Target reached with 60 minutes per depth (Figure 8).
    target: u64,
}

const WORKLOADS: [Workload; 3] = [
    Workload { id: "sorted insertion", lemma: "sorted_insort", lsc: "sorted", target: 20 },
    Workload { id: "red-black insertion", lemma: "rbt_add", lsc: "rbt", target: 12 },
    Workload { id: "weight-balanced deletion", lemma: "wbt_delete", lsc: "wbt", target: 10 },
];

const TESTERS: [&str; 6] = ["smt", "smt_enumerating", "exhaustive", "narrowing", "smart_exhaustive", "random"];

#[derive(Clone, Copy, PartialEq)]
enum Setting {
    First,
    Complete,
}

struct Limits {
    seconds: u64,
    max_depth: u64,
    enough: u64,
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// How one size ended.
struct Step {
    depth: u64,
    completed: bool,
    how: String,
    seconds: f64,
    passed: u64,
}

fn tester(name: &str) -> &'static dyn Tester {
    static ENUMERATING: SmtTester = SmtTester::ENUMERATING;
    if name == "smt_enumerating" {
        return &ENUMERATING;
    }
    static REGISTRY: std::sync::OnceLock<quickcheck::Registry> = std::sync::OnceLock::new();
    REGISTRY.get_or_init(analysis::testers::standard).get(name).unwrap_or_else(|| panic!("no tester {name}"))
}

/// Sizes 1, 2, ... of `t` on `c` in `setting`, one search kept across sizes (compiled
/// once, as `hol check` runs it), until a size is not completed in time. The smart
/// generators get a new search per size, at derivation depth d + 1 for depth d (their
/// depth is fixed when the search is made).
fn depths(t: &dyn Tester, c: &Conjecture, setting: Setting, lim: &Limits) -> Vec<Step> {
    if let Err(why) = t.applies(c) {
        return vec![Step {
            depth: 1,
            completed: false,
            how: format!("does not apply: {why}"),
            seconds: 0.0,
            passed: 0,
        }];
    }
    if let Some(why) = t.unavailable().or_else(|| t.not_executable(c)) {
        return vec![Step { depth: 1, completed: false, how: why, seconds: 0.0, passed: 0 }];
    }
    let per_size = t.name() == "smart_exhaustive";
    // The smart tester's derivation depth at generator size k is ⌈(k+1)·depth/size⌉.
    let opts_at = |depth: u64| Options {
        testers: vec![TesterName::from(t.name().to_owned())],
        size: depth + 2,
        // The random tester draws until enough cases met the premise or the time is up.
        iterations: u64::MAX / 2,
        timeout: Duration::from_secs(lim.seconds * (lim.max_depth + 1)),
        depth: Some(depth + 1),
        seed: Some(0),
        ..Options::default()
    };
    let opts = Options { size: lim.max_depth + 2, ..opts_at(lim.max_depth) };
    let far = Instant::now() + opts.timeout;
    let new_search = |opts: &Options| -> (Box<dyn Search + '_>, f64) {
        let t0 = Instant::now();
        let s = t.search(c, &Setup { options: opts, deadline: far, engine: Engine::Compiled });
        (s, t0.elapsed().as_secs_f64())
    };
    let (mut search, mut setup) = new_search(&opts);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0);
    let mut steps = Vec::new();
    let size_opts: Vec<Options> = (1..=lim.max_depth).map(opts_at).collect();
    for depth in 1..=lim.max_depth {
        if per_size {
            (search, setup) = new_search(&size_opts[depth as usize - 1]);
        }
        let mut budget = Budget::until(Instant::now() + Duration::from_secs(lim.seconds));
        if setting == Setting::First {
            budget = budget.enough(lim.enough);
        }
        let t0 = Instant::now();
        let res = search.run_size(&mut Turn::new(depth + 1, budget, false, &mut rng));
        let seconds = t0.elapsed().as_secs_f64() + setup;
        setup = 0.0;
        let (completed, how) = match &res.end {
            None => (true, "all".to_owned()),
            Some(End::Enough) => (true, "enough".to_owned()),
            Some(End::Stopped(quickcheck::runner::Stop::Timeout)) => (false, "timeout".to_owned()),
            Some(End::TooBig) => (false, "too big to enumerate".to_owned()),
            Some(End::Genuine(cx, _) | End::Spurious(cx)) => {
                (false, format!("COUNTEREXAMPLE to a true lemma: {:?}", cx.assignment))
            }
            Some(e) => (false, format!("{e:?}")),
        };
        steps.push(Step { depth, completed, how, seconds, passed: res.passed });
        if !completed || search.exhausted() {
            break;
        }
    }
    steps
}

/// Whether `HOL_TARGET_TESTERS` (if set) names `name`.
fn chosen(name: &str) -> bool {
    std::env::var("HOL_TARGET_TESTERS").map_or(true, |t| t.split(',').any(|n| n.trim() == name))
}

fn deepest(steps: &[Step]) -> u64 {
    steps.iter().filter(|s| s.completed).map(|s| s.depth).max().unwrap_or(0)
}

/// The last completed size and the one that was not, in words.
fn summary(steps: &[Step]) -> String {
    let done = steps.iter().rev().find(|s| s.completed);
    let failed = steps.iter().find(|s| !s.completed);
    let mut out = match done {
        Some(s) => format!("{} ({}, {:.3} s, {} passed)", s.depth, s.how, s.seconds, s.passed),
        None => "0".to_owned(),
    };
    if let Some(f) = failed {
        out.push_str(&format!("; {}: {} after {:.1} s", f.depth, f.how, f.seconds));
    }
    out
}

// ---------------------------------------------------------------- Lazy SmallCheck

/// `target/LSC.hs` compiled with `ghc -O2` under the target directory, or why not.
fn build_lsc() -> Result<PathBuf, String> {
    ghc::build(&Path::new(env!("CARGO_MANIFEST_DIR")).join(LSC_SOURCE), "lsc-target")
}

fn lsc_depths(bin: &Path, w: &Workload, setting: Setting, lim: &Limits) -> Vec<Step> {
    let enough = if setting == Setting::First { lim.enough } else { u64::MAX / 4 };
    let out = Command::new(bin)
        .args([w.lsc, &lim.max_depth.to_string(), &lim.seconds.to_string(), &enough.to_string()])
        .output()
        .expect("lsc-target runs");
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() == 5 && f[0] == "depth").then(|| Step {
                depth: f[1].parse().unwrap_or(0),
                completed: f[2] != "timeout",
                how: if f[2] == "completed" { "all".to_owned() } else { f[2].to_owned() },
                seconds: f[3].parse().unwrap_or(0.0),
                passed: f[4].parse().unwrap_or(0),
            })
        })
        .collect()
}

// ---------------------------------------------------------------- Targeted.thy

/// Each lemma of `Targeted.thy` refuted by its own `quickcheck[smt, ...]` command: the
/// time to the first counterexample with `smt` and with the default portfolio (the same
/// options without the tester), each in-process, the theory checked beforehand.
fn targeted() {
    let registry = analysis::testers::standard();
    let th = lang::check_theory_with(TARGETED, &lang::types::imports::NoSiblings, &registry.names());
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    println!("\n## Time to the first counterexample, tests/acceptance/Targeted.thy\n");
    println!("| lemma | options | smt | default portfolio |");
    println!("|---|---|---|---|");
    let mut rest = TARGETED;
    while let Some(at) = rest.find("lemma ") {
        rest = &rest[at + 6..];
        let name = &rest[..rest.find(':').expect("lemma name:")];
        let block = &rest[..rest.find("oops").expect("oops")];
        let Some(cmd) = block.lines().map(str::trim).find(|l| l.starts_with("quickcheck[smt")) else { continue };
        if !cmd.contains("expect = counterexample") {
            continue;
        }
        let inner = &cmd["quickcheck[smt".len()..cmd.len() - 1];
        let mut opts = Options { seed: Some(0), ..Options::default() };
        for kv in inner.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (k, v) = kv.split_once('=').map(|(k, v)| (k.trim(), Some(v.trim()))).unwrap_or((kv, None));
            if k != "expect" {
                opts.set(k, v);
            }
        }
        let index = th.lemma_named(name).unwrap_or_else(|| panic!("no lemma {name}"));
        let shown = inner.trim_start_matches(',').trim();
        let mut cells = Vec::new();
        for tester in [Some("smt"), None] {
            let o = Options {
                testers: tester.map(|t| TesterName::from(t.to_owned())).into_iter().collect(),
                ..opts.clone()
            };
            let t0 = Instant::now();
            let r = quickcheck::check_lemma(&th, index, &o, Engine::Tiered, &registry, &quickcheck::Cancel::new());
            let secs = t0.elapsed().as_secs_f64();
            cells.push(match r.outcome {
                OutcomeKind::Counterexample => format!("{:.1} ms ({})", secs * 1e3, r.tester),
                o => format!("{o:?} after {:.1} ms ({})", secs * 1e3, r.tester),
            });
        }
        println!("| `{name}` | `{shown}` | {} | {} |", cells[0], cells[1]);
    }
}

fn main() {
    // `cargo bench` passes `--bench`; this harness reads its settings from the environment.
    let lim = Limits {
        seconds: env_u64("HOL_TARGET_SECONDS", 60),
        max_depth: env_u64("HOL_TARGET_MAX_DEPTH", 20),
        enough: env_u64("HOL_TARGET_ENOUGH", 1000),
    };
    let only = std::env::var("HOL_TARGET_ONLY").ok();
    let th = lang::check_theory(THEORY);
    assert!(th.diagnostics.is_empty(), "Target.thy: {:?}", th.diagnostics);
    let lsc = build_lsc();
    if let Err(why) = &lsc {
        eprintln!("Lazy SmallCheck is not run: {why}");
    }
    println!(
        "# Target's Figure 8 workloads: deepest size completed, at most {} s per size, sizes 1..{}",
        lim.seconds, lim.max_depth
    );
    for setting in [Setting::First, Setting::Complete] {
        match setting {
            Setting::First => {
                println!("\n## First {} premise-satisfying inputs per size (Target's setting)\n", lim.enough)
            }
            Setting::Complete => println!("\n## Every input per size (complete)\n"),
        }
        println!("| workload | Target (60 min) | tester | deepest | last completed; first not |");
        println!("|---|---:|---|---:|---|");
        for w in WORKLOADS.iter().filter(|w| only.as_deref().is_none_or(|o| o == w.lsc)) {
            let index = th.lemma_named(w.lemma).unwrap_or_else(|| panic!("no lemma {}", w.lemma));
            let c = th.lower_conjecture(index, &[]);
            let mut rows: Vec<(String, Vec<Step>)> = Vec::new();
            for name in TESTERS {
                if setting == Setting::Complete && name == "random" || !chosen(name) {
                    continue;
                }
                rows.push((name.to_owned(), depths(tester(name), &c, setting, &lim)));
            }
            match &lsc {
                _ if !chosen("lsc") => {}
                Ok(bin) => rows.push(("Lazy SmallCheck 0.6".to_owned(), lsc_depths(bin, w, setting, &lim))),
                Err(why) => rows.push((
                    "Lazy SmallCheck 0.6".to_owned(),
                    vec![Step { depth: 1, completed: false, how: format!("not run: {why}"), seconds: 0.0, passed: 0 }],
                )),
            }
            for (name, steps) in &rows {
                println!("| {} | {} | {name} | {} | {} |", w.id, w.target, deepest(steps), summary(steps));
            }
        }
    }
    targeted();
}
