//! `hol mutants` through the binary (issue 19, first part): the table per theory names
//! every strategy (the registry's testers and the portfolio) and the union, counts add up,
//! the table does not depend on `--jobs`, a refuted original lemma is reported and its
//! mutants left out, the log has a line per mutant, the shards of a run (their index from
//! `JOB_COMPLETION_INDEX`) merge into the table of the whole run and `merge` refuses logs
//! that do not make one run, under `--budget` two runs, runs with different `--jobs` and
//! merged shards give byte-identical tables and logs, a logged mutant replays as logged,
//! `--plot` draws every strategy and theory, and an unknown strategy is a usage error.

#[path = "../../tests/support/process.rs"]
mod process;

use process::{run_program, Run};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;

const HOL: &str = env!("CARGO_BIN_EXE_hol");
const LIMIT: Duration = Duration::from_secs(120);

const THEORY: &str = "theory Small imports Main begin

lemma rev_append: \"rev (xs @ ys) = rev ys @ rev xs\"
  sorry

lemma length_append: \"length (xs @ ys) = length xs + length ys\"
  sorry

lemma take_drop: \"take n xs @ drop n xs = xs\"
  sorry

lemma bad: \"rev xs = xs\"
  oops

end
";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hol-mutants-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("Small.thy"), THEORY).unwrap();
    dir
}

fn mutants(dir: &Path, flags: &[&str]) -> Run {
    let args: Vec<&str> = ["mutants"].iter().chain(flags).chain(&["Small.thy"]).copied().collect();
    let run = run_program(HOL, dir, &args, LIMIT).expect("hol runs");
    assert!(!run.crashed(), "{}", run.output());
    run
}

#[test]
fn the_table_counts_every_strategy_and_does_not_depend_on_jobs() {
    let dir = scratch("jobs");
    let flags = ["--format", "json", "--seed", "5", "--timeout", "10", "--per-lemma", "3"];
    let one = mutants(&dir, &[&flags[..], &["--jobs", "1", "--log", "log.jsonl"]].concat());
    let two = mutants(&dir, &[&flags[..], &["--jobs", "2"]].concat());
    assert_eq!(one.code(), Some(0), "{}", one.output());
    assert_eq!(one.stdout, two.stdout, "the table depends on --jobs");
    let records: Vec<Value> = one.stdout.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    let [table] = records.as_slice() else { panic!("one table: {}", one.stdout) };
    assert_eq!(table["theory"], "Small");
    assert_eq!(table["lemmas"], 4);
    // `bad` is refuted unmutated: said on stderr, its mutants left out.
    assert!(one.stderr.contains("the unmutated lemma `bad`"), "{}", one.stderr);
    assert_eq!(table["mutants"], 9, "three mutants for each of the three true lemmas");
    let names: Vec<&str> = table["rows"].as_array().unwrap().iter().map(|r| r["strategy"].as_str().unwrap()).collect();
    let mut want = quickcheck::Registry::standard().names();
    want.push("portfolio");
    assert_eq!(names, want);
    for row in table["rows"].as_array().unwrap().iter().chain([&table["union"]]) {
        let n = |k: &str| row[k].as_u64().unwrap();
        let sum = n("genuine")
            + n("potentially_spurious")
            + n("no_counterexample")
            + n("timeout")
            + n("not_executable")
            + n("errors");
        assert_eq!(sum, n("mutants"), "{row}");
        assert_eq!(n("executable"), n("mutants") - n("not_executable") - n("errors"), "{row}");
    }
    // The log: one line per mutant, each strategy's run in it, ids unique.
    let log = std::fs::read_to_string(dir.join("log.jsonl")).expect("the log is written");
    let records: Vec<Value> = log.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    let kinds: Vec<&str> = records.iter().map(|r| r["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds[..6], ["run", "theory", "lemma", "lemma", "lemma", "lemma"], "{log}");
    let lines: Vec<&Value> = records.iter().filter(|r| r["kind"] == "mutant").collect();
    assert_eq!(lines.len(), 9, "{log}");
    let ids: std::collections::HashSet<&str> = lines.iter().map(|l| l["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), 9);
    for line in lines {
        assert!(["rev_append", "length_append", "take_drop"].contains(&line["lemma"].as_str().unwrap()), "{line}");
        assert!(line["mutant"].as_str().is_some_and(|m| m.starts_with("lemma ")), "{line}");
        for name in &want {
            let run = &line["runs"][*name];
            assert!(run["outcome"].is_string(), "{name}: {line}");
            if run["outcome"] == "counterexample" {
                assert!(run["counterexample"].is_object(), "{line}");
            }
        }
    }
    let genuine = |name: &str| {
        table["rows"].as_array().unwrap().iter().find(|r| r["strategy"] == name).unwrap()["genuine"].as_u64().unwrap()
    };
    // Most mutants of these lemmas are false, and small counterexamples refute them.
    assert!(genuine("exhaustive") >= 5, "{table}");
    assert!(table["union"]["genuine"].as_u64().unwrap() >= genuine("exhaustive"));
}

#[test]
fn the_human_table_has_a_row_per_strategy_and_the_union() {
    let dir = scratch("human");
    let run = mutants(&dir, &["--strategies", "random,exhaustive", "--per-lemma", "2", "--timeout", "10"]);
    assert_eq!(run.code(), Some(0), "{}", run.output());
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(lines[0].starts_with("Small: 4 lemmas, 6 mutants"), "{}", run.stdout);
    assert!(lines[1].contains("genuine/executable"), "{}", run.stdout);
    let rows: Vec<&str> = lines[2..].iter().filter_map(|l| l.split_whitespace().next()).collect();
    assert_eq!(rows, ["random", "exhaustive", "union"], "{}", run.stdout);
}

#[test]
fn an_unknown_strategy_is_a_usage_error() {
    let dir = scratch("unknown");
    let run = mutants(&dir, &["--strategies", "random,psychic"]);
    assert_eq!(run.code(), Some(2), "{}", run.output());
    assert!(run.stderr.contains("unknown strategy `psychic`"), "{}", run.stderr);
}

/// `hol mutants` in `dir` with `JOB_COMPLETION_INDEX` set, as a Kubernetes Indexed Job
/// runs it.
fn shard(dir: &Path, index: usize, count: usize) -> String {
    let shard = format!("auto/{count}");
    let log = format!("shard{index}.log");
    let args = ["mutants", "--seed", "5", "--timeout", "10", "--shard", &shard, "--log", &log, "Small.thy"];
    let output =
        process::command(HOL, dir, &args).env("JOB_COMPLETION_INDEX", index.to_string()).output().expect("hol runs");
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    log
}

#[test]
fn merged_shards_give_the_table_of_the_whole_run() {
    let dir = scratch("shards");
    let whole = mutants(&dir, &["--seed", "5", "--timeout", "10", "--log", "whole.log"]);
    assert_eq!(whole.code(), Some(0), "{}", whole.output());
    let logs: Vec<String> = (0..3).map(|i| shard(&dir, i, 3)).collect();
    // In any order.
    let merge = |logs: &[&str]| {
        let args: Vec<&str> = ["mutants", "merge"].iter().chain(logs).copied().collect();
        run_program(HOL, &dir, &args, LIMIT).expect("hol runs")
    };
    let merged = merge(&[&logs[2], &logs[0], &logs[1]]);
    assert_eq!(merged.code(), Some(0), "{}", merged.output());
    assert_eq!(merged.stdout, whole.stdout);
    // Each lemma is in exactly one shard.
    let lemmas = |log: &str| -> usize {
        std::fs::read_to_string(dir.join(log)).unwrap().lines().filter(|l| l.contains("\"kind\":\"lemma\"")).count()
    };
    assert_eq!(logs.iter().map(|l| lemmas(l)).sum::<usize>(), lemmas("whole.log"));

    let refused = |logs: &[&str], why: &str| {
        let run = merge(logs);
        assert_eq!(run.code(), Some(2), "{}", run.output());
        assert!(run.stderr.contains(why), "{}", run.stderr);
    };
    refused(&[&logs[0], &logs[1]], "shards missing: [2]");
    refused(&[&logs[0], &logs[1], &logs[1]], "given twice");
    refused(&[&logs[0], &logs[1], "whole.log"], "another run");
}

#[test]
fn under_a_budget_tables_and_logs_are_the_same_for_every_run() {
    let dir = scratch("budget");
    let run = |jobs: &str, log: &str, shard: &str| {
        let run = mutants(&dir, &["--budget", "4", "--seed", "9", "--jobs", jobs, "--log", log, "--shard", shard]);
        assert_eq!(run.code(), Some(0), "{}", run.output());
        (run.stdout, std::fs::read_to_string(dir.join(log)).expect("the log"))
    };
    let (table1, log1) = run("1", "one.log", "0/1");
    let (table2, log2) = run("2", "two.log", "0/1");
    assert_eq!(table1, table2);
    assert_eq!(log1, log2, "the logs differ between --jobs 1 and 2");
    assert!(!log1.contains("\"seconds\":0") && log1.contains("\"seconds\":null"), "{log1}");
    run("2", "a.log", "0/2");
    run("1", "b.log", "1/2");
    let merged = run_program(HOL, &dir, &["mutants", "merge", "a.log", "b.log"], LIMIT).expect("hol runs");
    assert_eq!(merged.code(), Some(0), "{}", merged.output());
    assert_eq!(merged.stdout, table1);
}

#[test]
fn a_logged_mutant_replays_as_logged() {
    let dir = scratch("replay");
    let run = mutants(&dir, &["--budget", "4", "--seed", "3", "--log", "run.log"]);
    assert_eq!(run.code(), Some(0), "{}", run.output());
    let log = std::fs::read_to_string(dir.join("run.log")).unwrap();
    let records: Vec<Value> = log.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let refuted = records
        .iter()
        .find(|r| r["kind"] == "mutant" && r["runs"]["exhaustive"]["outcome"] == "counterexample")
        .expect("a refuted mutant");
    let id = refuted["id"].as_str().unwrap();
    let replay = run_program(HOL, &dir, &["mutants", "replay", "run.log", id], LIMIT).expect("hol runs");
    assert_eq!(replay.code(), Some(0), "{}", replay.output());
    assert!(replay.stdout.starts_with(&format!("mutant {id} of ")), "{}", replay.stdout);
    assert!(replay.stdout.contains(refuted["mutant"].as_str().unwrap()), "{}", replay.stdout);
    assert!(replay.stdout.contains("  exhaustive: counterexample: "), "{}", replay.stdout);
    assert!(!replay.stdout.contains("logged:"), "{}", replay.stdout);
    let missing = run_program(HOL, &dir, &["mutants", "replay", "run.log", "0000000000000000"], LIMIT).unwrap();
    assert_eq!(missing.code(), Some(2), "{}", missing.output());
    assert!(missing.stderr.contains("no mutant 0000000000000000"), "{}", missing.stderr);
}

#[test]
fn the_plot_names_every_refuting_strategy_and_every_theory() {
    let dir = scratch("plot");
    let run = mutants(&dir, &["--strategies", "random,exhaustive", "--timeout", "10", "--plot", "plot.svg"]);
    assert_eq!(run.code(), Some(0), "{}", run.output());
    let svg = std::fs::read_to_string(dir.join("plot.svg")).expect("the plot is written");
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{svg}");
    let texts: Vec<&str> = svg.split("</text>").filter_map(|t| t.rsplit('>').next()).map(str::trim).collect();
    for name in ["random", "exhaustive", "Small", "mutants refuted within the time limit"] {
        assert!(texts.contains(&name), "{name} not in the plot's text: {texts:?}");
    }
    assert!(svg.matches("<polyline").count() >= 2, "a line per strategy");
}
