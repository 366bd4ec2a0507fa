//! Placeholder: the per-file driver.
use crate::diagnostic::Diagnostic;
use crate::span::Span;

pub struct CheckedTheory {
    pub name: String,
    pub diagnostics: Vec<Diagnostic>,
    pub items: Vec<Item>,
}
pub struct Item {
    pub span: Span,
    pub kind: ItemKind,
}
pub enum ItemKind {}
pub fn check_theory(text: &str) -> CheckedTheory {
    let p = crate::syntax::parse_theory(text);
    CheckedTheory { name: p.theory.name.name, diagnostics: p.diagnostics, items: vec![] }
}
