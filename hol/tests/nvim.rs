//! A real editor against the real binary: headless Neovim (`nvim --headless`, Debian's
//! 0.7, driven by `nvim/client.lua`) runs `hol lsp` on the acceptance theory `Lists.thy`
//! and on bad-input theories, and must receive the errors and counterexamples `hol check
//! --format json --seed 1` reports, at the same places; then an edit that fixes a
//! definition must remove the stale counterexample and leave the other lemma's diagnostic
//! exactly as it was (reused, not tested again).
//!
//! Neovim is a requirement of the test suite, as the Rust toolchain is: `scripts/test`
//! installs it when it is missing, and `.ci/run` runs that script.

#[path = "../../tests/support/process.rs"]
mod process;

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const HOL: &str = env!("CARGO_BIN_EXE_hol");

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hol-nvim-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the scripted Neovim session on `file` with `env` and returns what it wrote.
fn nvim(file: &Path, env: &[(&str, String)]) -> Value {
    let dir = file.parent().unwrap();
    let out = dir.join("nvim-out.json");
    let script = repo().join("hol/tests/nvim/client.lua");
    let luafile = format!("luafile {}", script.display());
    let args = ["--headless", "--clean", "-i", "NONE", "-n", "-c", luafile.as_str()];
    let mut command = process::command("nvim", dir, &args);
    command
        .env("HOME", dir)
        .env("XDG_STATE_HOME", dir)
        .env("XDG_DATA_HOME", dir)
        .env("HOL_BIN", HOL)
        .env("HOL_NVIM_FILE", file)
        .env("HOL_NVIM_OUT", &out);
    for (k, v) in env {
        command.env(k, v);
    }
    let mut child = command.spawn().unwrap_or_else(|e| {
        panic!(
            "cannot start nvim ({e}): the test suite needs Neovim; `scripts/test` installs it (apt-get install neovim)"
        )
    });
    let (stdout, stderr) = process::read_output(&mut child);
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(300) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("nvim did not finish in 300 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let (stdout, stderr) = (stdout.join().unwrap(), stderr.join().unwrap());
    let written = std::fs::read_to_string(&out)
        .unwrap_or_else(|e| panic!("nvim wrote no result ({e})\n--- stdout\n{stdout}\n--- stderr\n{stderr}"));
    let result: Value = serde_json::from_str(&written).unwrap();
    assert_eq!(result["error"], Value::Null, "{result}\n--- stderr\n{stderr}");
    result
}

/// A diagnostic `hol check` reports, as the editor should show it: its line, its column
/// when `hol check` gives it, LSP severity, and words the message must contain.
#[derive(Debug)]
struct Expected {
    line: u64,
    character: Option<u64>,
    severity: u64,
    words: Vec<String>,
}

/// What `hol check --format json --seed 1 file` reports at places in the file.
fn expected(file: &Path) -> Vec<Expected> {
    let dir = file.parent().unwrap();
    let name = file.file_name().unwrap().to_str().unwrap();
    let run =
        process::run_program(HOL, dir, &["check", "--format", "json", "--seed", "1", name], Duration::from_secs(300))
            .unwrap();
    let mut out = Vec::new();
    let mut lemma_line = 0;
    for r in run.records().unwrap() {
        let severity = |kind: &str| match kind {
            "error" => 1,
            "warning" => 2,
            _ => 3,
        };
        match r["kind"].as_str().unwrap() {
            kind @ ("error" | "warning" | "info") => out.push(Expected {
                line: r["line"].as_u64().unwrap() - 1,
                character: Some(r["column"].as_u64().unwrap() - 1),
                severity: severity(kind),
                words: vec![r["message"].as_str().unwrap().to_owned()],
            }),
            "lemma" => lemma_line = r["line"].as_u64().unwrap() - 1,
            "quickcheck" => {
                let outcome = r["outcome"].as_str().unwrap();
                let tester = r["tester"].as_str().unwrap();
                let (severity, mut words) = if r["expect_met"] == json!(false) {
                    (1, vec!["expectation not met".to_owned()])
                } else if outcome == "counterexample" {
                    (2, vec![format!("{tester} found a counterexample")])
                } else if outcome == "potentially_spurious" {
                    (3, vec![format!("{tester} found a potentially spurious counterexample")])
                } else {
                    continue;
                };
                if let Some(cx) = r["counterexample"].as_object() {
                    words.extend(cx.iter().map(|(k, v)| format!("{k} = {}", v.as_str().unwrap())));
                }
                out.push(Expected { line: lemma_line, character: None, severity, words });
            }
            _ => {}
        }
    }
    out
}

/// Every expected diagnostic matched by its own published one, and nothing else published.
fn assert_same(expected: &[Expected], published: &Value) {
    let published = published.as_array().expect("diagnostics");
    let mut unused: Vec<&Value> = published.iter().collect();
    for e in expected {
        let found = unused.iter().position(|d| {
            let start = &d["range"]["start"];
            let message = d["message"].as_str().unwrap_or_default();
            start["line"].as_u64() == Some(e.line)
                && e.character.is_none_or(|c| start["character"].as_u64() == Some(c))
                && d["severity"].as_u64() == Some(e.severity)
                && e.words.iter().all(|w| message.contains(w.as_str()))
        });
        match found {
            Some(i) => {
                unused.remove(i);
            }
            None => panic!("hol check reports {e:?}, the editor did not get it; it got:\n{published:#?}"),
        }
    }
    assert!(unused.is_empty(), "the editor got diagnostics hol check does not report: {unused:#?}");
}

/// Opens `source` (copied into a fresh directory) in Neovim and compares.
fn same_as_hol_check(source: &Path) {
    let name = source.file_name().unwrap().to_str().unwrap();
    let dir = scratch(name);
    let file = dir.join(name);
    std::fs::copy(source, &file).unwrap();
    let expected = expected(&file);
    assert!(!expected.is_empty(), "{name}: hol check reports nothing to compare");
    let result = nvim(&file, &[("HOL_NVIM_COUNT", expected.len().to_string())]);
    assert_same(&expected, &result["first"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn neovim_gets_the_counterexamples_of_lists_thy() {
    same_as_hol_check(&repo().join("tests/acceptance/Lists.thy"));
}

#[test]
fn neovim_gets_parse_and_type_errors() {
    for name in ["syntax_unclosed_quote.thy", "type_mismatch.thy"] {
        same_as_hol_check(&repo().join("tests/acceptance/errors").join(name));
    }
}

#[test]
fn neovim_loses_the_stale_counterexample_after_a_fix_and_keeps_the_other() {
    let dir = scratch("edit");
    let file = dir.join("Edit.thy");
    let text = "theory Edit imports Main begin\n\
        fun myrev :: \"'a list ⇒ 'a list\" where \"myrev [] = []\" | \"myrev (x # xs) = myrev xs\"\n\
        lemma rev_rev: \"myrev (myrev xs) = xs\"\n  quickcheck[exhaustive]\n  oops\n\
        lemma other: \"(n :: nat) + 1 = n\"\n  quickcheck[exhaustive]\n  oops\n\
        end\n";
    std::fs::write(&file, text).unwrap();
    let fixed = "fun myrev :: \"'a list ⇒ 'a list\" where \"myrev [] = []\" | \"myrev (x # xs) = myrev xs @ [x]\"";
    let env = [
        ("HOL_NVIM_COUNT", "2".to_owned()),
        ("HOL_NVIM_EDIT_LINE", "1".to_owned()),
        ("HOL_NVIM_EDIT_TEXT", fixed.to_owned()),
        ("HOL_NVIM_EDIT_COUNT", "1".to_owned()),
    ];
    let result = nvim(&file, &env);
    let lines =
        |ds: &Value| ds.as_array().unwrap().iter().map(|d| d["range"]["start"]["line"].clone()).collect::<Vec<_>>();
    assert_eq!(lines(&result["first"]), [json!(2), json!(5)], "{result:#}");
    // `rev_rev`'s counterexample is gone; `other`'s is the same, figures and all.
    assert_eq!(result["edited"], json!([result["first"][1].clone()]), "{result:#}");
    let _ = std::fs::remove_dir_all(&dir);
}
