//! Generalizing counterexamples (issue 23), measured over the acceptance theories (the copy
//! of `shared/examples`): for every lemma the exhaustive tester refutes within size 5, the
//! time to find the counterexample, the time to generalize it (patterns tested, cases run,
//! generalizations found), and their ratio in the same run.
//!
//! `cargo bench -p analysis --bench generalize` (a table on stdout: one row per lemma, then
//! the totals; no criterion, as each row is one measurement of a whole search).

use lang::core::conjecture::Conjecture;
use quickcheck::generalize::claims;
use quickcheck::{first_counterexample, Engine, Options, Registry};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The exhaustive tester's counterexample up to size 5: the instance and the generated
/// values.
fn refute(conjectures: &[Conjecture]) -> Option<(usize, Vec<Option<lang::interp::Value>>)> {
    let registry = Registry::standard();
    let deadline = Instant::now() + Duration::from_millis(2000);
    first_counterexample(registry.get("exhaustive")?, conjectures, &Options::default(), Engine::Tiered, deadline)
}

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/acceptance");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/acceptance")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "thy"))
        .collect();
    files.sort();
    println!("| theory | lemma | find (ms) | generalize (ms) | ratio | patterns | cases | found |");
    println!("|---|---|---:|---:|---:|---:|---:|---:|");
    let (mut n, mut find_total, mut gen_total, mut patterns_total, mut found_total) = (0, 0.0, 0.0, 0, 0);
    let mut gen_times = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("a theory");
        let th = lang::check_theory(&text);
        let opts = Options::default();
        for item in &th.items {
            let lang::theory::ItemKind::Lemma { index, statement, name, .. } = &item.kind else { continue };
            let conjectures: Vec<Conjecture> = quickcheck::instances(&th, *index, &opts)
                .iter()
                .map(|inst| th.lower_conjecture(*index, inst))
                .collect();
            let t0 = Instant::now();
            let Some((at, generated)) = refute(&conjectures) else { continue };
            let find = t0.elapsed().as_secs_f64();
            let t1 = Instant::now();
            // The share of the default 10 s time limit.
            let deadline = t1 + quickcheck::generalize::share(opts.timeout);
            let Some(found) = claims(&conjectures, at, &generated, Engine::Tiered, deadline, &AtomicBool::new(false))
            else {
                continue;
            };
            let gen = t1.elapsed().as_secs_f64();
            let lemma = name.clone().unwrap_or_else(|| text[statement.start as usize..statement.end as usize].into());
            println!(
                "| {} | `{}` | {:.2} | {:.2} | {:.1} | {} | {} | {} |",
                path.file_name().unwrap_or_default().to_string_lossy(),
                lemma,
                1e3 * find,
                1e3 * gen,
                gen / find.max(1e-9),
                found.tested,
                found.cases,
                found.claims.len()
            );
            n += 1;
            find_total += find;
            gen_total += gen;
            patterns_total += found.tested;
            found_total += found.claims.len();
            gen_times.push(gen);
        }
    }
    gen_times.sort_by(f64::total_cmp);
    let median = gen_times.get(gen_times.len() / 2).copied().unwrap_or(0.0);
    println!(
        "\n{n} counterexamples: finding {:.1} ms in all, generalizing {:.1} ms in all ({:.1}x), median {:.2} ms, \
         slowest {:.2} ms per counterexample; {:.1} patterns tested and {:.2} generalizations found per counterexample",
        1e3 * find_total,
        1e3 * gen_total,
        gen_total / find_total.max(1e-9),
        1e3 * median,
        1e3 * gen_times.last().copied().unwrap_or(0.0),
        patterns_total as f64 / n.max(1) as f64,
        found_total as f64 / n.max(1) as f64
    );
}
