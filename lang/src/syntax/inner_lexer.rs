//! The inner lexer: the tokens of terms and types inside quotes and cartouches.
//!
//! Every logical symbol has three spellings (Unicode, `\<name>`, ASCII) that lex to the
//! same token, so the grammar never sees the difference. Identifiers keep their text as
//! written; [`normalize_name`] turns `⇩`/`\<^isub>` into `\<^sub>` and Unicode Greek
//! letters into their `\<alpha>` spelling. Offsets are shifted by `base`, so every token
//! carries file-absolute byte positions.

use logos::{FilterResult, Logos};

use std::rc::Rc;

use super::notation::{canonical, Role, Table};
use crate::diagnostic::Diagnostic;
use crate::span::Span;

/// What can go wrong while lexing inner syntax.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InnerLexError {
    #[default]
    Unexpected,
    UnterminatedComment,
}

/// A token of inner syntax. Names follow the Unicode spelling of the symbol.
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq)]
#[logos(error = InnerLexError)]
#[logos(skip r"[ \t\r\n\f]+")]
#[logos(subpattern greek = r"\\<(alpha|beta|gamma|delta|epsilon|zeta|eta|theta|iota|kappa|mu|nu|xi|pi|rho|sigma|tau|upsilon|phi|chi|psi|omega|Gamma|Delta|Theta|Lambda|Xi|Pi|Sigma|Upsilon|Phi|Psi|Omega)>")]
#[logos(subpattern ugreek = r"[αβγδεζηθικμνξπρστυφχψωΓΔΘΛΞΠΣΥΦΨΩ]")]
#[logos(subpattern letter = r"([a-zA-Z]|(?&greek)|(?&ugreek))")]
#[logos(subpattern sub = r"(\\<\^sub>|\\<\^isub>|⇩)")]
#[logos(subpattern namechar = r"((?&letter)|[0-9_']|(?&sub))")]
pub enum Tok<'a> {
    #[regex(r"(?&letter)(?&namechar)*", |lex| lex.slice(), priority = 1)]
    // A qualified name `List.rev`: qualifiers are theory names, which start upper case (so
    // `λx.x` still reads as a binder).
    #[regex(r"([A-Z][A-Za-z0-9_']*\.)+(?&letter)(?&namechar)*", |lex| lex.slice(), priority = 1)]
    Ident(&'a str),
    #[regex(r"'(?&letter)(?&namechar)*", |lex| lex.slice())]
    TVar(&'a str),
    #[regex(r"[0-9]+", |lex| lex.slice())]
    Num(&'a str),
    #[token("_")]
    Underscore,

    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBrack,
    #[token("]")]
    RBrack,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token(",")]
    Comma,
    #[token(";")]
    Semi,
    #[token(".")]
    Dot,
    #[token("..")]
    DotDot,
    #[token("..<")]
    DotDotLt,
    /// `<..` and `<..<` of the intervals `{a<..b}`, `{a<..<b}`, `{a<..}`.
    #[token("<..")]
    LtDotDot,
    #[token("<..<")]
    LtDotDotLt,
    #[token("::")]
    #[token("∷")]
    #[token("\\<Colon>")]
    ColCol,
    #[token(":=")]
    ColEq,

    #[token("∀")]
    #[token("\\<forall>")]
    #[token("ALL")]
    All,
    /// `∑x∈A. t` and `∏x∈A. t` (`sum`, `prod` over a set; `sum_list` over a list with `←`).
    #[token("∑")]
    #[token("\\<Sum>")]
    #[token("SUM")]
    BigSum,
    #[token("∏")]
    #[token("\\<Prod>")]
    #[token("PROD")]
    BigProd,
    /// `⋃A` and `⋂A` (`Union A`, `Inter A`), and as binders `⋃x∈A. B`, `⋃i<n. B`, `⋃x. B`:
    /// the lexer tells the binder (`BigUnionBinder`) by the name and the token after it.
    #[token("⋃")]
    #[token("\\<Union>")]
    BigUnion,
    #[token("⋂")]
    #[token("\\<Inter>")]
    BigInter,
    BigUnionBinder,
    BigInterBinder,
    /// The meta-level `⋀x. P`: read as `∀x. P` (as `⟹` is read as `⟶` inside a term), but
    /// at the level of `⟹`, so its body extends over `⟹` as in Isabelle.
    #[token("⋀")]
    #[token("\\<And>")]
    #[token("!!")]
    MetaAll,
    #[token("∃")]
    #[token("\\<exists>")]
    #[token("EX")]
    #[token("?")]
    Ex,
    #[token("∃!")]
    #[token("\\<exists>!")]
    #[token("EX!")]
    #[token("?!")]
    Ex1,
    /// `∄x. P`: `¬ (∃x. P)`.
    #[token("∄")]
    #[token("\\<nexists>")]
    NotEx,
    /// `!`: the ASCII `∀` in front of a binder, `nth` between two terms.
    #[token("!")]
    Bang,
    #[token("λ")]
    #[token("\\<lambda>")]
    #[token("%")]
    Lam,
    #[token("¬")]
    #[token("\\<not>")]
    #[token("~")]
    Not,
    #[token("∧")]
    #[token("\\<and>")]
    #[token("&")]
    And,
    /// `∨` and `\<or>`; the ASCII `|` is [`Tok::Bar`], which also separates case arms.
    #[token("∨")]
    #[token("\\<or>")]
    Or,
    #[token("|")]
    Bar,
    #[token("⟶")]
    #[token("\\<longrightarrow>")]
    #[token("-->")]
    Imp,
    #[token("⟷")]
    #[token("\\<longleftrightarrow>")]
    #[token("<->")]
    #[token("<-->")]
    Iff,
    #[token("⟹")]
    #[token("\\<Longrightarrow>")]
    #[token("==>")]
    MetaImp,
    #[token("⟦")]
    #[token("\\<lbrakk>")]
    #[token("[|")]
    LBrakk,
    #[token("⟧")]
    #[token("\\<rbrakk>")]
    #[token("|]")]
    RBrakk,
    #[token("≡")]
    #[token("\\<equiv>")]
    #[token("==")]
    Defeq,
    #[token("=")]
    Eq,
    #[token("≠")]
    #[token("\\<noteq>")]
    #[token("~=")]
    Neq,
    #[token("<")]
    Lt,
    #[token("≤")]
    #[token("\\<le>")]
    #[token("<=")]
    Le,
    #[token(">")]
    Gt,
    #[token("≥")]
    #[token("\\<ge>")]
    #[token(">=")]
    Ge,
    #[token("∈")]
    #[token("\\<in>")]
    #[token(":")]
    In,
    #[token("∉")]
    #[token("\\<notin>")]
    #[token("~:")]
    NotIn,
    #[token("⊆")]
    #[token("\\<subseteq>")]
    SubsetEq,
    #[token("⊂")]
    #[token("\\<subset>")]
    Subset,
    #[token("∪")]
    #[token("\\<union>")]
    #[token("Un")]
    Union,
    #[token("∩")]
    #[token("\\<inter>")]
    #[token("Int")]
    Inter,
    /// `×` and `\<times>`: the product type (ASCII `*`, which is [`Tok::Star`]).
    #[token("×")]
    #[token("\\<times>")]
    Cross,
    #[token("*")]
    Star,
    #[token("⇒")]
    #[token("\\<Rightarrow>")]
    #[token("=>")]
    Arrow,
    #[token("∘")]
    #[token("\\<circ>")]
    #[token("o")]
    Comp,
    #[token("←")]
    #[token("\\<leftarrow>")]
    #[token("<-")]
    LArrow,
    #[token("#")]
    Hash,
    #[token("@")]
    At,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("^")]
    Caret,
    /// `f ^^ n`: the function `f` applied `n` times (`funpow n f`).
    #[token("^^")]
    CaretCaret,
    /// `n choose k`: the binomial coefficient; a keyword in Isabelle's Main, as here.
    #[token("choose")]
    Choose,
    /// `r⇧+`: `trancl r`. Isabelle's postfix notations are delimiters of their own, so
    /// `⇧+` (`\<^sup>+`, ASCII `^+`) is one token, as is each spelling below.
    #[token("⇧+")]
    #[token("\\<^sup>+")]
    #[token("^+")]
    Trancl,
    /// `r⇧*`: `rtrancl r`.
    #[token("⇧*")]
    #[token("\\<^sup>*")]
    #[token("^*")]
    Rtrancl,
    /// `r⇧=`: `reflcl r`.
    #[token("⇧=")]
    #[token("\\<^sup>=")]
    #[token("^=")]
    Reflcl,
    /// `r¯`: `converse r` (`\<inverse>`, ASCII `^-1`).
    #[token("¯")]
    #[token("\\<inverse>")]
    #[token("^-1")]
    Converse,
    /// `r⇧+⇧+`, `r⇧*⇧*`, `r⇧=⇧=`, `r¯¯`: the predicate forms (`tranclp`, `rtranclp`,
    /// `reflclp`, `conversep`), which hol does not have. They are lexed so that they are
    /// reported by name instead of misread as two postfix operators.
    #[token("⇧+⇧+")]
    #[token("\\<^sup>+\\<^sup>+")]
    #[token("^++")]
    Tranclp,
    #[token("⇧*⇧*")]
    #[token("\\<^sup>*\\<^sup>*")]
    #[token("^**")]
    Rtranclp,
    #[token("⇧=⇧=")]
    #[token("\\<^sup>=\\<^sup>=")]
    #[token("^==")]
    Reflclp,
    #[token("¯¯")]
    #[token("\\<inverse>\\<inverse>")]
    #[token("^--1")]
    Conversep,
    /// `r O s`: `relcomp r s`. Relation.thy makes `O` a delimiter, so (as in Isabelle with
    /// Main) `O` is never a name.
    #[token("O")]
    RelComp,
    /// `r OO s`: `relcompp`, which hol does not have (also a delimiter in Isabelle).
    #[token("OO")]
    RelCompp,
    /// `m1 ++ m2`: `map_add m1 m2`.
    #[token("++")]
    MapAdd,
    #[token("div")]
    Div,
    #[token("mod")]
    Mod,
    #[token("dvd")]
    Dvd,

    /// A delimiter of a user notation (`syntax::notation`), by how it stands among
    /// operands; logos never produces these, [`InnerLexer`] does from the table in force.
    DelimIn(&'a str),
    DelimOpen(&'a str),
    DelimOpenArg(&'a str),
    DelimClose(&'a str),
    DelimCloseArg(&'a str),
    DelimAtom(&'a str),

    /// `op` before an infix operator: Isabelle's syntax before 2018 for the operator as a
    /// function, `op +` for `(+)`. Anywhere else `op` is a name (see [`InnerLexer`]).
    #[token("op")]
    Op,
    /// `⟨` and `⟩`: HOL-Library.Tree's `⟨⟩` (`Leaf`) and `⟨l, x, r⟩` (`Node l x r`).
    #[token("⟨")]
    #[token("\\<langle>")]
    LAngle,
    #[token("⟩")]
    #[token("\\<rangle>")]
    RAngle,
    /// `¦x¦`, Isabelle's `abs x`: the lexer reads each bar as the opening or the closing one
    /// (`InnerLexer::abs_bar`), as the grammar cannot tell them apart by one token.
    #[token("¦")]
    #[token("\\<bar>")]
    AbsBar,
    AbsOpen,
    AbsClose,
    /// `⦇` and `⦈`: records, `⦇x = 1, y = 2⦈` and the update `r⦇x := 3⦈`.
    #[token("⦇")]
    #[token("\\<lparr>")]
    LRec,
    #[token("⦈")]
    #[token("\\<rparr>")]
    RRec,

    #[token("if")]
    If,
    #[token("then")]
    Then,
    #[token("else")]
    Else,
    #[token("let")]
    Let,
    #[token("in")]
    InKw,
    #[token("case")]
    Case,
    #[token("of")]
    Of,

    /// A nested comment `(* ... *)`, skipped.
    #[token("(*", comment)]
    Comment,
    /// The section `(*)` of times (longer than the comment opener, so it wins).
    #[token("(*)")]
    TimesSection,
    /// `` f ` A ``: the image of a set.
    #[token("`")]
    Backtick,
    /// Any other `\<name>` symbol: reported as unknown.
    #[regex(r"\\<\^?[A-Za-z0-9_]*>?", priority = 0)]
    Symbol,
    /// Any other character: reported as unexpected.
    #[regex(r".", priority = 0)]
    Unknown,
}

/// Skips a nested `(* ... *)` comment whose opener has just been read.
fn comment<'a>(lex: &mut logos::Lexer<'a, Tok<'a>>) -> FilterResult<(), InnerLexError> {
    match comment_end(lex.remainder().as_bytes()) {
        Some(n) => {
            lex.bump(n);
            FilterResult::Skip
        }
        None => {
            let n = lex.remainder().len();
            lex.bump(n);
            FilterResult::Error(InnerLexError::UnterminatedComment)
        }
    }
}

/// Given the bytes just after a `(*`, the number of bytes up to and including the
/// matching `*)`, or `None` if the comment is never closed. Comments nest.
pub(crate) fn comment_end(bytes: &[u8]) -> Option<usize> {
    let mut depth = 1usize;
    let mut i = 0;
    while i + 1 < bytes.len() {
        match (bytes[i], bytes[i + 1]) {
            (b'(', b'*') => {
                depth += 1;
                i += 2;
            }
            (b'*', b')') => {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => i += 1,
        }
    }
    None
}

/// An unexpected character as a message shows it: as written if it is visible, a
/// backquote by name (it cannot be quoted in backquotes), anything else by code point.
fn show_char(c: char) -> String {
    if c == '`' {
        "backquote `` ` ``".to_string()
    } else if c.is_control() || c.is_whitespace() {
        format!("character U+{:04X}", c as u32)
    } else {
        format!("character `{c}`")
    }
}

/// The inner lexer as the token stream lalrpop expects, with file-absolute offsets.
pub struct InnerLexer<'a> {
    lex: logos::Lexer<'a, Tok<'a>>,
    base: usize,
    failed: bool,
    /// `op` is a variable in this text (it stands somewhere not before an operator), so
    /// it is never the legacy operator prefix here.
    op_is_name: bool,
    /// Current and greatest allowed bracket nesting.
    depth: usize,
    max_depth: usize,
    /// Tokens read so far and the most allowed.
    count: usize,
    max_count: usize,
    /// Bars of `¦x¦` opened and not closed yet, and whether the last token ended an operand.
    abs_open: usize,
    after_operand: bool,
    /// The user notations in force, and where `case` arms and type constraints are open
    /// (see [`Context`]).
    notation: Option<Rc<Table>>,
    contexts: Vec<(usize, Context)>,
    /// The closing delimiters of the closed notations (`⟦_⟧`) open here, each with whether
    /// it was opened as an argument (`f ⟦x⟧`).
    open_delims: Vec<(String, bool)>,
}

/// What `⇒` means at a bracket depth when a user notation also uses it (Concrete
/// Semantics' big-step `(c, s) ⇒ t`): the type arrow inside a type constraint, the arrow
/// of a `case` arm after its pattern, and the user's delimiter everywhere else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Context {
    /// After `::`, up to a `.`, `,` or `;` or the closing bracket.
    Type,
    /// After `case`, before its `of`.
    CaseOf,
    /// In a `case` arm: its pattern (before the arm's `⇒`) or its body.
    Arm { pattern: bool },
}

impl<'a> InnerLexer<'a> {
    pub fn new(text: &'a str, base: u32) -> Self {
        InnerLexer {
            lex: Tok::lexer(text),
            base: base as usize,
            failed: false,
            op_is_name: op_is_name(text),
            depth: 0,
            max_depth: usize::MAX,
            count: 0,
            max_count: usize::MAX,
            abs_open: 0,
            after_operand: false,
            notation: None,
            contexts: Vec::new(),
            open_delims: Vec::new(),
        }
    }

    /// Reads the delimiters of these user notations.
    pub fn with_notation(mut self, table: Rc<Table>) -> Self {
        if !table.is_empty() {
            self.notation = Some(table);
        }
        self
    }

    /// Follows `case` arms and type constraints, for [`Context`].
    fn track_context(&mut self, tok: &Tok<'a>) {
        let d = self.depth;
        self.contexts.retain(|(at, _)| *at <= d);
        let top = self.contexts.last_mut().filter(|(at, _)| *at == d).map(|(_, c)| c);
        match (tok, top) {
            (Tok::Case, _) => self.contexts.push((d, Context::CaseOf)),
            (Tok::ColCol, _) => self.contexts.push((d, Context::Type)),
            (Tok::Of, Some(c @ Context::CaseOf)) => *c = Context::Arm { pattern: true },
            (Tok::Arrow, Some(c @ Context::Arm { pattern: true })) => *c = Context::Arm { pattern: false },
            (Tok::Bar, Some(c @ Context::Arm { pattern: false })) => *c = Context::Arm { pattern: true },
            (Tok::Dot | Tok::Comma | Tok::Semi, Some(Context::Type)) => {
                self.contexts.pop();
            }
            _ => {}
        }
    }

    /// Whether a binder follows (`⋃x∈A. B`, `⋃x y. B`): a name, then `∈`, `<`, `≤`, `.`,
    /// `::` or another name; otherwise `⋃` applies to the term after it (`⋃A`, `⋃ (f ` A)`).
    fn binder_follows(&self) -> bool {
        let mut ahead = self.lex.clone();
        matches!(ahead.next(), Some(Ok(Tok::Ident(_))))
            && matches!(ahead.next(), Some(Ok(Tok::In | Tok::Lt | Tok::Le | Tok::Dot | Tok::Ident(_) | Tok::ColCol)))
    }

    /// Whether a `⇒` here is hol's own (a type's or a `case` arm's) rather than a user's.
    fn arrow_is_builtin(&self) -> bool {
        matches!(
            self.contexts.last(),
            Some((at, Context::Type | Context::Arm { pattern: true })) if *at == self.depth
        )
    }

    /// A user delimiter at the start of the remaining text, if the table has one there at
    /// least as long as hol's own token there: its token, and the bytes of blank space
    /// before it and of its own. Follows the closed notations (`⟦_⟧`) it opens and closes.
    fn user_delimiter(&mut self) -> Option<(Tok<'a>, usize, usize)> {
        let table = self.notation.clone()?;
        let rest = self.lex.remainder();
        let blank = rest.len() - rest.trim_start().len();
        let at = &rest[blank..];
        let (len, roles) = table.match_delimiter(at)?;
        let mut probe = Tok::lexer(at);
        let own = probe.next();
        let own_len = probe.span().end;
        let user = match own {
            None | Some(Err(_)) | Some(Ok(Tok::Symbol | Tok::Unknown)) => true,
            // A user's delimiter takes over an operator of hol's it spells (`:` in
            // `_ ⊢ _ : _`; structural tokens never become delimiters), except `⇒` where
            // hol's own is meant.
            Some(Ok(t)) => len > own_len || (len == own_len && (t != Tok::Arrow || !self.arrow_is_builtin())),
        };
        if !user {
            return None;
        }
        let text = &at[..len];
        let has = |r: Role| roles.contains(&r);
        let canonical = canonical(text);
        // The closing delimiter of the innermost closed notation open here closes it; one
        // that also opens (`∥` of `∥_∥`) opens otherwise, as the bars of `¦x¦` do.
        let closes_open = self.open_delims.last().is_some_and(|(c, _)| *c == canonical);
        let closes = has(Role::Close) && (closes_open || !has(Role::Open));
        let role = if self.after_operand {
            if has(Role::Infix) {
                Role::Infix
            } else if closes {
                Role::Close
            } else if has(Role::Open) {
                Role::Open
            } else {
                *roles.first()?
            }
        } else if has(Role::Open) {
            Role::Open
        } else if has(Role::Atom) {
            Role::Atom
        } else {
            *roles.first()?
        };
        let tok = match role {
            Role::Infix => Tok::DelimIn(text),
            Role::Open => {
                // After an operand an opening delimiter starts an argument (`f ⟦x⟧`).
                let arg = self.after_operand;
                if let Some(closer) = table.closer(&canonical) {
                    self.open_delims.push((closer.to_string(), arg));
                }
                if arg {
                    Tok::DelimOpenArg(text)
                } else {
                    Tok::DelimOpen(text)
                }
            }
            Role::Close if closes_open => match self.open_delims.pop() {
                Some((_, true)) => Tok::DelimCloseArg(text),
                _ => Tok::DelimClose(text),
            },
            Role::Close => Tok::DelimClose(text),
            Role::Atom => Tok::DelimAtom(text),
        };
        Some((tok, blank, len))
    }

    /// A bar of `¦x¦`: the closing one when one is open and an operand ends before it,
    /// else an opening one (`¦a¦ + ¦b¦`, `f ¦x¦`; a bar opening right after an operand
    /// inside another, `¦f ¦x¦¦`, wants parentheses).
    fn abs_bar(&mut self) -> Tok<'a> {
        if self.abs_open > 0 && self.after_operand {
            self.abs_open -= 1;
            Tok::AbsClose
        } else {
            self.abs_open += 1;
            Tok::AbsOpen
        }
    }

    /// Stops with an error beyond `max_depth` nested brackets or `max_count` tokens.
    pub fn with_limits(mut self, max_depth: usize, max_count: usize) -> Self {
        self.max_depth = max_depth;
        self.max_count = max_count;
        self
    }

    fn limits(&mut self, tok: &Tok<'a>, span: Span) -> Option<Diagnostic> {
        self.count += 1;
        match tok {
            Tok::LParen | Tok::LBrack | Tok::LBrace | Tok::LBrakk | Tok::LAngle | Tok::LRec => self.depth += 1,
            Tok::RParen | Tok::RBrack | Tok::RBrace | Tok::RBrakk | Tok::RAngle | Tok::RRec => {
                self.depth = self.depth.saturating_sub(1)
            }
            _ => {}
        }
        if self.depth > self.max_depth {
            Some(
                Diagnostic::error(span, format!("term is nested too deeply (more than {} levels)", self.max_depth))
                    .with_label("nesting limit reached here"),
            )
        } else if self.count > self.max_count {
            Some(
                Diagnostic::error(span, format!("term is too long (more than {} tokens)", self.max_count))
                    .with_label("token limit reached here")
                    .with_help("split the term with definitions"),
            )
        } else {
            None
        }
    }
}

impl<'a> Iterator for InnerLexer<'a> {
    type Item = Result<(usize, Tok<'a>, usize), Box<Diagnostic>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        if let Some((tok, blank, len)) = self.user_delimiter() {
            let start = self.base + self.lex.span().end + blank;
            let span = Span::new(start, start + len);
            self.lex.bump(blank + len);
            if let Some(d) = self.limits(&tok, span) {
                self.failed = true;
                return Some(Err(Box::new(d)));
            }
            self.after_operand = matches!(tok, Tok::DelimClose(_) | Tok::DelimCloseArg(_) | Tok::DelimAtom(_));
            return Some(Ok((span.start as usize, tok, span.end as usize)));
        }
        let tok = self.lex.next()?;
        let r = self.lex.span();
        let span = Span::new(self.base + r.start, self.base + r.end);
        let slice = self.lex.slice();
        let err = match tok {
            Ok(Tok::Symbol) => Some(
                Diagnostic::error(span, format!("unknown symbol `{slice}`")).with_label("expected a term or type here"),
            ),
            Ok(Tok::Unknown) | Err(InnerLexError::Unexpected) => {
                let c = slice.chars().next().unwrap_or(' ');
                let rest = self.lex.remainder();
                if c == '\'' && rest.starts_with('\'') {
                    // Isabelle's string literal `''x''`: the whole literal, said as what it is.
                    let len = rest[1..].find("''").map_or(2, |end| end + 4);
                    Some(
                        Diagnostic::error(
                            Span::new(span.start as usize, span.start as usize + len),
                            "string literals (`''x''`) are not supported",
                        )
                        .with_label("Isabelle's string syntax")
                        .with_note("hol has no `char` or `string` types; a datatype of names (`datatype vname = X | Y`) can stand in"),
                    )
                } else {
                    let msg = if c == '"' {
                        "unexpected `\"` inside a quoted term".to_string()
                    } else {
                        format!("unexpected {}", show_char(c))
                    };
                    let len = c.len_utf8().max(1);
                    Some(
                        Diagnostic::error(Span::new(span.start as usize, span.start as usize + len), msg)
                            .with_label("expected a term or type here"),
                    )
                }
            }
            Err(InnerLexError::UnterminatedComment) => Some(
                Diagnostic::error(Span::new(span.start as usize, span.start as usize + 2), "unterminated comment")
                    .with_label("expected `*)` to close this comment"),
            ),
            Ok(ref t) => self.limits(t, span),
        };
        // `op` is the legacy operator prefix only before an operator; otherwise a name.
        let tok = match tok {
            Ok(Tok::Op)
                if self.op_is_name
                    || !self.lex.clone().next().is_some_and(|n| n.is_ok_and(|n| is_section_operator(&n))) =>
            {
                Ok(Tok::Ident(slice))
            }
            Ok(Tok::AbsBar) => Ok(self.abs_bar()),
            Ok(Tok::BigUnion) if self.binder_follows() => Ok(Tok::BigUnionBinder),
            Ok(Tok::BigInter) if self.binder_follows() => Ok(Tok::BigInterBinder),
            t => t,
        };
        if let Ok(t) = &tok {
            self.track_context(t);
            self.after_operand = matches!(
                t,
                Tok::Ident(_)
                    | Tok::Num(_)
                    | Tok::TVar(_)
                    | Tok::RParen
                    | Tok::RBrack
                    | Tok::RBrace
                    | Tok::RAngle
                    | Tok::RRec
                    | Tok::AbsClose
            );
        }
        match (err, tok) {
            (Some(d), _) => {
                self.failed = true;
                Some(Err(Box::new(d)))
            }
            (None, Ok(t)) => Some(Ok((span.start as usize, t, span.end as usize))),
            (None, Err(_)) => None,
        }
    }
}

/// Can this token follow the legacy `op` (and stand in an operator section `(+)`)?
fn is_section_operator(t: &Tok<'_>) -> bool {
    use Tok::*;
    matches!(
        t,
        Iff | Imp
            | Or
            | Bar
            | And
            | Eq
            | Neq
            | Lt
            | Le
            | Gt
            | Ge
            | In
            | NotIn
            | SubsetEq
            | Subset
            | Dvd
            | Comp
            | Hash
            | At
            | Plus
            | Minus
            | Union
            | Inter
            | Star
            | Div
            | Mod
            | Caret
            | CaretCaret
            | Choose
            | RelComp
            | RelCompp
            | MapAdd
            | Bang
            | Backtick
    )
}

/// Is `op` used as a variable in this text? Modern theories may name a variable `op`
/// (`BinOp op a b`, `op = Plus`): if one `op` stands before something other than an
/// operator, every `op` of the text is that variable, and `op = Plus` is an equation.
fn op_is_name(text: &str) -> bool {
    if !text.contains("op") {
        return false;
    }
    let mut lex = Tok::lexer(text);
    while let Some(t) = lex.next() {
        if t == Ok(Tok::Op) && !lex.clone().next().is_some_and(|n| n.is_ok_and(|n| is_section_operator(&n))) {
            return true;
        }
    }
    false
}

/// The span of the first legacy `op` before an operator in inner-syntax text starting at
/// byte `base` of the file, if any (the parser warns about it once per file).
pub fn first_legacy_op(text: &str, base: u32) -> Option<Span> {
    // Most terms have no `op` at all: a substring search rules them out without lexing.
    if !text.contains("op") {
        return None;
    }
    InnerLexer::new(text, base).map_while(Result::ok).find(|(_, t, _)| *t == Tok::Op).map(|(l, _, r)| Span::new(l, r))
}

/// Greek letters: Isabelle's symbol name and the Unicode character it stands for.
const GREEK: &[(&str, char)] = &[
    ("alpha", 'α'),
    ("beta", 'β'),
    ("gamma", 'γ'),
    ("delta", 'δ'),
    ("epsilon", 'ε'),
    ("zeta", 'ζ'),
    ("eta", 'η'),
    ("theta", 'θ'),
    ("iota", 'ι'),
    ("kappa", 'κ'),
    ("mu", 'μ'),
    ("nu", 'ν'),
    ("xi", 'ξ'),
    ("pi", 'π'),
    ("rho", 'ρ'),
    ("sigma", 'σ'),
    ("tau", 'τ'),
    ("upsilon", 'υ'),
    ("phi", 'φ'),
    ("chi", 'χ'),
    ("psi", 'ψ'),
    ("omega", 'ω'),
    ("Gamma", 'Γ'),
    ("Delta", 'Δ'),
    ("Theta", 'Θ'),
    ("Lambda", 'Λ'),
    ("Xi", 'Ξ'),
    ("Pi", 'Π'),
    ("Sigma", 'Σ'),
    ("Upsilon", 'Υ'),
    ("Phi", 'Φ'),
    ("Psi", 'Ψ'),
    ("Omega", 'Ω'),
];

/// The canonical spelling of a name: subscripts as `\<^sub>`, Greek letters as `\<alpha>`.
/// Names that need no change (the common case) are returned without rewriting.
pub fn normalize_name(raw: &str) -> String {
    if !raw.bytes().any(|b| b >= 0x80 || b == b'\\') {
        return raw.to_string();
    }
    let raw = raw.replace("\\<^isub>", "\\<^sub>");
    let mut out = String::with_capacity(raw.len() + 8);
    for c in raw.chars() {
        if c == '⇩' {
            out.push_str("\\<^sub>");
        } else if let Some((name, _)) = GREEK.iter().find(|(_, g)| *g == c) {
            out.push_str("\\<");
            out.push_str(name);
            out.push('>');
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok<'_>> {
        InnerLexer::new(s, 0).map(|r| r.map(|(_, t, _)| t).unwrap_or(Tok::Unknown)).collect()
    }

    #[test]
    fn qualified_names_are_one_name_but_binders_stay_binders() {
        assert_eq!(toks("List.rev xs"), vec![Tok::Ident("List.rev"), Tok::Ident("xs")]);
        assert_eq!(toks("Product_Type.Pair"), vec![Tok::Ident("Product_Type.Pair")]);
        assert_eq!(toks("x.x"), vec![Tok::Ident("x"), Tok::Dot, Tok::Ident("x")]);
    }

    #[test]
    fn three_spellings_lex_alike() {
        let groups: &[(&[&str], Tok<'static>)] = &[
            (&["∀", "\\<forall>", "ALL"], Tok::All),
            (&["∃", "\\<exists>", "EX", "?"], Tok::Ex),
            (&["∃!", "\\<exists>!", "EX!", "?!"], Tok::Ex1),
            (&["λ", "\\<lambda>", "%"], Tok::Lam),
            (&["¬", "\\<not>", "~"], Tok::Not),
            (&["∧", "\\<and>", "&"], Tok::And),
            (&["∨", "\\<or>"], Tok::Or),
            (&["⟶", "\\<longrightarrow>", "-->"], Tok::Imp),
            (&["⟷", "\\<longleftrightarrow>", "<->"], Tok::Iff),
            (&["⟹", "\\<Longrightarrow>", "==>"], Tok::MetaImp),
            (&["⟦", "\\<lbrakk>", "[|"], Tok::LBrakk),
            (&["⟧", "\\<rbrakk>", "|]"], Tok::RBrakk),
            (&["≠", "\\<noteq>", "~="], Tok::Neq),
            (&["≤", "\\<le>", "<="], Tok::Le),
            (&["≥", "\\<ge>", ">="], Tok::Ge),
            (&["∈", "\\<in>", ":"], Tok::In),
            (&["∉", "\\<notin>", "~:"], Tok::NotIn),
            (&["⊆", "\\<subseteq>"], Tok::SubsetEq),
            (&["⊂", "\\<subset>"], Tok::Subset),
            (&["∪", "\\<union>", "Un"], Tok::Union),
            (&["∩", "\\<inter>", "Int"], Tok::Inter),
            (&["×", "\\<times>"], Tok::Cross),
            (&["⇒", "\\<Rightarrow>", "=>"], Tok::Arrow),
            (&["∘", "\\<circ>", "o"], Tok::Comp),
            (&["←", "\\<leftarrow>", "<-"], Tok::LArrow),
            (&["≡", "\\<equiv>", "=="], Tok::Defeq),
            (&["⇧+", "\\<^sup>+", "^+"], Tok::Trancl),
            (&["⇧*", "\\<^sup>*", "^*"], Tok::Rtrancl),
            (&["⇧=", "\\<^sup>=", "^="], Tok::Reflcl),
            (&["¯", "\\<inverse>", "^-1"], Tok::Converse),
            (&["⇧+⇧+", "\\<^sup>+\\<^sup>+", "^++"], Tok::Tranclp),
            (&["⇧*⇧*", "\\<^sup>*\\<^sup>*", "^**"], Tok::Rtranclp),
            (&["⇧=⇧=", "\\<^sup>=\\<^sup>=", "^=="], Tok::Reflclp),
            (&["¯¯", "\\<inverse>\\<inverse>", "^--1"], Tok::Conversep),
        ];
        for (spellings, tok) in groups {
            for s in *spellings {
                assert_eq!(toks(s), vec![*tok], "spelling {s}");
            }
        }
    }

    #[test]
    fn postfix_and_relation_operators_are_delimiters() {
        // `^` alone is still power; `O` and `OO` are delimiters, names merely starting
        // with `O` are names; `⇧` is no letter, so `r⇧*` is a name and an operator.
        assert_eq!(toks("x ^ n"), vec![Tok::Ident("x"), Tok::Caret, Tok::Ident("n")]);
        assert_eq!(toks("r⇧*"), vec![Tok::Ident("r"), Tok::Rtrancl]);
        assert_eq!(toks("r\\<^sup>* O s"), vec![Tok::Ident("r"), Tok::Rtrancl, Tok::RelComp, Tok::Ident("s")]);
        assert_eq!(toks("Ok OO Oa"), vec![Tok::Ident("Ok"), Tok::RelCompp, Tok::Ident("Oa")]);
        assert_eq!(toks("m ++ n + k"), vec![Tok::Ident("m"), Tok::MapAdd, Tok::Ident("n"), Tok::Plus, Tok::Ident("k")]);
    }

    #[test]
    fn names_and_subscripts() {
        assert_eq!(
            toks("x\\<^sub>1 s⇩2 n' xs_1"),
            vec![Tok::Ident("x\\<^sub>1"), Tok::Ident("s⇩2"), Tok::Ident("n'"), Tok::Ident("xs_1")]
        );
        assert_eq!(normalize_name("s⇩2"), "s\\<^sub>2");
        assert_eq!(normalize_name("α⇩1"), "\\<alpha>\\<^sub>1");
        assert_eq!(normalize_name("x\\<^isub>1"), "x\\<^sub>1");
        assert_eq!(
            toks("\\<alpha> 'a 'b::ord"),
            vec![Tok::Ident("\\<alpha>"), Tok::TVar("'a"), Tok::TVar("'b"), Tok::ColCol, Tok::Ident("ord")]
        );
        // λ is a binder, never a letter.
        assert_eq!(toks("λx"), vec![Tok::Lam, Tok::Ident("x")]);
    }

    #[test]
    fn longest_match() {
        assert_eq!(
            toks("[0..<n] [m..n] x:=y ==> => == = |] [| x.y"),
            vec![
                Tok::LBrack,
                Tok::Num("0"),
                Tok::DotDotLt,
                Tok::Ident("n"),
                Tok::RBrack,
                Tok::LBrack,
                Tok::Ident("m"),
                Tok::DotDot,
                Tok::Ident("n"),
                Tok::RBrack,
                Tok::Ident("x"),
                Tok::ColEq,
                Tok::Ident("y"),
                Tok::MetaImp,
                Tok::Arrow,
                Tok::Defeq,
                Tok::Eq,
                Tok::RBrakk,
                Tok::LBrakk,
                Tok::Ident("x"),
                Tok::Dot,
                Tok::Ident("y"),
            ]
        );
        assert_eq!(
            toks("ALLx EX! xs!i of2 o"),
            vec![
                Tok::Ident("ALLx"),
                Tok::Ex1,
                Tok::Ident("xs"),
                Tok::Bang,
                Tok::Ident("i"),
                Tok::Ident("of2"),
                Tok::Comp
            ]
        );
    }

    #[test]
    fn comments_and_errors() {
        assert_eq!(toks("a (* b (* c *) d *) e"), vec![Tok::Ident("a"), Tok::Ident("e")]);
        let errs: Vec<_> = InnerLexer::new("a (* b", 10).collect();
        let d = errs[1].clone().unwrap_err();
        assert_eq!(d.message, "unterminated comment");
        assert_eq!(d.primary.span, Span::new(12, 14));
        let errs: Vec<_> = InnerLexer::new("a § b", 0).collect();
        let d = errs[1].clone().unwrap_err();
        assert_eq!(d.primary.span, Span::new(2, 4));
        assert_eq!(errs.len(), 2, "lexing stops after an error");
        let errs: Vec<_> = InnerLexer::new("\\<foo> b", 0).collect();
        assert_eq!(errs[0].clone().unwrap_err().message, "unknown symbol `\\<foo>`");
        let errs: Vec<_> = InnerLexer::new("é", 0).collect();
        assert_eq!(errs[0].clone().unwrap_err().primary.span, Span::new(0, 2));
    }
}
