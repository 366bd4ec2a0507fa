//! Every numeric option, given any value, on the command line, in `quickcheck[...]` and in
//! `declare [[quickcheck_...]]`: the run either reports a located error (an `error` record
//! at the option's line, or a usage error naming the flag) and exits 2, or runs normally
//! and tests the lemma. Never a panic, an abort, a hang, or exit 0 with an error.
//!
//! Extreme values are tried exhaustively; proptest adds random ones (its seed is printed
//! on failure, and `PROPTEST_CASES` sets how many).

#[path = "../../tests/support/process.rs"]
mod process;

use process::{run_program, End, Run};
use proptest::prelude::*;
use serde_json::Value;
use std::path::PathBuf;
use std::time::Duration;

const HOL: &str = env!("CARGO_BIN_EXE_hol");

/// The numeric options of `quickcheck[...]`.
const THEORY_OPTIONS: [&str; 6] = ["size", "iterations", "depth", "finite_type_size", "timeout", "counterexamples"];

/// The numeric flags of `hol check`.
const FLAGS: [&str; 4] = ["--size", "--timeout", "--seed", "--counterexamples"];

/// Values that once broke something, and the edges of every integer type.
const EXTREMES: [&str; 20] = [
    "0",
    "1",
    "2",
    "64",
    "65",
    "10000",
    "10001",
    "2147483648",
    "4294967296",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999",
    "1e300",
    "1.5",
    "0.001",
    "-1",
    "-0",
    "x",
    "\"7\"",
];

/// A run may take this long at most (its own time limit is kept small).
const RUN_LIMIT: Duration = Duration::from_secs(30);

/// Where an option's value goes.
#[derive(Clone, Copy, Debug)]
enum Place {
    Quickcheck,
    Declare,
}

/// A theory whose only lemma holds, with `name = value` at line 3. Runs are kept short by a
/// second option (`timeout` unless that is the one under test).
fn theory(place: Place, name: &str, value: &str) -> String {
    let bound = if name == "timeout" { "size = 3" } else { "timeout = 0.3" };
    let (declare, command) = match place {
        Place::Quickcheck => ("\n".to_owned(), format!("  quickcheck[{name} = {value}, {bound}]\n")),
        Place::Declare => (format!("declare [[quickcheck_{name} = {value}]]\n"), format!("  quickcheck[{bound}]\n")),
    };
    format!("theory T imports Main begin\n{declare}lemma \"rev (rev xs) = xs\"\n{command}  oops\nend\n")
}

fn scratch_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hol-option-values-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    dir
}

/// Runs `hol check --format json ARGS T.thy` on `text`, in a directory of its own.
fn run(text: &str, args: &[&str], tag: &str) -> Result<Run, String> {
    let dir = scratch_dir().join(tag);
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("T.thy"), text).map_err(|e| e.to_string())?;
    let args: Vec<&str> = ["check", "--format", "json"].iter().chain(args).chain(&["T.thy"]).copied().collect();
    let run = run_program(HOL, &dir, &args, RUN_LIMIT);
    let _ = std::fs::remove_dir_all(&dir);
    run
}

/// What every run must satisfy. `error_line`: the line an error about the value must be on
/// (`None` for a flag, whose error is a usage error on stderr naming it).
fn judge(run: &Run, flag: Option<&str>, error_line: Option<u64>) -> Result<(), String> {
    let stderr = &run.stderr;
    let shown = || run.output();
    let End::Exited(code) = run.end else {
        return Err(format!("killed or timed out: {}", shown()));
    };
    if run.crashed() {
        return Err(format!("panicked: {}", shown()));
    }
    let records: Vec<Value> = run.records().map_err(|e| format!("{e}: {}", shown()))?;
    let errors: Vec<&Value> = records.iter().filter(|r| r["kind"] == "error").collect();
    let tested = records.iter().any(|r| r["kind"] == "quickcheck");
    match flag {
        Some(flag) if code != 0 => {
            // A usage error: clap's, or the range check's; either names the flag.
            if code != 2 || !stderr.contains(flag.trim_start_matches('-')) {
                return Err(format!("a rejected {flag} must be a usage error naming it (exit 2): {}", shown()));
            }
        }
        _ if !errors.is_empty() => {
            let located = errors.iter().any(|e| e["line"].as_u64() == error_line);
            if code != 2 || !located {
                return Err(format!("an error must be at line {error_line:?} with exit 2: {}", shown()));
            }
        }
        _ => {
            if code != 0 || !tested {
                return Err(format!("a run without errors must test the lemma and exit 0: {}", shown()));
            }
        }
    }
    Ok(())
}

fn theory_case(place: Place, name: &str, value: &str, tag: &str) -> Result<(), String> {
    let run = run(&theory(place, name, value), &[], tag)?;
    let line = match place {
        Place::Quickcheck => 4,
        Place::Declare => 2,
    };
    judge(&run, None, Some(line)).map_err(|e| format!("{place:?} {name} = {value}: {e}"))
}

fn flag_case(flag: &str, value: &str, tag: &str) -> Result<(), String> {
    let text = theory(Place::Quickcheck, "size", "3");
    // `--flag=value`, so that a value starting with `-` is read as the value.
    let arg = format!("{flag}={value}");
    let bound = if flag == "--timeout" { [].as_slice() } else { ["--timeout", "0.3"].as_slice() };
    let args: Vec<&str> = bound.iter().copied().chain([arg.as_str()]).collect();
    let run = run(&text, &args, tag)?;
    judge(&run, Some(flag), None).map_err(|e| format!("{arg}: {e}"))
}

/// Runs `cases` on two threads and collects every failure.
fn run_all(cases: Vec<Box<dyn Fn() -> Result<(), String> + Send + Sync>>) -> Vec<String> {
    let cases = std::sync::Mutex::new(cases.into_iter());
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let next = cases.lock().map(|mut c| c.next()).unwrap_or(None);
                let Some(case) = next else { break };
                if let Err(e) = case() {
                    failures.lock().map(|mut f| f.push(e)).unwrap_or(());
                }
            });
        }
    });
    failures.into_inner().unwrap_or_default()
}

#[test]
fn extreme_values_in_theories_and_flags() {
    let mut cases: Vec<Box<dyn Fn() -> Result<(), String> + Send + Sync>> = Vec::new();
    for (i, value) in EXTREMES.iter().enumerate() {
        for name in THEORY_OPTIONS {
            for place in [Place::Quickcheck, Place::Declare] {
                let tag = format!("{name}-{place:?}-{i}");
                cases.push(Box::new(move || theory_case(place, name, value, &tag)));
            }
        }
        for flag in FLAGS {
            let tag = format!("flag{flag}-{i}");
            cases.push(Box::new(move || flag_case(flag, value, &tag)));
        }
    }
    let failures = run_all(cases);
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n\n"));
}

/// A random numeric spelling: integers of any width and sign, decimals, exponents.
fn numeric_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<u64>().prop_map(|n| n.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        (0u64..100_000).prop_map(|n| n.to_string()),
        any::<f64>().prop_map(|x| format!("{x}")),
        (0u32..1000, 0u32..1000).prop_map(|(a, b)| format!("{a}.{b}")),
        "[0-9]{1,40}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_values_in_theories(value in numeric_text(), option in 0..THEORY_OPTIONS.len(), declare: bool) {
        let place = if declare { Place::Declare } else { Place::Quickcheck };
        let tag = format!("random-{option}-{declare}-{}", value.len());
        let result = theory_case(place, THEORY_OPTIONS[option], &value, &tag);
        prop_assert!(result.is_ok(), "{}", result.err().unwrap_or_default());
    }

    #[test]
    fn random_values_of_flags(value in numeric_text(), flag in 0..FLAGS.len()) {
        let tag = format!("random-flag-{flag}-{}", value.len());
        let result = flag_case(FLAGS[flag], &value, &tag);
        prop_assert!(result.is_ok(), "{}", result.err().unwrap_or_default());
    }
}
