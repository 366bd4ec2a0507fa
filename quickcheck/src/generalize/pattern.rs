//! Generalizations of one counterexample as patterns: the counterexample's values with some
//! parts replaced by variables (holes, `Value::Hole`), a variable possibly standing at
//! several places (equal values). Every pattern here has the counterexample as an instance.
//!
//! A hole is named by its position in the counterexample (the generated variable, then the
//! field indices down to it), so two ways of refining to the same pattern give the same
//! value, and a set of equal holes is always named by the same one of them: patterns compare
//! and deduplicate as plain values. Refining a pattern makes it one step less general:
//! a hole becomes its counterexample constructor over fresh holes, or its counterexample
//! number (or other atom), or the same variable as an earlier hole with an equal value.
//! Every pattern between the most general (a hole per variable) and the counterexample
//! itself is reached this way.

use lang::core::ir::{Program, Ty};
use lang::interp::{Hole, Value};
use std::collections::HashMap;

/// A position in the counterexample: the index of the generated variable, then the field
/// indices down to the part.
pub type Path = Vec<u32>;

/// What is known of a hole: where it stands in the counterexample, its type, and the value
/// the counterexample has there.
#[derive(Clone, Debug)]
pub struct HoleInfo {
    pub path: Path,
    pub ty: Ty,
    pub witness: Value,
}

/// Every hole made while generalizing one counterexample, by position.
#[derive(Default)]
pub struct Holes {
    pub info: Vec<HoleInfo>,
    by_path: HashMap<Path, u32>,
}

impl Holes {
    /// The hole at `path` (made on first use).
    pub fn at(&mut self, path: Path, ty: &Ty, witness: &Value) -> Value {
        let next = self.info.len() as u32;
        let id = *self.by_path.entry(path.clone()).or_insert(next);
        if id == next {
            self.info.push(HoleInfo { path, ty: ty.clone(), witness: witness.clone() });
        }
        Value::Hole(Hole::new(id))
    }

    pub fn get(&self, h: u32) -> &HoleInfo {
        &self.info[h as usize]
    }
}

/// A generalization: one pattern per generated variable.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pattern {
    pub parts: Vec<Value>,
}

impl Pattern {
    /// The most general pattern: each variable any value (a hole of its own).
    pub fn top(holes: &mut Holes, vars: &[(Ty, Value)]) -> Pattern {
        Pattern { parts: vars.iter().enumerate().map(|(i, (ty, w))| holes.at(vec![i as u32], ty, w)).collect() }
    }

    /// The holes of the pattern in order of first occurrence (depth first, left to right),
    /// each with its number of occurrences.
    pub fn holes(&self) -> Vec<(u32, usize)> {
        let mut out: Vec<(u32, usize)> = Vec::new();
        for p in &self.parts {
            visit_holes(p, &mut |h| match out.iter_mut().find(|(x, _)| *x == h) {
                Some((_, n)) => *n += 1,
                None => out.push((h, 1)),
            });
        }
        out
    }

    /// The patterns one step less general than this one.
    pub fn refinements(&self, holes: &mut Holes, prog: &Program) -> Vec<Pattern> {
        let mine = self.holes();
        let mut out = Vec::new();
        for &(h, _) in &mine {
            let HoleInfo { path, ty, witness } = holes.get(h).clone();
            let replacement = match (&witness, &ty) {
                (Value::Ctor(tag, fields), Ty::Data(d)) if !fields.is_empty() => {
                    let Some(ctor) = prog.data(*d).ctors.get(*tag as usize) else { continue };
                    let fresh = fields
                        .iter()
                        .zip(&ctor.fields)
                        .enumerate()
                        .map(|(i, (w, fty))| {
                            let mut p = path.clone();
                            p.push(i as u32);
                            holes.at(p, fty, w)
                        })
                        .collect();
                    Value::ctor(*tag, fresh)
                }
                // A number, a truth value, a nullary constructor, a set or a function: the
                // counterexample's own value.
                _ => witness.clone(),
            };
            out.push(self.substitute(h, &replacement));
        }
        // Two holes of equal values made one variable (the later position named by the
        // earlier).
        for (i, &(a, _)) in mine.iter().enumerate() {
            for &(b, _) in &mine[i + 1..] {
                let (ia, ib) = (holes.get(a), holes.get(b));
                if ia.ty == ib.ty && ia.witness == ib.witness {
                    let (keep, drop) = if order(&ia.path) < order(&ib.path) { (a, b) } else { (b, a) };
                    out.push(self.substitute(drop, &Value::Hole(Hole::new(keep))));
                }
            }
        }
        out
    }

    /// The pattern with hole `h` replaced by `by` everywhere.
    fn substitute(&self, h: u32, by: &Value) -> Pattern {
        Pattern { parts: self.parts.iter().map(|p| fill(p, &|x| (x == h).then(|| by.clone()))).collect() }
    }

    /// The values of the pattern with each hole replaced by `values[h]`.
    pub fn instance(&self, values: &dyn Fn(u32) -> Option<Value>) -> Vec<Value> {
        self.parts.iter().map(|p| fill(p, values)).collect()
    }

    /// Whether every instance of `other` is an instance of this pattern.
    pub fn generalizes(&self, other: &Pattern) -> bool {
        self.bind(other).is_some()
    }

    /// How specific the pattern is: the constructors and atoms it fixes, plus its repeated
    /// variables (occurrences beyond the first). Every refinement raises it.
    pub fn specificity(&self) -> usize {
        let holes = self.holes();
        let repeats: usize = holes.iter().map(|(_, n)| n - 1).sum();
        let mut fixed = 0;
        let mut work: Vec<&Value> = self.parts.iter().collect();
        while let Some(v) = work.pop() {
            match v {
                Value::Hole(_) => {}
                Value::Ctor(_, f) => {
                    fixed += 1;
                    work.extend(f.iter());
                }
                _ => fixed += 1,
            }
        }
        fixed + repeats
    }

    /// The values of this pattern's holes that make it `other`, if it generalizes `other`.
    pub fn bind(&self, other: &Pattern) -> Option<HashMap<u32, Value>> {
        let mut bound = HashMap::new();
        self.parts.iter().zip(&other.parts).all(|(g, s)| matches(g, s, &mut bound)).then_some(bound)
    }
}

/// Which of two equal holes names both: a lemma variable's own (so `xs = [x, x]` rather
/// than `xs = [y, y], x = y`), else the first position.
fn order(path: &Path) -> (bool, &Path) {
    (path.len() != 1, path)
}

fn visit_holes(v: &Value, f: &mut dyn FnMut(u32)) {
    match v {
        Value::Hole(h) => f(h.id),
        Value::Ctor(_, fields) => fields.iter().for_each(|x| visit_holes(x, f)),
        _ => {}
    }
}

/// `v` with each hole `h` for which `by(h)` gives a value replaced by it.
fn fill(v: &Value, by: &dyn Fn(u32) -> Option<Value>) -> Value {
    match v {
        Value::Hole(h) => by(h.id).unwrap_or_else(|| v.clone()),
        Value::Ctor(tag, fields) if has_hole(v) => Value::ctor(*tag, fields.iter().map(|x| fill(x, by)).collect()),
        _ => v.clone(),
    }
}

fn has_hole(v: &Value) -> bool {
    match v {
        Value::Hole(_) => true,
        Value::Ctor(_, fields) => fields.iter().any(has_hole),
        _ => false,
    }
}

/// Whether `specific` is an instance of `general`, its holes bound consistently in `bound`.
fn matches(general: &Value, specific: &Value, bound: &mut HashMap<u32, Value>) -> bool {
    match (general, specific) {
        (Value::Hole(h), _) => match bound.get(&h.id) {
            Some(v) => v == specific,
            None => {
                bound.insert(h.id, specific.clone());
                true
            }
        },
        (Value::Ctor(t, f), Value::Ctor(u, g)) => {
            t == u && f.len() == g.len() && f.iter().zip(g.iter()).all(|(a, b)| matches(a, b, bound))
        }
        (_, Value::Hole(_)) => false,
        _ => general == specific,
    }
}

/// Whether `values` have at most `limit` constructors and atoms in all. Counted with a
/// work list and stopped at the limit, so a counterexample of a million cells costs
/// `limit` steps, not a deep recursion.
pub fn fits<'v>(values: impl IntoIterator<Item = &'v Value>, limit: usize) -> bool {
    let mut work: Vec<&Value> = values.into_iter().collect();
    let mut n = 0;
    while let Some(v) = work.pop() {
        n += 1;
        if n > limit {
            return false;
        }
        if let Value::Ctor(_, f) = v {
            work.extend(f.iter());
        }
    }
    true
}
