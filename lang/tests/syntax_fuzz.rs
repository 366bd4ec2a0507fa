//! Robustness of the parser on hostile input: mutated example theories (bytes and tokens
//! deleted, duplicated, swapped, stray quotes, cartouches and multi-byte characters
//! inserted), random token soups inside and outside quotes, and pathological nesting.
//!
//! For every input: no panic, no hang, and every span (of diagnostics and of the tree)
//! lies within the text, on character boundaries.
//!
//! Runs a fixed, deterministic set of cases so CI is stable; `HOL_FUZZ_CASES=n` runs `n`
//! cases per strategy and `HOL_FUZZ_RANDOM=1` draws a fresh seed.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use lang::syntax::ast::*;
use lang::syntax::{parse_term, parse_theory, parse_type};
use lang::Span;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

/// Pieces that stress the lexers and the grammars.
const SNIPPETS: &[&str] = &[
    "\"",
    "\"",
    "‹",
    "›",
    "\\<open>",
    "\\<close>",
    "(*",
    "*)",
    "{*",
    "*}",
    "\\<comment>",
    "—",
    "\\",
    "\\<",
    "\\<^sub>",
    "⇩",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "⟦",
    "⟧",
    "[|",
    "|]",
    "|",
    "⇒",
    "=>",
    "∀",
    "∃",
    "∃!",
    "λ",
    "%",
    "!",
    "?",
    "¬",
    "~",
    "-",
    ".",
    "..",
    "..<",
    ":",
    "::",
    ":=",
    ";",
    ",",
    "'a",
    "'",
    "_",
    "0",
    "42",
    "x",
    "xs",
    "f",
    "Suc",
    "case",
    "of",
    "if",
    "then",
    "else",
    "let",
    "in",
    "lemma",
    "datatype",
    "fun",
    "primrec",
    "definition",
    "where",
    "and",
    "end",
    "theory",
    "begin",
    "imports",
    "quickcheck",
    "[[",
    "]]",
    "=",
    "≡",
    "==",
    "⟹",
    "==>",
    "⟶",
    "∧",
    "∨",
    "#",
    "@",
    "+",
    "*",
    "×",
    "∈",
    "∉",
    "⊆",
    "∪",
    "é",
    "😀",
    "\u{0}",
    "\t",
    "\n",
    " ",
    "oops",
    "by",
    "apply",
    "proof",
    "qed",
    "text",
    "locale",
    "declare",
    "value",
    "o",
    "Un",
    "dvd",
    "div",
    "fixes",
    "assumes",
    "shows",
    "for",
    "(infixr \"#\" 65)",
    "[simp]",
    "x ← xs",
    "∀x. P x",
    "λ(a, b). a",
    "[x←xs. P x]",
    "{x. P x}",
    "f(x := y)",
    "(+)",
];

fn examples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/acceptance")
}

fn examples() -> Vec<String> {
    let mut out = Vec::new();
    for dir in [examples_dir(), examples_dir().join("errors")] {
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "thy"))
            .collect();
        paths.sort();
        for p in paths {
            out.push(std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display())));
        }
    }
    assert!(out.len() >= 7, "the acceptance theories in tests/acceptance are missing");
    out
}

fn runner() -> TestRunner {
    let cases = std::env::var("HOL_FUZZ_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(500);
    let config = Config { cases, failure_persistence: None, max_shrink_iters: 200, ..Config::default() };
    if std::env::var("HOL_FUZZ_RANDOM").is_ok() {
        TestRunner::new(config)
    } else {
        TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha))
    }
}

// ---------------------------------------------------------------- checks

fn check_span(text: &str, span: Span, what: &str) {
    let (s, e) = (span.start as usize, span.end as usize);
    assert!(s <= e && e <= text.len(), "{what} span {span:?} out of the text (len {})", text.len());
    assert!(text.is_char_boundary(s) && text.is_char_boundary(e), "{what} span {span:?} not on char boundaries");
}

fn check_term(text: &str, t: &Term) {
    check_span(text, t.span, "term");
    match &t.kind {
        TermKind::Name(n) => check_span(text, n.span, "name"),
        TermKind::Num(_) | TermKind::Wildcard => {}
        TermKind::App(a, b) | TermKind::SetCompr(a, b) => {
            check_term(text, a);
            check_term(text, b);
        }
        TermKind::Range { from, to, .. } => {
            check_term(text, from);
            check_term(text, to);
        }
        TermKind::Lambda(ps, b) => {
            ps.iter().for_each(|p| check_term(text, p));
            check_term(text, b);
        }
        TermKind::Quant { binders, bound, body, .. } => {
            for b in binders {
                check_span(text, b.name.span, "binder");
                if let Some(ty) = &b.ty {
                    check_type(text, ty);
                }
            }
            match bound {
                Some(QuantBound::In(b)) | Some(QuantBound::Less(b)) | Some(QuantBound::LessEq(b)) => {
                    check_term(text, b)
                }
                None => {}
            }
            check_term(text, body);
        }
        TermKind::If(a, b, c) => {
            check_term(text, a);
            check_term(text, b);
            check_term(text, c);
        }
        TermKind::Let(bs, b) | TermKind::Case(b, bs) | TermKind::Update(b, bs) => {
            for (x, y) in bs {
                check_term(text, x);
                check_term(text, y);
            }
            check_term(text, b);
        }
        TermKind::BinOp(_, sp, a, b) => {
            check_span(text, *sp, "operator");
            check_term(text, a);
            check_term(text, b);
        }
        TermKind::UnOp(_, sp, a) => {
            check_span(text, *sp, "operator");
            check_term(text, a);
        }
        TermKind::Tuple(ts) | TermKind::List(ts) | TermKind::SetLit(ts) => ts.iter().for_each(|t| check_term(text, t)),
        TermKind::ListCompr(h, qs) => {
            check_term(text, h);
            for q in qs {
                match q {
                    Qualifier::Generator(a, b) => {
                        check_term(text, a);
                        check_term(text, b);
                    }
                    Qualifier::Guard(a) => check_term(text, a),
                }
            }
        }
        TermKind::Typed(a, ty) => {
            check_term(text, a);
            check_type(text, ty);
        }
    }
}

fn check_type(text: &str, t: &Type) {
    check_span(text, t.span, "type");
    match &t.kind {
        TypeKind::Var(v) => {
            check_span(text, v.name.span, "type variable");
            v.sort.iter().for_each(|c| check_span(text, c.span, "class"));
        }
        TypeKind::App(n, args) => {
            check_span(text, n.span, "type constructor");
            args.iter().for_each(|a| check_type(text, a));
        }
        TypeKind::Fun(a, b) => {
            check_type(text, a);
            check_type(text, b);
        }
    }
}

fn check_const(text: &str, c: &ConstDecl) {
    check_span(text, c.name.span, "constant");
    if let Some(t) = &c.ty {
        check_type(text, t);
    }
}

fn check_eq(text: &str, e: &Equation) {
    if let Some(n) = &e.name {
        check_span(text, n.span, "equation name");
    }
    check_term(text, &e.term);
}

fn check_opts(text: &str, os: &[QcOption]) {
    for o in os {
        check_span(text, o.span, "option");
        check_span(text, o.name.span, "option name");
        if let Some(v) = &o.value {
            check_span(text, v.span, "option value");
        }
    }
}

/// Parses a whole file and checks every span; the parse must not take long.
fn check_theory(text: &str) {
    let started = Instant::now();
    let p = parse_theory(text);
    let took = started.elapsed();
    assert!(took < Duration::from_secs(2), "parsing took {took:?}");
    for d in &p.diagnostics {
        assert!(!d.message.is_empty());
        check_span(text, d.primary.span, "diagnostic");
        d.secondary.iter().for_each(|l| check_span(text, l.span, "secondary label"));
    }
    let th = &p.theory;
    check_span(text, th.span, "theory");
    check_span(text, th.name.span, "theory name");
    th.imports.iter().for_each(|i| check_span(text, i.span, "import"));
    for c in &th.commands {
        check_span(text, c.span, "command");
        match &c.kind {
            CommandKind::Datatype(ds) => {
                for d in ds {
                    check_span(text, d.span, "datatype");
                    check_span(text, d.name.span, "datatype name");
                    for p in &d.params {
                        check_span(text, p.name.span, "parameter");
                    }
                    for k in &d.ctors {
                        check_span(text, k.span, "constructor");
                        for a in &k.args {
                            check_type(text, &a.ty);
                        }
                    }
                }
            }
            CommandKind::TypeSynonym { params, name, rhs } => {
                params.iter().for_each(|p| check_span(text, p.span, "parameter"));
                check_span(text, name.span, "synonym");
                check_type(text, rhs);
            }
            CommandKind::Fun { consts, equations, .. } => {
                consts.iter().for_each(|k| check_const(text, k));
                equations.iter().for_each(|e| check_eq(text, e));
            }
            CommandKind::Definition { decl, equation } => {
                if let Some(d) = decl {
                    check_const(text, d);
                }
                check_eq(text, equation);
            }
            CommandKind::Inductive { consts, intros } => {
                consts.iter().for_each(|k| check_const(text, k));
                intros.iter().for_each(|e| check_eq(text, e));
            }
            CommandKind::Lemma(l) => {
                l.fixes.iter().for_each(|k| check_const(text, k));
                l.assumes.iter().for_each(|e| check_eq(text, e));
                l.shows.iter().for_each(|t| check_term(text, t));
            }
            CommandKind::Quickcheck(os) | CommandKind::QuickcheckParams(os) | CommandKind::Declare(os) => {
                check_opts(text, os)
            }
            CommandKind::Value(t) => check_term(text, t),
            CommandKind::Unsupported(id) | CommandKind::Ignored(id) | CommandKind::Skipped(id) => {
                check_span(text, id.span, "command keyword")
            }
            CommandKind::Unparsed { keyword, defines } => {
                check_span(text, keyword.span, "command keyword");
                defines.iter().flatten().for_each(|n| check_span(text, n.span, "defined name"));
            }
            CommandKind::Locale { keyword, name } => {
                check_span(text, keyword.span, "command keyword");
                check_span(text, name.span, "locale name");
            }
            CommandKind::Declares { keyword, consts, types } => {
                check_span(text, keyword.span, "command keyword");
                consts.iter().chain(types).for_each(|n| check_span(text, n.span, "declared name"));
            }
            CommandKind::Target(t) => t.iter().for_each(|n| check_span(text, n.span, "locale name")),
            CommandKind::Proof | CommandKind::Text => {}
        }
    }
}

/// Parses inner syntax at an offset and checks the spans against the offset text.
fn check_inner(text: &str, base: u32) {
    let shifted = format!("{}{}", " ".repeat(base as usize), text);
    let check = |span: Span| check_span(&shifted, span, "inner");
    match parse_term(text, base) {
        Ok(t) => check_term(&shifted, &t),
        Err(d) => check(d.primary.span),
    }
    match parse_type(text, base) {
        Ok(t) => check_type(&shifted, &t),
        Err(d) => check(d.primary.span),
    }
}

// ---------------------------------------------------------------- mutations

/// Where to act, as a fraction of the text, so a mutation fits any file.
type Frac = u16;

fn at(text: &str, f: Frac) -> usize {
    let mut i = text.len() * f as usize / (u16::MAX as usize + 1);
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[derive(Clone, Debug)]
enum Mutation {
    DeleteBytes(Frac, u8),
    DuplicateBytes(Frac, u8, Frac),
    SwapBytes(Frac, Frac, u8),
    Insert(Frac, usize),
    DeleteToken(Frac),
    DuplicateToken(Frac, Frac),
    SwapTokens(Frac, Frac),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        1 => (any::<Frac>(), any::<u8>()).prop_map(|(a, n)| Mutation::DeleteBytes(a, n)),
        1 => (any::<Frac>(), any::<u8>(), any::<Frac>()).prop_map(|(a, n, b)| Mutation::DuplicateBytes(a, n, b)),
        1 => (any::<Frac>(), any::<Frac>(), any::<u8>()).prop_map(|(a, b, n)| Mutation::SwapBytes(a, b, n)),
        3 => (any::<Frac>(), 0..SNIPPETS.len()).prop_map(|(a, s)| Mutation::Insert(a, s)),
        2 => any::<Frac>().prop_map(Mutation::DeleteToken),
        1 => (any::<Frac>(), any::<Frac>()).prop_map(|(a, b)| Mutation::DuplicateToken(a, b)),
        1 => (any::<Frac>(), any::<Frac>()).prop_map(|(a, b)| Mutation::SwapTokens(a, b)),
    ]
}

/// A char-boundary range of about `n` bytes starting at `start`.
fn range(text: &str, start: usize, n: u8) -> (usize, usize) {
    let mut end = (start + n as usize).min(text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    (start, end)
}

/// The whitespace-separated tokens of a text, as byte ranges.
fn tokens(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, text.len()));
    }
    out
}

fn token_at(text: &str, f: Frac) -> Option<(usize, usize)> {
    let ts = tokens(text);
    if ts.is_empty() {
        return None;
    }
    Some(ts[(ts.len() * f as usize / (u16::MAX as usize + 1)).min(ts.len() - 1)])
}

fn apply(text: &mut String, m: &Mutation) {
    match *m {
        Mutation::DeleteBytes(a, n) => {
            let (s, e) = range(text, at(text, a), n % 16);
            text.replace_range(s..e, "");
        }
        Mutation::DuplicateBytes(a, n, b) => {
            let (s, e) = range(text, at(text, a), n);
            let piece = text[s..e].to_string();
            let to = at(text, b);
            text.insert_str(to, &piece);
        }
        Mutation::SwapBytes(a, b, n) => {
            let (s1, e1) = range(text, at(text, a), n % 32);
            let (s2, e2) = range(text, at(text, b), n % 32);
            if e1 <= s2 || e2 <= s1 {
                let (first, second) = if s1 < s2 { ((s1, e1), (s2, e2)) } else { ((s2, e2), (s1, e1)) };
                let p1 = text[first.0..first.1].to_string();
                let p2 = text[second.0..second.1].to_string();
                text.replace_range(second.0..second.1, &p1);
                text.replace_range(first.0..first.1, &p2);
            }
        }
        Mutation::Insert(a, s) => {
            let i = at(text, a);
            text.insert_str(i, SNIPPETS[s]);
        }
        Mutation::DeleteToken(a) => {
            if let Some((s, e)) = token_at(text, a) {
                text.replace_range(s..e, "");
            }
        }
        Mutation::DuplicateToken(a, b) => {
            if let (Some((s, e)), Some((t, _))) = (token_at(text, a), token_at(text, b)) {
                let piece = format!("{} ", &text[s..e]);
                text.insert_str(t, &piece);
            }
        }
        Mutation::SwapTokens(a, b) => {
            if let (Some(x), Some(y)) = (token_at(text, a), token_at(text, b)) {
                if x.1 <= y.0 || y.1 <= x.0 {
                    let (first, second) = if x.0 < y.0 { (x, y) } else { (y, x) };
                    let p1 = text[first.0..first.1].to_string();
                    let p2 = text[second.0..second.1].to_string();
                    text.replace_range(second.0..second.1, &p1);
                    text.replace_range(first.0..first.1, &p2);
                }
            }
        }
    }
}

fn soup(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec((0..SNIPPETS.len(), any::<bool>()), 0..max).prop_map(|parts| {
        let mut s = String::new();
        for (i, space) in parts {
            s.push_str(SNIPPETS[i]);
            if space {
                s.push(' ');
            }
        }
        s
    })
}

// ---------------------------------------------------------------- tests

#[test]
fn mutated_examples_never_break_the_parser() {
    let files = examples();
    let n = files.len();
    let strategy = (0..n, prop::collection::vec(mutation(), 1..10));
    let result = runner().run(&strategy, |(i, ms)| {
        let mut text = files[i].clone();
        for m in &ms {
            apply(&mut text, m);
        }
        check_theory(&text);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

#[test]
fn token_soups_never_break_the_parser() {
    let strategy = (soup(80), 0..4u8);
    let result = runner().run(&strategy, |(body, wrap)| {
        let text = match wrap {
            0 => body.clone(),
            1 => format!("theory T imports Main begin\n{body}\nend\n"),
            2 => format!("theory T imports Main begin\nlemma \"{body}\"\nend\n"),
            _ => format!("theory T imports Main begin\ndefinition f where ‹{body}›\nvalue \"{body}\"\nend\n"),
        };
        check_theory(&text);
        check_inner(&body, 7);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

#[test]
fn random_text_never_breaks_the_parser() {
    let strategy = "\\PC{0,300}";
    let result = runner().run(&strategy, |s: String| {
        check_theory(&s);
        check_inner(&s, 0);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// Deep nesting is refused with a diagnostic, never by overflowing the stack; it also
/// stays fast.
#[test]
fn pathological_nesting_is_an_error_not_a_crash() {
    let cases = [
        format!("{}x{}", "(".repeat(50_000), ")".repeat(50_000)),
        format!("{}x{}", "[".repeat(5_000), "]".repeat(5_000)),
        format!("{}x", "¬ ".repeat(50_000)),
        format!("{}x", "- ".repeat(3_000)),
        format!("{}P", "∀x. ".repeat(20_000)),
        format!("({}P) )", "∀x. ".repeat(3_000)),
        format!("({}x) )", "if a then b else ".repeat(1_500)),
        format!("(f{}) )", " x".repeat(9_000)),
        format!("f{}", " x".repeat(5_000)),
        format!("x{}", " # x".repeat(5_000)),
        format!("x{}", " + x".repeat(5_000)),
        format!("({}A) )", "A ⟹ ".repeat(4_900)),
        format!("x :: 'a{}", " list".repeat(5_000)),
        format!("x :: ({}'a) )", "'a ⇒ ".repeat(4_900)),
        format!("{}x", "λx. ".repeat(3_000)),
        format!("case x of {}", "A ⇒ case x of ".repeat(2_000)),
    ];
    for src in &cases {
        let started = Instant::now();
        let r = parse_term(src, 0);
        assert!(r.is_err(), "accepted a term of depth beyond the limit: {}…", &src[..20.min(src.len())]);
        let took = started.elapsed();
        assert!(took < Duration::from_secs(2), "took {took:?}");
        let text = format!("theory T imports Main begin\nlemma \"{src}\"\nend\n");
        check_theory(&text);
    }
    // Wide but shallow terms are fine.
    let wide = format!("[{}0]", "0, ".repeat(3_000));
    assert!(parse_term(&wide, 0).is_ok());
    let text = format!("theory T imports Main begin\n{}end\n", "lemma \"rev (rev xs) = xs\" oops\n".repeat(2_000));
    let started = Instant::now();
    let p = parse_theory(&text);
    assert!(p.diagnostics.is_empty());
    assert_eq!(p.theory.commands.len(), 4_000);
    assert!(started.elapsed() < Duration::from_secs(3));
}

/// Many unterminated tokens in one file cost linear time.
#[test]
fn many_unterminated_tokens_stay_linear() {
    for opener in ["\"", "‹", "(*", "{*", "\\<open>"] {
        let text = format!("theory T imports Main begin\n{}end\n", format!("lemma {opener} x\n").repeat(3_000));
        let started = Instant::now();
        let p = parse_theory(&text);
        assert!(!p.diagnostics.is_empty());
        check_theory(&text);
        assert!(started.elapsed() < Duration::from_secs(2), "{opener}: {:?}", started.elapsed());
    }
}
