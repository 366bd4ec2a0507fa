//! Human rendering of diagnostics in rustc's shape (`error: message`, `--> file:line:col`,
//! the source lines with the primary span marked, `= note:` and `= help:` lines). The only
//! module that knows annotate-snippets; it renders to a `String` and never prints.
//!
//! Spans come from `lang` and are trusted only as far as this module checks them: they are
//! clamped to the text and to character boundaries, so a bad span renders somewhere
//! sensible instead of panicking.

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use lang::{Diagnostic, Severity, Span};
use std::ops::Range;

fn renderer(color: bool) -> Renderer {
    if color {
        Renderer::styled().hyperlink(false)
    } else {
        Renderer::plain()
    }
}

fn level(severity: Severity) -> Level<'static> {
    match severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Info => Level::INFO,
    }
}

/// `span` as a byte range of `text` that is safe to slice: inside the text, on character
/// boundaries, start ≤ end.
fn clamp(text: &str, span: Span) -> Range<usize> {
    let floor = |mut i: usize| {
        i = i.min(text.len());
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let (a, b) = (floor(span.start as usize), floor(span.end as usize));
    a.min(b)..a.max(b)
}

/// A diagnostic about `text`, the contents of the file shown as `path`.
pub fn diagnostic(d: &Diagnostic, path: &str, text: &str, color: bool) -> String {
    let mut snippet = Snippet::source(text).path(path).fold(true);
    let primary = AnnotationKind::Primary.span(clamp(text, d.primary.span));
    snippet = snippet.annotation(if d.primary.message.is_empty() {
        primary
    } else {
        primary.label(d.primary.message.as_str())
    });
    for label in &d.secondary {
        let context = AnnotationKind::Context.span(clamp(text, label.span));
        snippet =
            snippet.annotation(if label.message.is_empty() { context } else { context.label(label.message.as_str()) });
    }
    let group = level(d.severity)
        .primary_title(d.message.as_str())
        .element(snippet)
        .elements(d.notes.iter().map(|n| Level::NOTE.message(n.as_str())))
        .elements(d.help.iter().map(|h| Level::HELP.message(h.as_str())));
    renderer(color).render(&[group])
}

/// A diagnostic with no place in a source text (a file that cannot be read, an internal
/// error): the title and the note and help lines.
pub fn message(severity: Severity, message: &str, notes: &[String], help: &[String], color: bool) -> String {
    let group = Group::with_title(level(severity).primary_title(message))
        .elements(notes.iter().map(|n| Level::NOTE.message(n.as_str())))
        .elements(help.iter().map(|h| Level::HELP.message(h.as_str())));
    renderer(color).render(&[group])
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "theory T imports Main begin\nlemma \"rev xs = length xs\"\n  oops\nend\n";

    fn span_of(needle: &str) -> Span {
        let start = TEXT.find(needle).expect("needle in text");
        Span::new(start, start + needle.len())
    }

    #[test]
    fn renders_rustc_shaped_plain_text() {
        let d = Diagnostic::error(span_of("length xs"), "type mismatch: expected 'a list, found nat")
            .with_label("this is a nat")
            .with_secondary(span_of("rev xs"), "this is a 'a list")
            .with_note("both sides of `=` have the same type")
            .with_help("did you mean `rev xs = xs`?");
        let out = diagnostic(&d, "T.thy", TEXT, false);
        let expected = "\
error: type mismatch: expected 'a list, found nat
 --> T.thy:2:17
  |
2 | lemma \"rev xs = length xs\"
  |        ------   ^^^^^^^^^ this is a nat
  |        |
  |        this is a 'a list
  |
  = note: both sides of `=` have the same type
  = help: did you mean `rev xs = xs`?";
        assert_eq!(out, expected, "\n{out}");
    }

    #[test]
    fn plain_output_has_no_escape_codes_and_colored_output_has() {
        let d = Diagnostic::error(span_of("oops"), "unfinished proof");
        assert!(!diagnostic(&d, "T.thy", TEXT, false).contains('\x1b'));
        assert!(diagnostic(&d, "T.thy", TEXT, true).contains('\x1b'));
    }

    #[test]
    fn columns_count_characters() {
        let text = "lemma \"⟦a; b⟧ ⟹ c\"\n";
        let start = text.find('c').unwrap();
        let d = Diagnostic::error(Span::new(start, start + 1), "unknown constant `c`");
        let out = diagnostic(&d, "U.thy", text, false);
        assert!(out.contains("--> U.thy:1:17"), "{out}");
    }

    #[test]
    fn crlf_text_renders_like_lf_text() {
        let crlf = TEXT.replace('\n', "\r\n");
        let start = crlf.find("length").unwrap();
        let d = Diagnostic::error(Span::new(start, start + 6), "type mismatch").with_label("here");
        let lf =
            diagnostic(&Diagnostic::error(span_of("length"), "type mismatch").with_label("here"), "T.thy", TEXT, false);
        assert_eq!(diagnostic(&d, "T.thy", &crlf, false), lf);
        assert!(!lf.contains('\r'));
    }

    #[test]
    fn bad_spans_do_not_panic() {
        let text = "a⟹b\n";
        for (s, e) in [(2, 3), (3, 2), (100, 200), (0, 0), (5, 5), (text.len(), text.len())] {
            let d = Diagnostic::error(Span::new(s, e), "somewhere").with_label("here");
            let out = diagnostic(&d, "B.thy", text, false);
            assert!(out.starts_with("error: somewhere"), "{out}");
        }
        let d = Diagnostic::error(Span::new(0, 0), "empty file");
        assert!(diagnostic(&d, "E.thy", "", false).starts_with("error: empty file"));
    }

    #[test]
    fn a_message_without_source_has_notes_and_help() {
        let out = message(
            Severity::Error,
            "cannot read `x.thy`: No such file or directory",
            &["looked in the current directory".to_owned()],
            &["check the path".to_owned()],
            false,
        );
        assert_eq!(
            out,
            "error: cannot read `x.thy`: No such file or directory\n |\n = note: looked in the current directory\n = help: check the path"
        );
    }
}
