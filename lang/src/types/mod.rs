//! Types and the typed theory: type representation (`ty`), classes and sorts (`classes`),
//! unification (`unify`), the environment (`env`), builtins (`builtins`), the typed terms
//! (`hir`) and its image as bytes (`image`), elaboration of surface terms (`elab`) and the command checker (`check`);
//! imports (`imports`), Isabelle's constants as data (`isabelle`) and what unknown names
//! mean (`scope`). The per-file driver that runs them is `crate::theory`.

pub mod builtins;
pub(crate) mod check;
pub mod classes;
mod code;
pub mod elab;
pub mod env;
pub mod hir;
pub mod image;
pub mod imports;
pub mod isabelle;
pub mod options;
pub mod scope;
pub mod ty;
pub mod unify;
