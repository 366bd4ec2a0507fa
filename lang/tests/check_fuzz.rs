//! Fuzzing the whole front end: random token-level mutations of real theories (the shared
//! acceptance theories and the bundled ones) go through `check_theory` — lexer, parser,
//! type checker, lowering — and every `value` is evaluated under tight limits. Nothing may
//! panic or hang, and every diagnostic span must lie within the text on char boundaries.

use lang::check_theory;
use lang::interp::Limits;
use proptest::prelude::*;
use std::path::Path;
use std::time::{Duration, Instant};

/// Tokens worth inserting: keywords, symbols in all three spellings, quotes, brackets.
const POOL: &[&str] = &[
    "lemma",
    "fun",
    "primrec",
    "datatype",
    "definition",
    "inductive",
    "value",
    "where",
    "and",
    "end",
    "|",
    "\"",
    "‹",
    "›",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "::",
    ":",
    "=",
    "⇒",
    "=>",
    "⟹",
    "==>",
    "∀",
    "\\<forall>",
    "ALL",
    "∃",
    "EX",
    "λ",
    "%",
    "¬",
    "~",
    "∧",
    "&",
    "∨",
    "⟶",
    "-->",
    "∈",
    "#",
    "@",
    "+",
    "-",
    "*",
    "div",
    "mod",
    "^",
    "!",
    "case",
    "of",
    "if",
    "then",
    "else",
    "let",
    "in",
    "0",
    "1",
    "42",
    "x",
    "xs",
    "Suc",
    "Nil",
    "None",
    "'a",
    "nat",
    "list",
    "set",
    "_",
    ".",
    ",",
    ";",
    "⟦",
    "⟧",
    "(*",
    "*)",
    "\\<open>",
    "\\<close>",
    "[..<",
    "..",
    "←",
    "≡",
    "quickcheck",
    "[",
    "oops",
    "by",
    "simp",
    "😀",
    "\u{0}",
];

/// Splits text into tokens: runs of word characters, single other characters, whitespace.
fn tokens(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut cur_word = false;
    for c in text.chars() {
        let word = c.is_alphanumeric() || c == '_' || c == '\'';
        if word && cur_word {
            cur.push(c);
            continue;
        }
        if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        cur.push(c);
        cur_word = word;
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn corpus() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut texts = Vec::new();
    for dir in [root.join("tests/acceptance"), root.join("tests/acceptance/errors"), root.join("theories")] {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut paths: Vec<_> =
            entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "thy")).collect();
        paths.sort();
        for p in paths {
            // The prelude is large; its first part is enough and keeps cases fast.
            let t = std::fs::read_to_string(&p).unwrap_or_default();
            texts.push(if t.len() > 6000 { t.chars().take(6000).collect() } else { t });
        }
    }
    assert!(texts.len() >= 5, "fuzz corpus not found next to {}", root.display());
    texts
}

#[derive(Clone, Debug)]
enum Mutation {
    Delete(usize),
    Duplicate(usize),
    Swap(usize, usize),
    Insert(usize, usize),
}

fn mutate(toks: &mut Vec<String>, m: &Mutation) {
    if toks.is_empty() {
        return;
    }
    let n = toks.len();
    match *m {
        Mutation::Delete(i) => {
            toks.remove(i % n);
        }
        Mutation::Duplicate(i) => {
            let t = toks[i % n].clone();
            toks.insert(i % n, t);
        }
        Mutation::Swap(i, j) => toks.swap(i % n, j % n),
        Mutation::Insert(i, k) => toks.insert(i % (n + 1), POOL[k % POOL.len()].to_string()),
    }
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<usize>().prop_map(Mutation::Delete),
        any::<usize>().prop_map(Mutation::Duplicate),
        (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Mutation::Swap(i, j)),
        (any::<usize>(), any::<usize>()).prop_map(|(i, k)| Mutation::Insert(i, k)),
    ]
}

fn check_one(text: &str) {
    let start = Instant::now();
    let mut th = check_theory(text);
    for d in &th.diagnostics {
        for span in std::iter::once(&d.primary.span).chain(d.secondary.iter().map(|l| &l.span)) {
            assert!(span.start <= span.end && span.end as usize <= text.len(), "span {span:?} outside the text");
            assert!(
                text.is_char_boundary(span.start as usize) && text.is_char_boundary(span.end as usize),
                "span {span:?} splits a character"
            );
        }
    }
    let values: Vec<usize> = th.value_indices();
    for v in values {
        let limits =
            Limits { fuel: 100_000, max_depth: 2_000, deadline: Some(Instant::now() + Duration::from_millis(100)) };
        let _ = th.eval_value(v, &limits);
    }
    let _ = th.dump_ir();
    assert!(start.elapsed() < Duration::from_secs(10), "checking took {:?}", start.elapsed());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_theories_never_panic(which in any::<usize>(), muts in proptest::collection::vec(mutation(), 1..8)) {
        let corpus = corpus();
        let text = &corpus[which % corpus.len()];
        let mut toks = tokens(text);
        for m in &muts {
            mutate(&mut toks, m);
        }
        check_one(&toks.concat());
    }
}

#[test]
fn the_unmutated_corpus_checks() {
    for text in corpus() {
        check_one(&text);
    }
}
