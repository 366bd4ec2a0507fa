//! Turning lalrpop's parse errors into diagnostics that say what was found and what was
//! expected, in a few words rather than a list of forty terminals.

use lalrpop_util::ParseError;

use crate::diagnostic::Diagnostic;
use crate::span::Span;

/// Where a parse happened, for wording: the inner parser says "a term", the outer one
/// "a command".
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Grammar {
    Term,
    Type,
    Outer,
}

/// Tokens that can start a term.
const TERM_START: &[&str] = &[
    "Ident",
    "Num",
    "\"_\"",
    "\"(\"",
    "\"[\"",
    "\"{\"",
    "\"∀\"",
    "\"∃\"",
    "\"∃!\"",
    "\"!\"",
    "\"λ\"",
    "\"¬\"",
    "\"-\"",
    "\"if\"",
    "\"let\"",
    "\"case\"",
    "\"⟦\"",
    "\"(*)\"",
    "\"⋀\"",
    "\"op\"",
    "\"⟨\"",
    "\"⦇\"",
    "\"∑\"",
    "\"∏\"",
    "\"∄\"",
    "\"¦(\"",
    "\"⋃\"",
    "\"⋂\"",
    "\"⋃x.\"",
    "\"⋂x.\"",
    "DelimOpen",
    "DelimAtom",
    "DelimOpenArg",
];

/// Infix and postfix operators of terms.
const OPERATORS: &[&str] = &[
    "\"⟷\"",
    "\"⟶\"",
    "\"∨\"",
    "\"|\"",
    "\"∧\"",
    "\"=\"",
    "\"≠\"",
    "\"<\"",
    "\"≤\"",
    "\">\"",
    "\"≥\"",
    "\"∈\"",
    "\"∉\"",
    "\"⊆\"",
    "\"⊂\"",
    "\"dvd\"",
    "\"∘\"",
    "\"#\"",
    "\"@\"",
    "\"+\"",
    "\"-\"",
    "\"∪\"",
    "\"∩\"",
    "\"*\"",
    "\"div\"",
    "\"mod\"",
    "\"^\"",
    "\"^^\"",
    "\"choose\"",
    "\"×\"",
    "\"!\"",
    "\"O\"",
    "\"OO\"",
    "\"++\"",
    "\"⇧+\"",
    "\"⇧*\"",
    "\"⇧=\"",
    "\"¯\"",
    "\"⇧+⇧+\"",
    "\"⇧*⇧*\"",
    "\"⇧=⇧=\"",
    "\"¯¯\"",
    "DelimIn",
    "DelimClose",
    "DelimCloseArg",
];

/// Tokens that can start a type.
const TYPE_START: &[&str] = &["Ident", "TVar", "\"(\""];

/// Outer tokens that can carry inner syntax besides strings.
const INNER_SOURCE: &[&str] = &["Cart", "Num", "TypeVar"];

/// Describes the expected set in a few words: "`)`", "`)` or `,`", "one of `)`, `,` or a term".
pub fn describe_expected(expected: &[String], grammar: Grammar) -> String {
    let has = |name: &str| expected.iter().any(|e| e == name);
    let mut rest: Vec<&str> = expected.iter().map(String::as_str).collect();
    let mut categories: Vec<&str> = Vec::new();
    if grammar != Grammar::Outer {
        if has("Ident") && has("Num") && has("\"(\"") {
            categories.push("a term");
            rest.retain(|e| !TERM_START.contains(e));
        } else if has("Ident") && has("TVar") {
            categories.push("a type");
            rest.retain(|e| !TYPE_START.contains(e));
        }
        if OPERATORS.iter().filter(|o| rest.contains(o)).count() >= 5 {
            categories.push("an operator");
            rest.retain(|e| !OPERATORS.contains(e));
        }
    } else if has("Str") {
        // Where a string is expected, a cartouche or a single token would also do; the
        // string is what people write.
        rest.retain(|e| !INNER_SOURCE.contains(e));
    }
    // A command word is only accepted as a theory name; a name is what to suggest.
    rest.retain(|e| *e != "CommandWord");
    // `f(x := y)` is rare enough not to be suggested next to `)`.
    if rest.len() > 1 {
        rest.retain(|e| *e != "\":=\"");
    }
    let mut words: Vec<String> = rest.iter().map(|e| token_words(e)).collect();
    words.dedup();
    const MAX: usize = 6;
    if words.len() + categories.len() > MAX {
        words.truncate(MAX.saturating_sub(categories.len()).max(1));
    }
    words.extend(categories.iter().map(|c| c.to_string()));
    match words.len() {
        0 => String::new(),
        1 => words.remove(0),
        2 => format!("{} or {}", words[0], words[1]),
        n => {
            let last = words.remove(n - 1);
            format!("one of {} or {}", words.join(", "), last)
        }
    }
}

/// How one lalrpop terminal name reads in a message.
fn token_words(name: &str) -> String {
    match name {
        "Ident" => "a name".to_string(),
        "TVar" | "TypeVar" => "a type variable".to_string(),
        "Num" => "a number".to_string(),
        "Str" => "a string".to_string(),
        "Cart" => "a cartouche".to_string(),
        "Other" => "a symbol".to_string(),
        _ => {
            let inner = name.strip_prefix('"').and_then(|n| n.strip_suffix('"')).unwrap_or(name);
            let inner = inner.replace("\\\"", "\"").replace("\\\\", "\\");
            format!("`{inner}`")
        }
    }
}

/// A short rendering of the source text of a token for "found ..." messages.
pub fn quote_source(text: &str) -> String {
    let mut s: String = text.chars().take(40).collect();
    if s.len() < text.len() {
        s.push('…');
    }
    let s = s.replace('\n', " ");
    format!("`{s}`")
}

/// Converts a lalrpop error into a diagnostic. `text` is the parsed text, which starts at
/// byte `base` of the file and ends at `end`; `eof` is what to blame for an unexpected end
/// (the closing quote, the next command) and how to call it.
pub fn convert<T>(
    err: ParseError<usize, T, Box<Diagnostic>>,
    text: &str,
    base: usize,
    end: usize,
    eof: Option<(Span, String)>,
    grammar: Grammar,
) -> Diagnostic {
    let slice = |l: usize, r: usize| {
        l.checked_sub(base)
            .zip(r.checked_sub(base))
            .and_then(|(l, r)| text.get(l..r))
            .map(quote_source)
            .unwrap_or_else(|| "a token".to_string())
    };
    match err {
        ParseError::User { error } => *error,
        ParseError::UnrecognizedEof { location, expected } => {
            let mut exp = describe_expected(&expected, grammar);
            if exp.is_empty() {
                exp = "more input".to_string();
            }
            let (span, found) = eof.unwrap_or_else(|| {
                let at = location.clamp(base, end.max(base));
                let what = match grammar {
                    Grammar::Term => "the end of the term",
                    Grammar::Type => "the end of the type",
                    Grammar::Outer => "the end of the command",
                };
                (Span::new(at, at), what.to_string())
            });
            Diagnostic::error(span, format!("expected {exp}, found {found}")).with_label(format!("expected {exp}"))
        }
        ParseError::UnrecognizedToken { token: (l, _, r), expected } => {
            let exp = describe_expected(&expected, grammar);
            let found = slice(l, r);
            if exp.is_empty() {
                // Only the end could follow.
                let what = match grammar {
                    Grammar::Term => "the end of the term",
                    Grammar::Type => "the end of the type",
                    Grammar::Outer => "the end of the command",
                };
                let opener = match found.as_str() {
                    "`)`" => Some("`(`"),
                    "`]`" => Some("`[`"),
                    "`}`" => Some("`{`"),
                    "`⟧`" => Some("`⟦`"),
                    _ => None,
                };
                if let Some(opener) = opener {
                    // Only the end could follow: no bracket is open.
                    return Diagnostic::error(Span::new(l, r), format!("unbalanced {found}: no {opener} is open here"))
                        .with_label(format!("expected {what} here"))
                        .with_note(format!("this {found} has no matching {opener}"));
                }
                return Diagnostic::error(Span::new(l, r), format!("unexpected {found}"))
                    .with_label(format!("expected {what} here"));
            }
            Diagnostic::error(Span::new(l, r), format!("expected {exp}, found {found}"))
                .with_label(format!("expected {exp}"))
        }
        ParseError::ExtraToken { token: (l, _, r) } => {
            let found = slice(l, r);
            Diagnostic::error(Span::new(l, r), format!("unexpected {found}")).with_label("expected nothing more here")
        }
        ParseError::InvalidToken { location } => {
            let at = location.clamp(base, end.max(base));
            Diagnostic::error(Span::new(at, at), "unexpected character").with_label("unexpected character")
        }
    }
}
