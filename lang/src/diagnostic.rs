//! Diagnostics as plain data: a level, a message, labelled spans, notes and help lines.
//! Rendering (terminal, JSON, LSP) belongs to the `hol` binary; nothing here prints.

use crate::span::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Info,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    /// Shown beside the span; may be empty.
    pub message: String,
}

/// One diagnostic. `message` and the primary label each make sense alone
/// (editors show only those), in lower case in the manner of rustc.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub primary: Label,
    pub secondary: Vec<Label>,
    /// `= note:` lines.
    pub notes: Vec<String>,
    /// `= help:` lines.
    pub help: Vec<String>,
}

impl Diagnostic {
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            primary: Label { span, message: String::new() },
            secondary: Vec::new(),
            notes: Vec::new(),
            help: Vec::new(),
        }
    }

    pub fn warning(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Warning, ..Diagnostic::error(span, message) }
    }

    pub fn info(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Info, ..Diagnostic::error(span, message) }
    }

    pub fn with_label(mut self, message: impl Into<String>) -> Diagnostic {
        self.primary.message = message.into();
        self
    }

    pub fn with_secondary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.secondary.push(Label { span, message: message.into() });
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help.push(help.into());
        self
    }
}
