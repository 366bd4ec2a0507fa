//! `lang`: the theory language of `hol` and everything that needs no back end.
//!
//! Data flow: text → `syntax` (logos lexers, lalrpop grammars; an AST with spans) →
//! `types` (name resolution, Hindley–Milner inference with sorts, a typed theory) →
//! `core::lower` (pattern-match compilation and monomorphization into the core IR) →
//! `value` (runtime values, shared with compiled code) → `interp` (the reference
//! interpreter over the core IR). `theory` drives the pipeline for
//! one file and is what the `hol` binary calls.
//!
//! Invariants: no IO (the prelude is compiled in); nothing here knows of Cranelift, rand,
//! terminals, JSON or LSP; parsing never fails, it returns a tree and diagnostics; spans are
//! byte ranges and line/column conversion happens at the edges.

// A `Diagnostic` is a few hundred bytes; it travels only on the error path (one per failed
// command), so boxing it everywhere would add noise for no measurable gain.
#![allow(clippy::result_large_err)]

pub mod core;
pub mod diagnostic;
pub mod interp;
pub mod prelude;
pub mod span;
mod stack;
pub mod syntax;
pub mod theory;
pub mod types;
pub mod value;

pub use diagnostic::{Diagnostic, Label, Severity};
pub use span::Span;
pub use theory::{
    check_theory, check_theory_with, CheckedTheory, Item, ItemKind, QuickcheckCmd, RawOption, TheoryLoader,
    ValueOutcome,
};
