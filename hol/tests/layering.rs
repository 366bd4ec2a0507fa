//! The layers point down only: front end → evaluation → testers → analysis → binaries.
//!
//! Two checks, both over the sources as written, so an upward import fails here with the
//! file and line that makes it:
//! - between crates, every workspace dependency in a crate's `[dependencies]` has a lower
//!   rank than the crate (dev-dependencies may point anywhere: tests sit above everything);
//! - inside `lang`, whose top-level modules are themselves layers (syntax → types → core IR
//!   → interpreter → the checked theory), a module names only modules of a lower rank.
//!
//! - a few boundaries inside crates: code generation knows the core IR, not the
//!   interpreter's values (only the JIT's entry points convert them); compiled code never
//!   names the interpreter (both share `lang::value`).
//!
//! A new crate or a new top-level `lang` module must be given a rank here, or the test fails.

use std::path::{Path, PathBuf};

/// The crates from the bottom up. Crates of one rank may not depend on each other.
const CRATE_RANKS: &[(&str, u32)] =
    &[("lang", 0), ("codegen", 1), ("quickcheck", 2), ("narrowing", 3), ("analysis", 4), ("hol", 5)];

/// `lang`'s top-level modules from the bottom up.
const LANG_MODULE_RANKS: &[(&str, u32)] = &[
    ("span", 0),
    ("prelude", 0),
    ("stack", 0),
    ("diagnostic", 1),
    ("syntax", 2),
    ("types", 3),
    ("core", 4),
    ("value", 5),
    ("interp", 6),
    ("theory", 7),
];

/// Directories whose sources must not name a path, and why.
const FORBIDDEN: &[(&str, &str, &str)] = &[
    (
        "codegen/src/translate",
        "lang::interp",
        "code generation reads the core IR only; values are converted at the JIT's entry (`layout`)",
    ),
    (
        "codegen/src",
        "lang::interp",
        "compiled code stands beside the interpreter, not above it: it shares `lang::value`'s values, \
         and which of the two runs is `quickcheck::engine`'s choice",
    ),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rank(table: &[(&str, u32)], name: &str) -> Option<u32> {
    table.iter().find(|(n, _)| *n == name).map(|(_, r)| *r)
}

/// The workspace members named in the root `Cargo.toml`.
fn members() -> Vec<String> {
    let text = std::fs::read_to_string(root().join("Cargo.toml")).expect("the workspace manifest");
    let line = text.lines().find(|l| l.trim_start().starts_with("members")).expect("a members list");
    line.split('"').skip(1).step_by(2).map(str::to_owned).collect()
}

/// The names in the `[dependencies]` tables of a manifest (target-specific ones included),
/// not those of `[dev-dependencies]` or `[build-dependencies]`.
fn dependencies(manifest: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_deps = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_deps = line.trim_end_matches(']').ends_with("dependencies")
                && !line.contains("dev-dependencies")
                && !line.contains("build-dependencies");
            continue;
        }
        if in_deps && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.', ' ']).next().unwrap_or_default();
            out.push(name.to_owned());
        }
    }
    out
}

/// Upward dependencies between crates: `crate -> dependency` lines.
fn upward_crate_dependencies() -> Vec<String> {
    let members = members();
    let mut bad = Vec::new();
    for member in &members {
        let Some(own) = rank(CRATE_RANKS, member) else {
            bad.push(format!("crate `{member}` has no rank in CRATE_RANKS"));
            continue;
        };
        let manifest = std::fs::read_to_string(root().join(member).join("Cargo.toml")).expect("a crate manifest");
        for dep in dependencies(&manifest).iter().filter(|d| members.contains(d)) {
            match rank(CRATE_RANKS, dep) {
                Some(r) if r < own => {}
                _ => bad.push(format!("{member}/Cargo.toml: `{member}` depends on `{dep}`, which is not below it")),
            }
        }
    }
    bad
}

/// The `.rs` files under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The top-level modules a source names as `crate::module` or in `crate::{a::x, b}`, with
/// their lines; comments are left out (doc comments name modules they do not import).
fn crate_paths(source: &str) -> Vec<(usize, String)> {
    let code: String = source.lines().map(|l| l.split("//").next().unwrap_or_default()).collect::<Vec<_>>().join("\n");
    let ident =
        |s: &str| -> String { s.trim_start().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect() };
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(found) = code[from..].find("crate::") {
        let at = from + found;
        from = at + "crate::".len();
        if code[..at].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue; // `my_crate::`, not `crate::`
        }
        let line = code[..at].matches('\n').count() + 1;
        let rest = &code[from..];
        if let Some(group) = rest.strip_prefix('{') {
            // The names at the group's top level: `a` and `b` in `{a::{x, y}, b}`.
            let mut depth = 0;
            let mut start = 0;
            for (k, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        out.push((line, ident(&group[start..k])));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.push((line, ident(&group[start..k])));
                        start = k + 1;
                    }
                    _ => {}
                }
            }
        } else {
            out.push((line, ident(rest)));
        }
    }
    out.retain(|(_, m)| !m.is_empty());
    out
}

/// Upward references between `lang`'s top-level modules: `file:line` messages.
fn upward_module_references(src: &Path, ranks: &[(&str, u32)]) -> Vec<String> {
    let mut bad = Vec::new();
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    for file in files {
        let relative = file.strip_prefix(src).expect("below the sources");
        let top = relative.components().next().and_then(|c| c.as_os_str().to_str()).unwrap_or_default();
        let top = top.trim_end_matches(".rs");
        if top == "lib" {
            continue;
        }
        let Some(own) = rank(ranks, top) else {
            bad.push(format!("module `{top}` ({}) has no rank", file.display()));
            continue;
        };
        let text = std::fs::read_to_string(&file).expect("a source file");
        for (line, module) in crate_paths(&text) {
            if module == top {
                continue;
            }
            match rank(ranks, &module) {
                Some(r) if r < own => {}
                Some(_) => {
                    bad.push(format!("{}:{line}: `{top}` uses `crate::{module}`, a layer above it", file.display()))
                }
                // Re-exports at the crate root (`crate::Span`) and macros are not modules.
                None => {}
            }
        }
    }
    bad
}

/// Uses of a forbidden path under `dir`: `file:line` messages.
fn forbidden_uses(dir: &Path, path: &str, why: &str) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(dir, &mut files);
    files.sort();
    let mut bad = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a source file");
        for (i, line) in text.lines().enumerate() {
            if line.split("//").next().unwrap_or_default().contains(path) {
                bad.push(format!("{}:{}: uses `{path}`: {why}", file.display(), i + 1));
            }
        }
    }
    bad
}

#[test]
fn boundaries_inside_crates_hold() {
    let bad: Vec<String> =
        FORBIDDEN.iter().flat_map(|(dir, path, why)| forbidden_uses(&root().join(dir), path, why)).collect();
    assert!(bad.is_empty(), "forbidden uses:\n{}", bad.join("\n"));
}

#[test]
fn crates_depend_only_on_crates_below_them() {
    let bad = upward_crate_dependencies();
    assert!(bad.is_empty(), "upward dependencies between crates:\n{}", bad.join("\n"));
}

#[test]
fn lang_modules_use_only_modules_below_them() {
    let bad = upward_module_references(&root().join("lang/src"), LANG_MODULE_RANKS);
    assert!(bad.is_empty(), "upward references between lang's layers:\n{}", bad.join("\n"));
}

/// The checks see what they must: an upward `use` in a lower module is caught, in a group
/// too, while a comment naming a higher module and `other_crate::` are not.
#[test]
fn an_upward_reference_is_caught() {
    let dir = std::env::temp_dir().join(format!("hol-layering-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("core")).unwrap();
    std::fs::write(dir.join("core/lower.rs"), "//! Called from `crate::theory`.\nuse crate::types::hir;\n").unwrap();
    std::fs::write(dir.join("syntax.rs"), "use crate::span::Span;\nuse other_crate::x;\nuse crate::core::ir;\nuse crate::{\n    diagnostic::D,\n    interp::{a, b},\n};\n").unwrap();
    let bad = upward_module_references(&dir, LANG_MODULE_RANKS);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(bad.len(), 2, "{bad:?}");
    assert!(bad[0].ends_with("syntax.rs:3: `syntax` uses `crate::core`, a layer above it"), "{bad:?}");
    assert!(bad[1].ends_with("syntax.rs:4: `syntax` uses `crate::interp`, a layer above it"), "{bad:?}");
}

#[test]
fn dependency_tables_are_read_as_cargo_reads_them() {
    let manifest = "[package]\nname = \"x\"\n[dependencies]\nlang.workspace = true\ncodegen = { path = \"../codegen\" }\n\
                    [dev-dependencies]\nhol.workspace = true\n[target.'cfg(unix)'.dependencies]\nlibc.workspace = true\n";
    assert_eq!(dependencies(manifest), ["lang", "codegen", "libc"]);
}
