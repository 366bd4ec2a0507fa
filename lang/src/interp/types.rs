//! What the interpreter knows about a monomorphic type, computed once per type and shared:
//! whether values of it contain functions (then equality needs the type), whether the
//! structural order is its HOL order (no sets or functions inside), and, for finite types,
//! the sorted list of all its values (its `UNIV`).

use crate::core::cardinality::cardinality;
use crate::core::ir::{Program, Ty};
use crate::value::Value;
use crate::value::{enumerate, ENUM_CAP};
use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

pub(crate) struct TyInfo {
    pub ty: Ty,
    /// Values contain functions: equality is extensional, set elements need canonical forms.
    pub has_fun: bool,
    /// No sets or functions inside: the structural order of values is the HOL order.
    pub plain_order: bool,
    univ: OnceCell<Option<Rc<[Value]>>>,
}

impl TyInfo {
    /// All values of the type, ascending; `None` when infinite or too large.
    pub fn univ(&self, p: &Program) -> Option<&Rc<[Value]>> {
        self.univ.get_or_init(|| enumerate(p, &self.ty).map(Rc::from)).as_ref()
    }

    /// Why the type cannot be enumerated, for `NotExecutable` messages: `what` is the
    /// construct ("quantifier over").
    pub fn not_enumerable(&self, p: &Program, what: &str) -> String {
        let name = crate::core::type_syntax::print_type(p, &self.ty);
        match cardinality(p, &self.ty) {
            None => format!("{what} the infinite type {name}"),
            Some(n) => format!("{what} {name}: {n} values, more than the limit of {ENUM_CAP}"),
        }
    }
}

/// The per-program table of `TyInfo`s.
#[derive(Default)]
pub(crate) struct Types {
    map: RefCell<HashMap<Ty, Rc<TyInfo>>>,
}

impl Types {
    pub fn get(&self, p: &Program, ty: &Ty) -> Rc<TyInfo> {
        if let Some(i) = self.map.borrow().get(ty) {
            return i.clone();
        }
        let info = Rc::new(TyInfo {
            ty: ty.clone(),
            has_fun: p.type_contains(ty, &|t| matches!(t, Ty::Fun(..))),
            plain_order: !p.type_contains(ty, &|t| matches!(t, Ty::Fun(..) | Ty::Set(_))),
            univ: OnceCell::new(),
        });
        self.map.borrow_mut().insert(ty.clone(), info.clone());
        info
    }
}
