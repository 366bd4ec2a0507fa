//! An open document: its text and version, what stops the analysis of its current text, the
//! quickcheck runs kept across its versions (`analysis::MemoryCache`), and what the analysis
//! of its current text has found so far (`Findings`), which hover, inlay hints and code
//! actions read. A document's analyses are told apart by a generation, not by the client's
//! version: a change of settings analyses the same version again.

use analysis::position::{Columns, LineMap, Position};
use analysis::{Cancel, MemoryCache, QuickcheckRun};
use lang::Span;
use lsp_types as lsp;
use std::sync::{Arc, Mutex};

pub struct Document {
    pub text: String,
    pub version: i32,
    /// Which analysis is current: only it may publish and record findings.
    pub generation: u64,
    /// Stops the analysis of the current text.
    pub cancel: Cancel,
    /// Runs that later versions reuse when what they depend on did not change.
    pub cache: Arc<MemoryCache>,
    pub findings: Arc<Mutex<Findings>>,
}

/// What the current analysis of a document reported so far.
#[derive(Default)]
pub struct Findings {
    /// The analysis these belong to.
    pub generation: u64,
    pub lemmas: Vec<Lemma>,
    pub runs: Vec<QuickcheckRun>,
}

/// A lemma as its `Event::Lemma` located it.
#[derive(Clone, Debug)]
pub struct Lemma {
    pub span: Span,
    pub statement_span: Span,
    /// Its quickcheck commands.
    pub commands: Vec<Span>,
}

impl Lemma {
    /// The lemma and its commands, from the first byte to the last.
    pub fn extent(&self) -> Span {
        let end = self.commands.iter().map(|c| c.end).fold(self.span.end, u32::max);
        Span { start: self.span.start, end }
    }

    /// Does the lemma or one of its commands hold `offset` (a cursor just past the end
    /// counts)?
    pub fn holds(&self, offset: u32) -> bool {
        let within = |s: &Span| s.start <= offset && offset <= s.end;
        within(&self.span) || self.commands.iter().any(within)
    }
}

impl Findings {
    /// The lemma at `offset` and its runs.
    pub fn lemma_at(&self, offset: u32) -> Option<(&Lemma, Vec<&QuickcheckRun>)> {
        let lemma = self.lemmas.iter().find(|l| l.holds(offset))?;
        Some((lemma, self.runs_of(lemma)))
    }

    pub fn runs_of(&self, lemma: &Lemma) -> Vec<&QuickcheckRun> {
        self.runs.iter().filter(|r| r.statement_span == lemma.statement_span).collect()
    }
}

/// A document's text with its line map, for converting positions both ways.
pub struct Text<'a> {
    pub text: &'a str,
    pub lines: LineMap,
    pub columns: Columns,
}

impl<'a> Text<'a> {
    pub fn new(text: &'a str, columns: Columns) -> Self {
        Text { text, lines: LineMap::new(text), columns }
    }

    /// The byte offset of an LSP position (0-based).
    pub fn offset(&self, p: lsp::Position) -> u32 {
        let position = Position { line: p.line.saturating_add(1), column: p.character.saturating_add(1) };
        self.lines.offset_in(position, self.columns)
    }

    /// The LSP position of a byte offset.
    pub fn position(&self, offset: u32) -> lsp::Position {
        let p = self.lines.position_in(offset, self.columns);
        lsp::Position { line: p.line - 1, character: p.column - 1 }
    }

    pub fn range(&self, span: Span) -> lsp::Range {
        lsp::Range { start: self.position(span.start), end: self.position(span.end.max(span.start)) }
    }
}

pub fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
