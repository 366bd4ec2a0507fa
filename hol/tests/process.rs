//! The `hol` process at its edges (issue 21, item 6): what it reads (only regular files,
//! never blocking on a FIFO or reading a device without end; files that are not UTF-8
//! located at their first bad byte), what it writes (JSON Lines that stay one record per
//! line for every reader, a summary record last), and how it ends on SIGINT and SIGTERM
//! (the summary of what was finished, exit status 130 or 143, no record cut in two).

#[path = "../../tests/support/process.rs"]
mod process;

use process::{run_program, Run};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const HOL: &str = env!("CARGO_BIN_EXE_hol");

/// Generous: every run here ends in well under a second when hol behaves.
const LIMIT: Duration = Duration::from_secs(20);

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hol-process-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn spawn(dir: &Path, args: &[&str]) -> Child {
    process::command(HOL, dir, args).spawn().expect("hol starts")
}

/// Waits for `child` at most `limit`, killing it after.
fn wait(child: &mut Child, limit: Duration) -> ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("hol did not finish within {} s", limit.as_secs());
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn run(dir: &Path, args: &[&str]) -> Run {
    let r = run_program(HOL, dir, args, LIMIT).expect("hol runs");
    assert!(r.code().is_some(), "hol did not exit by itself: {}", r.output());
    r
}

/// Every line of `stdout` as a JSON record, the last one the summary.
fn records(stdout: &str) -> Vec<Value> {
    let records: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not a JSON record ({e}): {l:?}")))
        .collect();
    assert_eq!(records.last().map(|r| r["kind"].clone()), Some(Value::from("summary")), "{stdout}");
    records
}

// ---------------------------------------------------------------------------------------
// Reading

#[cfg(unix)]
#[test]
fn a_device_is_not_read() {
    let dir = scratch("device");
    let r = run(&dir, &["check", "--format", "json", "/dev/zero"]);
    assert_eq!(r.code(), Some(2), "{}{}", r.stdout, r.stderr);
    let records = records(&r.stdout);
    assert_eq!(records[0]["kind"], "error");
    assert_eq!(records[0]["message"], "cannot read `/dev/zero`: not a regular file (a character device)");
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: `c` is a valid NUL-terminated path for the duration of the call.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo {}", path.display());
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_without_waiting_for_a_writer() {
    let dir = scratch("fifo");
    mkfifo(&dir.join("Pipe.thy"));
    let r = run(&dir, &["check", "Pipe.thy"]);
    assert_eq!(r.code(), Some(2), "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("error: cannot read `Pipe.thy`: not a regular file (a named pipe)"), "{}", r.stdout);
    // The same for a sibling theory read through an import.
    std::fs::write(dir.join("Main_User.thy"), "theory Main_User imports Main Pipe begin\nvalue \"1::nat\"\nend\n")
        .unwrap();
    let r = run(&dir, &["check", "Main_User.thy"]);
    assert_eq!(r.code(), Some(2), "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("cannot load theory `Pipe`: cannot read `Pipe.thy`: not a regular file (a named pipe)"),
        "{}",
        r.stdout
    );
}

#[test]
fn a_file_that_is_not_utf8_is_located_at_its_first_bad_byte() {
    let dir = scratch("utf8");
    std::fs::write(dir.join("Bad.thy"), b"theory Bad imports Main begin\nvalue \"\xe2\x9f\xb9 \xff\"\nend\n").unwrap();
    let r = run(&dir, &["check", "--format", "json", "Bad.thy"]);
    assert_eq!(r.code(), Some(2), "{}{}", r.stdout, r.stderr);
    let records = records(&r.stdout);
    let e = &records[0];
    assert_eq!(e["kind"], "error");
    assert_eq!(e["message"], "`Bad.thy` is not valid UTF-8");
    // `value "⟹ ` is 9 characters: the bad byte is the 10th.
    assert_eq!((e["line"].as_u64(), e["column"].as_u64()), (Some(2), Some(10)), "{e}");
    assert_eq!((e["end_line"].as_u64(), e["end_column"].as_u64()), (Some(2), Some(11)), "{e}");
    let r = run(&dir, &["check", "Bad.thy"]);
    assert!(r.stdout.starts_with("error: `Bad.thy` is not valid UTF-8\n --> Bad.thy:2:10\n"), "{}", r.stdout);
}

// ---------------------------------------------------------------------------------------
// Writing

#[test]
fn json_escapes_line_and_paragraph_separators() {
    let dir = scratch("separators");
    // The option's value is quoted back in the error message.
    std::fs::write(
        dir.join("Seps.thy"),
        "theory Seps imports Main begin\nlemma \"x = (x::nat)\" quickcheck[tester = \"a\u{2028}b\u{2029}\"] oops\nend\n",
    )
    .unwrap();
    let r = run(&dir, &["check", "--format", "json", "Seps.thy"]);
    assert!(!r.stdout.contains(['\u{2028}', '\u{2029}']), "raw separators in {:?}", r.stdout);
    assert!(r.stdout.contains(r"a\u2028b\u2029"), "{}", r.stdout);
    let records = records(&r.stdout);
    assert!(
        records.iter().any(|r| r["message"].as_str().is_some_and(|m| m.contains("a\u{2028}b\u{2029}"))),
        "{records:?}"
    );
}

#[test]
fn json_ends_with_a_summary_record() {
    let dir = scratch("summary");
    std::fs::write(dir.join("Sum.thy"), "theory Sum imports Main begin\nvalue \"(1::nat) + 1\"\nend\n").unwrap();
    let r = run(&dir, &["check", "--format", "json", "Sum.thy"]);
    assert_eq!(r.code(), Some(0), "{}{}", r.stdout, r.stderr);
    let records = records(&r.stdout);
    let summary = records.last().unwrap();
    assert_eq!((summary["values"].as_u64(), summary["errors"].as_u64()), (Some(1), Some(0)));
    assert_eq!((summary["interrupted"].clone(), summary["exit_status"].as_u64()), (Value::Null, Some(0)));
}

/// Human output gives annotate-snippets only the lines a diagnostic marks: given the whole
/// file for each, 40,000 erroneous lines took 47 s to print (JSON: 0.7 s). The file is
/// written here rather than kept as a fixture: 630 KB.
#[cfg(unix)]
#[test]
fn human_output_of_many_errors_costs_each_its_own_lines() {
    let dir = scratch("many-errors");
    let n = 40_000;
    let mut text = String::from("theory Many imports Main begin\n");
    for i in 0..n {
        text.push_str(&format!("value \"zz{i}\"\n"));
    }
    text.push_str("end\n");
    std::fs::write(dir.join("Many.thy"), text).unwrap();
    let measured = process::run_measured(HOL, &dir, &["check", "Many.thy"], LIMIT).expect("hol runs");
    let r = &measured.run;
    assert_eq!(r.code(), Some(2), "{}", r.stderr);
    assert!(r.stdout.ends_with(&format!("{n} errors, 0 values, 0 lemmas\n")), "{}", &r.stdout[r.stdout.len() - 200..]);
    // The last is numbered where it is.
    let last = format!("error: undefined constant `zz{}`\n     --> Many.thy:{}:8\n", n - 1, n + 1);
    let shown = format!("\n{} | value \"zz{}\"\n", n + 1, n - 1);
    assert!(r.stdout.contains(&last) && r.stdout.contains(&shown), "{}", &r.stdout[r.stdout.len() - 500..]);
    let took = measured.took();
    assert!(took < Duration::from_secs(8), "took {took:?}");
}

// ---------------------------------------------------------------------------------------
// Signals

/// A theory whose lemma is tested for a minute, between two values.
#[cfg(unix)]
const LONG: &str = "theory Long imports Main begin
value \"(2::nat) + 2\"
lemma \"rev (rev xs) = (xs :: nat list)\"
  quickcheck[exhaustive, size = 10000, timeout = 60, expect = no_counterexample]
  oops
value \"(3::nat) + 3\"
end
";

/// Starts hol on `LONG`, waits until its lemma is being tested, sends `signal` a second
/// later, and returns how the run ended, its output, and how long it took to end after
/// the signal.
#[cfg(unix)]
fn interrupted(name: &str, format: &str, signal: i32) -> (ExitStatus, String, Duration) {
    let dir = scratch(name);
    std::fs::write(dir.join("Long.thy"), LONG).unwrap();
    let mut child = spawn(&dir, &["check", "--format", format, "--seed", "1", "Long.thy"]);
    let stderr = process::read_all(child.stderr.take());
    let (lines, seen) = mpsc::channel();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let reader = std::thread::spawn(move || {
        let mut all = String::new();
        for line in stdout.lines() {
            let line = line.expect("hol writes UTF-8 lines");
            let _ = lines.send(line.clone());
            all.push_str(&line);
            all.push('\n');
        }
        all
    });
    // The lemma record (JSON) or the first value (human) comes just before testing starts.
    let started = Instant::now();
    loop {
        let line = seen.recv_timeout(LIMIT).expect("hol reports the first value");
        if line.contains("\"kind\":\"lemma\"") || line.contains("value \"(2::nat) + 2\" = 4") {
            break;
        }
        assert!(started.elapsed() < LIMIT);
    }
    std::thread::sleep(Duration::from_secs(1));
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: kill(2) has no memory-safety preconditions; `pid` is our child.
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
    let sent = Instant::now();
    let status = wait(&mut child, LIMIT);
    let took = sent.elapsed();
    let stdout = reader.join().unwrap();
    let stderr = stderr.join().unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
    (status, stdout, took)
}

#[cfg(unix)]
#[test]
fn sigint_ends_the_run_with_its_summary_and_whole_json_lines() {
    let (status, stdout, took) = interrupted("sigint", "json", libc::SIGINT);
    assert_eq!(status.code(), Some(130), "{stdout}");
    // The machine may be busy: the watch itself polls every 20 ms.
    assert!(took < Duration::from_secs(2), "took {took:?} to stop");
    let records = records(&stdout);
    let kinds: Vec<&str> = records.iter().map(|r| r["kind"].as_str().unwrap_or("")).collect();
    assert_eq!(kinds, ["value", "lemma", "summary"], "{stdout}");
    let summary = records.last().unwrap();
    assert_eq!(summary["interrupted"], "SIGINT");
    assert_eq!((summary["values"].as_u64(), summary["lemmas"].as_u64()), (Some(1), Some(1)));
    assert_eq!((summary["quickchecks"].as_u64(), summary["exit_status"].as_u64()), (Some(0), Some(130)));
}

#[cfg(unix)]
#[test]
fn sigterm_ends_the_run_with_its_summary_line() {
    let (status, stdout, took) = interrupted("sigterm", "human", libc::SIGTERM);
    assert_eq!(status.code(), Some(143), "{stdout}");
    assert!(took < Duration::from_secs(2), "took {took:?} to stop");
    assert_eq!(
        stdout,
        "Long.thy:2: value \"(2::nat) + 2\" = 4 :: nat\n\
         0 errors, 1 value, 1 lemma (interrupted by SIGTERM: the rest was not checked)\n"
    );
}

// ---------------------------------------------------------------------------------------
// The SMT solver

/// Without an SMT solver, `quickcheck[smt]` is not executable, located at the lemma and
/// saying how to get one, never a silent pass; the default portfolio runs without it; the
/// exit status is 0, as for every run that was not tested.
#[cfg(unix)]
#[test]
fn without_a_solver_smt_is_not_executable_and_says_why() {
    let dir = scratch("no-solver");
    std::fs::write(
        dir.join("N.thy"),
        "theory N imports Main begin\nlemma \"(x::nat) * x ≠ 1849\"\n  quickcheck[smt]\n  quickcheck[expect = no_counterexample]\n  oops\nend\n",
    )
    .unwrap();
    let out = process::command(HOL, &dir, &["check", "N.thy"])
        .env("HOL_SMT_SOLVER", dir.join("no-such-solver"))
        .output()
        .expect("hol runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    // Said once per run, on standard error (standard output stays the report).
    let stderr = String::from_utf8_lossy(&out.stderr);
    let note = "note: the default portfolio runs without the `smt` tester: no SMT solver found (install z3 or set HOL_SMT_SOLVER)";
    assert_eq!(stderr.matches(note).count(), 1, "{stderr}");
    assert!(
        stdout.contains(
            "N.thy:3: lemma \"(x::nat) * x ≠ 1849\": not executable (no SMT solver found (install z3 or set HOL_SMT_SOLVER); smt)"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("N.thy:4: lemma \"(x::nat) * x ≠ 1849\": no counterexample (none up to size 5; exhaustive"),
        "{stdout}"
    ); // `--smt-solver` names the solver, over `HOL_SMT_SOLVER` (which the harness sets to the
       // machine's z3 when it has one).
    let missing = dir.join("no-such-solver");
    let out = process::command(HOL, &dir, &["check", "--smt-solver", missing.to_str().unwrap(), "N.thy"])
        .output()
        .expect("hol runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("not executable (no SMT solver found (install z3 or set HOL_SMT_SOLVER); smt)"),
        "{stdout}"
    );
}

/// An `smt` run's report names the solver and its version, the models decoded and the time
/// spent in the solver (JSON `solver`, and the figures of the human report); other testers'
/// records have `"solver": null`. Needs z3 (`scripts/test` installs it).
#[cfg(unix)]
#[test]
fn an_smt_run_reports_its_solver() {
    let dir = scratch("solver-report");
    std::fs::write(
        dir.join("S.thy"),
        "theory S imports Main begin\nlemma \"(x::nat) * x ≠ 1849\"\n  quickcheck[smt]\n  quickcheck[exhaustive]\n  oops\nend\n",
    )
    .unwrap();
    let r = run(&dir, &["check", "--format", "json", "S.thy"]);
    let runs: Vec<Value> = records(&r.stdout).into_iter().filter(|r| r["kind"] == "quickcheck").collect();
    assert_eq!(runs.len(), 2, "{}", r.stdout);
    let solver = &runs[0]["solver"];
    assert!(solver["name"].as_str().is_some_and(|n| n.starts_with("z3 ") && n.len() > 3), "{solver}");
    assert!(solver["models"].as_u64().is_some_and(|m| m >= 1), "{solver}");
    assert!(solver["seconds"].as_f64().is_some_and(|s| s > 0.0), "{solver}");
    assert_eq!(runs[1]["solver"], Value::Null);
    let human = run(&dir, &["check", "S.thy"]);
    assert!(human.stdout.contains(", z3 "), "{}", human.stdout);
}
