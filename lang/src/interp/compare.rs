//! Equality and order at a type, where the structural ones are not enough: types with
//! functions inside (extensional equality over an enumerable domain, otherwise
//! `NotExecutable`) and types with sets inside (sets ordered by inclusion). Also the canonical
//! form of values with functions inside (functions over finite domains tabulated into
//! `Closure::Map`s with the most frequent value as default), used for set elements.
//!
//! Walks over data are iterative (explicit work lists) or go through `eval`'s stack guard.

use super::eval::{ill, Run, R};
use super::sets;
use super::types::TyInfo;
use super::EvalError;
use crate::core::ir::Ty;
use crate::stack;
use crate::value::most_frequent;
use crate::value::{Closure, Value};
use std::cmp::Ordering;
use std::rc::Rc;

/// The result of comparing in a partial order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum POrd {
    Less,
    Equal,
    Greater,
    Incomparable,
}

impl POrd {
    pub fn is_lt(self) -> bool {
        self == POrd::Less
    }

    pub fn is_le(self) -> bool {
        matches!(self, POrd::Less | POrd::Equal)
    }

    fn of(o: Ordering) -> POrd {
        match o {
            Ordering::Less => POrd::Less,
            Ordering::Equal => POrd::Equal,
            Ordering::Greater => POrd::Greater,
        }
    }
}

impl Run<'_, '_> {
    fn type_name(&self, ty: &Ty) -> String {
        crate::core::type_syntax::print_type(self.code.prog, ty)
    }

    /// Equality at type `ty`.
    pub fn eq_typed(&mut self, a: &Value, b: &Value, ty: &Ty) -> R<bool> {
        let p = self.code.prog;
        let mut work: Vec<(Value, Value, &Ty)> = vec![(a.clone(), b.clone(), ty)];
        while let Some((a, b, ty)) = work.pop() {
            if a == b {
                continue;
            }
            if !self.code.ty(ty).has_fun {
                return Ok(false);
            }
            match ty {
                Ty::Fun(d, c) => {
                    if let Some(univ) = self.code.ty(d).univ(p).cloned() {
                        for x in univ.iter() {
                            let fa = self.apply(a.clone(), vec![x.clone()])?;
                            let fb = self.apply(b.clone(), vec![x.clone()])?;
                            work.push((fa, fb, c));
                        }
                        continue;
                    }
                    // Finite maps over an infinite domain are equal iff they have the same
                    // default and the same entries.
                    if let (Value::Fun(f), Value::Fun(g)) = (&a, &b) {
                        if let (Closure::Map { default: d1, entries: e1 }, Closure::Map { default: d2, entries: e2 }) =
                            (&**f, &**g)
                        {
                            if e1.len() != e2.len() || e1.iter().zip(e2).any(|((k1, _), (k2, _))| k1 != k2) {
                                return Ok(false);
                            }
                            work.push((d1.clone(), d2.clone(), c));
                            for ((_, v1), (_, v2)) in e1.iter().zip(e2) {
                                work.push((v1.clone(), v2.clone(), c));
                            }
                            continue;
                        }
                    }
                    let name = self.type_name(d);
                    return Err(EvalError::NotExecutable(format!("equality of functions over {name}")));
                }
                Ty::Data(id) => {
                    let (Value::Ctor(t, f), Value::Ctor(u, g)) = (&a, &b) else {
                        return Err(ill("datatype equality on values that are not datatype values"));
                    };
                    if t != u {
                        return Ok(false);
                    }
                    let Some(ctor) = p.data(*id).ctors.get(*t as usize) else {
                        return Err(ill("constructor tag out of range"));
                    };
                    for ((x, y), fty) in f.iter().zip(g.iter()).zip(&ctor.fields) {
                        work.push((x.clone(), y.clone(), fty));
                    }
                }
                // Set elements are canonical, so structural (in)equality decides.
                _ => return Ok(false),
            }
        }
        Ok(true)
    }

    /// The order at type `ty`: the structural order on plain types, inclusion on sets,
    /// pointwise on functions over finite domains, lexicographic through datatypes.
    pub fn cmp_typed(&mut self, a: &Value, b: &Value, ty: &Ty) -> R<POrd> {
        let p = self.code.prog;
        let mut work: Vec<(Value, Value, &Ty)> = vec![(a.clone(), b.clone(), ty)];
        while let Some((a, b, ty)) = work.pop() {
            let o = if self.code.ty(ty).plain_order {
                POrd::of(a.cmp(&b))
            } else {
                match (ty, &a, &b) {
                    (Ty::Data(id), Value::Ctor(t, f), Value::Ctor(u, g)) => {
                        if t == u {
                            let Some(ctor) = p.data(*id).ctors.get(*t as usize) else {
                                return Err(ill("constructor tag out of range"));
                            };
                            for ((x, y), fty) in f.iter().zip(g.iter()).zip(&ctor.fields).rev() {
                                work.push((x.clone(), y.clone(), fty));
                            }
                        }
                        POrd::of(t.cmp(u))
                    }
                    (Ty::Set(_), Value::Set(s), Value::Set(t)) => {
                        if s == t {
                            POrd::Equal
                        } else if sets::subset(s, t) {
                            POrd::Less
                        } else if sets::subset(t, s) {
                            POrd::Greater
                        } else {
                            POrd::Incomparable
                        }
                    }
                    (Ty::Fun(d, c), _, _) => {
                        let Some(univ) = self.code.ty(d).univ(p).cloned() else {
                            let name = self.type_name(d);
                            return Err(EvalError::NotExecutable(format!("order on functions over {name}")));
                        };
                        let (mut le, mut ge) = (true, true);
                        for x in univ.iter() {
                            let fa = self.apply(a.clone(), vec![x.clone()])?;
                            let fb = self.apply(b.clone(), vec![x.clone()])?;
                            let o = match stack::grow(|| self.cmp_typed(&fa, &fb, c)) {
                                Some(o) => o?,
                                None => return Err(EvalError::TooDeep),
                            };
                            le &= o.is_le();
                            ge &= matches!(o, POrd::Greater | POrd::Equal);
                        }
                        match (le, ge) {
                            (true, true) => POrd::Equal,
                            (true, false) => POrd::Less,
                            (false, true) => POrd::Greater,
                            (false, false) => POrd::Incomparable,
                        }
                    }
                    _ => return Err(ill("comparison of values of the wrong kind")),
                }
            };
            if o != POrd::Equal {
                return Ok(o);
            }
        }
        Ok(POrd::Equal)
    }

    /// The canonical form of `v` at type `t` (only values with functions inside change).
    pub fn canon(&mut self, v: Value, t: &TyInfo) -> R<Value> {
        if !t.has_fun {
            return Ok(v);
        }
        self.canon_at(v, &t.ty)
    }

    fn canon_at(&mut self, v: Value, ty: &Ty) -> R<Value> {
        match stack::grow(|| self.canon_here(v, ty)) {
            Some(r) => r,
            None => Err(EvalError::TooDeep),
        }
    }

    fn canon_here(&mut self, v: Value, ty: &Ty) -> R<Value> {
        let p = self.code.prog;
        if !self.code.ty(ty).has_fun {
            return Ok(v);
        }
        match ty {
            Ty::Fun(d, c) => {
                if self.code.ty(d).univ(p).is_some() {
                    return self.tabulate(&v, d, c);
                }
                if let Value::Fun(f) = &v {
                    if let Closure::Map { default, entries } = &**f {
                        let default = self.canon_at(default.clone(), c)?;
                        let mut es = Vec::with_capacity(entries.len());
                        for (k, x) in entries {
                            es.push((k.clone(), self.canon_at(x.clone(), c)?));
                        }
                        return Ok(Value::fun_map(default, es));
                    }
                }
                let name = self.type_name(d);
                Err(EvalError::NotExecutable(format!("sets of functions over {name}")))
            }
            Ty::Data(id) => {
                let Value::Ctor(tag, fields) = &v else { return Ok(v) };
                let Some(ctor) = p.data(*id).ctors.get(*tag as usize) else {
                    return Err(ill("constructor tag out of range"));
                };
                let mut out = Vec::with_capacity(fields.len());
                for (x, fty) in fields.iter().zip(&ctor.fields) {
                    out.push(self.canon_at(x.clone(), fty)?);
                }
                Ok(Value::ctor(*tag, out))
            }
            _ => Ok(v),
        }
    }

    /// The canonical finite map of `f` over the finite domain `d`: the most frequent result
    /// is the default (the smallest on ties), the others are entries.
    pub fn tabulate(&mut self, f: &Value, d: &Ty, c: &Ty) -> R<Value> {
        let p = self.code.prog;
        let Some(keys) = self.code.ty(d).univ(p).cloned() else {
            let name = self.type_name(d);
            return Err(EvalError::NotExecutable(format!("tabulating a function over {name}")));
        };
        let mut results: Vec<Value> = Vec::with_capacity(keys.len());
        for k in keys.iter() {
            let y = self.apply(f.clone(), vec![k.clone()])?;
            results.push(self.canon_at(y, c)?);
        }
        let mut distinct = results.clone();
        distinct.sort();
        distinct.dedup();
        let idx: Vec<usize> = results.iter().map(|y| distinct.binary_search(y).unwrap_or(0)).collect();
        if distinct.is_empty() {
            return Ok(f.clone());
        }
        let di = most_frequent(&idx, distinct.len());
        let entries =
            keys.iter().zip(results).zip(&idx).filter(|(_, &i)| i != di).map(|((k, y), _)| (k.clone(), y)).collect();
        Ok(Value::Fun(Rc::new(Closure::Map { default: distinct[di].clone(), entries })))
    }
}
