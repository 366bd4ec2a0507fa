//! The data-driven IR tests.
//!
//! Every `tests/ir/*.ir` file is a program in the IR text form with expectations in
//! comments, as in Cranelift's `.clif` run tests:
//!
//! ```text
//! ; run: @f(1, 2) == 3                  the call's result, printed in theory syntax
//! ; run: @g(v) == error TooDeep          an `EvalError` by variant name
//! ; run: @h() == error NotExecutable "over nat"   ... whose message contains the text
//! ; limits: fuel=1000 depth=50           limits for the run lines below (`default` resets)
//! ```
//!
//! Each file is also checked to round-trip through the printer and the parser.

use lang::core::ir::{Expr, Program};
use lang::core::parse::{parse_expr, parse_program};
use lang::core::print::{num_vars_of, print_program};
use lang::interp::{print_value, EvalError, Interp, Limits};
use std::path::Path;

fn error_name(e: &EvalError) -> &'static str {
    match e {
        EvalError::Undefined(_) => "Undefined",
        EvalError::OutOfFuel => "OutOfFuel",
        EvalError::Timeout => "Timeout",
        EvalError::TooDeep => "TooDeep",
        EvalError::OutOfMemory => "OutOfMemory",
        EvalError::NotExecutable(_) => "NotExecutable",
        EvalError::Need(_) => "Need",
    }
}

/// Runs one fixture; returns the failures.
fn run_file(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let mut failures = Vec::new();
    let program = match parse_program(&text) {
        Ok(p) => p,
        Err(e) => return vec![format!("{name}:{e}")],
    };
    // Round trip: parse(print(p)) == p.
    let printed = print_program(&program);
    match parse_program(&printed) {
        Ok(q) if q == program => {}
        Ok(_) => failures.push(format!("{name}: the printed program reads back differently:\n{printed}")),
        Err(e) => failures.push(format!("{name}: the printed program does not parse: {e}\n{printed}")),
    }
    let mut limits = (Limits::default(), None);
    let mut runs = 0;
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = line.trim();
        if let Some(spec) = line.strip_prefix("; limits:") {
            limits = parse_limits(spec.trim());
        } else if let Some(spec) = line.strip_prefix("; run:") {
            runs += 1;
            if let Err(msg) = run_line(&program, spec.trim(), &limits) {
                failures.push(format!("{name}:{line_no}: {msg}"));
            }
        }
    }
    if runs == 0 {
        failures.push(format!("{name}: no `; run:` lines"));
    }
    failures
}

/// Limits for run lines; a deadline is given in milliseconds from the start of each run.
fn parse_limits(spec: &str) -> (Limits, Option<u64>) {
    let mut l = Limits::default();
    let mut deadline_ms = None;
    if spec == "default" {
        return (l, None);
    }
    for kv in spec.split_whitespace() {
        let (k, v) = kv.split_once('=').expect("limits are key=value");
        match k {
            "fuel" => l.fuel = v.parse().unwrap(),
            "depth" => l.max_depth = v.parse().unwrap(),
            "deadline_ms" => deadline_ms = Some(v.parse().unwrap()),
            _ => panic!("unknown limit {k}"),
        }
    }
    (l, deadline_ms)
}

pub(crate) fn run_line(p: &Program, spec: &str, (limits, deadline_ms): &(Limits, Option<u64>)) -> Result<(), String> {
    let (lhs, expected) = spec.split_once(" == ").ok_or("a run line is `<call> == <expected>`")?;
    let e = parse_expr(p, lhs).map_err(|e| format!("bad call `{lhs}`: {e}"))?;
    let Expr::Call(f, _) = &e else { return Err("a run line must be a call `@f(...)`".into()) };
    let ret = p.fun(*f).ret.clone();
    let mut limits = limits.clone();
    if let Some(ms) = deadline_ms {
        limits.deadline = Some(std::time::Instant::now() + std::time::Duration::from_millis(*ms));
    }
    let result = Interp::new(p).eval(&e, num_vars_of(&e), &limits);
    match (result, expected.strip_prefix("error ")) {
        (Ok(v), None) => {
            let got = print_value(p, &v, &ret);
            if got == expected {
                Ok(())
            } else {
                Err(format!("{lhs}: expected {expected}, got {got}"))
            }
        }
        (Ok(v), Some(_)) => Err(format!("{lhs}: expected {expected}, got the value {}", print_value(p, &v, &ret))),
        (Err(err), None) => Err(format!("{lhs}: expected {expected}, got the error {err:?}")),
        (Err(err), Some(want)) => {
            let (kind, needle) = match want.split_once(' ') {
                Some((k, n)) => (k, Some(n.trim().trim_matches('"'))),
                None => (want, None),
            };
            if error_name(&err) != kind {
                return Err(format!("{lhs}: expected error {want}, got {err:?}"));
            }
            if let Some(n) = needle {
                if !err.to_string().contains(n) {
                    return Err(format!("{lhs}: expected error {want}, got {err:?}"));
                }
            }
            Ok(())
        }
    }
}

#[test]
fn ir_fixtures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ir");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "ir"));
    files.sort();
    assert!(!files.is_empty(), "no fixtures in {}", dir.display());
    let failures: Vec<String> = files.iter().flat_map(|f| run_file(f)).collect();
    assert!(failures.is_empty(), "{} failure(s):\n{}", failures.len(), failures.join("\n"));
}
