//! The SMT solver and the encoding the `smt` tester (`testers::smt`) queries it with.

pub mod encode;
pub mod solver;
