//! The data-driven test harness: one libtest-mimic binary that runs the real `hol` binary
//! on theory files, one named test per file and property.
//!
//! - `fixture/DIR/NAME.thy`: `hol check --skip-tests NAME.thy` in human format (no colors,
//!   scrubbed environment, the fixture's directory as working directory, so paths in the
//!   output are stable) must produce exactly the blessed snapshot `NAME.out` beside it:
//!   stdout, then stderr and the exit status. Under `tests/fixtures/{quickcheck,names}/` lemmas are
//!   tested (`--seed 1`, so random runs replay), and times (`0.012 s`) read `<t> s`.
//! - `fixture-values/…` and `acceptance/values/NAME.thy`: every `value "t"  (* r *)` line's
//!   comment `r` equals the `result` of the JSON `value` record of that line, exactly.
//! - `acceptance/clean/NAME.thy`: the acceptance theories in `tests/acceptance/` (a copy of
//!   `shared/examples`, which `acceptance/copy-matches-shared` compares when it exists) produce no
//!   `error` record and no "did you mean" warning on a variable, and do not crash.
//!   `peers/copy-matches-shared`: the smart bench's copy of the peers' Lazy SmallCheck program
//!   is `shared/peers/haskell`'s.
//! - `acceptance/expectations/NAME.thy`: every `expect` of a `random`, `exhaustive`,
//!   `narrowing` or `smart_exhaustive` quickcheck command is met (but those `NOT_YET_MET`
//!   lists), and the exit status says whether all were.
//! - `acceptance/sound/NAME.thy`: no lemma with `expect = no_counterexample` gets a
//!   counterexample from the random tester (three seeds), the exhaustive, narrowing or
//!   smart_exhaustive one, whatever tester its commands name.
//! - `acceptance/errors/NAME.thy`: each bad-input theory in `tests/acceptance/errors` matches its
//!   snapshot `tests/acceptance_errors/NAME.out`, exits non-zero, and has an `error` record on
//!   the line its header names ("error at line N"). `deep_recursion.thy` and
//!   `nontermination.thy` must instead finish within the time limit without a crash (no
//!   signal, no internal error); their output depends on timing, so it has no snapshot.
//!
//! - `limits/NAME.thy` (the files under `tests/fixtures/limits/`): an adversarial input must
//!   end cleanly within its budget. Its header says `(* limit: N s *)`, and optionally
//!   `(* exit: K *)` (default 0) and `error at line L`. `hol check --format json --seed 1`
//!   runs under a 1 GiB data limit (`RLIMIT_DATA`) and must finish within `N + 1` s (of wall
//!   clock, or of processor time when the machine is busy; a run that hangs is killed), with a
//!   peak resident set of at most 1 GiB, exit status `K`, no signal or internal error, every
//!   output line a JSON record, every `value` comment and every `expect` met.
//!
//! `BLESS=1 cargo test -p hol --test fixtures` (re)writes snapshots from this run's
//! output; review them with `git diff` before committing. A missing snapshot fails.

#[path = "support/process.rs"]
mod process;

use libtest_mimic::{Arguments, Failed, Trial};
use process::{run_measured, run_program, End, Run, MEMORY_LIMIT};
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

const HOL: &str = env!("CARGO_BIN_EXE_hol");

/// `hol/`: the repository root is its parent.
const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

/// Time allowed for one run on a fixture or a bad-input theory.
const TIME_LIMIT: Duration = Duration::from_secs(60);

/// Time allowed for one full run on an acceptance theory (every lemma tested).
const EXAMPLE_TIME_LIMIT: Duration = Duration::from_secs(600);

/// Bad-input theories whose requirement is "finishes in time without a crash".
const RESOURCE_CASES: [&str; 2] = ["deep_recursion.thy", "nontermination.thy"];

/// Of the resource cases, those whose header asks for a non-zero exit status.
const RESOURCE_CASES_FAILING: [&str; 1] = ["nontermination.thy"];

fn main() {
    let args = Arguments::from_args();
    let mut trials = vec![Trial::test("harness/self-test", self_test)];
    trials.extend(fixture_trials());
    trials.extend(acceptance_trials());
    trials.extend(bundled_trials());
    trials.extend(limit_trials());
    // The trials run on as many threads as there are cores, in this order: the longest
    // first (an acceptance theory's soundness runs take up to 36 s), so that none is left
    // alone at the end.
    trials.sort_by_key(|t| {
        let name = t.name();
        [name.starts_with("acceptance/sound/"), name.starts_with("acceptance/"), name.starts_with("limits/")]
            .iter()
            .position(|&long| long)
            .unwrap_or(3)
    });
    libtest_mimic::run(&args, trials).exit();
}

fn repo_root() -> PathBuf {
    Path::new(MANIFEST_DIR).join("..")
}

fn bless() -> bool {
    std::env::var_os("BLESS").is_some_and(|v| !v.is_empty() && v != "0")
}

// ---------------------------------------------------------------------------------------
// Running the binary

/// Runs `hol ARGS` in `dir` (see [`run_program`]).
fn run_hol(dir: &Path, args: &[&str], limit: Duration) -> Result<Run, Failed> {
    Ok(run_program(HOL, dir, args, limit)?)
}

/// `path` split into its directory and file name, to run with a relative file name.
fn dir_and_name(path: &Path) -> Result<(&Path, &str), Failed> {
    let dir = path.parent().ok_or_else(|| format!("{} has no directory", path.display()))?;
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| format!("{} has no UTF-8 file name", path.display()))?;
    Ok((dir, name))
}

fn run_human(thy: &Path, flags: &[&str], limit: Duration) -> Result<Run, Failed> {
    let (dir, name) = dir_and_name(thy)?;
    let args: Vec<&str> = ["check"].iter().chain(flags).chain([&name]).copied().collect();
    run_hol(dir, &args, limit)
}

fn run_json(thy: &Path, flags: &[&str], limit: Duration) -> Result<Run, Failed> {
    let (dir, name) = dir_and_name(thy)?;
    let args: Vec<&str> = ["check", "--format", "json"].iter().chain(flags).chain([&name]).copied().collect();
    run_hol(dir, &args, limit)
}

/// The flags a fixture runs with: lemmas are tested only under `quickcheck/` and `names/`.
fn fixture_flags(rel: &str) -> &'static [&'static str] {
    if rel.starts_with("quickcheck/") || rel.starts_with("names/") {
        &["--seed", "1"]
    } else {
        &["--skip-tests"]
    }
}

/// `0.012 s` as `<t> s`: run times differ from run to run; and `z3 4.8.12` as
/// `z3 <version>`: the solver's version differs from machine to machine.
fn redact_times(text: &str) -> String {
    let timed = redact_seconds(text);
    let mut out = String::with_capacity(timed.len());
    let mut rest = timed.as_str();
    while let Some(at) = rest.find("z3 ") {
        out.push_str(&rest[..at + 3]);
        rest = &rest[at + 3..];
        let len = rest.find(|ch: char| !(ch.is_ascii_digit() || ch == '.')).unwrap_or(rest.len());
        let version = rest[..len].trim_end_matches('.');
        if version.starts_with(|ch: char| ch.is_ascii_digit()) {
            out.push_str("<version>");
            rest = &rest[version.len()..];
        }
    }
    out.push_str(rest);
    out
}

fn redact_seconds(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        let mut j = i;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        let before_ok = start == 0 || !(b[start - 1].is_ascii_alphanumeric() || b[start - 1] == b'.');
        if j > start && before_ok && j < b.len() && b[j] == b'.' {
            let mut k = j + 1;
            while k < b.len() && b[k].is_ascii_digit() {
                k += 1;
            }
            if k > j + 1 && text[k..].starts_with(" s") {
                out.push_str("<t>");
                i = k;
                continue;
            }
        }
        let ch = text[i..].chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

// ---------------------------------------------------------------------------------------
// Snapshots

/// Compares `actual` with the snapshot at `path`, or writes it when blessing.
fn check_snapshot(path: &Path, actual: &str, trial: &str) -> Result<(), Failed> {
    let shown = path.strip_prefix(repo_root()).unwrap_or(path).display().to_string();
    let expected = std::fs::read_to_string(path).ok();
    if expected.as_deref() == Some(actual) {
        return Ok(());
    }
    if bless() {
        std::fs::write(path, actual).map_err(|e| format!("cannot write {shown}: {e}"))?;
        return Ok(());
    }
    let how = format!("BLESS=1 cargo test -p hol --test fixtures -- --exact {trial}");
    match expected {
        None => Err(format!("no snapshot {shown}; review this output and bless it with `{how}`:\n{actual}").into()),
        Some(expected) => Err(format!(
            "output differs from {shown} (- snapshot, + actual); if the change is right, bless it with `{how}`\n{}",
            diff(&expected, actual)
        )
        .into()),
    }
}

/// A line diff (longest common subsequence), `-` for expected lines, `+` for actual ones.
fn diff(expected: &str, actual: &str) -> String {
    let a: Vec<&str> = expected.lines().collect();
    let b: Vec<&str> = actual.lines().collect();
    let mut lcs = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, String::new());
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            let _ = writeln!(out, "  {}", a[i]);
            (i, j) = (i + 1, j + 1);
        } else if j < b.len() && (i == a.len() || lcs[i][j + 1] >= lcs[i + 1][j]) {
            let _ = writeln!(out, "+ {}", b[j]);
            j += 1;
        } else {
            let _ = writeln!(out, "- {}", a[i]);
            i += 1;
        }
    }
    if expected.ends_with('\n') != actual.ends_with('\n') {
        out.push_str("(the files differ in the final newline)\n");
    }
    out
}

// ---------------------------------------------------------------------------------------
// `value` expectations

/// A `value "t"  (* r *)` line: its 1-based number, the term and the expected result.
#[derive(Debug, PartialEq, Eq)]
struct ValueExpectation {
    line: u32,
    term: String,
    expected: String,
}

/// Every line that is a `value` command with a quoted (or cartouche) term followed by a
/// comment holding the expected result. Lines inside text blocks do not start with `value`.
fn value_expectations(text: &str) -> Vec<ValueExpectation> {
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some(rest) = line.trim_start().strip_prefix("value") else { continue };
        let rest = rest.trim_start();
        let (term, rest) = if let Some(r) = rest.strip_prefix('"') {
            match r.find('"') {
                Some(end) => (&r[..end], &r[end + 1..]),
                None => continue,
            }
        } else if let Some(r) = rest.strip_prefix('‹') {
            match r.find('›') {
                Some(end) => (&r[..end], &r[end + '›'.len_utf8()..]),
                None => continue,
            }
        } else {
            continue;
        };
        let Some(comment) = rest.trim().strip_prefix("(*").and_then(|c| c.strip_suffix("*)")) else { continue };
        found.push(ValueExpectation {
            line: u32::try_from(i + 1).unwrap_or(u32::MAX),
            term: term.to_owned(),
            expected: comment.trim().to_owned(),
        });
    }
    found
}

/// Checks each expectation against the `value` records of a JSON run.
fn check_values(expectations: &[ValueExpectation], run: &Run) -> Result<(), Failed> {
    let records = run.records()?;
    let mut problems = Vec::new();
    for e in expectations {
        let on_line: Vec<&Value> = records.iter().filter(|r| r["line"].as_u64() == Some(u64::from(e.line))).collect();
        let value = on_line.iter().find(|r| r["kind"] == "value");
        match value.map(|r| &r["result"]) {
            Some(Value::String(result)) if *result == e.expected => {}
            Some(result) => {
                problems.push(format!("line {}: value \"{}\": expected {}, got {}", e.line, e.term, e.expected, result))
            }
            None => problems.push(format!(
                "line {}: value \"{}\": expected {}, but there is no value record for this line{}",
                e.line,
                e.term,
                e.expected,
                if on_line.is_empty() {
                    String::new()
                } else {
                    format!("; records on it: {}", on_line.iter().map(|r| r.to_string()).collect::<Vec<_>>().join(" "))
                }
            )),
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} of {} values wrong:\n{}\n({})",
            problems.len(),
            expectations.len(),
            problems.join("\n"),
            run.end
        )
        .into())
    }
}

// ---------------------------------------------------------------------------------------
// Fixtures under tests/fixtures

fn thy_files(dir: &Path, recursive: bool) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if recursive {
                    stack.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "thy") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

fn fixture_trials() -> Vec<Trial> {
    let root = repo_root().join("tests/fixtures");
    let limits = root.join(LIMITS_DIR);
    let files: Vec<PathBuf> = thy_files(&root, true).into_iter().filter(|f| !f.starts_with(&limits)).collect();
    if files.is_empty() {
        let shown = root.display().to_string();
        return vec![Trial::test("fixture", move || Err(format!("no .thy fixtures under {shown}").into()))];
    }
    let mut trials = Vec::new();
    for thy in files {
        let rel = thy.strip_prefix(&root).unwrap_or(&thy).display().to_string();
        let name = format!("fixture/{rel}");
        let snapshot = thy.with_extension("out");
        let (path, trial) = (thy.clone(), name.clone());
        let flags = fixture_flags(&rel);
        trials.push(Trial::test(name, move || {
            let run = run_human(&path, flags, TIME_LIMIT)?;
            check_snapshot(&snapshot, &redact_times(&run.snapshot()), &trial)
        }));
        let expectations = std::fs::read_to_string(&thy).map(|t| value_expectations(&t)).unwrap_or_default();
        if !expectations.is_empty() {
            trials.push(Trial::test(format!("fixture-values/{rel}"), move || {
                check_values(&expectations, &run_json(&thy, flags, TIME_LIMIT)?)
            }));
        }
    }
    trials.push(Trial::test("fixture/no-orphan-snapshots", move || orphans(&root)));
    trials
}

/// Fails when a `.out` snapshot has no `.thy` beside it (a renamed or deleted fixture).
fn orphans(root: &Path) -> Result<(), Failed> {
    let mut orphans = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for path in entries.flatten().map(|e| e.path()) {
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "out") && !path.with_extension("thy").exists() {
                orphans.push(path.display().to_string());
            }
        }
    }
    if orphans.is_empty() {
        Ok(())
    } else {
        Err(format!("snapshots without a fixture (delete them): {}", orphans.join(", ")).into())
    }
}

// ---------------------------------------------------------------------------------------
// The acceptance theories

/// For each theory: its `value` comments match exactly (`PREFIX/values/NAME`), and it checks
/// with no error records and exit status 0 (`PREFIX/clean/NAME`).
fn clean_trials(files: Vec<PathBuf>, prefix: &'static str) -> Vec<Trial> {
    clean_trials_with(files, prefix, |_| true)
}

/// `clean_trials`, where `tested(text)` says whether a theory's lemmas are tested here: a
/// theory that is not is checked with `--skip-tests`, and has no expectation or soundness
/// trial.
fn clean_trials_with(files: Vec<PathBuf>, prefix: &'static str, tested: fn(&str) -> bool) -> Vec<Trial> {
    let mut trials = Vec::new();
    for thy in files {
        let name = dir_and_name(&thy).map(|(_, n)| n.to_owned()).unwrap_or_default();
        let test = std::fs::read_to_string(&thy).map(|t| tested(&t)).unwrap_or(true);
        let flags: &'static [&'static str] = if test { &[] } else { &["--skip-tests"] };
        // One full JSON run per file, shared by its two trials.
        let run: Arc<OnceLock<Result<Run, String>>> = Arc::new(OnceLock::new());
        let get = {
            let thy = thy.clone();
            move |run: &OnceLock<Result<Run, String>>| {
                run.get_or_init(|| {
                    run_json(&thy, flags, EXAMPLE_TIME_LIMIT)
                        .map_err(|f| f.message().unwrap_or("run failed").to_owned())
                })
                .clone()
                .map_err(Failed::from)
            }
        };
        let expectations = std::fs::read_to_string(&thy).map(|t| value_expectations(&t)).unwrap_or_default();
        if !expectations.is_empty() {
            let (run, get) = (run.clone(), get.clone());
            trials
                .push(Trial::test(format!("{prefix}/values/{name}"), move || check_values(&expectations, &get(&run)?)));
        }
        {
            let (run, get) = (run.clone(), get.clone());
            trials.push(Trial::test(format!("{prefix}/clean/{name}"), move || {
                let run = get(&run)?;
                // A "did you mean" warning on a free variable is also a fault here: the
                // acceptance theories' variables are meant (`xs`, `n`, `t`).
                let errors: Vec<String> = run
                    .records()?
                    .iter()
                    .filter(|r| {
                        r["kind"] == "error"
                            || (r["kind"] == "warning"
                                && r["message"].as_str().is_some_and(|m| m.contains("did you mean")))
                    })
                    .map(|r| r.to_string())
                    .collect();
                // Exit status 1 is an unmet expectation, judged by the expectations trial.
                if errors.is_empty() && matches!(run.end, End::Exited(0 | 1)) && !run.crashed() {
                    Ok(())
                } else {
                    Err(format!("{} error records, {}:\n{}\n{}", errors.len(), run.end, errors.join("\n"), run.stderr)
                        .into())
                }
            }));
        }
        if !test {
            continue;
        }
        let file = name.clone();
        trials.push(Trial::test(format!("{prefix}/expectations/{name}"), move || expectations_met(&file, &get(&run)?)));
        let sound = thy.clone();
        trials.push(Trial::test(format!("{prefix}/sound/{name}"), move || no_false_counterexamples(&sound)));
    }
    trials
}

/// Testers whose expectations the suite holds `hol` to.
const BUILT_TESTERS: [&str; 5] = ["random", "exhaustive", "narrowing", "smart_exhaustive", "smt"];

/// Expectations of built testers that today's `hol` does not meet yet, as `(file, line,
/// tester, outcome today)`: asserted as they are, so that meeting one fails the trial until
/// it is removed here.
const NOT_YET_MET: [(&str, u64, &str, &str); 0] = [];

/// Every expectation of a built tester in the full JSON run of `file` is met (but those
/// `NOT_YET_MET` lists, which give what they give today), and the exit status is 0 exactly
/// when every expectation is.
fn expectations_met(file: &str, run: &Run) -> Result<(), Failed> {
    let records = run.records()?;
    let mut problems = Vec::new();
    let mut all_met = true;
    for r in records.iter().filter(|r| r["kind"] == "quickcheck") {
        let (tester, met) = (r["tester"].as_str().unwrap_or("?"), r["expect_met"].as_bool());
        all_met &= met != Some(false);
        let pending =
            NOT_YET_MET.iter().find(|(f, line, t, _)| file == *f && r["line"].as_u64() == Some(*line) && tester == *t);
        if let Some((_, line, _, today)) = pending {
            if met != Some(false) || r["outcome"] != *today {
                problems.push(format!(
                    "line {line}: {tester} was expected not to meet its expectation yet (giving {today}), but gave {}: \
                     remove it from NOT_YET_MET",
                    r["outcome"]
                ));
            }
        } else if BUILT_TESTERS.contains(&tester) {
            if met == Some(false) {
                problems.push(format!(
                    "line {}: {tester} expected {}, got {} ({})",
                    r["line"], r["expect"], r["outcome"], r["message"]
                ));
            }
        } else {
            problems.push(format!("line {}: {tester} is not a tester the suite knows", r["line"]));
        }
    }
    let want = if all_met { End::Exited(0) } else { End::Exited(1) };
    if run.end != want {
        problems.push(format!("expected {want} (every expectation met: {all_met}), got {}", run.end));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n").into())
    }
}

/// Seeds of the soundness runs of the random tester.
const SOUNDNESS_SEEDS: [&str; 3] = ["1", "2", "3"];

/// Runs the whole file with each built tester forced (random with several seeds) and a short
/// time limit: no run whose command expects no counterexample may report one, and no run
/// may end in an internal error (for `smt`: every decoded model satisfies the encoded
/// premises and negated conclusion when the interpreter evaluates them).
fn no_false_counterexamples(thy: &Path) -> Result<(), Failed> {
    let mut runs: Vec<Vec<&str>> =
        SOUNDNESS_SEEDS.iter().map(|s| vec!["--tester", "random", "--seed", s, "--timeout", "2"]).collect();
    runs.push(vec!["--tester", "exhaustive", "--timeout", "2"]);
    runs.push(vec!["--tester", "narrowing", "--timeout", "2"]);
    runs.push(vec!["--tester", "smart_exhaustive", "--timeout", "2"]);
    runs.push(vec!["--tester", "smt", "--timeout", "2"]);
    let mut problems = Vec::new();
    for flags in &runs {
        let run = run_json(thy, flags, EXAMPLE_TIME_LIMIT)?;
        if run.crashed() {
            problems.push(format!("{}: hol crashed:\n{}", flags.join(" "), run.output()));
        }
        for r in run.records()?.iter().filter(|r| r["kind"] == "quickcheck") {
            if r["expect"] == "no_counterexample" && r["outcome"] == "counterexample" {
                problems.push(format!("{}: line {}: false counterexample {}", flags.join(" "), r["line"], r));
            }
            // A disagreement: compiled code against the interpreter, or an SMT model that the
            // interpreter finds not to satisfy the premises the solver was given.
            if r["message"].as_str().is_some_and(|m| m.contains("internal error")) {
                problems.push(format!("{}: line {}: {}", flags.join(" "), r["line"], r["message"]));
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n").into())
    }
}

/// The bundled theories (`theories/*.thy`, the prelude among them) are clean too.
///
/// The benchmark theories (hundreds of true lemmas without `quickcheck` commands) are
/// checked here without testing: `hol/tests/bundled_theories.rs` runs every tester over
/// them with short limits, which at the defaults here would take minutes.
fn bundled_trials() -> Vec<Trial> {
    clean_trials_with(thy_files(&repo_root().join("theories"), false), "theories", |text| text.contains("quickcheck["))
}

/// The acceptance theories, copied from `shared/examples` into `tests/acceptance/` so that
/// a clone alone passes its own tests.
fn acceptance_trials() -> Vec<Trial> {
    let examples = repo_root().join("tests/acceptance");
    let mut trials = vec![
        Trial::test("acceptance/copy-matches-shared", acceptance_copy_matches_shared),
        Trial::test("peers/copy-matches-shared", peers_copy_matches_shared),
    ];
    trials.extend(clean_trials(thy_files(&examples, false), "acceptance"));
    let errors_dir = examples.join("errors");
    let files = thy_files(&errors_dir, false);
    if files.is_empty() {
        let shown = errors_dir.display().to_string();
        trials.push(Trial::test("acceptance/errors", move || Err(format!("no bad-input theories in {shown}").into())));
    }
    for thy in files {
        let name = dir_and_name(&thy).map(|(_, n)| n.to_owned()).unwrap_or_default();
        let trial = format!("acceptance/errors/{name}");
        if RESOURCE_CASES.contains(&name.as_str()) {
            trials.push(Trial::test(trial, move || resource_case(&thy, &name)));
        } else {
            let snapshot = repo_root().join("tests/acceptance_errors").join(Path::new(&name).with_extension("out"));
            let t = trial.clone();
            trials.push(Trial::test(trial, move || error_case(&thy, &snapshot, &t)));
        }
    }
    trials
}

/// The peers' Lazy SmallCheck program, copied from `shared/peers/haskell` into
/// `quickcheck/benches/peers/` for the smart generators' bench to build and time in its own
/// run: the copy must be the peers' program. A clone alone (no `shared/`) passes.
fn peers_copy_matches_shared() -> Result<(), Failed> {
    let shared = repo_root().join("../shared/peers/haskell");
    if !shared.is_dir() {
        return Ok(());
    }
    let copy = repo_root().join("quickcheck/benches/peers");
    let mut differ = Vec::new();
    for file in ["LSC.hs", "Defs.hs"] {
        let (ours, theirs) = (std::fs::read(copy.join(file)), std::fs::read(shared.join(file)));
        if ours.is_err() || ours.ok() != theirs.ok() {
            differ.push(file);
        }
    }
    if differ.is_empty() {
        Ok(())
    } else {
        Err(format!("quickcheck/benches/peers differs from shared/peers/haskell (copy again): {differ:?}").into())
    }
}

/// Theories of `shared/pending` (acceptance theories of testers built since) that the
/// acceptance set holds too: each was copied by the issue that built its tester.
const FROM_PENDING: &[&str] = &["Targeted.thy"];

/// Where `shared/examples` exists beside the repository (the development machine), the
/// copy in `tests/acceptance/` must be identical to it, file for file, and to
/// `shared/pending` for the files taken from there (`FROM_PENDING`); a clone alone (no
/// `shared/`) has nothing to compare with and passes.
fn acceptance_copy_matches_shared() -> Result<(), Failed> {
    let shared = repo_root().join("../shared/examples");
    if !shared.is_dir() {
        return Ok(());
    }
    let pending = repo_root().join("../shared/pending");
    let copy = repo_root().join("tests/acceptance");
    let (ours, theirs) = (relative_files(&copy)?, relative_files(&shared)?);
    let mut problems: Vec<String> = Vec::new();
    for f in theirs.iter().filter(|f| !ours.contains(f)) {
        problems.push(format!("{f}: in shared/examples, missing from tests/acceptance"));
    }
    for f in FROM_PENDING.iter().filter(|f| !ours.iter().any(|o| o == *f)) {
        problems.push(format!("{f}: from shared/pending, missing from tests/acceptance"));
    }
    for f in ours.iter().filter(|f| !theirs.contains(f) && !FROM_PENDING.contains(&f.as_str())) {
        problems.push(format!("{f}: in tests/acceptance, not in shared/examples"));
    }
    for f in &ours {
        let source = if FROM_PENDING.contains(&f.as_str()) { &pending } else { &shared };
        if !theirs.contains(f) && source == &shared {
            continue;
        }
        let read = |root: &Path| std::fs::read(root.join(f)).map_err(|e| format!("{f}: {e}"));
        if read(&copy)? != read(source)? {
            problems.push(format!("{f}: differs from {}", source.join(f).display()));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("tests/acceptance is out of date (copy shared/examples again):\n{}", problems.join("\n")).into())
    }
}

/// Every file under `root`, as paths relative to it, sorted.
fn relative_files(root: &Path) -> Result<Vec<String>, Failed> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))? {
            let path = entry.map_err(|e| e.to_string())?.path();
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(rel) = path.strip_prefix(root) {
                out.push(rel.display().to_string());
            }
        }
    }
    out.sort();
    Ok(out)
}

/// A bad-input theory: snapshot, non-zero exit, and an error on the line its header names.
fn error_case(thy: &Path, snapshot: &Path, trial: &str) -> Result<(), Failed> {
    let human = run_human(thy, &[], TIME_LIMIT)?;
    let mut problems = Vec::new();
    if let Err(f) = check_snapshot(snapshot, &redact_times(&human.snapshot()), trial) {
        problems.push(f.message().unwrap_or("snapshot differs").to_owned());
    }
    match human.end {
        End::Exited(code) if code != 0 => {}
        ref end => problems.push(format!("expected a non-zero exit status, got {end}")),
    }
    let header = std::fs::read_to_string(thy).map_err(|e| format!("cannot read {}: {e}", thy.display()))?;
    if let Some(line) = expected_error_line(&header) {
        let json = run_json(thy, &[], TIME_LIMIT)?;
        let records = json.records()?;
        let on_line = records.iter().any(|r| r["kind"] == "error" && r["line"].as_u64() == Some(u64::from(line)));
        if !on_line {
            let errors: Vec<String> = records.iter().filter(|r| r["kind"] == "error").map(|r| r.to_string()).collect();
            problems.push(format!(
                "the header expects an error at line {line}; error records: {}",
                if errors.is_empty() { "none".to_owned() } else { errors.join(" ") }
            ));
        }
    }
    if human.crashed() {
        problems.push(format!("hol crashed:\n{}", human.output()));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n\n").into())
    }
}

/// `N` from a header comment saying `expected: error at line N`.
fn expected_error_line(text: &str) -> Option<u32> {
    let at = text.find("error at line ")? + "error at line ".len();
    let digits: String = text[at..].chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// deep_recursion / nontermination: ends in time, no signal, no internal error.
fn resource_case(thy: &Path, name: &str) -> Result<(), Failed> {
    let run = run_human(thy, &[], TIME_LIMIT)?;
    if run.crashed() {
        return Err(format!("hol crashed or did not finish:\n{}", run.output()).into());
    }
    if RESOURCE_CASES_FAILING.contains(&name) && run.end == End::Exited(0) {
        return Err(format!("expected a non-zero exit status (evaluation did not finish):\n{}", run.output()).into());
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Limits: adversarial inputs under a time and memory budget

/// The fixtures directory (under `tests/fixtures`) of adversarial inputs.
const LIMITS_DIR: &str = "limits";

/// What an adversarial input may use beyond its own time budget.
const TIME_SLACK: Duration = Duration::from_secs(1);

/// How long past its budget a run is let go on before it is killed, so that an overrun is
/// measured (and reported with its figure) rather than only noticed.
const KILL_AFTER: Duration = Duration::from_secs(30);

/// The budget a limits fixture's header declares.
#[derive(Debug, PartialEq, Eq)]
struct LimitHeader {
    time: Duration,
    exit: i32,
    error_line: Option<u32>,
}

/// `(* limit: N s *)`, `(* exit: K *)` and `error at line L` from a fixture's text.
fn limit_header(text: &str) -> Result<LimitHeader, String> {
    let number_after = |key: &str| -> Option<&str> {
        let at = text.find(key)? + key.len();
        let rest = text[at..].trim_start();
        let end = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(rest.len());
        Some(&rest[..end])
    };
    let time = number_after("(* limit:")
        .ok_or("the header must declare its time budget: (* limit: N s *)")?
        .parse::<f64>()
        .map_err(|e| format!("limit: {e}"))?;
    let exit = match number_after("(* exit:") {
        Some(k) => k.parse::<i32>().map_err(|e| format!("exit: {e}"))?,
        None => 0,
    };
    Ok(LimitHeader { time: Duration::from_secs_f64(time), exit, error_line: expected_error_line(text) })
}

fn limit_trials() -> Vec<Trial> {
    let dir = repo_root().join("tests/fixtures").join(LIMITS_DIR);
    let files = thy_files(&dir, false);
    if files.is_empty() {
        let shown = dir.display().to_string();
        return vec![Trial::test("limits", move || Err(format!("no adversarial inputs in {shown}").into()))];
    }
    files
        .into_iter()
        .map(|thy| {
            let name = dir_and_name(&thy).map(|(_, n)| n.to_owned()).unwrap_or_default();
            Trial::test(format!("limits/{name}"), move || limit_case(&thy))
        })
        .collect()
}

/// Runs one adversarial input and checks everything its header and its text promise.
fn limit_case(thy: &Path) -> Result<(), Failed> {
    let text = std::fs::read_to_string(thy).map_err(|e| format!("cannot read {}: {e}", thy.display()))?;
    let header = limit_header(&text)?;
    let (dir, name) = dir_and_name(thy)?;
    let measured =
        run_measured(HOL, dir, &["check", "--format", "json", "--seed", "1", name], header.time + KILL_AFTER)?;
    let run = &measured.run;
    let mut problems = Vec::new();
    if measured.took() > header.time + TIME_SLACK {
        problems.push(format!(
            "took {:.2} s (the lesser of wall-clock and processor time), over its budget of {} s (+{} s)",
            measured.took().as_secs_f64(),
            header.time.as_secs_f64(),
            TIME_SLACK.as_secs()
        ));
    }
    if measured.peak_memory > MEMORY_LIMIT {
        problems.push(format!("peak resident memory {} MiB, over 1024 MiB", measured.peak_memory >> 20));
    }
    if run.crashed() {
        problems.push("crashed, was killed or reported an internal error".to_owned());
    } else if run.end != End::Exited(header.exit) {
        problems.push(format!("expected exit status {}, got {}", header.exit, run.end));
    }
    match run.records() {
        Err(e) => problems.push(e),
        Ok(records) => {
            for r in records.iter().filter(|r| r["kind"] == "quickcheck" && r["expect_met"] == false) {
                problems.push(format!(
                    "line {}: expected {}, got {} ({})",
                    r["line"], r["expect"], r["outcome"], r["message"]
                ));
            }
            if let Some(line) = header.error_line {
                if !records.iter().any(|r| r["kind"] == "error" && r["line"].as_u64() == Some(u64::from(line))) {
                    problems.push(format!("the header expects an error at line {line}"));
                }
            }
            let values = value_expectations(&text);
            if !values.is_empty() {
                if let Err(f) = check_values(&values, run) {
                    problems.push(f.message().unwrap_or("values differ").to_owned());
                }
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{}\n{}", problems.join("\n"), run.output()).into())
    }
}

// ---------------------------------------------------------------------------------------
// The harness's own helpers

fn self_test() -> Result<(), Failed> {
    let text = "theory T imports Main begin\ntext \u{2039}value \"x\" (* no *)\u{203a}\n  value \"(2 :: nat) ^ 3\"  (* 8 *)\nvalue \"[x. x \u{2190} [1]]\"\nvalue \u{2039}a\u{203a} (* [a1, a2] *)\nend\n";
    let found = value_expectations(text);
    let want = vec![
        ValueExpectation { line: 3, term: "(2 :: nat) ^ 3".into(), expected: "8".into() },
        ValueExpectation { line: 5, term: "a".into(), expected: "[a1, a2]".into() },
    ];
    if found != want {
        return Err(format!("value_expectations: {found:?}").into());
    }
    let d = diff("a\nb\nc\n", "a\nB\nc\n");
    if d != "  a\n+ B\n- b\n  c\n" {
        return Err(format!("diff: {d:?}").into());
    }
    let limits = limit_header("(* limit: 2.5 s *) (* exit: 1 *) (* error at line 4 *)")?;
    let want_limits = LimitHeader { time: Duration::from_millis(2500), exit: 1, error_line: Some(4) };
    if limits != want_limits || limit_header("(* no budget *)").is_ok() {
        return Err(format!("limit_header: {limits:?}").into());
    }
    let header = "(* expected: error at line 5: equation gives ... *)";
    if expected_error_line(header) != Some(5) || expected_error_line("(* no crash *)").is_some() {
        return Err("expected_error_line".into());
    }
    let versioned = redact_times("solver z3 4.8.12, z3 4.8.12.");
    if versioned != "solver z3 <version>, z3 <version>." {
        return Err(format!("redact_times: {versioned:?}").into());
    }
    let timed = redact_times("0.012 s, 1.5 s, v1.2 s, 3.4 sec, 12 s");
    if timed != "<t> s, <t> s, v1.2 s, <t> sec, 12 s" {
        return Err(format!("redact_times: {timed:?}").into());
    }
    let run = Run { end: End::Exited(2), stdout: "x\n".into(), stderr: String::new() };
    if run.snapshot() != "x\n--- exit status: 2\n" {
        return Err(format!("snapshot: {:?}", run.snapshot()).into());
    }
    let json = Run {
        end: End::Exited(0),
        stdout:
            "{\"kind\":\"value\",\"line\":3,\"result\":\"8\"}\n{\"kind\":\"value\",\"line\":5,\"result\":\"[a1]\"}\n"
                .into(),
        stderr: String::new(),
    };
    match check_values(&want, &json) {
        Err(f) if f.message().is_some_and(|m| m.contains("line 5") && !m.contains("line 3")) => {}
        other => return Err(format!("check_values: {other:?}").into()),
    }
    #[cfg(unix)]
    {
        let tmp = std::env::temp_dir();
        let hang = run_program("/bin/sh", &tmp, &["-c", "sleep 10"], Duration::from_millis(200))?;
        if hang.end != End::TimedOut(Duration::from_millis(200)) || !hang.crashed() {
            return Err(format!("timeout: {:?}", hang.end).into());
        }
        let segv = run_program("/bin/sh", &tmp, &["-c", "kill -SEGV $$"], TIME_LIMIT)?;
        if segv.end != End::Signal(11) || !segv.crashed() {
            return Err(format!("signal: {:?}", segv.end).into());
        }
        // A shell holding 64 MiB in a variable shows it in its peak.
        let alloc = |mib: u64| format!("x=$(head -c {} /dev/zero | tr '\\0' a); exit 4", mib << 20);
        let big = run_measured("/bin/sh", &tmp, &["-c", &alloc(64)], TIME_LIMIT)?;
        if big.run.end != End::Exited(4) || big.peak_memory < 60 << 20 || big.peak_memory > MEMORY_LIMIT {
            return Err(format!("run_measured: {:?}, {} bytes", big.run.end, big.peak_memory).into());
        }
        let fine = run_program("/bin/sh", &tmp, &["-c", "echo out; echo err >&2; exit 3"], TIME_LIMIT)?;
        if fine.snapshot() != "out\n--- stderr\nerr\n--- exit status: 3\n" || fine.crashed() {
            return Err(format!("exit: {:?}", fine.snapshot()).into());
        }
    }
    Ok(())
}
