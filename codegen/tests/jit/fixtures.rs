//! The interpreter's IR fixtures (`lang/tests/ir/*.ir`): every `; run:` call, run through
//! the JIT, agrees with the interpreter under the fixture's limits.

use crate::common::{check_closed, with_main, Tally};
use lang::core::ir::Expr;
use lang::core::parse::{parse_expr, parse_program};
use lang::core::print::num_vars_of;
use lang::interp::Limits;
use std::path::Path;

#[test]
fn ir_fixtures_agree() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../lang/tests/ir");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "ir"));
    files.sort();
    assert!(!files.is_empty());
    let mut failures = Vec::new();
    let mut tally = Tally::default();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let program = parse_program(&text).unwrap();
        let mut limits = Limits::default();
        let mut deadline_ms: Option<u64> = None;
        for line in text.lines() {
            let line = line.trim();
            if let Some(spec) = line.strip_prefix("; limits:") {
                limits = Limits::default();
                deadline_ms = None;
                for kv in spec.split_whitespace().filter(|s| *s != "default") {
                    let (k, v) = kv.split_once('=').unwrap();
                    match k {
                        "fuel" => limits.fuel = v.parse().unwrap(),
                        "depth" => limits.max_depth = v.parse().unwrap(),
                        _ => deadline_ms = Some(v.parse::<u64>().unwrap()),
                    }
                }
            } else if let Some(spec) = line.strip_prefix("; run:") {
                let (lhs, _) = spec.trim().split_once(" == ").unwrap();
                let e = parse_expr(&program, lhs).unwrap();
                let Expr::Call(f, _) = &e else { panic!("{lhs}") };
                let ret = program.fun(*f).ret.clone();
                let nv = num_vars_of(&e);
                let (p, main) = with_main(&program, e, ret, nv);
                let mut l = limits.clone();
                if let Some(ms) = deadline_ms {
                    l.deadline = Some(std::time::Instant::now() + std::time::Duration::from_millis(ms));
                }
                match check_closed(&p, main, &l) {
                    Ok(v) => tally.add(v),
                    Err(msg) => failures.push(format!("{name}: {lhs}\n{msg}")),
                }
            }
        }
    }
    eprintln!("ir fixtures: {tally:?}");
    assert!(failures.is_empty(), "{} failure(s):\n{}", failures.len(), failures.join("\n\n"));
    assert!(tally.agree >= 50, "{tally:?}");
}
