//! The core IR (`ir`), its text form (`print`, `parse`) and the lowering of the typed theory
//! into it (`lower`, with pattern-match compilation in `matching`); lemmas lowered for testing
//! (`conjecture`); specialisation of higher-order functions for compiled code (`specialize`).

pub mod conjecture;
pub mod ir;
pub mod lower;
mod matching;
pub mod parse;
pub mod print;
pub mod specialize;
