//! The core IR (`ir`), its text form (`print`, `parse`) and the lowering of the typed theory
//! into it (`lower`, with pattern-match compilation in `matching`); lemmas lowered for testing
//! (`conjecture`), with their quantifiers moved to the front for narrowing (`prenex`); functions as
//! Horn clauses for the smart generators (`horn`), with conjunctions of predicates on one value fused (`fuse`); the cardinality of a type (`cardinality`); for compiled code, specialisation of higher-order functions (`specialize`)
//! and quantifiers over recursively built sets as walks (`set_quantifiers`), sharing
//! `rewrite`, and rebuilt constructor cells as the matched value (`reuse_cells`).

pub mod cardinality;
pub mod conjecture;
pub mod fuse;
pub mod guards;
pub mod horn;
pub mod ir;
pub mod lower;
mod matching;
pub mod parse;
pub mod prenex;
pub mod print;
pub mod reuse_cells;
mod rewrite;
pub mod set_quantifiers;
pub mod specialize;
pub mod type_syntax;
