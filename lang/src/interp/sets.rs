//! Set operations on finite sets and complements of finite sets, by sorted merges.
//!
//! Every operation that can produce a complement takes the element type's universe when the
//! element type is finite (`univ`), and then returns the finite form, so that over finite
//! types equal sets are structurally equal. Elements are assumed canonical (functions in
//! their tabulated form; the evaluator canonicalises before inserting or testing membership).

use crate::value::{SetValue, Value};
use std::cmp::Ordering;
use std::rc::Rc;

fn merge_union(a: &[Value], b: &[Value]) -> Vec<Value> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            Ordering::Less => {
                out.push(a[i].clone());
                i += 1;
            }
            Ordering::Greater => {
                out.push(b[j].clone());
                j += 1;
            }
            Ordering::Equal => {
                out.push(a[i].clone());
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

fn merge_inter(a: &[Value], b: &[Value]) -> Vec<Value> {
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            Ordering::Less => i += 1,
            Ordering::Greater => j += 1,
            Ordering::Equal => {
                out.push(a[i].clone());
                i += 1;
                j += 1;
            }
        }
    }
    out
}

/// `a \ b`.
fn merge_diff(a: &[Value], b: &[Value]) -> Vec<Value> {
    let mut out = Vec::with_capacity(a.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() {
        if j >= b.len() {
            out.extend_from_slice(&a[i..]);
            break;
        }
        match a[i].cmp(&b[j]) {
            Ordering::Less => {
                out.push(a[i].clone());
                i += 1;
            }
            Ordering::Greater => j += 1,
            Ordering::Equal => {
                i += 1;
                j += 1;
            }
        }
    }
    out
}

fn is_subset(a: &[Value], b: &[Value]) -> bool {
    a.len() <= b.len() && merge_diff(a, b).is_empty()
}

fn disjoint(a: &[Value], b: &[Value]) -> bool {
    merge_inter(a, b).is_empty()
}

/// The set `compl ? - elems : elems`, in finite form when the universe is known.
fn make(compl: bool, elems: Vec<Value>, univ: Option<&Rc<[Value]>>) -> SetValue {
    match univ {
        Some(u) if compl => SetValue { compl: false, elems: merge_diff(u, &elems) },
        _ => SetValue { compl, elems },
    }
}

pub(crate) fn insert(s: &SetValue, x: Value) -> SetValue {
    let mut elems = s.elems.clone();
    match (elems.binary_search(&x), s.compl) {
        (Err(i), false) => elems.insert(i, x),
        (Ok(i), true) => {
            elems.remove(i);
        }
        _ => {}
    }
    SetValue { compl: s.compl, elems }
}

pub(crate) fn union(a: &SetValue, b: &SetValue, univ: Option<&Rc<[Value]>>) -> SetValue {
    match (a.compl, b.compl) {
        (false, false) => make(false, merge_union(&a.elems, &b.elems), univ),
        (true, true) => make(true, merge_inter(&a.elems, &b.elems), univ),
        (false, true) => make(true, merge_diff(&b.elems, &a.elems), univ),
        (true, false) => make(true, merge_diff(&a.elems, &b.elems), univ),
    }
}

pub(crate) fn inter(a: &SetValue, b: &SetValue, univ: Option<&Rc<[Value]>>) -> SetValue {
    match (a.compl, b.compl) {
        (false, false) => make(false, merge_inter(&a.elems, &b.elems), univ),
        (true, true) => make(true, merge_union(&a.elems, &b.elems), univ),
        (false, true) => make(false, merge_diff(&a.elems, &b.elems), univ),
        (true, false) => make(false, merge_diff(&b.elems, &a.elems), univ),
    }
}

pub(crate) fn compl(a: &SetValue, univ: Option<&Rc<[Value]>>) -> SetValue {
    make(!a.compl, a.elems.clone(), univ)
}

pub(crate) fn diff(a: &SetValue, b: &SetValue, univ: Option<&Rc<[Value]>>) -> SetValue {
    let nb = SetValue { compl: !b.compl, elems: b.elems.clone() };
    inter(a, &nb, univ)
}

/// `a ⊆ b`. A complement is never a subset of a finite set (the element type is infinite
/// whenever a complement is kept).
pub(crate) fn subset(a: &SetValue, b: &SetValue) -> bool {
    match (a.compl, b.compl) {
        (false, false) => is_subset(&a.elems, &b.elems),
        (true, true) => is_subset(&b.elems, &a.elems),
        (false, true) => disjoint(&a.elems, &b.elems),
        (true, false) => false,
    }
}
