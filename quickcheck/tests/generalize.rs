//! Generalizations hold beyond the instances they were found on. For every lemma of the
//! suite's theories (the quickcheck fixtures and the acceptance theories)
//! that the exhaustive tester refutes (the bundled theories hold), each generalization of the counterexample is tested
//! again on ten times as many instances, exhaustively to a larger size (or every instance,
//! over finite types), and the lemma must fail on every one that meets its condition.
//!
//! Also: a generalization's instances are told apart from other failing cases (`covers`),
//! which `counterexamples = k` relies on.

use lang::core::conjecture::Conjecture;
use quickcheck::generalize::{claims, Bounds};
use quickcheck::{first_counterexample, Engine, Evidence, Options, Registry};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Ten times the search's instances, to a larger size.
const RECHECK: Bounds = Bounds { exhaustive: 2000, total: 5000, max_size: 12, random_sizes: 8 };

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the repository").to_path_buf()
}

fn theories() -> Vec<PathBuf> {
    let mut out = Vec::new();
    // The bundled theories' lemmas are all true.
    for dir in ["tests/fixtures/quickcheck", "tests/acceptance"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
            .expect("a theory directory")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "thy"))
            .collect();
        files.sort();
        out.extend(files);
    }
    out
}

/// The exhaustive tester's counterexample up to size 5: the instance and the generated
/// values.
fn refute(conjectures: &[Conjecture]) -> Option<(usize, Vec<Option<lang::interp::Value>>)> {
    let registry = Registry::standard();
    let deadline = Instant::now() + Duration::from_millis(500);
    first_counterexample(registry.get("exhaustive")?, conjectures, &Options::default(), Engine::Compiled, deadline)
}

#[test]
fn every_generalization_holds_on_more_instances() {
    let (mut lemmas, mut generalizations) = (0, 0);
    let mut failures = Vec::new();
    for path in theories() {
        let text = std::fs::read_to_string(&path).expect("a theory");
        let th = lang::check_theory(&text);
        let opts = Options::default();
        for item in &th.items {
            let lang::theory::ItemKind::Lemma { index, statement, .. } = &item.kind else { continue };
            let name = &text[statement.start as usize..statement.end as usize];
            let conjectures: Vec<Conjecture> = quickcheck::instances(&th, *index, &opts)
                .iter()
                .map(|inst| th.lower_conjecture(*index, inst))
                .collect();
            let t0 = Instant::now();
            let Some((at, generated)) = refute(&conjectures) else {
                if t0.elapsed().as_secs_f64() > 0.3 {
                    eprintln!("SLOW-TRUE {}: `{name}` {:?}", path.display(), t0.elapsed());
                }
                continue;
            };
            let t1 = Instant::now();
            lemmas += 1;
            let deadline = Instant::now() + Duration::from_secs(5);
            let Some(found) = claims(&conjectures, at, &generated, Engine::Compiled, deadline, &AtomicBool::new(false))
            else {
                failures.push(format!("{}: `{name}`: the counterexample is none", path.display()));
                continue;
            };
            // The counterexample is an instance of each of its generalizations.
            if !found.claims.is_empty() && !found.covers(&generated) {
                failures.push(format!("{}: `{name}`: the counterexample is not covered", path.display()));
            }
            let t2 = Instant::now();
            for (k, claim) in found.claims.iter().enumerate() {
                generalizations += 1;
                let what = format!("{}: `{name}`: `{}`", path.display(), claim.shown.words());
                let deadline = Instant::now() + Duration::from_secs(20);
                match found.recheck(k, RECHECK, Engine::Compiled, deadline) {
                    Err(why) => failures.push(format!("{what}: {why}")),
                    Ok(Evidence::Tested { size, every, random_size, .. }) => {
                        let Evidence::Tested { size: before, random_size: random_before, .. } = claim.shown.evidence
                        else {
                            unreachable!("a claim is tested")
                        };
                        // Every instance, or exhaustively to a larger size, or (where the
                        // next size has too many instances: sets, functions, lists of
                        // lists) ten times as many instances to a larger size.
                        if !(every || size > before || random_size > random_before) {
                            failures.push(format!(
                                "{what}: rechecked up to size {size} and {random_size}, found at {before} and {random_before}"
                            ));
                        }
                    }
                    Ok(Evidence::Proved) => failures.push(format!("{what}: a recheck proves nothing")),
                }
            }
            let t3 = Instant::now();
            if (t3 - t0).as_secs_f64() > 0.5 {
                eprintln!(
                    "SLOW {}: `{name}`: refute {:?} generalize {:?} recheck {:?}",
                    path.display(),
                    t1 - t0,
                    t2 - t1,
                    t3 - t2
                );
            }
        }
    }
    eprintln!("{lemmas} lemmas refuted, {generalizations} generalizations rechecked");
    assert!(generalizations >= 30, "only {generalizations} generalizations in {lemmas} lemmas");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
