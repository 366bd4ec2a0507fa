//! What an analysis reports, one `Event` at a time, in file order, as soon as each is known.
//! Events locate what they are about by byte spans into the file's text (`lang::Span`);
//! lines and columns are the renderer's business (`position::LineMap`). Every event is
//! `Send`, so an analysis on a worker thread can hand them to another.

use lang::{Diagnostic, Span};
use quickcheck::{Expect, Report};

/// Where an error-level diagnostic came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Parsing, type checking, definitions, reading: input errors.
    Check,
    /// A `value` that did not evaluate.
    Evaluation,
}

/// A `quickcheck` command as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuickcheckCommand {
    /// The command.
    pub span: Span,
    /// The command's source text, whitespace collapsed.
    pub text: String,
    /// Its options as written: name, and value if it has one.
    pub options: Vec<(String, Option<String>)>,
}

/// Something to report about a file.
#[derive(Clone, Debug)]
pub enum Event {
    /// A diagnostic located in the file.
    Diagnostic { diagnostic: Diagnostic, origin: Origin },
    /// An error about the file as a whole: it cannot be read, or checking it crashed.
    FileError { message: String, notes: Vec<String>, help: Vec<String> },
    /// A `value` command and its result.
    Value {
        /// The command.
        span: Span,
        /// The term.
        term_span: Span,
        /// The term's text, without quotes.
        term: String,
        /// The value in theory syntax.
        result: String,
        /// Its type (empty when unknown).
        ty: String,
    },
    /// A lemma that type-checked (or that cannot be tested), with its quickcheck commands.
    Lemma {
        /// The lemma.
        span: Span,
        name: Option<String>,
        /// The statement, on one line.
        statement: String,
        /// The statement.
        statement_span: Span,
        quickchecks: Vec<QuickcheckCommand>,
    },
    /// A quickcheck run is starting (a front end may show progress until its
    /// `Quickcheck` event).
    QuickcheckStarted {
        /// The command, or the lemma's statement when it has none.
        span: Span,
    },
    /// One quickcheck run on a lemma and what it found.
    Quickcheck(Box<QuickcheckRun>),
    /// The core IR of the file (`Options::dump_ir`).
    Ir { text: String },
}

/// One quickcheck run and everything its report needs.
#[derive(Clone, Debug)]
pub struct QuickcheckRun {
    /// The `quickcheck` command, or the lemma's statement when it has none.
    pub span: Span,
    pub lemma_name: Option<String>,
    /// The statement, on one line.
    pub statement: String,
    pub statement_span: Span,
    /// The command as written, on one line (`None`: the defaults).
    pub command: Option<String>,
    pub report: Report,
    /// Each evaluated term's source text and value.
    pub evaluated: Vec<(String, String)>,
    pub expect: Option<Expect>,
    /// `None` without an expectation.
    pub expect_met: Option<bool>,
    pub quiet: bool,
    pub verbose: bool,
    /// Show how many tests passed the premises.
    pub show_report: bool,
}

impl QuickcheckRun {
    /// Does the report say that hol itself failed (a panic inside a tester, caught)? That is
    /// an internal error, not a finding about the lemma.
    pub fn is_internal_error(&self) -> bool {
        crate::lemmas::is_internal_error(&self.report)
    }
}
