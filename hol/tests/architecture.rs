//! ARCHITECTURE.md stays true: every file, directory and module path it names in backticks
//! exists, at the repository's root or as a module of one of the crates
//! (`core/conjecture` is `lang/src/core/conjecture.rs`, `syntax/` is `lang/src/syntax/`,
//! `outer.lalrpop` is found in a crate's sources).

use std::path::{Path, PathBuf};

const CRATES: [&str; 6] = ["lang", "codegen", "quickcheck", "narrowing", "analysis", "hol"];

/// File kinds whose bare names (`outer.lalrpop`) are looked for anywhere in a crate's sources.
const EXTENSIONS: [&str; 7] = [".rs", ".lalrpop", ".thy", ".toml", ".txt", ".py", ".md"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The backticked tokens of `text` that name a path: they contain a `/` or end in a file
/// extension. Paths outside the repository (`shared/…`) are left out.
fn named_paths(text: &str) -> Vec<String> {
    let mut out: Vec<String> = text
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|t| !t.is_empty() && t.chars().all(|c| c.is_ascii_alphanumeric() || "_./-".contains(c)))
        .filter(|t| t.contains('/') || EXTENSIONS.iter().any(|e| t.ends_with(e)))
        .filter(|t| *t != "/" && !t.starts_with("shared/") && !t.starts_with("../"))
        .map(str::to_owned)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Whether `name` is somewhere under `dir`.
fn found_below(dir: &Path, name: &str) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else { return false };
    entries.flatten().any(|e| {
        let p = e.path();
        p.file_name().is_some_and(|n| n == name) || (p.is_dir() && found_below(&p, name))
    })
}

fn exists(path: &str) -> bool {
    let root = root();
    let bare = path.trim_end_matches('/');
    if root.join(bare).exists() {
        return true;
    }
    CRATES.iter().any(|c| {
        let src = root.join(c).join("src");
        src.join(bare).exists()
            || src.join(format!("{bare}.rs")).exists()
            || src.join(bare).join("mod.rs").exists()
            || (!bare.contains('/') && found_below(&src, bare))
    })
}

#[test]
fn every_path_architecture_md_names_exists() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let named = named_paths(&text);
    assert!(named.len() >= 10, "too few paths found, is the extraction broken? {named:?}");
    let missing: Vec<&String> = named.iter().filter(|p| !exists(p)).collect();
    assert!(missing.is_empty(), "ARCHITECTURE.md names paths that do not exist: {missing:?}");
}

#[test]
fn the_check_would_notice_a_missing_path() {
    assert!(!exists("core/no_such_module"));
    assert!(!exists("no_such_file.rs"));
    assert!(exists("core/conjecture") && exists("syntax/") && exists("outer.lalrpop"));
    assert_eq!(named_paths("a `x/y` b `Program::code` c `f.rs` `shared/examples`"), ["f.rs", "x/y"]);
}
