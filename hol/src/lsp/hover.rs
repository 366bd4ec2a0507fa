//! Hover: on a name in a lemma's statement, its type there (`analysis::names`); anywhere on
//! a lemma or its quickcheck commands, the lemma's whole report: each run's finding or
//! account in the words `hol check` prints (tester, size, tests, time, seed, the
//! counterexample and the evaluated terms).

use super::document::{Findings, Text};
use analysis::names::NameInfo;
use analysis::QuickcheckRun;
use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind};

/// The hover at `offset`: the name there (if any) and the report of the lemma there (if it
/// has one so far).
pub fn hover(text: &Text, findings: &Findings, name: Option<NameInfo>, offset: u32) -> Option<Hover> {
    let mut sections = Vec::new();
    let mut range = None;
    if let Some(n) = name {
        sections.push(format!("```isabelle\n{} :: {}\n```", n.name, n.ty));
        range = Some(text.range(n.span));
    }
    if let Some((lemma, runs)) = findings.lemma_at(offset) {
        if !runs.is_empty() {
            sections.push(report(&runs));
            range = range.or(Some(text.range(lemma.span)));
        }
    }
    if sections.is_empty() {
        return None;
    }
    let value = sections.join("\n\n---\n\n");
    Some(Hover { contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value }), range })
}

/// A lemma's runs, each as its finding (message and notes) or its one-line account.
pub fn report(runs: &[&QuickcheckRun]) -> String {
    let mut out = String::new();
    for run in runs {
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        let command = run.command.as_deref().unwrap_or("quickcheck (the defaults)");
        out.push_str(&format!("`{command}`\n\n"));
        match run.finding() {
            Some(d) => {
                out.push_str(&format!("**{}**\n", d.message));
                for note in &d.notes {
                    out.push_str(&format!("- {note}\n"));
                }
            }
            None => out.push_str(&format!("{}\n", run.account())),
        }
    }
    out
}
