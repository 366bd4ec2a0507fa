//! IR-to-IR tests of the passes that prepare a program for compiled code, as specifications
//! in the IR text form.
//!
//! `tests/ir/passes/PASS/NAME.ir` is a program with `; run:` lines (as in `tests/ir`). The
//! pass named by the directory is applied, and:
//! - the result, printed, equals the snapshot `NAME.after` beside it (`BLESS=1` writes it;
//!   review the diff), reads back to the same program, and differs from the input: every
//!   case shows the pass doing something;
//! - every `; run:` line gives the same expected result before and after: the pass keeps
//!   the meaning.

use super::fixtures::run_line;
use lang::core::ir::Program;
use lang::core::parse::parse_program;
use lang::core::print::print_program;
use lang::core::{reuse_cells, set_quantifiers, specialize};
use lang::interp::Limits;
use std::path::Path;

/// The passes under test, by directory name.
fn pass(name: &str) -> Option<fn(&mut Program) -> bool> {
    match name {
        "specialize" => Some(specialize::apply),
        "set_quantifiers" => Some(set_quantifiers::apply),
        "reuse_cells" => Some(reuse_cells::apply),
        _ => None,
    }
}

fn bless() -> bool {
    std::env::var_os("BLESS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Runs one case; returns its failures.
fn run_case(pass_name: &str, apply: fn(&mut Program) -> bool, path: &Path) -> Vec<String> {
    let name = format!("{pass_name}/{}", path.file_name().unwrap_or_default().to_string_lossy());
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return vec![format!("{name}: {e}")],
    };
    let before = match parse_program(&text) {
        Ok(p) => p,
        Err(e) => return vec![format!("{name}: {e}")],
    };
    let mut after = before.clone();
    let changed = apply(&mut after);
    let printed = print_program(&after);
    let mut failures = Vec::new();
    if !changed || after == before {
        failures.push(format!("{name}: the pass changed nothing"));
    }
    match parse_program(&printed) {
        Ok(q) if q == after => {}
        Ok(_) => failures.push(format!("{name}: the result reads back differently")),
        Err(e) => failures.push(format!("{name}: the result does not parse: {e}")),
    }
    let snapshot = path.with_extension("after");
    match std::fs::read_to_string(&snapshot) {
        Ok(s) if s == printed => {}
        _ if bless() => {
            if let Err(e) = std::fs::write(&snapshot, &printed) {
                failures.push(format!("{name}: cannot write {}: {e}", snapshot.display()));
            }
        }
        Ok(s) => failures.push(format!(
            "{name}: the result differs from {} (BLESS=1 to accept):\n--- snapshot\n{s}--- result\n{printed}",
            snapshot.display()
        )),
        Err(_) => failures.push(format!("{name}: no snapshot {} (BLESS=1 writes it):\n{printed}", snapshot.display())),
    }
    let limits = (Limits::default(), None);
    let mut runs = 0;
    for (i, line) in text.lines().enumerate() {
        let Some(spec) = line.trim().strip_prefix("; run:") else { continue };
        runs += 1;
        for (when, program) in [("before", &before), ("after", &after)] {
            if let Err(msg) = run_line(program, spec.trim(), &limits) {
                failures.push(format!("{name}:{}: {when} the pass: {msg}", i + 1));
            }
        }
    }
    if runs == 0 {
        failures.push(format!("{name}: no `; run:` lines"));
    }
    failures
}

#[test]
fn pass_fixtures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ir/passes");
    let mut failures = Vec::new();
    let mut cases = 0;
    let mut dirs: Vec<_> = std::fs::read_dir(&root).expect("tests/ir/passes").flatten().map(|e| e.path()).collect();
    dirs.sort();
    for dir in dirs {
        let pass_name = dir.file_name().unwrap_or_default().to_string_lossy().into_owned();
        let Some(apply) = pass(&pass_name) else {
            failures.push(format!("{pass_name}: no such pass (a directory under tests/ir/passes names one)"));
            continue;
        };
        let mut files: Vec<_> = std::fs::read_dir(&dir).expect("pass directory").flatten().map(|e| e.path()).collect();
        files.retain(|p| p.extension().is_some_and(|e| e == "ir"));
        files.sort();
        if files.is_empty() {
            failures.push(format!("{pass_name}: no cases"));
        }
        for f in files {
            cases += 1;
            failures.extend(run_case(&pass_name, apply, &f));
        }
        for stale in std::fs::read_dir(&dir).expect("pass directory").flatten().map(|e| e.path()) {
            if stale.extension().is_some_and(|e| e == "after") && !stale.with_extension("ir").exists() {
                failures.push(format!("{}: a snapshot without its case", stale.display()));
            }
        }
    }
    assert!(cases > 0, "no cases under {}", root.display());
    assert!(failures.is_empty(), "{} failure(s):\n{}", failures.len(), failures.join("\n\n"));
}
