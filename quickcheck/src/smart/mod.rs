//! The smart generators (issue 16), in parts: `modes` (mode analysis of the Horn clauses
//! `lang::core::horn` derives: for a relation run with some arguments known, the order in
//! which each clause's goals run and which variables are generated instead). The
//! enumerators that run the plans and the `smart_exhaustive` tester are still to come, so
//! no tester uses this yet.

pub mod modes;
