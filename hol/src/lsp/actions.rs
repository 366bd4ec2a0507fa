//! Code actions on a refuted lemma: insert the `quickcheck[...]` command that replays the
//! counterexample (the tester and the size it was found at), or one that records it as
//! expected (`expect = counterexample`), on a new line after the lemma's last command,
//! unless the lemma already has that command.
//! Theories have no seed option, so a random counterexample is replayed by its tester and
//! size, which finds one again but not necessarily the same.

use super::document::{Findings, Text};
use lsp_types::{CodeAction, CodeActionKind, CodeActionOrCommand, Position, Range, TextEdit, Uri, WorkspaceEdit};
use quickcheck::OutcomeKind;
use std::collections::HashMap;

/// The actions for the lemmas that `range` touches.
pub fn actions(uri: &Uri, text: &Text, findings: &Findings, range: Range) -> Vec<CodeActionOrCommand> {
    let (start, end) = (text.offset(range.start), text.offset(range.end));
    let mut out = Vec::new();
    for lemma in &findings.lemmas {
        let extent = lemma.extent();
        if extent.end < start || end < extent.start {
            continue;
        }
        let Some(run) = findings.runs_of(lemma).into_iter().find(|r| r.report.outcome == OutcomeKind::Counterexample)
        else {
            continue;
        };
        let replay = format!("quickcheck[{}, size = {}]", run.report.tester.name(), run.report.size);
        let expect =
            format!("quickcheck[{}, size = {}, expect = counterexample]", run.report.tester.name(), run.report.size);
        // The end of the last line of the lemma and its commands.
        let last = text.position(extent.end);
        let at = Position { line: last.line, character: u32::MAX };
        let at = text.position(text.offset(at));
        // A command the lemma already has is not offered again.
        let written: Vec<&str> = findings.runs_of(lemma).iter().filter_map(|r| r.command.as_deref()).collect();
        let offers = [("Replay this counterexample", replay), ("Expect this counterexample", expect)];
        for (title, command) in offers.into_iter().filter(|(_, c)| !written.contains(&c.as_str())) {
            let edit = TextEdit { range: Range { start: at, end: at }, new_text: format!("\n  {command}") };
            out.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: format!("{title}: insert `{command}`"),
                kind: Some(CodeActionKind::QUICKFIX),
                edit: Some(WorkspaceEdit {
                    changes: Some(HashMap::from([(uri.clone(), vec![edit])])),
                    ..WorkspaceEdit::default()
                }),
                ..CodeAction::default()
            }));
        }
    }
    out
}
