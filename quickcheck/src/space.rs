//! The values of a type up to a size, as the exhaustive tester enumerates them: Isabelle's
//! size semantics (Bulwahn, §3.2). At size `i`: `nat` is `0..=i`, `int` is `-i..=i`, `bool`
//! and enumeration types (the finite types `a1, a2, ...`) are all their values; a datatype
//! value needs `i > 0` and its constructor's fields are of size `i - 1` (so a list has at
//! most `i - 1` elements, the first of size `i - 1`, the next of size `i - 2`, ...), except
//! pairs, whose components keep size `i`;
//! sets are built from at most `i - 1` elements of size `i - 1`; functions over a finite
//! domain are all functions into the codomain at size `i - 1`, over an infinite domain they
//! are finite maps `(λ_. d)(k1 := v1, ...)` with at most `i - 1` updates, keys and values of
//! size `i - 1`.
//!
//! A space is indexable: `value(n)` is its `n`-th value, so testers iterate by index, and a
//! space too big to keep as a table stays a lazy product of smaller spaces whose values are
//! built on demand.

use lang::core::ir::{Program, Ty};
use lang::interp::{cardinality, SetValue, Value};
use std::collections::HashMap;
use std::rc::Rc;

/// Spaces with at most this many values are kept as tables.
const TABLE_CAP: u64 = 1 << 17;

/// The number of values of a space that is not a product of smaller ones (sets, functions)
/// above which the exhaustive tester gives up that size.
const BUILD_CAP: u64 = 1 << 20;

#[derive(Debug)]
pub enum Space {
    Table(Vec<Value>),
    /// Constructor alternatives, each a product of field spaces.
    Ctors {
        alts: Vec<Alt>,
        count: u64,
    },
}

#[derive(Debug)]
pub struct Alt {
    pub tag: u32,
    pub fields: Vec<Rc<Space>>,
    /// The type of each field.
    pub tys: Vec<Ty>,
    pub count: u64,
    /// The index of this alternative's first value in its space: `locate` finds an
    /// alternative by binary search, so a type with n constructors costs log n per value,
    /// not n (enumerating 80,000 constructors took 2 s).
    pub start: u64,
}

impl Alt {
    /// The `n`-th value of this alternative (`n < count`).
    pub fn value(&self, mut n: u64) -> Value {
        // Mixed radix, last field fastest.
        let mut fields = Vec::with_capacity(self.fields.len());
        for f in self.fields.iter().rev() {
            let c = f.count();
            fields.push(f.value(n % c));
            n /= c;
        }
        fields.reverse();
        Value::ctor(self.tag, fields)
    }
}

/// A space that would be too big to build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooBig;

impl Space {
    pub fn count(&self) -> u64 {
        match self {
            Space::Table(v) => v.len() as u64,
            Space::Ctors { count, .. } => *count,
        }
    }

    /// The `n`-th value (`n < count()`).
    pub fn value(&self, n: u64) -> Value {
        match self {
            Space::Table(v) => v[n as usize].clone(),
            Space::Ctors { .. } => {
                let (a, n) = self.locate(n).expect("index below count");
                a.value(n)
            }
        }
    }

    /// The alternative value `n` of a lazy space falls in, and its index within it.
    pub fn locate(&self, n: u64) -> Option<(&Alt, u64)> {
        let (i, k) = self.locate_index(n)?;
        Some((&self.alts()[i], k))
    }

    /// The position in `alts()` of the alternative value `n` of a lazy space falls in, and
    /// the value's index within it.
    pub fn locate_index(&self, n: u64) -> Option<(usize, u64)> {
        let Space::Ctors { alts, count } = self else { return None };
        if n >= *count {
            return None;
        }
        // The last alternative starting at or before `n` (alternatives are never empty).
        let i = alts.partition_point(|a| a.start <= n).checked_sub(1)?;
        Some((i, n - alts[i].start))
    }

    /// The alternatives of a lazy space (none for a table).
    pub fn alts(&self) -> &[Alt] {
        match self {
            Space::Ctors { alts, .. } => alts,
            Space::Table(_) => &[],
        }
    }

    pub fn as_table(&self) -> Option<&[Value]> {
        match self {
            Space::Table(v) => Some(v),
            Space::Ctors { .. } => None,
        }
    }
}

/// Builds and shares the spaces of one program.
pub struct Spaces<'p> {
    prog: &'p Program,
    memo: HashMap<(Ty, u64), Rc<Space>>,
    /// The spaces found too big to build, so that asking again costs nothing.
    too_big: std::collections::HashSet<(Ty, u64)>,
}

impl<'p> Spaces<'p> {
    pub fn new(prog: &'p Program) -> Spaces<'p> {
        Spaces { prog, memo: HashMap::new(), too_big: Default::default() }
    }

    pub fn space(&mut self, ty: &Ty, size: u64) -> Result<Rc<Space>, TooBig> {
        if let Some(s) = self.memo.get(&(ty.clone(), size)) {
            return Ok(s.clone());
        }
        if self.too_big.contains(&(ty.clone(), size)) {
            return Err(TooBig);
        }
        let s = match self.build(ty, size) {
            Ok(s) => Rc::new(s),
            Err(e) => {
                self.too_big.insert((ty.clone(), size));
                return Err(e);
            }
        };
        self.memo.insert((ty.clone(), size), s.clone());
        Ok(s)
    }

    /// The space as a table of values, if it is not too big for one.
    fn table(&mut self, ty: &Ty, size: u64) -> Result<Vec<Value>, TooBig> {
        let s = self.space(ty, size)?;
        if s.count() > BUILD_CAP {
            return Err(TooBig);
        }
        Ok((0..s.count()).map(|i| s.value(i)).collect())
    }

    fn build(&mut self, ty: &Ty, size: u64) -> Result<Space, TooBig> {
        let below = size.saturating_sub(1);
        Ok(match ty {
            Ty::Bool => Space::Table(vec![Value::Bool(false), Value::Bool(true)]),
            Ty::Nat => Space::Table((0..=size).map(Value::nat).collect()),
            Ty::Int => {
                let size = size.min(i64::MAX as u64 / 2) as i64;
                let mut v = vec![Value::int(0)];
                for k in 1..=size {
                    v.push(Value::int(k));
                    v.push(Value::int(-k));
                }
                Space::Table(v)
            }
            Ty::Data(d) => {
                let dd = self.prog.data(*d);
                let enumeration = dd.ctors.iter().all(|c| c.fields.is_empty());
                if size == 0 && !enumeration {
                    return Ok(Space::Table(Vec::new()));
                }
                let field_size = if dd.name == "prod" { size } else { below };
                let mut alts = Vec::new();
                let mut count: u64 = 0;
                for (tag, c) in dd.ctors.clone().iter().enumerate() {
                    let mut fields = Vec::new();
                    let mut n: u64 = 1;
                    for f in &c.fields {
                        let s = self.space(f, field_size)?;
                        n = n.saturating_mul(s.count());
                        fields.push(s);
                    }
                    if n > 0 {
                        alts.push(Alt { tag: tag as u32, fields, tys: c.fields.clone(), count: n, start: count });
                        count = count.saturating_add(n);
                    }
                }
                if count <= TABLE_CAP {
                    // Alternative by alternative, in index order.
                    Space::Table(alts.iter().flat_map(|a| (0..a.count).map(|i| a.value(i))).collect())
                } else {
                    Space::Ctors { alts, count }
                }
            }
            Ty::Set(e) => {
                let elems = self.table(e, below)?;
                let max = if size == 0 { 0 } else { below as usize };
                let mut out = Vec::new();
                subsets(&elems, max, &mut |s| {
                    out.push(Value::set(SetValue::finite(s.to_vec())));
                    out.len() as u64 <= BUILD_CAP
                });
                if out.len() as u64 > BUILD_CAP {
                    return Err(TooBig);
                }
                Space::Table(out)
            }
            Ty::Fun(a, b) => Space::Table(self.functions(a, b, size)?),
        })
    }

    fn functions(&mut self, a: &Ty, b: &Ty, size: u64) -> Result<Vec<Value>, TooBig> {
        let below = size.saturating_sub(1);
        let results = self.table(b, below)?;
        if results.is_empty() {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        let finite = cardinality(self.prog, a).is_some_and(|n| n <= 8);
        if finite {
            // Every function: one result per key of the finite domain.
            let keys = lang::interp::enumerate(self.prog, a).ok_or(TooBig)?;
            let total = (results.len() as u64).checked_pow(keys.len() as u32).ok_or(TooBig)?;
            if total > BUILD_CAP {
                return Err(TooBig);
            }
            let mut choice = vec![0usize; keys.len()];
            loop {
                let entries = keys.iter().zip(&choice).map(|(k, c)| (k.clone(), results[*c].clone())).collect();
                out.push(Value::fun_map(results[choice.first().copied().unwrap_or(0)].clone(), entries));
                if !odometer(&mut choice, results.len()) {
                    break;
                }
            }
            return Ok(out);
        }
        // Finite maps with a default: at most `size - 1` updates.
        let keys = self.table(a, below)?;
        let max = below as usize;
        for (di, d) in results.iter().enumerate() {
            let others: Vec<&Value> = results.iter().enumerate().filter(|(i, _)| *i != di).map(|(_, v)| v).collect();
            let mut too_big = false;
            subsets(&keys, max, &mut |ks| {
                if others.is_empty() && !ks.is_empty() {
                    return true;
                }
                let mut choice = vec![0usize; ks.len()];
                loop {
                    let entries = ks.iter().zip(&choice).map(|(k, c)| (k.clone(), others[*c].clone())).collect();
                    out.push(Value::fun_map(d.clone(), entries));
                    if out.len() as u64 > BUILD_CAP {
                        too_big = true;
                        return false;
                    }
                    if !odometer(&mut choice, others.len()) {
                        break;
                    }
                }
                true
            });
            if too_big {
                return Err(TooBig);
            }
        }
        Ok(out)
    }
}

/// Advances `digits` (each below `base`, last fastest); false when it wrapped around.
fn odometer(digits: &mut [usize], base: usize) -> bool {
    for d in digits.iter_mut().rev() {
        *d += 1;
        if *d < base {
            return true;
        }
        *d = 0;
    }
    false
}

/// Calls `f` with every subset of `elems` of at most `max` elements, smaller ones first,
/// elements in `elems` order; stops when `f` returns false.
fn subsets(elems: &[Value], max: usize, f: &mut dyn FnMut(&[Value]) -> bool) {
    let max = max.min(elems.len());
    let mut cur = Vec::new();
    for k in 0..=max {
        if !choose(elems, 0, k, &mut cur, f) {
            return;
        }
    }
}

fn choose(elems: &[Value], from: usize, k: usize, cur: &mut Vec<Value>, f: &mut dyn FnMut(&[Value]) -> bool) -> bool {
    if k == 0 {
        return f(cur);
    }
    for i in from..elems.len() {
        if elems.len() - i < k {
            break;
        }
        cur.push(elems[i].clone());
        let go = choose(elems, i + 1, k - 1, cur, f);
        cur.pop();
        if !go {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list_program() -> (Program, Ty) {
        let mut th = lang::check_theory("theory T imports Main begin value \"[0::nat]\" end");
        let (p, _, ty) = th.lower_value(0);
        (p.clone(), ty)
    }

    #[test]
    fn nat_lists_follow_isabelle_sizes() {
        let (p, ty) = list_program();
        let mut s = Spaces::new(&p);
        // A cons cell's head and tail are one size smaller: size 1 is only [], size 2 is
        // [], [0], [1], and in general L(i) = 1 + i * L(i - 1) (heads 0..i-1).
        assert_eq!(s.space(&ty, 1).unwrap().count(), 1);
        assert_eq!(s.space(&ty, 2).unwrap().count(), 3);
        assert_eq!(s.space(&ty, 6).unwrap().count(), 1237);
    }

    #[test]
    fn indices_give_distinct_values() {
        let (p, ty) = list_program();
        let mut s = Spaces::new(&p);
        let sp = s.space(&ty, 4).unwrap();
        let mut seen: Vec<Value> = (0..sp.count()).map(|i| sp.value(i)).collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len() as u64, sp.count());
    }

    #[test]
    fn subsets_smallest_first() {
        let elems: Vec<Value> = (0..3).map(Value::nat).collect();
        let mut sizes = Vec::new();
        subsets(&elems, 2, &mut |s| {
            sizes.push(s.len());
            true
        });
        assert_eq!(sizes, vec![0, 1, 1, 1, 2, 2, 2]);
    }
}
