//! `narrowing`: the `narrowing` tester, symbolic testing with partial values. Instead of
//! enumerating whole values, it evaluates the conjecture on partial ones, whose unknown
//! parts are holes (`lang::interp::Hole`), and refines a variable only where evaluation
//! needs to look inside it, so one evaluation decides every value that agrees on the parts
//! it looked at (§5 of Bulwahn's "The New Quickcheck for Isabelle"; Lazy SmallCheck).
//!
//! Map: `tester` (the registry row), `search` (refinement, depth first, over one type
//! instance and size), `assignment` (the partial values: slots, alternatives by size), `arena_words`
//! (the same partial values kept as words in compiled code's arena, refined in place),
//! `evaluator` (a part on a partial case: the interpreter, or code compiled for partial
//! words, `codegen::Jit::narrowing`).
//!
//! What it does not know: how a case is evaluated beyond the contract for holes that the
//! interpreter and compiled code share (`lang::value::holes`, `codegen::holes`), and everything around a search (sizes, instances,
//! limits, re-checks, reports), which is `quickcheck::driver`'s, as for every tester.

mod arena_words;
mod assignment;
mod evaluator;
mod quantified;
mod search;
mod tester;

pub use tester::NarrowingTester;
