//! Human output: one line per `value` (`Arith.thy:68: value "…" = … :: nat`), per quickcheck
//! run that finds nothing, and per lemma under `--skip-tests`,
//! rustc-style diagnostics (via `render`) each followed by a blank line, and a summary line
//! at the end. Colors only when the caller says so.

use crate::check::{Output, SourceFile, Tally};
use crate::render;
use analysis::source::collapse;
use analysis::{Event, QuickcheckRun};
use lang::Severity;
use std::io::{self, Write};

pub struct Human<W: Write> {
    out: W,
    color: bool,
    /// Print a line per lemma: only when lemmas are not tested (`--skip-tests`); otherwise
    /// each quickcheck run reports on its lemma.
    list_lemmas: bool,
}

impl<W: Write> Human<W> {
    pub fn new(out: W, color: bool, list_lemmas: bool) -> Human<W> {
        Human { out, color, list_lemmas }
    }
}

/// `1 error`, `2 errors`.
fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// The text of one event (several lines for a diagnostic, ending in a newline).
pub fn event_text(file: &SourceFile, event: &Event, color: bool) -> String {
    let path = &file.path;
    match event {
        Event::Diagnostic { diagnostic, .. } => {
            format!("{}\n\n", render::diagnostic(diagnostic, path, &file.text, &file.lines, color))
        }
        Event::FileError { message, notes, help } => {
            format!("{}\n\n", render::message(Severity::Error, message, notes, help, color))
        }
        Event::Value { span, term, result, ty, .. } => {
            let ty = if ty.is_empty() { String::new() } else { format!(" :: {ty}") };
            let line = file.line(span.start);
            let line = format!("{path}:{line}: value \"{}\" = {result}{ty}", collapse(term));
            format!("{}\n", printable(&line))
        }
        Event::Lemma { span, name, statement, quickchecks, .. } => {
            let line = file.line(span.start);
            let shown = match name {
                Some(name) => name.clone(),
                None => format!("\"{statement}\""),
            };
            let commands = match quickchecks.len() {
                0 => "default quickcheck".to_owned(),
                n => count(n, "quickcheck command"),
            };
            format!("{}\n", printable(&format!("{path}:{line}: lemma {shown} ({commands})")))
        }
        Event::QuickcheckStarted { .. } => String::new(),
        Event::Quickcheck(run) => quickcheck_text(file, run, color),
        Event::Ir { text } => {
            let body = if text.is_empty() { "(empty)\n".to_owned() } else { format!("{}\n", text.trim_end()) };
            format!("{path}: core IR\n{body}")
        }
    }
}

/// `text` with control characters other than newlines and tabs shown as their Unicode
/// control pictures (`␛` for ESC) or `�`: a term's text can hold any character (inside a
/// comment, say), and one line of output must not clear the user's terminal or set its
/// title. Diagnostics' snippets are made printable by the renderer.
fn printable(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\n' | '\t' => c,
            '\u{0}'..='\u{1f}' => char::from_u32(0x2400 + c as u32).unwrap_or('�'),
            '\u{7f}' => '\u{2421}',
            c if c.is_control() => '�',
            c => c,
        })
        .collect()
}

/// What a quickcheck run found: a diagnostic at the lemma for a counterexample or an unmet
/// expectation, one line otherwise (none under `quiet`). The words are `analysis`'s.
fn quickcheck_text(file: &SourceFile, run: &QuickcheckRun, color: bool) -> String {
    let Some(d) = run.finding() else {
        if run.quiet {
            return String::new();
        }
        let mut text = format!("{}:{}: {}\n", file.path, file.line(run.span.start), run.account());
        for line in &run.report.log {
            text.push_str(&format!("  {line}\n"));
        }
        return printable(&text);
    };
    format!("{}\n\n", render::diagnostic(&d, &file.path, &file.text, &file.lines, color))
}

/// `3 errors, 5 values, 12 lemmas` (warnings only when there are some).
pub fn summary_text(t: &Tally) -> String {
    let mut parts = vec![count(t.errors, "error")];
    if t.warnings > 0 {
        parts.push(count(t.warnings, "warning"));
    }
    parts.push(count(t.values, "value"));
    parts.push(count(t.lemmas, "lemma"));
    if t.quickchecks > 0 {
        parts.push(count(t.quickchecks, "quickcheck run"));
        parts.push(count(t.counterexamples, "counterexample"));
    }
    if t.not_tested > 0 {
        parts.push(format!("{} not tested", count(t.not_tested, "run")));
    }
    if t.unmet > 0 {
        parts.push(format!("{} not met", count(t.unmet, "expectation")));
    }
    if t.denied > 0 {
        parts.push(format!("{} denied", count(t.denied, "finding")));
    }
    let mut text = parts.join(", ");
    if let Some(signal) = t.interrupted {
        text.push_str(&format!(" (interrupted by {}: the rest was not checked)", crate::interrupt::name(signal)));
    }
    text.push('\n');
    text
}

impl<W: Write> Output for Human<W> {
    fn event(&mut self, file: &SourceFile, event: &Event) -> io::Result<()> {
        let shown = match event {
            Event::Lemma { .. } => self.list_lemmas,
            Event::QuickcheckStarted { .. } => false,
            _ => true,
        };
        if !shown {
            return Ok(());
        }
        self.out.write_all(event_text(file, event, self.color).as_bytes())?;
        self.out.flush()
    }

    fn summary(&mut self, tally: &Tally) -> io::Result<()> {
        self.out.write_all(summary_text(tally).as_bytes())?;
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Status;
    use analysis::{Origin, QuickcheckCommand};
    use lang::{Diagnostic, Span};

    fn file(text: &str) -> SourceFile {
        SourceFile::new("Arith.thy".into(), text.into())
    }

    /// A text whose line `line` starts at the returned offset.
    fn lines(line: usize) -> (String, Span) {
        let text = "\n".repeat(line - 1) + "x";
        (text, Span::new(line - 1, line))
    }

    #[test]
    fn a_value_is_one_line() {
        let (text, span) = lines(68);
        let ev = Event::Value {
            span,
            term_span: span,
            term: "(2 :: nat) ^ 100".into(),
            result: "1267650600228229401496703205376".into(),
            ty: "nat".into(),
        };
        assert_eq!(
            event_text(&file(&text), &ev, false),
            "Arith.thy:68: value \"(2 :: nat) ^ 100\" = 1267650600228229401496703205376 :: nat\n"
        );
    }

    #[test]
    fn lemmas_show_name_or_statement() {
        let (text, span) = lines(8);
        let qc = QuickcheckCommand {
            span: Span::new(8, 9),
            text: "quickcheck[random]".into(),
            options: vec![("random".into(), None)],
        };
        let named = Event::Lemma {
            span,
            name: Some("rev_append".into()),
            statement: "s".into(),
            statement_span: span,
            quickchecks: vec![qc.clone(), qc],
        };
        assert_eq!(event_text(&file(&text), &named, false), "Arith.thy:8: lemma rev_append (2 quickcheck commands)\n");
        let (text, span) = lines(3);
        let unnamed = Event::Lemma {
            span,
            name: None,
            statement: "a - b + b = a".into(),
            statement_span: span,
            quickchecks: vec![],
        };
        assert_eq!(
            event_text(&file(&text), &unnamed, false),
            "Arith.thy:3: lemma \"a - b + b = a\" (default quickcheck)\n"
        );
    }

    #[test]
    fn a_run_starting_prints_nothing() {
        let ev = Event::QuickcheckStarted { span: Span::new(0, 1) };
        assert_eq!(event_text(&file("x"), &ev, false), "");
        let mut out = Vec::new();
        Human::new(&mut out, false, true).event(&file("x"), &ev).unwrap();
        assert!(out.is_empty());
    }

    #[test]
    fn a_failed_value_is_an_error_diagnostic() {
        let text = "value \"loop 0\"\n";
        let d = Diagnostic::error(Span::new(7, 13), "evaluation did not finish: timeout")
            .with_label("while evaluating this `value`");
        let ev = Event::Diagnostic { diagnostic: d, origin: Origin::Evaluation };
        assert_eq!(
            event_text(&file(text), &ev, false),
            "error: evaluation did not finish: timeout\n --> Arith.thy:1:8\n  |\n1 | value \"loop 0\"\n  |        ^^^^^^ while evaluating this `value`\n\n"
        );
    }

    #[test]
    fn summary_pluralizes() {
        let t = Tally { errors: 1, values: 5, lemmas: 12, status: Status::InputError, ..Tally::default() };
        assert_eq!(summary_text(&t), "1 error, 5 values, 12 lemmas\n");
        let t = Tally { warnings: 2, values: 1, ..Tally::default() };
        assert_eq!(summary_text(&t), "0 errors, 2 warnings, 1 value, 0 lemmas\n");
        let t = Tally { values: 1, interrupted: Some(15), ..Tally::default() };
        assert_eq!(
            summary_text(&t),
            "0 errors, 1 value, 0 lemmas (interrupted by SIGTERM: the rest was not checked)\n"
        );
    }
}
