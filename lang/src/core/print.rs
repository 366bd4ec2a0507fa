//! Placeholder: the text form of the core IR.
use super::ir::Program;
pub fn print_program(p: &Program) -> String { format!("{p:#?}") }
