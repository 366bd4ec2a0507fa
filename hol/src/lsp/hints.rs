//! A refuted lemma's counterexample on the lemma itself (`counterexample: xs = [a1, a2]`,
//! the words of the diagnostic's note), so it is read without opening the diagnostic: an
//! inlay hint after the statement, or, for a client without inlay hints (Neovim before
//! 0.10), a code lens over the lemma.

use super::document::{Findings, Text};
use lsp_types::{CodeLens, Command, InlayHint, InlayHintLabel, Range};

/// The hints of the runs whose statement ends inside `range`.
pub fn hints(text: &Text, findings: &Findings, range: Range) -> Vec<InlayHint> {
    let mut hints: Vec<InlayHint> = Vec::new();
    for run in &findings.runs {
        let Some(words) = run.assignment_words() else { continue };
        // After the statement's closing quote or cartouche: the hint follows the lemma as
        // written.
        let end = run.statement_span.end as usize;
        let close = text.text.get(end..).and_then(|rest| rest.chars().next()).map_or(0, char::len_utf8);
        let at = text.position((end + close) as u32);
        if at < range.start || at > range.end || hints.iter().any(|h| h.position == at) {
            continue;
        }
        hints.push(InlayHint {
            position: at,
            label: InlayHintLabel::String(words),
            kind: None,
            text_edits: None,
            tooltip: None,
            padding_left: Some(true),
            padding_right: None,
            data: None,
        });
    }
    hints
}

/// One code lens per refuted lemma, over its first line, titled with the counterexample.
/// The lens runs nothing: its command is only its title.
pub fn lenses(text: &Text, findings: &Findings) -> Vec<CodeLens> {
    let mut lenses: Vec<CodeLens> = Vec::new();
    for lemma in &findings.lemmas {
        let words = findings.runs_of(lemma).into_iter().find_map(|r| r.assignment_words());
        let Some(title) = words else { continue };
        let start = text.position(lemma.span.start);
        let range = Range { start, end: start };
        lenses.push(CodeLens {
            range,
            command: Some(Command { title, command: String::new(), arguments: None }),
            data: None,
        });
    }
    lenses
}
