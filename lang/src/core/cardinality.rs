//! The cardinality of a core IR type: how many values it has, or that it is infinite. A
//! property of the types alone, used by the interpreter (enumeration, `finite`), compiled
//! code (`UNIV` and complements over finite types) and conjectures (quantifiers that can be
//! run).
//!
//! A type is finite when it is `bool`, a datatype whose constructors' fields are all finite
//! and that does not recur, a function type between finite types, or a set type over a
//! finite type. `nat`, `int` and recursive datatypes are infinite.

use super::ir::{DataId, Program, Ty};

/// The number of values of `ty` (saturating), `None` when infinite.
pub fn cardinality(p: &Program, ty: &Ty) -> Option<u128> {
    card(p, ty, &mut Vec::new())
}

fn card(p: &Program, ty: &Ty, visiting: &mut Vec<DataId>) -> Option<u128> {
    match ty {
        Ty::Bool => Some(2),
        Ty::Nat | Ty::Int => None,
        Ty::Data(id) => {
            if visiting.contains(id) || id.0 as usize >= p.datas.len() {
                return None;
            }
            visiting.push(*id);
            let mut total: u128 = 0;
            let mut infinite = false;
            for c in &p.data(*id).ctors {
                let mut prod: u128 = 1;
                for f in &c.fields {
                    match card(p, f, visiting) {
                        Some(n) => prod = prod.saturating_mul(n),
                        None => infinite = true,
                    }
                }
                total = total.saturating_add(prod);
            }
            visiting.pop();
            if infinite {
                None
            } else {
                Some(total)
            }
        }
        Ty::Fun(a, b) => {
            let (ca, cb) = (card(p, a, visiting)?, card(p, b, visiting)?);
            Some(pow_sat(cb, ca))
        }
        Ty::Set(a) => Some(pow_sat(2, card(p, a, visiting)?)),
    }
}

fn pow_sat(base: u128, exp: u128) -> u128 {
    if base <= 1 || exp == 0 {
        return if exp == 0 { 1 } else { base };
    }
    match u32::try_from(exp) {
        Ok(e) => base.checked_pow(e).unwrap_or(u128::MAX),
        Err(_) => u128::MAX,
    }
}
