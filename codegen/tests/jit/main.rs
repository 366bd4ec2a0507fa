//! The JIT's tests, in one binary: every check runs a case through the JIT and through the
//! reference interpreter and asserts the same outcome (`common::check`).

mod common;
mod fast_paths;
mod fixtures;
mod gen;
mod guards;
mod layout;
mod levels;
mod prelude;
#[path = "../support/signatures.rs"]
mod signatures;
mod size_limits;
#[path = "../../../tests/support/split_mix.rs"]
mod split_mix;
mod terms;
