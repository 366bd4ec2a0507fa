//! Inlay hints: after the statement of a refuted lemma, its counterexample on the line
//! itself (`counterexample: xs = [a1, a2]`, the words of the diagnostic's note), so it is
//! read without opening the diagnostic.

use super::document::{Findings, Text};
use lsp_types::{InlayHint, InlayHintLabel, Range};

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
