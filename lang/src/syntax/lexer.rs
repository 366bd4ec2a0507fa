//! The outer lexer: the tokens of commands.
//!
//! Strings, cartouches, verbatim `{* *}` text and nested comments are single tokens whose
//! extent the lexer finds itself (in callbacks), so an unterminated one is reported at its
//! opening delimiter. Lexing then resumes at the next line that starts with a theory-level
//! command keyword (a bounded number of times per file, so the work stays linear), or
//! stops at the end of the file. Any character without a meaning of its own becomes an
//! `Other` token, so proof text such as `by (induct xs arbitrary: ys) simp_all` always lexes.
//! Comments, and `\<comment> ‹...›` marginal comments, are dropped here, as is the legacy
//! marginal comment `-- ‹...›` / `-- {* ... *}` / `-- "..."` of Isabelle before 2017. The
//! first use of each legacy spelling (`--`, `{* *}`) is recorded in [`Lexed::legacy`], so the
//! driver can say once per file that it is legacy, as Isabelle's own warnings do.

use logos::Logos;

use crate::diagnostic::Diagnostic;
use crate::span::Span;

/// What can go wrong while lexing commands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LexError {
    #[default]
    Unexpected,
    UnterminatedString,
    UnterminatedCartouche,
    UnterminatedVerbatim,
    UnterminatedComment,
}

/// State shared with the callbacks.
#[derive(Debug)]
pub struct Extras {
    /// How many more times an unterminated token may resume lexing on a later line.
    resumes_left: u32,
    /// Set when an unterminated token swallowed the rest of the file.
    pub hit_eof: bool,
}

impl Default for Extras {
    fn default() -> Self {
        Extras { resumes_left: 16, hit_eof: false }
    }
}

#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq)]
#[logos(error = LexError)]
#[logos(extras = Extras)]
#[logos(skip r"[ \t\r\n\f]+")]
#[logos(subpattern greek = r"\\<(alpha|beta|gamma|delta|epsilon|zeta|eta|theta|iota|kappa|mu|nu|xi|pi|rho|sigma|tau|upsilon|phi|chi|psi|omega|Gamma|Delta|Theta|Lambda|Xi|Pi|Sigma|Upsilon|Phi|Psi|Omega)>")]
#[logos(subpattern ugreek = r"[αβγδεζηθικμνξπρστυφχψωΓΔΘΛΞΠΣΥΦΨΩ]")]
#[logos(subpattern letter = r"([a-zA-Z]|(?&greek)|(?&ugreek))")]
#[logos(subpattern sub = r"(\\<\^sub>|\\<\^isub>|⇩)")]
#[logos(subpattern namechar = r"((?&letter)|[0-9_']|(?&sub))")]
enum Raw {
    /// Names, long names (`list.induct`) and keywords.
    #[regex(r"(?&letter)(?&namechar)*(\.(?&letter)(?&namechar)*)*", priority = 1)]
    Ident,
    #[regex(r"'(?&letter)(?&namechar)*")]
    TypeVar,
    #[regex(r"[0-9]+(\.[0-9]+)?")]
    Num,
    #[token("\"", string)]
    Str,
    #[token("‹", cartouche)]
    #[token("\\<open>", cartouche)]
    Cartouche,
    #[token("{*", verbatim)]
    Verbatim,
    #[token("(*", comment)]
    Comment,
    #[token("\\<comment>")]
    #[token("—")]
    CommentMarker,
    /// `--`: a legacy marginal comment when a string, cartouche or verbatim text follows.
    #[token("--")]
    LegacyCommentMarker,
    #[token("::")]
    ColCol,
    #[token(":")]
    Colon,
    #[token("=")]
    Eq,
    #[token("|")]
    Bar,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBrack,
    #[token("]")]
    RBrack,
    #[token(",")]
    Comma,
    /// Any other `\<name>` symbol.
    #[regex(r"\\<\^?[A-Za-z0-9_]*>?", priority = 0)]
    Symbol,
    #[regex(r".", priority = 0)]
    Other,
}

/// A token kind of the outer syntax, after comments are dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Ident,
    TypeVar,
    Num,
    /// `"..."`; the content starts one byte after the token.
    Str,
    /// `‹...›` or `\<open>...\<close>`.
    Cartouche,
    /// `{* ... *}`.
    Verbatim,
    ColCol,
    Colon,
    Eq,
    Bar,
    LParen,
    RParen,
    LBrack,
    RBrack,
    Comma,
    Other,
    /// The opening delimiter of an unterminated string, cartouche or comment (already
    /// reported); the command it stands in is not parsed.
    Error,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: Kind,
    pub span: Span,
}

impl Token {
    /// The span of the text inside the delimiters of a string, cartouche or verbatim
    /// token (the whole token for anything else).
    pub fn content(&self, text: &str) -> Span {
        let (s, e) = (self.span.start as usize, self.span.end as usize);
        let tok = &text[s..e];
        let (open, close) = match self.kind {
            Kind::Str => (1, 1),
            Kind::Verbatim => (2, 2),
            Kind::Cartouche => {
                let open = if tok.starts_with('‹') { '‹'.len_utf8() } else { "\\<open>".len() };
                let close = if tok.ends_with('›') { '›'.len_utf8() } else { "\\<close>".len() };
                (open, close)
            }
            _ => (0, 0),
        };
        if e - s < open + close {
            return Span::new(s + open.min(e - s), s + open.min(e - s));
        }
        Span::new(s + open, e - close)
    }
}

/// A spelling of Isabelle's outer syntax that later versions replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Legacy {
    /// `-- ‹text›`, `-- "text"`, `-- {* text *}` (Isabelle2017 writes `\<comment> ‹text›`).
    DashComment,
    /// `{* text *}` (cartouches `‹text›` replaced it).
    Verbatim,
}

/// The result of lexing a file: its tokens, the diagnostics, whether an unterminated
/// token swallowed the rest of the file, and where each legacy spelling is first used.
pub struct Lexed {
    pub tokens: Vec<Token>,
    pub diagnostics: Vec<Diagnostic>,
    pub hit_eof: bool,
    pub legacy: Vec<(Legacy, Span)>,
}

/// Lexes a whole theory file.
pub fn lex(text: &str) -> Lexed {
    let mut lex = Raw::lexer(text);
    // A UTF-8 byte-order mark at the start of the file is not part of the theory.
    if text.starts_with('\u{feff}') {
        lex.bump('\u{feff}'.len_utf8());
    }
    let mut tokens = Vec::with_capacity(text.len() / 4);
    let mut diagnostics = Vec::new();
    let mut legacy: Vec<(Legacy, Span)> = Vec::new();
    let mut note_legacy = |what: Legacy, span: Span| {
        if !legacy.iter().any(|(l, _)| *l == what) {
            legacy.push((what, span));
        }
    };
    // Set after `\<comment>`: the next cartouche or string is the comment's text.
    let mut comment_marker = false;
    // The span of a `--` just read: if a text follows, both are a legacy comment.
    let mut dash_marker: Option<Span> = None;
    while let Some(res) = lex.next() {
        let r = lex.span();
        let span = Span::new(r.start, r.end);
        let dash = dash_marker.take();
        let kind = match res {
            Ok(Raw::Comment) => {
                // `-- (* … *) ‹text›` is still a legacy comment.
                dash_marker = dash;
                continue;
            }
            Ok(Raw::CommentMarker) => {
                comment_marker = true;
                continue;
            }
            Ok(Raw::LegacyCommentMarker) => {
                // Decided at the next token; a `--` before anything else (`-->` in an
                // unquoted term) stays as it is.
                dash_marker = Some(span);
                continue;
            }
            Ok(Raw::Ident) => Kind::Ident,
            Ok(Raw::TypeVar) => Kind::TypeVar,
            Ok(Raw::Num) => Kind::Num,
            Ok(Raw::Str) => Kind::Str,
            Ok(Raw::Cartouche) => Kind::Cartouche,
            Ok(Raw::Verbatim) => Kind::Verbatim,
            Ok(Raw::ColCol) => Kind::ColCol,
            Ok(Raw::Colon) => Kind::Colon,
            Ok(Raw::Eq) => Kind::Eq,
            Ok(Raw::Bar) => Kind::Bar,
            Ok(Raw::LParen) => Kind::LParen,
            Ok(Raw::RParen) => Kind::RParen,
            Ok(Raw::LBrack) => Kind::LBrack,
            Ok(Raw::RBrack) => Kind::RBrack,
            Ok(Raw::Comma) => Kind::Comma,
            Ok(Raw::Symbol) | Ok(Raw::Other) | Err(LexError::Unexpected) => Kind::Other,
            Err(e) => {
                diagnostics.push(unterminated(e, text, r.start));
                comment_marker = false;
                // A comment belongs to no command: what came before it is still read.
                if e == LexError::UnterminatedComment {
                    continue;
                }
                // The broken token stays in the stream, so the command it belongs to is
                // known to be broken.
                tokens.push(Token { kind: Kind::Error, span: opener_span(text, r.start) });
                continue;
            }
        };
        if kind == Kind::Verbatim {
            note_legacy(Legacy::Verbatim, span);
        }
        let is_text = matches!(kind, Kind::Cartouche | Kind::Str | Kind::Verbatim);
        if let Some(d) = dash {
            if is_text {
                note_legacy(Legacy::DashComment, d);
                continue;
            }
            tokens.push(Token { kind: Kind::Other, span: d });
        }
        if comment_marker {
            comment_marker = false;
            if is_text {
                continue;
            }
        }
        tokens.push(Token { kind, span });
    }
    if let Some(d) = dash_marker {
        tokens.push(Token { kind: Kind::Other, span: d });
    }
    Lexed { tokens, diagnostics, hit_eof: lex.extras.hit_eof, legacy }
}

/// The span of the opening delimiter of the token starting at `start`.
fn opener_span(text: &str, start: usize) -> Span {
    let rest = &text[start..];
    let len = if rest.starts_with("\\<open>") {
        "\\<open>".len()
    } else if rest.starts_with("{*") || rest.starts_with("(*") {
        2
    } else {
        rest.chars().next().map_or(0, char::len_utf8)
    };
    Span::new(start, start + len)
}

fn unterminated(e: LexError, text: &str, start: usize) -> Diagnostic {
    let span = opener_span(text, start);
    let (msg, label) = match e {
        LexError::UnterminatedString => ("unterminated string", "expected a closing `\"` for this string"),
        LexError::UnterminatedCartouche => ("unterminated cartouche", "expected a closing `›` for this cartouche"),
        LexError::UnterminatedVerbatim => ("unterminated verbatim text", "expected `*}` to close this text"),
        LexError::UnterminatedComment | LexError::Unexpected => {
            ("unterminated comment", "expected `*)` to close this comment")
        }
    };
    Diagnostic::error(span, msg).with_label(label)
}

/// Gives up on an unterminated token: skips to the next line that starts with a theory
/// command (while the budget lasts), otherwise to the end of the file.
fn give_up(lex: &mut logos::Lexer<'_, Raw>, e: LexError) -> Result<(), LexError> {
    let rest = lex.remainder();
    let skip = if lex.extras.resumes_left > 0 {
        lex.extras.resumes_left -= 1;
        resume_point(rest)
    } else {
        None
    };
    match skip {
        Some(n) => lex.bump(n),
        None => {
            lex.extras.hit_eof = true;
            lex.bump(rest.len());
        }
    }
    Err(e)
}

/// The offset in `rest` of the first line (after the current one) that starts with a
/// theory-level command keyword.
fn resume_point(rest: &str) -> Option<usize> {
    let bytes = rest.as_bytes();
    let mut i = 0;
    while let Some(nl) = memchr_newline(&bytes[i..]) {
        let line_start = i + nl + 1;
        let line = &rest[line_start..];
        if starts_with_command(line.trim_start_matches([' ', '\t', '\r'])) {
            return Some(line_start);
        }
        i = line_start;
    }
    None
}

fn memchr_newline(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|b| *b == b'\n')
}

/// Is this a command that starts a new top-level element (used for error recovery)?
fn is_theory_command(word: &str) -> bool {
    use super::parser::CommandClass::*;
    matches!(super::parser::command_class(word), Some(Header | Parsed | Text | End | Ignored | Skipped | Unsupported))
}

fn string(lex: &mut logos::Lexer<'_, Raw>) -> Result<(), LexError> {
    let rest = lex.remainder();
    let bytes = rest.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                lex.bump(i + 1);
                return Ok(());
            }
            b'\\' => i += 2,
            b'\n' => {
                i += 1;
                // Strings may span lines, but one that runs into a command at the start of
                // a line was almost certainly left open: stop there rather than pair up
                // every later quote the wrong way.
                if starts_with_command(&rest[i..]) {
                    lex.bump(i);
                    return Err(LexError::UnterminatedString);
                }
            }
            _ => i += 1,
        }
    }
    give_up(lex, LexError::UnterminatedString)
}

/// Does this line start, in its first column, with a theory-level command keyword?
fn starts_with_command(line: &str) -> bool {
    let word_len = line.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
    word_len > 0 && is_theory_command(&line[..word_len])
}

fn cartouche(lex: &mut logos::Lexer<'_, Raw>) -> Result<(), LexError> {
    let rest = lex.remainder();
    let bytes = rest.as_bytes();
    let mut depth = 1usize;
    let mut i = 0;
    while i < bytes.len() {
        let r = &rest.as_bytes()[i..];
        if r.starts_with("‹".as_bytes()) {
            depth += 1;
            i += "‹".len();
        } else if r.starts_with(b"\\<open>") {
            depth += 1;
            i += "\\<open>".len();
        } else if r.starts_with("›".as_bytes()) || r.starts_with(b"\\<close>") {
            i += if r[0] == b'\\' { "\\<close>".len() } else { "›".len() };
            depth -= 1;
            if depth == 0 {
                lex.bump(i);
                return Ok(());
            }
        } else {
            // Skip to the next byte that can start a delimiter.
            i += 1 + r[1..].iter().position(|b| *b == 0xE2 || *b == b'\\').unwrap_or(r.len() - 1);
        }
    }
    give_up(lex, LexError::UnterminatedCartouche)
}

fn verbatim(lex: &mut logos::Lexer<'_, Raw>) -> Result<(), LexError> {
    match lex.remainder().find("*}") {
        Some(n) => {
            lex.bump(n + 2);
            Ok(())
        }
        None => give_up(lex, LexError::UnterminatedVerbatim),
    }
}

fn comment(lex: &mut logos::Lexer<'_, Raw>) -> Result<(), LexError> {
    match super::inner_lexer::comment_end(lex.remainder().as_bytes()) {
        Some(n) => {
            lex.bump(n);
            Ok(())
        }
        None => give_up(lex, LexError::UnterminatedComment),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<(Kind, &str)> {
        lex(s).tokens.iter().map(|t| (t.kind, &s[t.span.range()])).collect()
    }

    #[test]
    fn basic_tokens() {
        assert_eq!(
            kinds("datatype 'a tree = Leaf | Node \"'a tree\" (left: 'a)"),
            vec![
                (Kind::Ident, "datatype"),
                (Kind::TypeVar, "'a"),
                (Kind::Ident, "tree"),
                (Kind::Eq, "="),
                (Kind::Ident, "Leaf"),
                (Kind::Bar, "|"),
                (Kind::Ident, "Node"),
                (Kind::Str, "\"'a tree\""),
                (Kind::LParen, "("),
                (Kind::Ident, "left"),
                (Kind::Colon, ":"),
                (Kind::TypeVar, "'a"),
                (Kind::RParen, ")"),
            ]
        );
    }

    #[test]
    fn long_names_numbers_and_other() {
        assert_eq!(
            kinds("list.induct foo. 1.5 2.x ∧ ? `"),
            vec![
                (Kind::Ident, "list.induct"),
                (Kind::Ident, "foo"),
                (Kind::Other, "."),
                (Kind::Num, "1.5"),
                (Kind::Num, "2"),
                (Kind::Other, "."),
                (Kind::Ident, "x"),
                (Kind::Other, "∧"),
                (Kind::Other, "?"),
                (Kind::Other, "`"),
            ]
        );
    }

    #[test]
    fn comments_cartouches_strings() {
        let s = "a (* x (* y *) \" *) b ‹c ‹d› e› \\<open>f\\<close> \"g \\\" h\" \\<comment> ‹note› i {* v *}";
        assert_eq!(
            kinds(s),
            vec![
                (Kind::Ident, "a"),
                (Kind::Ident, "b"),
                (Kind::Cartouche, "‹c ‹d› e›"),
                (Kind::Cartouche, "\\<open>f\\<close>"),
                (Kind::Str, "\"g \\\" h\""),
                (Kind::Ident, "i"),
                (Kind::Verbatim, "{* v *}"),
            ]
        );
        let l = lex(s);
        assert!(l.diagnostics.is_empty());
        let c = l.tokens[2];
        assert_eq!(&s[c.content(s).range()], "c ‹d› e");
        let c = l.tokens[3];
        assert_eq!(&s[c.content(s).range()], "f");
        let c = l.tokens[4];
        assert_eq!(&s[c.content(s).range()], "g \\\" h");
    }

    #[test]
    fn unterminated_string_resumes_at_next_command() {
        let s = "lemma \"rev xs = xs\n  more text\nend\n";
        let l = lex(s);
        assert_eq!(l.diagnostics.len(), 1);
        assert_eq!(l.diagnostics[0].message, "unterminated string");
        assert_eq!(l.diagnostics[0].primary.span, Span::new(6, 7));
        assert!(!l.hit_eof);
        let words: Vec<&str> = l.tokens.iter().map(|t| &s[t.span.range()]).collect();
        assert_eq!(words, vec!["lemma", "\"", "end"]);
        assert_eq!(l.tokens[1].kind, Kind::Error);
    }

    #[test]
    fn string_running_into_a_command_line_is_unterminated() {
        let s = "datatype t = C \"nat\nfun f :: \"nat\" where \"f x = x\"\nlemma \"a\n  b\"";
        let l = lex(s);
        assert_eq!(l.diagnostics.len(), 1);
        assert_eq!(l.diagnostics[0].primary.span, Span::new(15, 16));
        let kinds: Vec<Kind> = l.tokens.iter().map(|t| t.kind).collect();
        assert_eq!(kinds[4], Kind::Error);
        assert_eq!(&s[l.tokens[5].span.range()], "fun");
        // An indented continuation line is still part of the string.
        assert_eq!(&s[l.tokens.last().map_or(0..0, |t| t.span.range())], "\"a\n  b\"");
    }

    #[test]
    fn unterminated_comment_and_cartouche() {
        let l = lex("text ‹abc\nfoo");
        assert_eq!(l.diagnostics[0].message, "unterminated cartouche");
        assert_eq!(l.diagnostics[0].primary.span, Span::new(5, 8));
        assert!(l.hit_eof);
        let l = lex("a (* b (* c *)");
        assert_eq!(l.diagnostics[0].message, "unterminated comment");
        assert_eq!(l.diagnostics[0].primary.span, Span::new(2, 4));
        let l = lex("x \\<open> y");
        assert_eq!(l.diagnostics[0].primary.span, Span::new(2, 9));
    }
}
