//! Reading theory text: the outer lexer and parser for commands, and the inner lexer and
//! parser for the terms and types inside quotes and cartouches. Parsing never fails: it
//! returns a tree (possibly with commands missing) and the diagnostics found on the way.

pub mod ast;
mod inner_lexer;
mod lexer;
mod parser;

pub use parser::{parse_term, parse_theory, parse_type, Parsed};
