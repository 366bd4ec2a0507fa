//! Tests of the reference interpreter and the IR text form (one test binary).
//!
//! - `fixtures`: the data-driven `tests/ir/*.ir` files (run lines, round trip).
//! - `passes`: the compiled-code passes, IR to IR (`tests/ir/passes/PASS/*.ir`).
//! - `arith`: properties of the arithmetic (proptest).
//! - `values`: the API on values: deep data, finite maps, enumeration, printing.
//! - `text`: the IR text form on programs the fixtures cannot express.

mod arith;
mod fixtures;
mod passes;
mod text;
mod values;
