//! Finite types: the list of all their values (their cardinality is `core::cardinality`).
//!
//! A type is finite when it is `bool`, a datatype whose constructors' fields are all finite
//! and that does not recur (finite types `a1..ak`, `unit`, options, pairs and sums of finite
//! types), a function type between finite types (every function as a finite map), or a set
//! type over a finite type (the power set). `nat`, `int` and recursive datatypes are
//! infinite. Enumerations are refused beyond `ENUM_CAP` values.
//!
//! Values come out in ascending structural order, and functions in the canonical form the
//! interpreter compares them in (`Closure::Map` with the most frequent value as default).

use super::repr::{Closure, SetValue, Value};
use crate::core::cardinality::cardinality;
use crate::core::ir::{Program, Ty};
use std::rc::Rc;

/// The largest number of values an enumeration produces.
pub const ENUM_CAP: u64 = 1_000_000;

/// All values of `ty` in ascending structural order; `None` when `ty` is infinite or has more
/// than `ENUM_CAP` values.
pub fn enumerate(p: &Program, ty: &Ty) -> Option<Vec<Value>> {
    let n = cardinality(p, ty)?;
    if n > u128::from(ENUM_CAP) {
        return None;
    }
    let mut vals = build(p, ty);
    vals.sort();
    Some(vals)
}

/// Builds the values of a type known to be finite and small.
fn build(p: &Program, ty: &Ty) -> Vec<Value> {
    match ty {
        Ty::Bool => vec![Value::Bool(false), Value::Bool(true)],
        Ty::Nat | Ty::Int => Vec::new(),
        Ty::Data(id) => {
            let mut out = Vec::new();
            for (tag, c) in p.data(*id).ctors.iter().enumerate() {
                let fields: Vec<Vec<Value>> = c.fields.iter().map(|f| sorted(build(p, f))).collect();
                product(&fields, |vals| out.push(Value::ctor(tag as u32, vals.to_vec())));
            }
            out
        }
        Ty::Fun(a, b) => {
            let keys = sorted(build(p, a));
            let results = sorted(build(p, b));
            let mut out = Vec::new();
            if results.is_empty() {
                return out;
            }
            let choices: Vec<Vec<usize>> = keys.iter().map(|_| (0..results.len()).collect()).collect();
            product(&choices, |idx| out.push(map_of(&keys, &results, idx)));
            out
        }
        Ty::Set(a) => {
            let elems = sorted(build(p, a));
            let n = elems.len();
            let mut out = Vec::with_capacity(1 << n.min(20));
            for mask in 0u64..(1u64 << n) {
                let chosen = elems.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0);
                let elems = chosen.map(|(_, v)| v.clone()).collect();
                out.push(Value::Set(Rc::new(SetValue { compl: false, elems })));
            }
            out
        }
    }
}

fn sorted(mut v: Vec<Value>) -> Vec<Value> {
    v.sort();
    v
}

/// Calls `f` with every tuple of the cartesian product, last component fastest.
fn product<T: Clone>(sets: &[Vec<T>], mut f: impl FnMut(&[T])) {
    if sets.iter().any(|s| s.is_empty()) {
        return;
    }
    let mut idx = vec![0usize; sets.len()];
    let mut cur: Vec<T> = sets.iter().map(|s| s[0].clone()).collect();
    loop {
        f(&cur);
        let mut i = sets.len();
        loop {
            if i == 0 {
                return;
            }
            i -= 1;
            idx[i] += 1;
            if idx[i] < sets[i].len() {
                cur[i] = sets[i][idx[i]].clone();
                break;
            }
            idx[i] = 0;
            cur[i] = sets[i][0].clone();
        }
    }
}

/// The index of the most frequent result, the smallest on ties.
pub(crate) fn most_frequent(idx: &[usize], n: usize) -> usize {
    let mut counts = vec![0usize; n];
    for &i in idx {
        counts[i] += 1;
    }
    let mut best = 0;
    for (i, &c) in counts.iter().enumerate() {
        if c > counts[best] {
            best = i;
        }
    }
    best
}

/// The canonical finite map sending `keys[i]` to `results[idx[i]]`.
fn map_of(keys: &[Value], results: &[Value], idx: &[usize]) -> Value {
    let d = most_frequent(idx, results.len());
    let entries =
        keys.iter().zip(idx).filter(|(_, &i)| i != d).map(|(k, &i)| (k.clone(), results[i].clone())).collect();
    Value::Fun(Rc::new(Closure::Map { default: results[d].clone(), entries }))
}
