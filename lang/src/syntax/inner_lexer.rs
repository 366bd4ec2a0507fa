//! Placeholder: the inner lexer.
