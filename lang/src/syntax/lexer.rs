//! Placeholder: the outer lexer.
