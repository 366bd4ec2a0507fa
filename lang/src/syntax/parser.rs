//! The parser driver.
//!
//! 1. The outer lexer turns the file into tokens (comments dropped).
//! 2. The token stream is cut into command chunks at command keywords, so an error never
//!    spreads beyond its command: "errors recover at the next command".
//! 3. Each chunk is classified by its keyword: proof steps, text blocks and unsupported
//!    commands are recorded without parsing; the rest go to the outer LR grammar
//!    (`outer.lalrpop`), whose actions parse the inner syntax of strings and cartouches with
//!    the inner grammar (`inner.lalrpop`).
//!
//! A chunk that fails gives one diagnostic and is dropped, as are the `quickcheck` commands
//! that belong to a dropped lemma.

use lalrpop_util::ParseError;

use super::ast::{Command, CommandKind, Ident, QcOption, Term, Theory, Type};
use super::construct::{self, MAX_DEPTH};
use super::errors::{self, Grammar};
use super::inner::{SortParser, TermParser, TypeParser};
use super::inner_lexer::InnerLexer;
use super::lexer::{self, Kind, Token};
use super::notation::{Mixfix, Notations, Table};
use super::outer::{CommandParser, DeclareOptsParser, HeaderParser, NotationParser, RecordParser, TypesParser};
use crate::diagnostic::Diagnostic;
use crate::span::Span;
use std::collections::HashMap;
use std::rc::Rc;

/// The result of parsing a theory file: always a tree, plus what went wrong.
#[derive(Clone, Debug)]
pub struct Parsed {
    pub theory: Theory,
    pub diagnostics: Vec<Diagnostic>,
    /// The user notations in force at the end of the theory, for theories importing it.
    pub notations: Rc<Table>,
}

/// Parses a whole theory file.
pub fn parse_theory(text: &str) -> Parsed {
    Driver::new(text, Rc::default()).run()
}

/// Parses a whole theory file with the notations of its imports in force from the start.
pub fn parse_theory_with(text: &str, notations: Rc<Table>) -> Parsed {
    Driver::new(text, notations).run()
}

/// Parses inner-syntax term text that starts at byte `base` of the file.
pub fn parse_term(text: &str, base: u32) -> Result<Term, Diagnostic> {
    inner_term(Src { text, base: base as usize, close: None }, &Rc::default())
}

/// Parses inner-syntax type text that starts at byte `base` of the file.
pub fn parse_type(text: &str, base: u32) -> Result<Type, Diagnostic> {
    inner_type(Src { text, base: base as usize, close: None })
}

// ---------------------------------------------------------------- inner syntax

/// A piece of inner syntax inside the file: a string's or cartouche's content, or a single
/// unquoted token. `close` is the closing delimiter, blamed for an unexpected end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Src<'a> {
    pub text: &'a str,
    pub base: usize,
    pub close: Option<Span>,
}

impl<'a> Src<'a> {
    pub fn bare(text: &'a str, base: usize) -> Src<'a> {
        Src { text, base, close: None }
    }

    /// The content as a name, e.g. a quoted option value or theory name.
    pub fn as_ident(&self) -> Ident {
        Ident { name: self.text.to_string(), span: Span::new(self.base, self.base + self.text.len()) }
    }

    fn end(&self) -> usize {
        self.base + self.text.len()
    }

    fn eof(&self, what: &str) -> Option<(Span, String)> {
        self.close.map(|c| (c, what.to_string()))
    }
}

/// Most tokens one term or type may have; together with the bracket-depth limit of the
/// inner lexer this bounds the depth of anything the parser holds, even on error paths.
const MAX_INNER_TOKENS: usize = 10_000;

fn inner_lexer(src: Src<'_>) -> InnerLexer<'_> {
    InnerLexer::new(src.text, src.base as u32).with_limits(MAX_DEPTH, MAX_INNER_TOKENS)
}

/// Parses a term with the user notations of `table`.
pub(crate) fn inner_term(src: Src<'_>, table: &Rc<Table>) -> Result<Term, Diagnostic> {
    let parsed = TermParser::new().parse(table, inner_lexer(src).with_notation(table.clone()));
    match parsed {
        Ok(t) => {
            let t = *t;
            // A term has fewer nodes on any path than twice its bytes (plus the odd section).
            if src.text.len() * 2 + 4 > MAX_DEPTH && construct::term_depth(&t) > MAX_DEPTH {
                let span = t.span;
                construct::dismantle(t);
                return Err(construct::too_deep(span));
            }
            Ok(t)
        }
        Err(e) => Err(errors::convert(e, src.text, src.base, src.end(), src.eof("the end of the term"), Grammar::Term)),
    }
}

pub(crate) fn inner_type(src: Src<'_>) -> Result<Type, Diagnostic> {
    match TypeParser::new().parse(&Table::default(), inner_lexer(src)) {
        Ok(t) => {
            let t = *t;
            if src.text.len() * 2 + 4 > MAX_DEPTH && construct::type_depth(&t) > MAX_DEPTH {
                let span = t.span;
                construct::dismantle_type(t);
                return Err(construct::too_deep(span));
            }
            Ok(t)
        }
        Err(e) => Err(errors::convert(e, src.text, src.base, src.end(), src.eof("the end of the type"), Grammar::Type)),
    }
}

pub(crate) fn inner_sort(src: Src<'_>) -> Result<Vec<Ident>, Diagnostic> {
    SortParser::new()
        .parse(&Table::default(), inner_lexer(src))
        .map_err(|e| errors::convert(e, src.text, src.base, src.end(), src.eof("the end of the sort"), Grammar::Type))
}

// ---------------------------------------------------------------- outer tokens

/// The tokens of the outer grammar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OTok<'a> {
    Ident(&'a str),
    TypeVar(&'a str),
    Num(&'a str),
    Str(Src<'a>),
    Cart(Src<'a>),
    Other(&'a str),
    ColCol,
    Colon,
    Eq,
    Bar,
    LParen,
    RParen,
    LBrack,
    RBrack,
    Comma,
    Imports,
    Begin,
    Where,
    And,
    Fixes,
    Assumes,
    Shows,
    For,
    /// `lemma "C" if "A" for x`: Isabelle's statement with premises after it.
    If,
    Infix,
    Infixl,
    Infixr,
    Binder,
    Theory,
    Datatype,
    TypeSynonym,
    Primrec,
    Fun,
    Function,
    Definition,
    Abbreviation,
    Inductive,
    Lemma,
    Theorem,
    Corollary,
    Proposition,
    Quickcheck,
    QuickcheckParams,
    Declare,
    Value,
    /// A command keyword the grammar does not parse (never inside a chunk but its first).
    Command(&'a str),
}

/// What a command keyword starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommandClass {
    /// `theory Name imports ... begin`.
    Header,
    /// A command of the subset, parsed by the outer grammar.
    Parsed,
    /// A proof step, skipped.
    Proof,
    /// A text block, ignored.
    Text,
    /// `end`.
    End,
    /// A command that queries Isabelle or calls a tool without changing the theory
    /// (`nitpick`, `thm`, `term`, ...): recorded as ignored.
    Ignored,
    /// A command that cannot change what a lemma means or how it is tested (`lemmas`,
    /// `notation`, `ML`, `declare foo [simp]`, ...): skipped, with one note per kind.
    Skipped,
    /// A command outside the subset.
    Unsupported,
}

/// Every command keyword hol knows, by class: the one table the parser, the lexer and the
/// README's support table read.
pub const COMMANDS: &[(CommandClass, &[&str])] = &[
    (CommandClass::Header, &["theory"]),
    (
        CommandClass::Parsed,
        &[
            "datatype",
            "type_synonym",
            "primrec",
            "fun",
            "function",
            "definition",
            "abbreviation",
            "inductive",
            "lemma",
            "theorem",
            "corollary",
            "proposition",
            "quickcheck",
            "quickcheck_params",
            "declare",
            "value",
            "record",
            "notation",
            "no_notation",
        ],
    ),
    // Isabelle's names before 2012 (`types`) and 2016 (`header`); commands only in the
    // first column (see `Driver::starts_command`), as modern theories may use them as names.
    (CommandClass::Parsed, &["types"]),
    (CommandClass::Text, &["header"]),
    (
        CommandClass::Text,
        &["text", "txt", "text_raw", "section", "subsection", "subsubsection", "paragraph", "subparagraph", "chapter"],
    ),
    (
        CommandClass::Proof,
        &[
            "oops",
            "sorry",
            "done",
            "by",
            "apply",
            "apply_end",
            "proof",
            "qed",
            "next",
            "have",
            "show",
            "hence",
            "thus",
            "fix",
            "assume",
            "presume",
            "from",
            "with",
            "then",
            "using",
            "unfolding",
            "case",
            "obtain",
            "note",
            "moreover",
            "ultimately",
            "also",
            "finally",
            "termination",
            "let",
            "define",
            "consider",
            "defer",
            "prefer",
            "back",
            "subgoal",
            "supply",
            "including",
            "guess",
            "write",
            "code_pred",
        ],
    ),
    // Facts, notation, ML, bundles and `datatype_compat` (an interface for old ML tools):
    // none changes a definition, so a lemma means the
    // same and is tested the same without them. (`syntax` and `notation` change how later
    // terms parse: a term that uses them fails to parse, with an error at the term.)
    (
        CommandClass::Skipped,
        &[
            "lemmas",
            "theorems",
            "named_theorems",
            "ML",
            "ML_file",
            "ML_val",
            "ML_command",
            "setup",
            "local_setup",
            "declaration",
            "method_setup",
            "attribute_setup",
            "simproc_setup",
            "method",
            "hide_const",
            "hide_type",
            "hide_fact",
            "hide_class",
            "type_notation",
            "no_type_notation",
            "syntax",
            "no_syntax",
            "translations",
            "no_translations",
            "parse_translation",
            "print_translation",
            "nonterminal",
            "inductive_cases",
            "inductive_simps",
            "fun_cases",
            "bundle",
            "unbundle",
            "datatype_compat",
        ],
    ),
    (CommandClass::End, &["end"]),
    (
        CommandClass::Ignored,
        &[
            "nitpick",
            "nitpick_params",
            "sledgehammer",
            "sledgehammer_params",
            "nunchaku",
            "try",
            "try0",
            "solve_direct",
            "find_unused_assms",
            "term",
            "thm",
            "typ",
            "prop",
            "find_theorems",
            "find_consts",
            "export_code",
            "code_thms",
            "code_deps",
            "smt_status",
            "unused_thms",
            "thy_deps",
            "class_deps",
            "locale_deps",
            "welcome",
            "help",
        ],
    ),
    (
        CommandClass::Unsupported,
        &[
            "locale",
            "class",
            "instantiation",
            "instance",
            "context",
            "ML_prf",
            "axiomatization",
            "consts",
            "typedecl",
            "typedef",
            "codatatype",
            "primcorec",
            "primcorecursive",
            "corec",
            "corecursive",
            "inductive_set",
            "coinductive",
            "coinductive_set",
            "partial_function",
            "nominal_datatype",
            "interpretation",
            "global_interpretation",
            "sublocale",
            "interpret",
            "subclass",
            "code_datatype",
            "code_printing",
            "lift_definition",
            "setup_lifting",
            "quotient_type",
            "quotient_definition",
            "overloading",
            "specification",
            "free_constructors",
            "notepad",
            "experiment",
            "schematic_goal",
            "adhoc_overloading",
            "no_adhoc_overloading",
            "recdef",
            "oracle",
            "quickcheck_generator",
            "include",
            "includes",
            "type_alias",
            "default_sort",
            "abbrev",
            "alias",
            "realizers",
            "extract",
            "instance_proof",
            "old_rep_datatype",
            "rep_datatype",
            "defs",
            "axioms",
            "constdefs",
            "values",
            "export_generated_files",
            "compile_generated_files",
            "external_file",
        ],
    ),
];

/// Commands whose next word is the name of the fact they state.
const NAMES_A_FACT: &[&str] = &["lemma", "theorem", "corollary", "proposition", "lemmas", "theorems"];

/// The class of a command keyword, `None` for any other word.
pub fn command_class(word: &str) -> Option<CommandClass> {
    static BY_WORD: std::sync::OnceLock<HashMap<&'static str, CommandClass>> = std::sync::OnceLock::new();
    let by_word = BY_WORD
        .get_or_init(|| COMMANDS.iter().flat_map(|(class, words)| words.iter().map(move |w| (*w, *class))).collect());
    match by_word.get(word) {
        Some(class) => Some(*class),
        // `print_theorems`, `print_cases`, ...: queries.
        None if word.starts_with("print_") => Some(CommandClass::Ignored),
        None => None,
    }
}

/// Command words of Isabelle before 2016 that later versions dropped, so that modern
/// theories may use them as names (`fun header`): they start a command only in the first
/// column, where old theories write them.
const LEGACY_COMMANDS: &[&str] = &["types", "header"];

/// The edit distance (Levenshtein, over characters) between two words.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// The known command a word in a command's place is probably a misspelling of: within one
/// edit for words under seven characters, two beyond, never for words under three.
fn similar_command(word: &str) -> Option<&'static str> {
    let n = word.chars().count();
    let limit = match n {
        0..=2 => return None,
        3..=6 => 1,
        _ => 2,
    };
    // In table order, so a command of the subset wins a tie (`lema`: `lemma`, not `lemmas`).
    COMMANDS
        .iter()
        .flat_map(|(_, words)| words.iter())
        .map(|c| (edit_distance(word, c), *c))
        .filter(|(d, _)| *d > 0 && *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Is this word a keyword of the outer syntax (a command or any other keyword)? Such a
/// word in the first column never starts an unknown command.
fn is_keyword(word: &str) -> bool {
    command_class(word).is_some()
        || !matches!(word_token(word), OTok::Ident(_))
        || matches!(
            word,
            "if" | "is"
                | "when"
                | "in"
                | "of"
                | "obtains"
                | "defines"
                | "notes"
                | "includes"
                | "constrains"
                | "monos"
                | "overloaded"
                | "open"
                | "structure"
                | "keywords"
                | "abbrevs"
                | "morphisms"
                | "unchecked"
                | "rep_eq"
                | "code"
                | "arbitrary"
                | "rule"
                | "then"
                | "else"
                | "let"
                | "case"
        )
}

/// The grammar token for a word that is not a command keyword.
fn word_token(word: &str) -> OTok<'_> {
    match word {
        "imports" => OTok::Imports,
        "begin" => OTok::Begin,
        "where" => OTok::Where,
        "and" => OTok::And,
        "fixes" => OTok::Fixes,
        "assumes" => OTok::Assumes,
        "shows" => OTok::Shows,
        "for" => OTok::For,
        "if" => OTok::If,
        "infix" => OTok::Infix,
        "infixl" => OTok::Infixl,
        "infixr" => OTok::Infixr,
        "binder" => OTok::Binder,
        "theory" => OTok::Theory,
        "datatype" => OTok::Datatype,
        "type_synonym" => OTok::TypeSynonym,
        "primrec" => OTok::Primrec,
        "fun" => OTok::Fun,
        "function" => OTok::Function,
        "definition" => OTok::Definition,
        "abbreviation" => OTok::Abbreviation,
        "inductive" => OTok::Inductive,
        "lemma" => OTok::Lemma,
        "theorem" => OTok::Theorem,
        "corollary" => OTok::Corollary,
        "proposition" => OTok::Proposition,
        "quickcheck" => OTok::Quickcheck,
        "quickcheck_params" => OTok::QuickcheckParams,
        "declare" => OTok::Declare,
        "value" => OTok::Value,
        // Legacy command words are names inside a command (see `LEGACY_COMMANDS`).
        w if LEGACY_COMMANDS.contains(&w) => OTok::Ident(w),
        w if command_class(w).is_some() => OTok::Command(w),
        w => OTok::Ident(w),
    }
}

fn otok<'a>(text: &'a str, t: &Token) -> OTok<'a> {
    let slice = &text[t.span.range()];
    match t.kind {
        Kind::Ident => word_token(slice),
        Kind::TypeVar => OTok::TypeVar(slice),
        Kind::Num => OTok::Num(slice),
        Kind::Str | Kind::Cartouche | Kind::Verbatim => {
            let c = t.content(text);
            let src = Src {
                text: &text[c.range()],
                base: c.start as usize,
                close: Some(Span { start: c.end, end: t.span.end }),
            };
            if t.kind == Kind::Str {
                OTok::Str(src)
            } else {
                OTok::Cart(src)
            }
        }
        Kind::ColCol => OTok::ColCol,
        Kind::Colon => OTok::Colon,
        Kind::Eq => OTok::Eq,
        Kind::Bar => OTok::Bar,
        Kind::LParen => OTok::LParen,
        Kind::RParen => OTok::RParen,
        Kind::LBrack => OTok::LBrack,
        Kind::RBrack => OTok::RBrack,
        Kind::Comma => OTok::Comma,
        Kind::Other | Kind::Error => OTok::Other(slice),
    }
}

/// The tokens of one chunk as the outer grammar reads them.
struct ChunkIter<'a, 't> {
    text: &'a str,
    tokens: std::slice::Iter<'t, Token>,
    /// The token before was `lemma` (or another command that names a fact next).
    after_fact_command: bool,
    /// The token before opened or continued a list (`[`, `,`): a command word there is an
    /// option's or attribute's name (`quickcheck[locale = expand]`).
    in_list: bool,
}

impl<'a> Iterator for ChunkIter<'a, '_> {
    type Item = Result<(usize, OTok<'a>, usize), Box<Diagnostic>>;

    fn next(&mut self) -> Option<Self::Item> {
        let t = self.tokens.next()?;
        let word = &self.text[t.span.range()];
        // `lemma defs: ...`, `theorem value: ...`: the fact's name, though it is also a
        // keyword; the statement's own keywords (`lemma shows ...`) stay keywords.
        let is_name = self.after_fact_command
            && t.kind == Kind::Ident
            && !matches!(word, "shows" | "assumes" | "fixes" | "obtains" | "defines" | "notes" | "includes");
        let tok = match otok(self.text, t) {
            _ if is_name => OTok::Ident(word),
            OTok::Command(_) if self.in_list => OTok::Ident(word),
            tok => tok,
        };
        self.after_fact_command = t.kind == Kind::Ident && NAMES_A_FACT.contains(&word);
        self.in_list = matches!(t.kind, Kind::LBrack | Kind::Comma);
        Some(Ok((t.span.start as usize, tok, t.span.end as usize)))
    }
}

// ---------------------------------------------------------------- the driver

/// A legacy spelling the driver reports once per file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Legacy {
    /// Found by the outer lexer: `--` comments and `{* *}` text.
    Outer(lexer::Legacy),
    /// The command `header`.
    Header,
    /// The command `types`.
    Types,
    /// `op =` in a term.
    Op,
}

/// The warning for the first use of a legacy spelling, worded as Isabelle's own
/// "legacy feature" warnings: what it is, and what Isabelle writes today.
fn legacy_warning(what: Legacy, span: Span) -> Diagnostic {
    let (msg, label) = match what {
        Legacy::Outer(lexer::Legacy::DashComment) => (
            "legacy syntax: `--` comment (Isabelle since 2017 writes `\\<comment> ‹...›`)",
            "read as a marginal comment",
        ),
        Legacy::Outer(lexer::Legacy::Verbatim) => (
            "legacy syntax: verbatim text `{* ... *}` (Isabelle since 2017 writes a cartouche `‹...›`)",
            "read as a cartouche",
        ),
        Legacy::Header => ("legacy syntax: `header` (Isabelle since 2015 writes `section`)", "read as `section`"),
        Legacy::Types => {
            ("legacy syntax: `types` (Isabelle since 2011 writes `type_synonym`)", "read as `type_synonym`")
        }
        Legacy::Op => (
            "legacy syntax: `op` before an operator (Isabelle since 2018 writes `(=)`, `(+)`, ...)",
            "read as the operator in parentheses",
        ),
    };
    Diagnostic::warning(span, msg)
        .with_label(label)
        .with_note("accepted as older Isabelle versions read it; later uses in this file are not reported again")
}

struct Driver<'a> {
    text: &'a str,
    tokens: Vec<Token>,
    diagnostics: Vec<Diagnostic>,
    hit_eof: bool,
    name: Option<Ident>,
    imports: Vec<Ident>,
    header_span: Option<Span>,
    commands: Vec<Command>,
    /// `end` seen (the span of the `end` keyword).
    ended: Option<Span>,
    /// Open `context ... begin` (and the like) blocks, closed by `end`: each with the locale
    /// whose context it is (`context name begin`, `locale name ... begin`; an anonymous
    /// block keeps the one around it).
    blocks: Vec<Option<Ident>>,
    /// The last command failed to parse (or was an unknown command): the `quickcheck`
    /// commands after it are dropped too, rather than attached to an earlier lemma.
    lemma_failed: bool,
    /// Skipped commands by keyword: the first one's span and how many there were.
    skipped: Vec<(&'a str, Span, usize)>,
    /// Where each legacy spelling is first used (one warning per file and spelling).
    legacy: Vec<(Legacy, Span)>,
    /// The user notations in force.
    notations: Notations,
    /// `notation` commands inside each `bundle name begin ... end`, in force only after an
    /// `unbundle name`; and the bundle being read, with the block depth it opened.
    bundles: HashMap<String, Vec<NotationCmd>>,
    in_bundle: Option<(String, usize)>,
}

/// A `notation` (`declare` true) or `no_notation` command as read.
#[derive(Clone)]
struct NotationCmd {
    declare: bool,
    items: Vec<(Ident, Option<Mixfix>)>,
}

impl<'a> Driver<'a> {
    fn new(text: &'a str, notations: Rc<Table>) -> Self {
        let lexed = lexer::lex(text);
        Driver {
            text,
            tokens: lexed.tokens,
            diagnostics: lexed.diagnostics,
            hit_eof: lexed.hit_eof,
            name: None,
            imports: Vec::new(),
            header_span: None,
            commands: Vec::new(),
            ended: None,
            blocks: Vec::new(),
            lemma_failed: false,
            skipped: Vec::new(),
            legacy: lexed.legacy.into_iter().map(|(l, s)| (Legacy::Outer(l), s)).collect(),
            notations: Notations::new(notations),
            bundles: HashMap::new(),
            in_bundle: None,
        }
    }

    fn word(&self, t: &Token) -> &'a str {
        &self.text[t.span.range()]
    }

    /// The class of the command a token starts, if it starts one. A lone `.` or `..` is
    /// Isar's terminal proof.
    fn starts_command(&self, t: &Token, prev: Option<&Token>) -> Option<CommandClass> {
        match t.kind {
            Kind::Ident if LEGACY_COMMANDS.contains(&self.word(t)) && !self.at_line_start(t) => None,
            // A fact's name right after `lemma` is a name even when it is also a command
            // word (`lemma defs: ...`, `theorem value: ...`).
            Kind::Ident if prev.is_some_and(|p| p.kind == Kind::Ident && NAMES_A_FACT.contains(&self.word(p))) => None,
            // An option or attribute in a list (`quickcheck[locale = expand]`, `[simp, code]`)
            // is a name even when it is a command word, unless it starts a line.
            Kind::Ident
                if prev.is_some_and(|p| matches!(p.kind, Kind::LBrack | Kind::Comma)) && !self.at_line_start(t) =>
            {
                None
            }
            Kind::Ident => command_class(self.word(t)),
            Kind::Other if self.word(t) == "." => {
                let second_dot = prev.is_some_and(|p| p.span.end == t.span.start && self.word(p) == ".");
                (!second_dot).then_some(CommandClass::Proof)
            }
            _ => None,
        }
    }

    /// Does `t` start an unknown command? That is a word in the first column that is no
    /// keyword at all, after a token that may end the command `class` (`value "True"`
    /// then `frobnicate x y`). Continuation lines such as `where` or `| "..."`, and
    /// constructors after `=`, stay with their command; so does anything before the first
    /// string or cartouche of a command of the subset (`abbreviation (input)⏎foo where`).
    fn starts_unknown_command(&self, class: Option<CommandClass>, seen_inner: bool, t: &Token, prev: &Token) -> bool {
        if t.kind != Kind::Ident || !self.at_line_start(t) || is_keyword(self.word(t)) {
            return false;
        }
        // A misspelt command word (`lema`, lower case as every command is) starts a command
        // wherever it stands in the first column, so it is the error, not the command before.
        let word = self.word(t);
        if word.starts_with(|c: char| c.is_ascii_lowercase()) && similar_command(word).is_some() {
            return matches!(class, Some(CommandClass::Parsed | CommandClass::Text | CommandClass::Proof));
        }
        let ends_command =
            matches!(prev.kind, Kind::Str | Kind::Cartouche | Kind::Verbatim | Kind::RParen | Kind::RBrack);
        match class {
            Some(CommandClass::Parsed | CommandClass::Text) => ends_command && seen_inner,
            Some(CommandClass::Proof) => ends_command || matches!(prev.kind, Kind::Ident | Kind::Num | Kind::Other),
            _ => false,
        }
    }

    /// Is `t` the first thing on its line, in the first column?
    fn at_line_start(&self, t: &Token) -> bool {
        let start = t.span.start as usize;
        start == 0 || self.text.as_bytes()[start - 1] == b'\n'
    }

    fn run(mut self) -> Parsed {
        let tokens = std::mem::take(&mut self.tokens);
        let mut start = 0;
        let mut reported_after_end = false;
        while start < tokens.len() {
            let class = self.starts_command(&tokens[start], None);
            let mut depth = 0usize;
            let mut seen_inner = false;
            let mut end = start + 1;
            // The theory's name is a name even if it is also a command (`theory code_pred`).
            let is_name = |end: usize| class == Some(CommandClass::Header) && end == start + 1;
            while end < tokens.len()
                && (is_name(end) || self.starts_command(&tokens[end], tokens.get(end - 1)).is_none())
            {
                match tokens[end - 1].kind {
                    Kind::LParen | Kind::LBrack => depth += 1,
                    Kind::RParen | Kind::RBrack => depth = depth.saturating_sub(1),
                    _ => {}
                }
                seen_inner |= matches!(tokens[end - 1].kind, Kind::Str | Kind::Cartouche);
                if depth == 0 && self.starts_unknown_command(class, seen_inner, &tokens[end], &tokens[end - 1]) {
                    break;
                }
                end += 1;
            }
            let chunk = &tokens[start..end];
            let next = tokens.get(end);
            if self.ended.is_some() {
                if !reported_after_end {
                    reported_after_end = true;
                    let t = chunk[0];
                    self.diagnostics.push(
                        Diagnostic::error(
                            t.span,
                            format!("unexpected {} after the end of the theory", errors::quote_source(self.word(&t))),
                        )
                        .with_label("the theory has already ended")
                        .with_secondary(self.ended.unwrap_or_default(), "the theory ends here"),
                    );
                }
            } else {
                self.chunk(chunk, next);
                self.diagnostics.extend(self.notations.take_diagnostics());
            }
            start = end;
        }
        if tokens.is_empty() && self.diagnostics.is_empty() {
            self.diagnostics.push(
                Diagnostic::error(Span::new(0, 0), "expected `theory`, found the end of the file")
                    .with_label("expected `theory Name imports Main begin ... end`"),
            );
        } else if self.ended.is_none() && !self.hit_eof {
            let at = self.text.len();
            self.diagnostics.push(
                Diagnostic::error(Span::new(at, at), "expected `end` at the end of the theory")
                    .with_label("expected `end`"),
            );
        }
        let mut late: Vec<Diagnostic> = self.skipped_notes().collect();
        late.extend(self.legacy.iter().map(|(what, span)| legacy_warning(*what, *span)));
        self.diagnostics.append(&mut late);
        self.diagnostics.sort_by_key(|d| d.primary.span.start);
        let end = self.ended.map_or(self.text.len(), |s| s.end as usize);
        let start = self.header_span.map_or(0, |s| s.start as usize);
        let name = self.name.unwrap_or(Ident { name: String::new(), span: Span::new(start, start) });
        Parsed {
            theory: Theory {
                name,
                imports: self.imports,
                commands: self.commands,
                span: Span::new(start, end.max(start)),
            },
            diagnostics: self.diagnostics,
            notations: self.notations.current(),
        }
    }

    fn note_legacy(&mut self, what: Legacy, span: Span) {
        if !self.legacy.iter().any(|(l, _)| *l == what) {
            self.legacy.push((what, span));
        }
    }

    fn note_skipped(&mut self, word: &'a str, span: Span) {
        match self.skipped.iter_mut().find(|(w, _, _)| *w == word) {
            Some(entry) => entry.2 += 1,
            None => self.skipped.push((word, span, 1)),
        }
    }

    /// Notes the first `op` before an operator in the strings and cartouches of a parsed
    /// command (the inner grammar read it as the operator in parentheses).
    fn find_legacy_op(&mut self, chunk: &[Token]) {
        if self.legacy.iter().any(|(l, _)| *l == Legacy::Op) {
            return;
        }
        for t in chunk.iter().filter(|t| matches!(t.kind, Kind::Str | Kind::Cartouche | Kind::Verbatim)) {
            let c = t.content(self.text);
            if let Some(span) = super::inner_lexer::first_legacy_op(&self.text[c.range()], c.start) {
                self.note_legacy(Legacy::Op, span);
                return;
            }
        }
    }

    /// `datatype ... where "left Leaf = Leaf"` gives selectors values on the constructors
    /// without that field; hol does not use them, and says so.
    fn warn_selector_defaults(&mut self, chunk: &[Token]) {
        if let Some(w) = chunk.iter().find(|t| t.kind == Kind::Ident && self.word(t) == "where") {
            self.diagnostics.push(
                Diagnostic::warning(w.span, "default values of selectors are not supported")
                    .with_label("these equations are read and not used")
                    .with_note(
                        "a selector is undefined on the other constructors here: a lemma that depends on its \
                         default value is reported as potentially spurious, never as a counterexample",
                    ),
            );
        }
    }

    /// One note per kind of skipped command, at the first one, counting the others.
    fn skipped_notes(&self) -> impl Iterator<Item = Diagnostic> + '_ {
        self.skipped.iter().map(|(word, span, count)| {
            let mut d = Diagnostic::info(*span, format!("`{word}` is skipped"))
                .with_label("this command does not change what lemmas mean or how they are tested");
            if *count > 1 {
                let more = count - 1;
                let s = if more == 1 { "" } else { "s" };
                d = d.with_note(format!("{more} more `{word}` command{s} in this file skipped as well"));
            }
            if matches!(*word, "syntax" | "translations" | "type_notation") {
                d = d.with_note("terms that use the notation it introduces do not parse");
            }
            d
        })
    }

    fn span_of(chunk: &[Token]) -> Span {
        let first = chunk.first().map_or(Span::default(), |t| t.span);
        let last = chunk.last().map_or(first, |t| t.span);
        first.to(last)
    }

    fn push(&mut self, kind: CommandKind, chunk: &[Token]) {
        self.commands.push(Command { kind, span: Self::span_of(chunk) });
    }

    fn chunk(&mut self, chunk: &[Token], next: Option<&Token>) {
        let first = chunk[0];
        let word = self.word(&first);
        let broken = chunk.iter().any(|t| t.kind == Kind::Error);
        let class = self.starts_command(&first, None);
        let first_chunk = self.name.is_none() && self.header_span.is_none();
        if word == "header" && class == Some(CommandClass::Text) {
            self.note_legacy(Legacy::Header, first.span);
        }
        // Text (`section`, `text`, the legacy `header`) may stand before the header, as in
        // Isabelle: it documents the theory but belongs to no theory.
        if first_chunk && class == Some(CommandClass::Text) {
            self.push(CommandKind::Text, chunk);
            return;
        }
        if self.name.is_none() && self.header_span.is_none() && class != Some(CommandClass::Header) {
            // Only said once: the header is missing.
            self.header_span = Some(Span::new(first.span.start as usize, first.span.start as usize));
            self.diagnostics.push(
                Diagnostic::error(first.span, format!("expected `theory`, found {}", errors::quote_source(word)))
                    .with_label("expected `theory Name imports Main begin` here"),
            );
        }
        let Some(class) = class else {
            // Text before any command at the start of the file (reported above), or a word
            // in the first column that no command knows.
            if !first_chunk {
                // A `quickcheck` under a mistyped `lema` belongs to it, not to the lemma before.
                self.lemma_failed = true;
                let mut d = Diagnostic::error(first.span, format!("unknown command {}", errors::quote_source(word)))
                    .with_label("not a command hol knows")
                    .with_note("the text up to the next command is skipped");
                if let Some(c) = similar_command(word) {
                    d = d.with_help(format!("did you mean `{c}`?"));
                }
                self.diagnostics.push(d);
                self.push_unparsed(word, chunk);
            }
            return;
        };
        match class {
            CommandClass::Header => self.header(chunk, next, broken),
            CommandClass::Proof => self.push(CommandKind::Proof, chunk),
            CommandClass::Text => self.push(CommandKind::Text, chunk),
            CommandClass::Ignored => {
                let ident = Ident { name: word.to_string(), span: first.span };
                self.push(CommandKind::Ignored(ident), chunk);
            }
            CommandClass::Skipped => {
                // `bundle name begin ... end` opens a block its `end` closes.
                self.open_anonymous_block(chunk);
                if word == "bundle" && self.opens_block(chunk) {
                    let name = chunk.get(1).map_or("", |t| self.word(t)).to_string();
                    self.in_bundle = Some((name, self.blocks.len()));
                }
                if word == "unbundle" {
                    self.unbundle(chunk);
                }
                self.note_skipped(word, first.span);
                let ident = Ident { name: word.to_string(), span: first.span };
                self.push(CommandKind::Skipped(ident), chunk);
            }
            CommandClass::Unsupported
                if word == "context"
                    && let Some(name) = self.locale_context(chunk) =>
            {
                self.open_block(Some(name), chunk);
            }
            // `context begin`, `context includes syntax begin`: a block that fixes and assumes
            // nothing, in the context around it.
            CommandClass::Unsupported if word == "context" && self.plain_context(chunk) => {
                self.open_anonymous_block(chunk);
            }
            CommandClass::Unsupported if word == "locale" && chunk.get(1).is_some_and(|t| t.kind == Kind::Ident) => {
                let keyword = Ident { name: word.to_string(), span: first.span };
                let name = Ident { name: self.word(&chunk[1]).to_string(), span: chunk[1].span };
                self.push(CommandKind::Locale { keyword, name: name.clone() }, chunk);
                if self.opens_block(chunk) {
                    self.open_block(Some(name), chunk);
                }
            }
            CommandClass::Unsupported if let Some((consts, types)) = self.declared(word, chunk) => {
                let keyword = Ident { name: word.to_string(), span: first.span };
                self.push(CommandKind::Declares { keyword, consts, types }, chunk);
            }
            CommandClass::Unsupported if self.only_registers(word, chunk) => {
                self.note_skipped(word, first.span);
                let ident = Ident { name: word.to_string(), span: first.span };
                self.push(CommandKind::Skipped(ident), chunk);
            }
            CommandClass::Unsupported => {
                self.open_anonymous_block(chunk);
                let ident = Ident { name: word.to_string(), span: first.span };
                self.push(CommandKind::Unsupported(ident), chunk);
            }
            CommandClass::End => {
                if self.in_bundle.as_ref().is_some_and(|(_, depth)| *depth == self.blocks.len()) {
                    self.in_bundle = None;
                }
                if let Some(closed) = self.blocks.pop() {
                    let around = self.target();
                    if around != closed {
                        self.mark_target(around, first.span.start);
                    }
                    return;
                }
                self.ended = Some(first.span);
                if let Some(extra) = chunk.get(1) {
                    self.diagnostics.push(
                        Diagnostic::error(
                            extra.span,
                            format!("unexpected {} after `end`", errors::quote_source(self.word(extra))),
                        )
                        .with_label("expected nothing after the end of the theory"),
                    );
                }
            }
            CommandClass::Parsed => {
                // `lemma (in name)`: this command alone is in the locale's context.
                let target = self.in_target(chunk).filter(|t| Some(t) != self.target().as_ref());
                let span = Self::span_of(chunk);
                if target.is_some() {
                    self.mark_target(target.clone(), span.start);
                }
                self.command(word, chunk, next, broken);
                if target.is_some() {
                    self.mark_target(self.target(), span.end);
                }
            }
        }
    }

    /// The "found" part for a chunk that ended too early: the next command, or the end of
    /// the file.
    fn eof_found(&self, chunk: &[Token], next: Option<&Token>) -> (Span, String) {
        match next {
            Some(t) => (t.span, errors::quote_source(self.word(t))),
            None => {
                let end = chunk.last().map_or(0, |t| t.span.end as usize);
                (Span::new(end, end), "the end of the file".to_string())
            }
        }
    }

    fn parse_outer<T>(
        &self,
        chunk: &[Token],
        next: Option<&Token>,
        f: impl FnOnce(ChunkIter<'a, '_>) -> Result<T, ParseError<usize, OTok<'a>, Box<Diagnostic>>>,
    ) -> Result<T, Diagnostic> {
        f(ChunkIter { text: self.text, tokens: chunk.iter(), after_fact_command: false, in_list: false }).map_err(|e| {
            let end = chunk.last().map_or(0, |t| t.span.end as usize);
            errors::convert(e, self.text, 0, end, Some(self.eof_found(chunk, next)), Grammar::Outer)
        })
    }

    fn header(&mut self, chunk: &[Token], next: Option<&Token>, broken: bool) {
        if self.name.is_some() {
            self.diagnostics.push(
                Diagnostic::error(chunk[0].span, "unexpected second `theory` header")
                    .with_label("expected one `theory` header per file"),
            );
            return;
        }
        self.header_span = Some(chunk[0].span);
        if broken {
            return;
        }
        // `keywords "cmd" :: thy_decl and ...` and `abbrevs "x" = "y"` declare outer syntax
        // for ML-defined commands, which hol does not run: dropped up to `begin`.
        let declares = |t: &Token| t.kind == Kind::Ident && matches!(self.word(t), "keywords" | "abbrevs");
        let mut kept: Vec<Token> = Vec::with_capacity(chunk.len());
        let mut dropping = false;
        for (i, t) in chunk.iter().enumerate() {
            if i > 1 && declares(t) {
                dropping = true;
            } else if t.kind == Kind::Ident && self.word(t) == "begin" {
                dropping = false;
            }
            if !dropping {
                kept.push(*t);
            }
        }
        let chunk = &kept[..];
        match self.parse_outer(chunk, next, |toks| HeaderParser::new().parse(&self.notations, toks)) {
            Ok((name, imports)) => {
                self.name = Some(name);
                self.imports = imports;
            }
            Err(d) => self.diagnostics.push(d),
        }
    }

    fn command(&mut self, word: &str, chunk: &[Token], next: Option<&Token>, broken: bool) {
        let is_qc = word == "quickcheck";
        if is_qc && self.lemma_failed {
            return;
        }
        if !is_qc {
            self.lemma_failed = false;
        }
        // After a command that failed to parse, a `quickcheck` has nothing to test: it must
        // not reach back to an earlier lemma.
        // A `quickcheck` that failed to parse leaves the lemma's later ones in place.
        if broken {
            self.lemma_failed |= !is_qc;
            self.push_unparsed(word, chunk);
            return;
        }
        // Commands that stand for several.
        let several = match word {
            "types" => {
                self.note_legacy(Legacy::Types, chunk[0].span);
                Some(self.parse_outer(chunk, next, |toks| TypesParser::new().parse(&self.notations, toks)))
            }
            "record" => Some(self.parse_outer(chunk, next, |toks| RecordParser::new().parse(&self.notations, toks))),
            _ => None,
        };
        if let Some(parsed) = several {
            match parsed {
                Ok(decls) => {
                    for kind in decls {
                        self.push(kind, chunk);
                    }
                }
                Err(d) => {
                    self.lemma_failed = true;
                    let d = self.reword(word, chunk, next, d);
                    self.diagnostics.push(d);
                    self.push_unparsed(word, chunk);
                }
            }
            return;
        }
        if matches!(word, "notation" | "no_notation") {
            match self.parse_outer(&chunk[1..], next, |toks| NotationParser::new().parse(&self.notations, toks)) {
                Ok((mode, items)) => {
                    let declare = word == "notation";
                    let cmd = NotationCmd { declare, items };
                    let printing_only = mode.is_some_and(|m| m.name == "output");
                    match &self.in_bundle {
                        Some((bundle, _)) if !printing_only => {
                            self.bundles.entry(bundle.clone()).or_default().push(cmd)
                        }
                        Some(_) => {}
                        None if !printing_only => self.notation(&cmd),
                        None => {}
                    }
                    self.push(CommandKind::Skipped(Ident { name: word.into(), span: chunk[0].span }), chunk);
                }
                Err(d) => {
                    let d = self.reword(word, chunk, next, d);
                    self.diagnostics.push(d);
                    self.push_unparsed(word, chunk);
                }
            }
            return;
        }
        let result = if word == "declare" {
            self.declare(chunk, next)
        } else {
            self.parse_outer(chunk, next, |toks| CommandParser::new().parse(&self.notations, toks))
        };
        match result {
            Ok(kind) => {
                self.find_legacy_op(chunk);
                if word == "datatype" {
                    self.warn_selector_defaults(chunk);
                }
                // The prelude's datatypes stand for Isabelle's, whose functions have names of
                // their own (`set` and `map` of lists): Main.thy defines those it has.
                let in_prelude = self.name.as_ref().is_some_and(|n| n.name == "Main");
                let generated = match &*kind {
                    CommandKind::Datatype(decls) => super::generated::datatype_functions(decls, !in_prelude),
                    _ => Vec::new(),
                };
                let mut defined = Vec::new();
                self.push(*kind, chunk);
                for g in generated {
                    if let CommandKind::Fun { consts, .. } = &g {
                        defined.extend(consts.iter().map(|c| c.name.name.clone()));
                    }
                    self.push(g, chunk);
                }
                // `for map: tmap rel: trel`: functions named in the theory's own way, which
                // hol does not define; lemmas that use them are not tested.
                if word == "datatype" {
                    let mut named = self.datatype_for_names(chunk);
                    named.retain(|n| !defined.contains(&n.name));
                    if !named.is_empty() {
                        let keyword = Ident { name: word.to_string(), span: chunk[0].span };
                        self.push(CommandKind::Declares { keyword, consts: named, types: Vec::new() }, chunk);
                    }
                }
            }
            Err(d) => {
                self.lemma_failed |= !is_qc;
                let d = self.reword(word, chunk, next, d);
                self.diagnostics.push(d);
                self.push_unparsed(word, chunk);
            }
        }
    }

    /// The names a datatype's `for` clause gives its functions (`for map: tmap`).
    fn datatype_for_names(&self, chunk: &[Token]) -> Vec<Ident> {
        let Some(at) = chunk.iter().position(|t| t.kind == Kind::Ident && self.word(t) == "for") else {
            return Vec::new();
        };
        chunk[at..]
            .windows(3)
            .filter(|w| w[1].kind == Kind::Colon && w[2].kind == Kind::Ident)
            .map(|w| Ident { name: self.word(&w[2]).to_string(), span: w[2].span })
            .collect()
    }

    /// `notation c (mixfix) and ...`: each in force from here on; `no_notation` drops them.
    fn notation(&mut self, cmd: &NotationCmd) {
        for (name, m) in &cmd.items {
            match (cmd.declare, m) {
                (true, Some(m)) => self.notations.declare(&name.name, m),
                (true, None) => {}
                (false, m) => self.notations.undeclare(&name.name, m.as_ref()),
            }
        }
    }

    /// `unbundle a b`: the notations of those bundles come in force.
    fn unbundle(&mut self, chunk: &[Token]) {
        for t in &chunk[1..] {
            if let Some(cmds) = self.bundles.get(self.word(t)).cloned() {
                for cmd in &cmds {
                    self.notation(cmd);
                }
            }
        }
    }

    /// The locale whose context the commands are in (the innermost block's).
    fn target(&self) -> Option<Ident> {
        self.blocks.last().cloned().flatten()
    }

    /// Tells the checker that the commands from offset `at` on are in the context of
    /// `target`. The mark spans nothing, so no command's span (`failed_at`) is its.
    fn mark_target(&mut self, target: Option<Ident>, at: u32) {
        let at = Span::new(at as usize, at as usize);
        self.commands.push(Command { kind: CommandKind::Target(target), span: at });
    }

    /// Does the command open a block (`... begin`)?
    fn opens_block(&self, chunk: &[Token]) -> bool {
        chunk.iter().any(|t| t.kind == Kind::Ident && self.word(t) == "begin")
    }

    /// Opens a block in the context of locale `name` (`None`: the theory's), saying so to
    /// the checker where the context changes.
    fn open_block(&mut self, name: Option<Ident>, chunk: &[Token]) {
        if name != self.target() {
            self.mark_target(name.clone(), Self::span_of(chunk).end);
        }
        self.blocks.push(name);
    }

    /// A command with `begin` (`bundle b begin`, `context begin`) opens a block in the
    /// context around it.
    fn open_anonymous_block(&mut self, chunk: &[Token]) {
        if self.opens_block(chunk) {
            self.blocks.push(self.target());
        }
    }

    /// `context name begin`: the locale named.
    fn locale_context(&self, chunk: &[Token]) -> Option<Ident> {
        match chunk {
            [_, name, begin] if name.kind == Kind::Ident && self.word(begin) == "begin" => {
                Some(Ident { name: self.word(name).to_string(), span: name.span })
            }
            _ => None,
        }
    }

    /// `context begin` or `context includes b1 b2 begin` (syntax bundles only).
    fn plain_context(&self, chunk: &[Token]) -> bool {
        let words: Vec<&str> = chunk.iter().map(|t| self.word(t)).collect();
        match words.as_slice() {
            [_, "begin"] => true,
            [_, "includes", bundles @ .., "begin"] => {
                !bundles.is_empty() && chunk[2..chunk.len() - 1].iter().all(|t| t.kind == Kind::Ident)
            }
            _ => false,
        }
    }

    /// The constants and types a declaration outside the subset declares, read off its
    /// tokens: `consts c :: "T"  d :: "U"` (each name before a `::`), `axiomatization c ::
    /// "T" and d where ...` (the names before `where`, each first or after `and`),
    /// `typedecl 'a t` (the name after the parameters), `typedef` (the type and its
    /// morphisms). `None` for other commands, and
    /// when the names cannot be told (then later names are unknowable, as for any
    /// unsupported command).
    fn declared(&self, word: &str, chunk: &[Token]) -> Option<(Vec<Ident>, Vec<Ident>)> {
        let ident = |t: &Token| Ident { name: self.word(t).to_string(), span: t.span };
        let is_word = |t: &Token, w: &str| t.kind == Kind::Ident && self.word(t) == w;
        // Tokens outside parentheses (mixfix annotations, type parameter lists).
        let mut depth = 0usize;
        let mut top: Vec<(usize, &Token)> = Vec::new();
        for (i, t) in chunk.iter().enumerate().skip(1) {
            match t.kind {
                Kind::LParen | Kind::LBrack => depth += 1,
                Kind::RParen | Kind::RBrack => depth = depth.saturating_sub(1),
                _ if depth == 0 => top.push((i, t)),
                _ => {}
            }
        }
        match word {
            "consts" => {
                let names: Vec<Ident> = top
                    .iter()
                    .filter(|(i, t)| t.kind == Kind::Ident && chunk.get(i + 1).is_some_and(|n| n.kind == Kind::ColCol))
                    .map(|(_, t)| ident(t))
                    .collect();
                (!names.is_empty()).then_some((names, Vec::new()))
            }
            "axiomatization" => {
                let mut names = Vec::new();
                let mut expect_name = true;
                for (_, t) in top.iter().take_while(|(_, t)| !is_word(t, "where")) {
                    match t.kind {
                        Kind::Ident if is_word(t, "and") => expect_name = true,
                        Kind::Ident if expect_name => {
                            names.push(ident(t));
                            expect_name = false;
                        }
                        _ => {}
                    }
                }
                Some((names, Vec::new()))
            }
            "typedecl" => {
                let name = top.iter().find(|(_, t)| t.kind == Kind::Ident)?;
                Some((Vec::new(), vec![ident(name.1)]))
            }
            // `typedef 'a t = "S" morphisms rep abs`: the type and its representation and
            // abstraction functions (`Rep_t`, `Abs_t` unless named).
            "typedef" => {
                let (_, name) = top.iter().find(|(_, t)| t.kind == Kind::Ident)?;
                let name = ident(name);
                let named = top.iter().position(|(_, t)| is_word(t, "morphisms")).map(|at| &top[at + 1..]);
                let consts = match named {
                    Some([(_, rep), (_, abs), ..]) if rep.kind == Kind::Ident && abs.kind == Kind::Ident => {
                        vec![ident(rep), ident(abs)]
                    }
                    Some(_) => return None,
                    None => ["Rep_", "Abs_"]
                        .iter()
                        .map(|p| Ident { name: format!("{p}{}", name.name), span: name.span })
                        .collect(),
                };
                Some((consts, vec![name]))
            }
            _ => None,
        }
    }

    /// `(in name)` after a command word (`lemma (in name) ...`): the locale named.
    fn in_target(&self, chunk: &[Token]) -> Option<Ident> {
        match chunk {
            [_, open, word, name, close, ..]
                if open.kind == Kind::LParen
                    && self.word(word) == "in"
                    && name.kind == Kind::Ident
                    && close.kind == Kind::RParen =>
            {
                Some(Ident { name: self.word(name).to_string(), span: name.span })
            }
            _ => None,
        }
    }

    /// An interpretation of a locale that defines nothing (`interpretation Truth .`,
    /// `sublocale total ⊆ order`) only registers facts about it, which change no lemma
    /// hol tests (lemmas in a locale's context are not tested): skipped. One that
    /// `defines` constants, or opens a context, is unsupported.
    fn only_registers(&self, word: &str, chunk: &[Token]) -> bool {
        matches!(word, "interpretation" | "global_interpretation" | "sublocale" | "interpret")
            && !chunk.iter().any(|t| t.kind == Kind::Ident && matches!(self.word(t), "defines" | "rewrites" | "begin"))
    }

    /// Keeps a command that did not parse as `CommandKind::Unparsed`, with the constants its
    /// first words name: `fun f :: "..." and g where ...` defines `f` and `g`; a definition
    /// whose name is inside its equation, a datatype (whose constructors cannot be told) or
    /// an unknown command defines what cannot be known.
    fn push_unparsed(&mut self, word: &str, chunk: &[Token]) {
        let keyword = Ident { name: word.to_string(), span: chunk[0].span };
        let defines = match word {
            "fun" | "primrec" | "function" | "definition" | "abbreviation" | "inductive" | "inductive_set" => {
                let mut names = Vec::new();
                let (mut depth, mut expect_name) = (0usize, true);
                for t in &chunk[1..] {
                    match t.kind {
                        Kind::LParen | Kind::LBrack => depth += 1,
                        Kind::RParen | Kind::RBrack => depth = depth.saturating_sub(1),
                        // A name quoted where it is a keyword (`fun "and"`).
                        Kind::Str if depth == 0 && expect_name => {
                            names.push(Ident {
                                name: self.text[t.content(self.text).range()].to_string(),
                                span: t.span,
                            });
                            expect_name = false;
                        }
                        Kind::Ident if depth == 0 => match self.word(t) {
                            "where" | "for" => break,
                            "and" => expect_name = true,
                            w if expect_name => {
                                names.push(Ident { name: w.to_string(), span: t.span });
                                expect_name = false;
                            }
                            _ => {}
                        },
                        _ if depth == 0 && !expect_name => {}
                        _ if depth == 0 => break,
                        _ => {}
                    }
                }
                (!names.is_empty()).then_some(names)
            }
            "datatype" | "type_synonym" | "types" | "record" | "typedef" | "consts" | "axiomatization" => None,
            _ if command_class(word).is_some() => Some(Vec::new()),
            _ => None,
        };
        self.push(CommandKind::Unparsed { keyword, defines }, chunk);
    }

    /// Says more precisely what is missing for a few common mistakes: a `|` with no
    /// equation after it, a `|` before the first equation, a lemma without a statement.
    fn reword(&self, word: &str, chunk: &[Token], next: Option<&Token>, d: Diagnostic) -> Diagnostic {
        let at = d.primary.span;
        let found = || errors::quote_source(&self.text[at.range()]);
        let at_end = next.is_some_and(|t| t.span == at) || (next.is_none() && at.start == at.end);
        let found_text = if next.is_none() && at.start == at.end { "the end of the file".to_string() } else { found() };
        let pos = chunk.iter().position(|t| t.span == at);
        let prev = match pos {
            Some(i) if i > 0 => chunk.get(i - 1),
            None if at_end => chunk.last(),
            _ => None,
        };
        let prev_word = prev.map(|t| self.word(t));
        if prev.is_some_and(|t| t.kind == Kind::Bar) {
            let bar = prev.map_or(at, |t| t.span);
            return Diagnostic::error(at, format!("expected another equation after `|`, found {found_text}"))
                .with_label("expected a quoted equation")
                .with_secondary(bar, "this `|` must be followed by an equation")
                .with_help("remove the `|` if there are no more equations");
        }
        let here = pos.map(|i| chunk[i]);
        // An indented misspelt command word ends up inside the command before it.
        if let Some(t) = here.filter(|t| t.kind == Kind::Ident) {
            let w = self.word(&t);
            if let Some(c) = similar_command(w).filter(|_| w.starts_with(|c: char| c.is_ascii_lowercase())) {
                return Diagnostic::error(at, format!("unknown command {}", errors::quote_source(w)))
                    .with_label("not a command hol knows")
                    .with_note(format!("read as part of the `{word}` before it, which is skipped with it"))
                    .with_help(format!("did you mean `{c}`?"));
            }
        }
        if here.is_some_and(|t| t.kind == Kind::Bar) && prev_word == Some("where") {
            return Diagnostic::error(at, "unexpected `|` before the first equation")
                .with_label("expected the first equation here")
                .with_help("`|` separates equations: the first one has none before it");
        }
        if word == "record" && at_end && prev_word == Some("=") {
            return Diagnostic::error(prev.map_or(at, |t| t.span), "a record needs at least one field")
                .with_label("expected `name :: type` after this");
        }
        let is_lemma = matches!(word, "lemma" | "theorem" | "corollary" | "proposition");
        if is_lemma && at_end {
            let has = |w: &str| chunk.iter().any(|t| t.kind == Kind::Ident && self.word(t) == w);
            let has_prop = chunk.iter().any(|t| matches!(t.kind, Kind::Str | Kind::Cartouche));
            if (has("assumes") || has("fixes")) && !has("shows") {
                return Diagnostic::error(at, format!("expected `shows` and the statement, found {found_text}"))
                    .with_label("expected `shows \"...\"`")
                    .with_note("after `fixes` or `assumes`, the statement is given with `shows`");
            }
            if !has_prop && !has("shows") {
                return Diagnostic::error(at, format!("expected the statement of the {word}, found {found_text}"))
                    .with_label("expected a quoted proposition")
                    .with_secondary(chunk[0].span, format!("this {word} has no statement"));
            }
        }
        d
    }

    /// `declare [[name = value, ...]]` gives its options; any other `declare` (`declare foo
    /// [simp]`) an empty list, and is noted as skipped.
    fn declare(&mut self, chunk: &[Token], next: Option<&Token>) -> Result<Box<CommandKind>, Diagnostic> {
        let is_config = chunk.len() >= 3 && chunk[1].kind == Kind::LBrack && chunk[2].kind == Kind::LBrack;
        if !is_config {
            self.note_skipped("declare", chunk[0].span);
            return Ok(Box::new(CommandKind::Declare(Vec::new())));
        }
        // Up to the first `]]`.
        let close = chunk.windows(2).position(|w| w[0].kind == Kind::RBrack && w[1].kind == Kind::RBrack);
        let upto = close.map_or(chunk.len(), |i| i + 2);
        let opts: Vec<QcOption> = self.parse_outer(&chunk[..upto], chunk.get(upto).or(next), |toks| {
            DeclareOptsParser::new().parse(&self.notations, toks)
        })?;
        Ok(Box::new(CommandKind::Declare(opts)))
    }
}
