//! Random values of IR types, for the differential tests: the shared SplitMix64 generator
//! (`tests/support/split_mix.rs`, so a printed seed replays anywhere) and a size-bounded
//! generator by type. Numbers are small mostly and sometimes past 64 bits, so the JIT's
//! hand-over path is exercised.

use lang::core::ir::{FunId, Program, Ty};
use lang::interp::{Closure, Fields, Int, SetValue, Value};
use num_bigint::BigInt;
use std::rc::Rc;

pub use crate::split_mix::Rng;

fn big_nat(r: &mut Rng) -> Value {
    let base = match r.below(3) {
        0 => BigInt::from(i64::MAX),
        1 => BigInt::from(u64::MAX),
        _ => BigInt::from(1) << 100,
    };
    let off = r.below(5) as i64 - 2;
    let v = base + off;
    Value::Int(Int::from(if v < BigInt::from(0) { BigInt::from(0) } else { v }))
}

/// A random value of `ty` with size about `size`; `None` when the type has no generator
/// (sets, functions no top-level function of the program has).
pub fn value(p: &Program, ty: &Ty, size: u32, r: &mut Rng) -> Option<Value> {
    Some(match ty {
        Ty::Bool => Value::Bool(r.chance(2)),
        Ty::Nat => {
            if r.chance(25) {
                big_nat(r)
            } else {
                Value::nat(r.below(2 * size as u64 + 2))
            }
        }
        Ty::Int => {
            if r.chance(25) {
                let Value::Int(i) = big_nat(r) else { unreachable!() };
                let b = i.to_bigint();
                Value::Int(Int::from(if r.chance(2) { -b } else { b }))
            } else {
                let s = size as i64 + 1;
                Value::int(r.below(2 * s as u64 + 1) as i64 - s)
            }
        }
        Ty::Data(d) => {
            let data = p.data(*d);
            let recursive = |c: &lang::core::ir::CtorDef| c.fields.iter().filter(|t| **t == Ty::Data(*d)).count();
            let candidates: Vec<usize> = if size == 0 {
                let min = data.ctors.iter().map(recursive).min().unwrap_or(0);
                (0..data.ctors.len()).filter(|i| recursive(&data.ctors[*i]) == min).collect()
            } else {
                (0..data.ctors.len()).collect()
            };
            let tag = candidates[r.below(candidates.len() as u64) as usize];
            let c = &data.ctors[tag];
            let mut fields = Vec::new();
            for t in &c.fields {
                fields.push(value(p, t, size.saturating_sub(1), r)?);
            }
            Value::ctor(tag as u32, fields)
        }
        Ty::Fun(a, b) if r.chance(2) && !matches!(**a, Ty::Fun(..) | Ty::Set(_)) => {
            // A finite map with a default, the form quickcheck generates functions in.
            let default = value(p, b, size / 2, r)?;
            let mut entries = Vec::new();
            for _ in 0..r.below(4) {
                entries.push((value(p, a, size / 2, r)?, value(p, b, size / 2, r)?));
            }
            Value::fun_map(default, entries)
        }
        Ty::Fun(..) => {
            let fs = fun_sources(p, ty);
            if fs.is_empty() {
                return None;
            }
            let (f, k) = fs[r.below(fs.len() as u64) as usize];
            let mut args = Vec::new();
            for (_, t) in &p.fun(f).params[..k] {
                args.push(value(p, t, size / 2, r)?);
            }
            Value::Fun(Rc::new(Closure::Partial { fun: f, args: Fields::new(args) }))
        }
        Ty::Set(e) => {
            let mut elems = Vec::new();
            for _ in 0..r.below(size as u64 / 2 + 2) {
                elems.push(value(p, e, size / 2, r)?);
            }
            // Complements only over infinite element types (the canonical form).
            if lang::interp::cardinality(p, e).is_none() && r.chance(4) {
                Value::set(SetValue::cofinite(elems))
            } else {
                Value::set(SetValue::finite(elems))
            }
        }
    })
}

/// Top-level functions that, given their first `k` arguments, have type `ty`.
fn fun_sources(p: &Program, ty: &Ty) -> Vec<(FunId, usize)> {
    let mut out = Vec::new();
    for (i, f) in p.funs.iter().enumerate() {
        for k in 0..f.params.len() {
            let mut t = f.ret.clone();
            for (_, pt) in f.params[k..].iter().rev() {
                t = Ty::fun(pt.clone(), t);
            }
            if &t == ty && f.params[..k].iter().all(|(_, t)| !matches!(t, Ty::Fun(..) | Ty::Set(_))) {
                out.push((FunId(i as u32), k));
            }
        }
    }
    out
}
