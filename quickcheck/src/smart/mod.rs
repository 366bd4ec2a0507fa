//! The smart generators (issue 16), in parts: `modes` (mode analysis of the Horn clauses
//! `lang::core::horn` derives: for a relation run with some arguments known, the order in
//! which each clause's goals run and which variables are generated instead) and
//! `enumerate` (the plans run depth first on interpreter values, the reference version).
//! The `smart_exhaustive` tester (`testers::smart_exhaustive`) makes a query of each
//! premise and runs it here.

pub mod enumerate;
pub mod modes;
