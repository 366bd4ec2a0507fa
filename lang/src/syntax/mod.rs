//! Reading theory text: the outer lexer and parser for commands, and the inner lexer and
//! parser for the terms and types inside quotes and cartouches. Parsing never fails: it
//! returns a tree (possibly with commands missing) and the diagnostics found on the way.
//!
//! Layout: `lexer` (outer tokens) → `parser` (chunks at command keywords, drives the
//! grammars) → `outer.lalrpop` (commands) → `inner_lexer` + `inner.lalrpop` (terms and
//! types) → `construct` (AST building, operator precedence). `errors` words parse errors.

// Diagnostics are plain values returned by value, as the public API requires.
#![allow(clippy::result_large_err)]

pub mod ast;
mod construct;
mod errors;
mod generated;
mod inner_lexer;
mod lexer;
pub mod notation;
mod parser;

lalrpop_util::lalrpop_mod!(
    #[allow(clippy::all, clippy::pedantic, unused_parens, unused_mut, dead_code, unused_imports)]
    inner,
    "/syntax/inner.rs"
);
lalrpop_util::lalrpop_mod!(
    #[allow(clippy::all, clippy::pedantic, unused_parens, unused_mut, dead_code, unused_imports)]
    outer,
    "/syntax/outer.rs"
);

pub use construct::{record_ext_constructor, record_ext_fields, record_fields};
pub(crate) use parser::edit_distance;
pub use parser::{parse_term, parse_theory, parse_theory_with, parse_type, CommandClass, Parsed, COMMANDS};

#[cfg(test)]
mod tests;
