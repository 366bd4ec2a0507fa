//! Mutation of lemmas, as Isabelle's Mutabelle does it (issue 19, item 2): the instrument
//! behind `hol mutants`. Each lemma of a checked theory is mutated by two operators:
//!
//! - `replace`: one occurrence of a constant (a function, a constructor, an arithmetic,
//!   comparison, logical or set operator) becomes another constant of the theory, its
//!   imports or the prelude whose type fits the occurrence's type (by unification, the
//!   lemma's type variables held fixed). Names replace names and infix operators infix
//!   operators, so the text stays well formed.
//! - `swap`: two disjoint subterms of the same type exchange places, when neither mentions
//!   a variable bound inside the statement (so bound variables stay bound) and they are not
//!   the two operands of a commutative operator.
//!
//! A mutant is text: the lemma's command with the edit applied, put in place of the lemma
//! in a copy of the theory from which every other lemma is blanked out (the theory's
//! `[code]` lemmas stay, as they change what compiled code runs). Mutants that do not
//! type-check in that copy, that equal the original, or that equal another mutant are
//! dropped. Each lemma's sample is drawn from its own random stream, seeded by a fixed hash
//! of the run's seed, the theory's name and the lemma's key (its name, or its statement),
//! so the mutants of one lemma do not change when another lemma is added; a mutant's id is
//! a fixed hash (FNV-1a, 64 bits) of the theory's name, the lemma's key and the mutant's
//! text, the same on every machine and in every run.
//!
//! Not here yet (issue 19 goes on): running the mutants is the front end's part (`hol
//! mutants`); sharding, logs and replay build on the ids made here.

use crate::loader::{Loader, Siblings};
use crate::source;
use lang::syntax::ast::{CommandKind, Theory};
use lang::types::hir::{Bound, LocalId, Pat, PatKind, Term, TermKind};
use lang::types::ty::Type;
use lang::types::unify::Infer;
use lang::{CheckedTheory, ItemKind, Severity, Span};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

/// Mutants per lemma when the caller does not say (`--per-lemma`).
pub const DEFAULT_PER_LEMMA: usize = 4;

/// How many candidate mutants are type-checked per mutant wanted, at most: a lemma whose
/// candidates keep failing to check gives fewer mutants rather than taking long.
const CHECKS_PER_MUTANT: usize = 6;

/// Infix operators that may replace one another (Isabelle's spellings as hol prints them).
const OPERATORS: &[&str] = &[
    "+", "-", "*", "div", "mod", "^", "<", "≤", "=", "≠", "∧", "∨", "⟶", "⟷", "∪", "∩", "⊆", "⊂", "∈", "∉", "@", "#",
    "dvd", "∘", "O", "++",
];

/// ASCII and symbol spellings of the operators above, read as them.
const SPELLINGS: &[(&str, &str)] = &[
    ("<=", "≤"),
    ("\\<le>", "≤"),
    ("~=", "≠"),
    ("\\<noteq>", "≠"),
    ("&", "∧"),
    ("\\<and>", "∧"),
    ("|", "∨"),
    ("\\<or>", "∨"),
    ("-->", "⟶"),
    ("\\<longrightarrow>", "⟶"),
    ("<->", "⟷"),
    ("\\<longleftrightarrow>", "⟷"),
    ("Un", "∪"),
    ("\\<union>", "∪"),
    ("Int", "∩"),
    ("\\<inter>", "∩"),
    ("\\<subseteq>", "⊆"),
    ("\\<subset>", "⊂"),
    (":", "∈"),
    ("\\<in>", "∈"),
    ("~:", "∉"),
    ("\\<notin>", "∉"),
    ("o", "∘"),
    ("\\<circ>", "∘"),
];

/// Operators whose operands are never swapped: exchanging them gives an equivalent lemma.
const COMMUTATIVE: &[&str] = &["+", "*", "=", "≠", "∧", "∨", "⟷", "∪", "∩", "min", "max", "gcd", "lcm"];

/// Constants that are builtins of hol (no definition in the prelude) and may replace or be
/// replaced by a name.
const BUILTIN_NAMES: &[&str] = &["Suc", "insert", "finite", "int", "nat", "size", "True", "False", "UNIV"];

/// The mutation operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Operator {
    /// One constant occurrence replaced by another of fitting type.
    Replace,
    /// Two subterms of the same type exchanged.
    Swap,
}

impl Operator {
    pub fn name(self) -> &'static str {
        match self {
            Operator::Replace => "replace",
            Operator::Swap => "swap",
        }
    }
}

/// What to draw.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Mutants per lemma, at most.
    pub per_lemma: usize,
    /// The run's seed; each lemma's stream is derived from it.
    pub seed: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings { per_lemma: DEFAULT_PER_LEMMA, seed: 0 }
    }
}

/// One mutant of one lemma.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mutant {
    /// 16 hex digits: the fixed hash of theory, lemma key and `text`.
    pub id: String,
    pub operator: Operator,
    /// The edit in words: "`rev` → `tl`", "`xs` ⇄ `ys`".
    pub edit: String,
    /// The mutated lemma command, on one line.
    pub text: String,
    /// A copy of the theory with this mutant as its only lemma (besides `[code]` lemmas).
    pub theory_text: String,
    /// Where the mutant's command sits in `theory_text`.
    pub span: Span,
}

/// The mutants of one lemma.
#[derive(Clone, Debug)]
pub struct LemmaMutants {
    /// The lemma's key: its name (with `(k)` for the k-th proposition of several), or its
    /// statement when it has none.
    pub key: String,
    /// The original lemma command, on one line.
    pub text: String,
    pub mutants: Vec<Mutant>,
    /// How many candidate edits the operators offered (before sampling and checking).
    pub candidates: usize,
}

/// The mutants of one theory file.
#[derive(Clone, Debug)]
pub struct Mutation {
    /// The theory's name.
    pub theory: String,
    pub lemmas: Vec<LemmaMutants>,
}

/// Checks `text` as the file `path` would be checked, imports read through `loader`.
pub fn check(path: &Path, text: &str, loader: &dyn Loader, testers: &[&str]) -> CheckedTheory {
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    crate::prelude::load();
    lang::check_theory_with(text, &Siblings { dir, loader }, testers)
}

/// The lemma of a mutant's theory (`Mutant::theory_text`, checked): its index for
/// `quickcheck::check_lemma`, or `None` when it does not check there.
pub fn mutant_lemma(theory: &CheckedTheory, mutant: &Mutant) -> Option<usize> {
    theory.items.iter().find_map(|item| match item.kind {
        ItemKind::Lemma { index, statement, .. } if within(statement, mutant.span) => Some(index),
        _ => None,
    })
}

/// Mutates every lemma of the theory `text` (the file `path`).
pub fn mutate(path: &Path, text: &str, loader: &dyn Loader, testers: &[&str], settings: &Settings) -> Mutation {
    let theory = check(path, text, loader, testers);
    let parsed = lang::syntax::parse_theory(text).theory;
    let skeleton = skeleton(text, &theory);
    let pool = Pool::new(path, &skeleton, &parsed, loader, testers);
    let mut keys: HashMap<String, usize> = HashMap::new();
    let mut lemmas = Vec::new();
    for item in &theory.items {
        let ItemKind::Lemma { name, statement, index, .. } = &item.kind else { continue };
        let lemma = theory.lemma(*index);
        if lemma.code {
            continue;
        }
        let original = source::collapse(source::slice(text, item.span));
        let base = name.clone().unwrap_or_else(|| source::collapse(source::term_text(text, *statement)));
        let seen = keys.entry(base.clone()).or_default();
        *seen += 1;
        let key = if *seen == 1 { base } else { format!("{base}#{seen}") };
        let edits = edits(text, item.span, lemma, &pool);
        let candidates = edits.len();
        let mut rng = SplitMix::new(fnv(&[&settings.seed.to_le_bytes(), theory.name.as_bytes(), key.as_bytes()]));
        let order = rng.permutation(edits.len());
        let mut mutants: Vec<Mutant> = Vec::new();
        let mut texts: HashSet<String> = HashSet::from([original.clone()]);
        let mut checks = 0;
        for i in order {
            if mutants.len() >= settings.per_lemma || checks >= settings.per_lemma * CHECKS_PER_MUTANT {
                break;
            }
            let edit = &edits[i];
            let command = apply(text, item.span, &edit.changes);
            let one_line = source::collapse(&command);
            if !texts.insert(one_line.clone()) {
                continue;
            }
            checks += 1;
            let (Some(before), Some(after)) =
                (skeleton.get(..item.span.start as usize), skeleton.get(item.span.end as usize..))
            else {
                break;
            };
            let theory_text = format!("{before}{command}{after}");
            let span = Span::new(item.span.start as usize, item.span.start as usize + command.len());
            let mutant = Mutant {
                id: format!("{:016x}", fnv(&[theory.name.as_bytes(), key.as_bytes(), one_line.as_bytes()])),
                operator: edit.operator,
                edit: edit.words.clone(),
                text: one_line,
                theory_text,
                span,
            };
            let checked = check(path, &mutant.theory_text, loader, testers);
            let clean =
                !checked.diagnostics.iter().any(|d| d.severity == Severity::Error && within(d.primary.span, span));
            if clean && mutant_lemma(&checked, &mutant).is_some() {
                mutants.push(mutant);
            }
        }
        lemmas.push(LemmaMutants { key, text: original, mutants, candidates });
    }
    Mutation { theory: theory.name.clone(), lemmas }
}

fn within(inner: Span, outer: Span) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

/// `text` with every lemma that is not a `[code]` lemma (and the quickcheck commands under
/// it) blanked out, byte for byte, so every other span stays where it was.
fn skeleton(text: &str, theory: &CheckedTheory) -> String {
    let mut blank: Vec<Span> = Vec::new();
    for item in &theory.items {
        match &item.kind {
            ItemKind::Lemma { index, quickchecks, .. } if !theory.lemma(*index).code => {
                blank.push(item.span);
                blank.extend(quickchecks.iter().map(|q| q.span));
            }
            ItemKind::Untested { quickchecks, .. } => {
                blank.push(item.span);
                blank.extend(quickchecks.iter().map(|q| q.span));
            }
            _ => {}
        }
    }
    let mut bytes = text.as_bytes().to_vec();
    for span in blank {
        for b in bytes.iter_mut().take(span.end as usize).skip(span.start as usize) {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    }
    // Whole characters were blanked (spans start and end at character boundaries).
    String::from_utf8(bytes).unwrap_or_else(|_| text.to_owned())
}

/// A candidate constant: how it is written and its type (over its own type variables).
#[derive(Clone, Debug)]
struct Candidate {
    text: String,
    ty: Type,
}

/// The constants a lemma's occurrences may become: names and infix operators, each with
/// its type, found by checking one probe lemma per constant in the theory's skeleton.
struct Pool {
    names: Vec<Candidate>,
    operators: Vec<Candidate>,
}

impl Pool {
    fn new(path: &Path, skeleton: &str, parsed: &Theory, loader: &dyn Loader, testers: &[&str]) -> Pool {
        let mut names: BTreeSet<String> = BUILTIN_NAMES.iter().map(|s| s.to_string()).collect();
        defined_names(&lang::syntax::parse_theory(lang::prelude::MAIN_THY).theory, &mut names);
        for import in &parsed.imports {
            for (library, text) in lang::prelude::LIBRARY {
                if import.name.trim_matches('"') == *library {
                    defined_names(&lang::syntax::parse_theory(text).theory, &mut names);
                }
            }
        }
        defined_names(parsed, &mut names);
        let names: Vec<String> = names.into_iter().collect();
        let Some(end) = skeleton.rfind("end") else { return Pool { names: Vec::new(), operators: Vec::new() } };
        let mut probe = skeleton.get(..end).unwrap_or_default().to_owned();
        let mut regions: Vec<(Span, String, bool)> = Vec::new();
        let mut add = |probe: &mut String, text: &str, lemma: String, operator: bool| {
            let start = probe.len();
            probe.push_str(&lemma);
            regions.push((Span::new(start, probe.len()), text.to_owned(), operator));
            probe.push_str("\nsorry\n");
        };
        for name in &names {
            add(&mut probe, name, format!("lemma \"{name} = {name}\""), false);
        }
        for op in OPERATORS {
            add(&mut probe, op, format!("lemma \"(λa b. a {op} b) = (λa b. a {op} b)\""), true);
        }
        probe.push_str("\nend\n");
        let theory = check(path, &probe, loader, testers);
        let (mut names, mut operators) = (Vec::new(), Vec::new());
        for item in &theory.items {
            let ItemKind::Lemma { index, statement, .. } = item.kind else { continue };
            let Some((_, text, operator)) = regions.iter().find(|(span, ..)| within(statement, *span)) else {
                continue;
            };
            let (_, args) = theory.lemma(index).conclusion.spine();
            let Some(lhs) = args.first() else { continue };
            let candidate = Candidate { text: text.clone(), ty: lhs.ty.clone() };
            if *operator {
                operators.push(candidate);
            } else {
                names.push(candidate);
            }
        }
        Pool { names, operators }
    }
}

/// The names a theory defines: constants and constructors.
fn defined_names(theory: &Theory, out: &mut BTreeSet<String>) {
    for command in &theory.commands {
        match &command.kind {
            CommandKind::Datatype(decls) => {
                out.extend(decls.iter().flat_map(|d| d.ctors.iter().map(|c| c.name.name.clone())));
            }
            CommandKind::Fun { consts, .. } | CommandKind::Inductive { consts, .. } => {
                out.extend(consts.iter().map(|c| c.name.name.clone()));
            }
            CommandKind::Definition { decl: Some(decl), .. } => {
                out.insert(decl.name.name.clone());
            }
            _ => {}
        }
    }
}

/// One candidate mutation of a lemma: text changes within its command.
struct Edit {
    operator: Operator,
    words: String,
    /// Non-overlapping (span, replacement) pairs, file-absolute.
    changes: Vec<(Span, String)>,
}

/// The lemma command at `span` of `text` with `changes` applied.
fn apply(text: &str, span: Span, changes: &[(Span, String)]) -> String {
    let mut changes: Vec<&(Span, String)> = changes.iter().collect();
    changes.sort_by_key(|(s, _)| s.start);
    let mut out = String::new();
    let mut at = span.start;
    for (s, replacement) in changes {
        out.push_str(source::slice(text, Span { start: at, end: s.start }));
        out.push_str(replacement);
        at = s.end;
    }
    out.push_str(source::slice(text, Span { start: at, end: span.end }));
    out
}

/// Every candidate edit of `lemma` (the command at `span` of `text`), in a fixed order.
fn edits(text: &str, span: Span, lemma: &lang::types::hir::Lemma, pool: &Pool) -> Vec<Edit> {
    let mut terms: Vec<&Term> = Vec::new();
    for t in lemma.premises.iter().chain([&lemma.conclusion]) {
        subterms_of(t, &mut terms);
    }
    terms.retain(|t| !t.span.is_empty() && within(t.span, span));
    let mut out = Vec::new();
    // replace
    let mut done: HashSet<Span> = HashSet::new();
    for t in &terms {
        if !matches!(t.kind, TermKind::Const(..) | TermKind::Ctor(..) | TermKind::Builtin(_)) {
            continue;
        }
        let written = source::slice(text, t.span).trim();
        let (word, candidates) = if is_name(written) {
            (written.to_owned(), &pool.names)
        } else if let Some(op) = operator(written) {
            if binary(&t.ty).is_none() {
                continue;
            }
            (op.to_owned(), &pool.operators)
        } else {
            continue;
        };
        if !done.insert(t.span) {
            continue;
        }
        for c in candidates.iter().filter(|c| c.text != word && fits(&c.ty, &t.ty)) {
            out.push(Edit {
                operator: Operator::Replace,
                words: format!("`{word}` → `{}`", c.text),
                changes: vec![(t.span, c.text.clone())],
            });
        }
    }
    // swap
    let frees: HashSet<LocalId> = lemma.frees.iter().copied().collect();
    let mut commutative: HashSet<(Span, Span)> = HashSet::new();
    for t in &terms {
        let (head, args) = t.spine();
        if args.len() == 2 {
            let head_text = source::slice(text, head.span).trim();
            let head_text = operator(head_text).unwrap_or(head_text);
            if COMMUTATIVE.contains(&head_text) {
                commutative.insert((args[0].span, args[1].span));
                commutative.insert((args[1].span, args[0].span));
            }
        }
    }
    let mut subterms: Vec<&Term> = Vec::new();
    let mut seen: HashSet<Span> = HashSet::new();
    for t in &terms {
        let written = source::slice(text, t.span).trim();
        if operator(written).is_some() || !balanced(written) || !seen.insert(t.span) {
            continue;
        }
        let mut free = HashSet::new();
        free_locals(t, &mut Vec::new(), &mut free);
        if free.iter().all(|l| frees.contains(l)) {
            subterms.push(t);
        }
    }
    for (i, a) in subterms.iter().enumerate() {
        for b in &subterms[i + 1..] {
            let disjoint = a.span.end <= b.span.start || b.span.end <= a.span.start;
            let (ta, tb) = (source::slice(text, a.span).trim(), source::slice(text, b.span).trim());
            if !disjoint || a.ty != b.ty || ta == tb || commutative.contains(&(a.span, b.span)) {
                continue;
            }
            out.push(Edit {
                operator: Operator::Swap,
                words: format!("`{ta}` ⇄ `{tb}`"),
                changes: vec![(a.span, format!("({tb})")), (b.span, format!("({ta})"))],
            });
        }
    }
    out
}

/// `t` and every subterm, outermost first (`Term::visit`, keeping the references).
fn subterms_of<'t>(t: &'t Term, out: &mut Vec<&'t Term>) {
    out.push(t);
    match &t.kind {
        TermKind::Local(_) | TermKind::Const(..) | TermKind::Ctor(..) | TermKind::Builtin(_) | TermKind::Num(_) => {}
        TermKind::App(a, b) | TermKind::Let(_, a, b) => {
            subterms_of(a, out);
            subterms_of(b, out);
        }
        TermKind::Lambda(_, b) => subterms_of(b, out),
        TermKind::If(c, a, b) => {
            subterms_of(c, out);
            subterms_of(a, out);
            subterms_of(b, out);
        }
        TermKind::Case(s, arms) => {
            subterms_of(s, out);
            arms.iter().for_each(|(_, r)| subterms_of(r, out));
        }
        TermKind::Quant(_, _, bound, body) => {
            if let Some(Bound::In(a) | Bound::Less(a) | Bound::LessEq(a)) = bound {
                subterms_of(a, out);
            }
            subterms_of(body, out);
        }
        TermKind::SetCompr(_, dom, body) => {
            if let Some(d) = dom {
                subterms_of(d, out);
            }
            subterms_of(body, out);
        }
    }
}

fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_alphabetic())
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '\'')
        && !OPERATORS.contains(&s)
        && !SPELLINGS.iter().any(|(spelling, _)| *spelling == s)
}

/// The operator `s` spells, if any.
fn operator(s: &str) -> Option<&'static str> {
    OPERATORS
        .iter()
        .find(|op| **op == s)
        .copied()
        .or_else(|| SPELLINGS.iter().find(|(sp, _)| *sp == s).map(|(_, op)| *op))
}

/// `a ⇒ b ⇒ c` as its two argument types and result.
fn binary(ty: &Type) -> Option<(&Type, &Type, &Type)> {
    let (a, rest) = ty.as_fun()?;
    let (b, c) = rest.as_fun()?;
    Some((a, b, c))
}

/// Brackets and parentheses match within `s`.
fn balanced(s: &str) -> bool {
    let mut depth: Vec<char> = Vec::new();
    for c in s.chars() {
        match c {
            '(' | '[' | '{' | '⟦' => depth.push(c),
            ')' | ']' | '}' | '⟧' => {
                let open = match c {
                    ')' => '(',
                    ']' => '[',
                    '}' => '{',
                    _ => '⟦',
                };
                if depth.pop() != Some(open) {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth.is_empty() && s.matches('"').count() == 0
}

/// Can `candidate` (over its own type variables) be instantiated to `occurrence` (over the
/// lemma's, held fixed)?
fn fits(candidate: &Type, occurrence: &Type) -> bool {
    let mut infer = Infer::new(Arc::new(HashSet::new()));
    let mut params = Vec::new();
    candidate.params(&mut params);
    let map: HashMap<Arc<str>, Type> = params.into_iter().map(|p| (p, infer.fresh(Vec::new()))).collect();
    infer.unify(&candidate.subst_params(&map), occurrence).is_ok()
}

/// The locals `t` uses that it does not bind itself.
fn free_locals(t: &Term, bound: &mut Vec<LocalId>, out: &mut HashSet<LocalId>) {
    match &t.kind {
        TermKind::Local(l) => {
            if !bound.contains(l) {
                out.insert(*l);
            }
        }
        TermKind::Const(..) | TermKind::Ctor(..) | TermKind::Builtin(_) | TermKind::Num(_) => {}
        TermKind::App(a, b) => {
            free_locals(a, bound, out);
            free_locals(b, bound, out);
        }
        TermKind::Lambda(l, body) => {
            bound.push(*l);
            free_locals(body, bound, out);
            bound.pop();
        }
        TermKind::Let(l, a, body) => {
            free_locals(a, bound, out);
            bound.push(*l);
            free_locals(body, bound, out);
            bound.pop();
        }
        TermKind::If(c, a, b) => {
            free_locals(c, bound, out);
            free_locals(a, bound, out);
            free_locals(b, bound, out);
        }
        TermKind::Case(s, arms) => {
            free_locals(s, bound, out);
            for (p, rhs) in arms {
                let before = bound.len();
                pattern_locals(p, bound);
                free_locals(rhs, bound, out);
                bound.truncate(before);
            }
        }
        TermKind::Quant(_, l, range, body) => {
            if let Some(Bound::In(a) | Bound::Less(a) | Bound::LessEq(a)) = range {
                free_locals(a, bound, out);
            }
            bound.push(*l);
            free_locals(body, bound, out);
            bound.pop();
        }
        TermKind::SetCompr(l, domain, body) => {
            if let Some(d) = domain {
                free_locals(d, bound, out);
            }
            bound.push(*l);
            free_locals(body, bound, out);
            bound.pop();
        }
    }
}

fn pattern_locals(p: &Pat, out: &mut Vec<LocalId>) {
    match &p.kind {
        PatKind::Var(l) => out.push(*l),
        PatKind::Ctor(_, _, subs) => subs.iter().for_each(|s| pattern_locals(s, out)),
        PatKind::Suc(s) => pattern_locals(s, out),
        PatKind::Wild | PatKind::Num(_) | PatKind::Bool(_) => {}
    }
}

/// FNV-1a, 64 bits, over the parts with a zero byte after each: fixed across machines,
/// Rust versions and runs (unlike `std`'s hasher).
pub fn fnv(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for b in part.iter().chain([&0u8]) {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// SplitMix64: a small generator with a fixed output for a seed.
struct SplitMix(u64);

impl SplitMix {
    fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// `0..n` in an order drawn from the stream (Fisher–Yates).
    fn permutation(&mut self, n: usize) -> Vec<usize> {
        let mut v: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
        v
    }
}
