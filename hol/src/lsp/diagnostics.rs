//! An analysis's events as LSP diagnostics: parse, type and evaluation errors at their
//! spans; a quickcheck run's finding (`analysis::findings`, the words `hol check` prints) at
//! the lemma, the assignment in the message and the evaluated terms as related
//! information. A run that found nothing publishes nothing: every lemma would carry a
//! marker, and the editor would show noise where the terminal shows one line.

use super::document::Text;
use analysis::Event;
use lang::{Diagnostic, Severity, Span};
use lsp_types::{self as lsp, DiagnosticRelatedInformation, DiagnosticSeverity, Location, Uri};

/// A document's name and text.
pub struct Document<'a> {
    pub uri: &'a Uri,
    pub text: &'a Text<'a>,
}

impl Document<'_> {
    /// The LSP range of a byte span (0-based lines and columns).
    pub fn range(&self, span: Span) -> lsp::Range {
        self.text.range(span)
    }
}

/// The diagnostic an event shows in the editor, if any.
pub fn of_event(doc: &Document, event: &Event) -> Option<lsp::Diagnostic> {
    match event {
        Event::Diagnostic { diagnostic, .. } => Some(of_diagnostic(doc, diagnostic)),
        Event::FileError { message, notes, help } => {
            let mut text = message.clone();
            for line in notes.iter().chain(help) {
                text.push('\n');
                text.push_str(line);
            }
            Some(lsp::Diagnostic {
                range: doc.range(Span::new(0, 0)),
                severity: Some(DiagnosticSeverity::ERROR),
                source: Some("hol".into()),
                message: text,
                ..lsp::Diagnostic::default()
            })
        }
        Event::Quickcheck(run) => run.finding().map(|d| of_diagnostic(doc, &d)),
        Event::Value { .. } | Event::Lemma { .. } | Event::QuickcheckStarted { .. } | Event::Ir { .. } => None,
    }
}

/// A diagnostic: its message with the primary label, notes and help on lines of their own;
/// secondary labels and `evaluated:` notes as related information at their spans.
fn of_diagnostic(doc: &Document, d: &Diagnostic) -> lsp::Diagnostic {
    let mut message = d.message.clone();
    let mut related = Vec::new();
    let mut line = |text: &str| {
        if !text.is_empty() {
            message.push('\n');
            message.push_str(text);
        }
    };
    line(&d.primary.message);
    for note in &d.notes {
        if note.starts_with("evaluated: ") {
            related.push(DiagnosticRelatedInformation {
                location: Location { uri: doc.uri.clone(), range: doc.range(d.primary.span) },
                message: note.clone(),
            });
        } else {
            line(note);
        }
    }
    for h in &d.help {
        line(&format!("help: {h}"));
    }
    for l in &d.secondary {
        related.push(DiagnosticRelatedInformation {
            location: Location { uri: doc.uri.clone(), range: doc.range(l.span) },
            message: l.message.clone(),
        });
    }
    lsp::Diagnostic {
        range: doc.range(d.primary.span),
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Info => DiagnosticSeverity::INFORMATION,
        }),
        source: Some("hol".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..lsp::Diagnostic::default()
    }
}
