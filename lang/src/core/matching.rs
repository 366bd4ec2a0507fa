//! Placeholder: pattern-match compilation.
