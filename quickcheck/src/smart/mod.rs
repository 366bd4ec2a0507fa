//! The smart generators (issue 16), in parts: `modes` (mode analysis of the Horn clauses
//! `lang::core::horn` derives: for a relation run with some arguments known, the order in
//! which each clause's goals run and which variables are generated instead) and
//! `enumerate` (the plans run depth first on interpreter values, the reference version) and
//! `premises` (a lemma's premises as queries, in an order chosen by probing: the
//! assignments that satisfy them). The `smart_exhaustive` tester
//! (`testers::smart_exhaustive`) checks the conclusion on each.

pub mod enumerate;
pub mod modes;
pub mod premises;
