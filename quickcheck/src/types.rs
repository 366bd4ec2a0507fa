//! Questions the testers ask about IR types: what the values of a type can contain.

use lang::core::ir::{DataId, Program, Ty};

/// Whether values of `ty` can contain functions.
pub fn has_functions(p: &Program, ty: &Ty) -> bool {
    p.type_contains(ty, &|t| matches!(t, Ty::Fun(..)))
}

/// Whether values of `ty` can contain values of datatype `d` (a field of `d` of such a type
/// is recursive).
pub fn mentions(p: &Program, ty: &Ty, d: DataId) -> bool {
    p.type_contains(ty, &|t| *t == Ty::Data(d))
}

/// Whether values of `ty` are built from numbers, booleans and constructors only (no sets,
/// no functions): generators can build them as JIT words directly.
pub fn words_ok(p: &Program, ty: &Ty) -> bool {
    !p.type_contains(ty, &|t| matches!(t, Ty::Fun(..) | Ty::Set(_)))
}
