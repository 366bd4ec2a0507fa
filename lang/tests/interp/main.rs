//! Tests of the reference interpreter and the IR text form (one test binary).
//!
//! - `fixtures`: the data-driven `tests/ir/*.ir` files (run lines, round trip).
//! - `arith`: properties of the arithmetic (proptest).
//! - `values`: the API on values: deep data, finite maps, enumeration, printing.
//! - `text`: the IR text form on programs the fixtures cannot express.

mod arith;
mod fixtures;
mod text;
mod values;
