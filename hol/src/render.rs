//! Human rendering of diagnostics in rustc's shape (`error: message`, `--> file:line:col`,
//! the source lines with the primary span marked, `= note:` and `= help:` lines). The only
//! module that knows annotate-snippets; it renders to a `String` and never prints.
//!
//! Spans come from `lang` and are trusted only as far as this module checks them: they are
//! clamped to the text and to character boundaries, so a bad span renders somewhere
//! sensible instead of panicking.

use analysis::position::{Columns, LineMap};
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

/// The lines of `text` that the byte ranges `spans` touch, from the first to the last, as
/// annotate-snippets sees lines (each with its `\n` or `\r\n`; an offset at the very end
/// of a text that ends in a newline is on its last line): their byte range and the 1-based
/// number of the first. Its cost is the length of those lines, not of the text.
fn window(text: &str, lines: &LineMap, spans: &[Range<usize>]) -> (Range<usize>, usize) {
    let on_a_line = |offset: usize| {
        if offset == text.len() && text.ends_with('\n') {
            offset - 1
        } else {
            offset
        }
    };
    // The start of the line `offset` is on, and its number.
    let line_of = |offset: usize| {
        let at = lines.position_in(offset as u32, Columns::Utf8);
        (offset - (at.column as usize - 1), at.line as usize)
    };
    let lo = spans.iter().map(|s| s.start).min().unwrap_or(0);
    let hi = spans.iter().map(|s| s.end).max().unwrap_or(0);
    let (mut from, mut first_line) = line_of(on_a_line(lo));
    // annotate-snippets numbers the lines up to the last span's end to size the gutter, and
    // counts one line fewer when that end is at the start of a line, unless the text before
    // it is empty: the window starts a line earlier (not shown) to count as the whole did.
    if hi == from && from > 0 {
        (from, first_line) = line_of(from - 1);
    }
    let (last_start, _) = line_of(on_a_line(hi));
    let to = text[last_start..].find('\n').map_or(text.len(), |i| last_start + i + 1);
    (from..to, first_line)
}

/// A diagnostic about `text`, the contents of the file shown as `path`, whose lines are
/// `lines`. annotate-snippets is given only the lines the diagnostic marks (and those
/// between), numbered from where they are: given the whole text, it split all of it into
/// lines for each diagnostic, and a file of 40,000 erroneous lines took 47 s to print.
pub fn diagnostic(d: &Diagnostic, path: &str, text: &str, lines: &LineMap, color: bool) -> String {
    let spans: Vec<Range<usize>> =
        std::iter::once(d.primary.span).chain(d.secondary.iter().map(|l| l.span)).map(|s| clamp(text, s)).collect();
    let (shown, first_line) = window(text, lines, &spans);
    let local = |r: &Range<usize>| r.start - shown.start..r.end - shown.start;
    let mut snippet = Snippet::source(&text[shown.clone()]).line_start(first_line).path(path).fold(true);
    let primary = AnnotationKind::Primary.span(local(&spans[0]));
    snippet = snippet.annotation(if d.primary.message.is_empty() {
        primary
    } else {
        primary.label(d.primary.message.as_str())
    });
    for (label, span) in d.secondary.iter().zip(&spans[1..]) {
        let context = AnnotationKind::Context.span(local(span));
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

    fn diagnostic(d: &Diagnostic, path: &str, text: &str, color: bool) -> String {
        super::diagnostic(d, path, text, &LineMap::new(text), color)
    }

    /// The rendering as it was, with the whole text as the snippet's source: the window
    /// must change nothing.
    fn whole_text(d: &Diagnostic, path: &str, text: &str, color: bool) -> String {
        let mut snippet = Snippet::source(text).path(path).fold(true);
        let primary = AnnotationKind::Primary.span(clamp(text, d.primary.span));
        snippet = snippet.annotation(if d.primary.message.is_empty() {
            primary
        } else {
            primary.label(d.primary.message.as_str())
        });
        for label in &d.secondary {
            let context = AnnotationKind::Context.span(clamp(text, label.span));
            snippet = snippet.annotation(if label.message.is_empty() {
                context
            } else {
                context.label(label.message.as_str())
            });
        }
        let group = level(d.severity)
            .primary_title(d.message.as_str())
            .element(snippet)
            .elements(d.notes.iter().map(|n| Level::NOTE.message(n.as_str())));
        renderer(color).render(&[group])
    }

    #[test]
    fn the_window_renders_as_the_whole_text_did() {
        // SplitMix64, seeded: texts of up to 30 lines (empty, blank, CRLF, a lone CR, multi-byte,
        // with and without a final newline) and up to four spans anywhere, across lines,
        // empty, at the end or past it.
        let mut state = 0x5eed_u64;
        let mut next = move |n: usize| {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d1_049b_b133_111b);
            ((z ^ (z >> 31)) % n as u64) as usize
        };
        let pieces = [
            "a\rb",
            "x\r",
            "lemma \"x = y\"",
            "",
            "  ",
            "⟦a; b⟧ ⟹ c",
            "\tvalue \"α\"",
            "end",
            "(* }",
            "{",
            "fun f where",
        ];
        for case in 0..5000 {
            let mut text = String::new();
            let n = next(30);
            for i in 0..n {
                text.push_str(pieces[next(pieces.len())]);
                if i + 1 < n || next(2) == 0 {
                    text.push_str(if next(4) == 0 { "\r\n" } else { "\n" });
                }
            }
            let span = |next: &mut dyn FnMut(usize) -> usize| {
                let a = next(text.len() + 3);
                let b = if next(3) == 0 { a } else { next(text.len() + 3) };
                Span::new(a, b)
            };
            let mut d = Diagnostic::error(span(&mut next), "somewhere");
            if next(2) == 0 {
                d = d.with_label("here");
            }
            for k in 0..next(4) {
                d = d.with_secondary(span(&mut next), if k == 0 { String::new() } else { format!("label {k}") });
            }
            d = d.with_note("a note");
            for color in [false, true] {
                let (new, old) = (diagnostic(&d, "W.thy", &text, color), whole_text(&d, "W.thy", &text, color));
                assert_eq!(new, old, "case {case}: {text:?} {:?}\n{new}\n{old}", d);
            }
        }
    }

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
