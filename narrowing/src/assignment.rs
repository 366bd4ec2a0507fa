//! The partial assignment of a narrowing search: every generated variable is a tree of
//! *slots*, each either open (a hole of a type, with a size budget) or filled (a
//! constructor whose fields are slots, `Suc` of a slot, or a whole value). Refining a hole
//! fills its slot with one of its *alternatives*; backtracking opens it again and drops the
//! slots made since. The values evaluation sees are built from the slots (`value`), holes
//! where slots are open.
//!
//! Budgets follow the exhaustive tester's sizes (`quickcheck::space`), so that the
//! completions of a variable at budget `j` are exactly its values in the exhaustive space
//! at size `j`: a datatype offers the constructors whose fields are inhabited at `j - 1`
//! (pairs keep `j`); `nat` is `0 | Suc ?` with `?` at `j - 1` (lazy, so `0 = Suc ?` is
//! decided without knowing `?`), or its values `0..=j` at once when evaluation needs the
//! whole number; `int` is `0, 1, -1, ..., j, -j`; `bool`, sets and functions are their
//! exhaustive space's values, one alternative each.

use codegen::{Jit, JitOutcome, Word};
use lang::core::ir::{Program, Ty};
use lang::interp::{cardinality, Hole, Value};
use quickcheck::space::Spaces;
use std::collections::HashMap;

/// A slot's content.
#[derive(Clone, Debug)]
enum Fill {
    Open,
    /// Constructor `tag` with its fields in the given slots.
    Ctor(u32, Vec<u32>),
    /// `Suc` of the given slot (a `nat`).
    Suc(u32),
    Known(Value),
}

#[derive(Clone, Debug)]
struct Slot {
    ty: Ty,
    budget: u64,
    fill: Fill,
    /// The slot of the variable's value this slot is part of (itself for a root).
    root: u32,
}

/// One way to fill an open slot.
#[derive(Clone, Debug)]
pub enum Alternative {
    /// A constructor whose fields become open slots of these types and budgets.
    Ctor {
        tag: u32,
        fields: Vec<(Ty, u64)>,
    },
    /// `Suc ?` with `?` at this budget.
    Suc(u64),
    Known(Value),
}

/// Why a slot cannot be refined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefineError {
    /// Its values at this size are too many to list (sets, functions).
    TooBig,
    /// No open slot has this number: compiled code or the interpreter named a hole that is
    /// not one of this search's.
    UnknownHole(u32),
}

/// The slots of one search, and what it needs to build alternatives.
pub struct Assignment<'p> {
    program: &'p Program,
    slots: Vec<Slot>,
    spaces: Spaces<'p>,
    inhabited: HashMap<(Ty, u64), bool>,
    /// Some refinement left out values of the type because of the budget: the size did
    /// not cover the whole type.
    pub truncated: bool,
    /// The most slots alive at once since `clear`: the memory of a search, which is the
    /// depth of its refinement tree, not its size.
    pub peak: usize,
}

impl<'p> Assignment<'p> {
    pub fn new(program: &'p Program) -> Assignment<'p> {
        Assignment {
            program,
            slots: Vec::new(),
            spaces: Spaces::new(program),
            inhabited: HashMap::new(),
            truncated: false,
            peak: 0,
        }
    }

    /// Forgets every slot; the next `open` is slot 0.
    pub fn clear(&mut self) {
        self.slots.clear();
        self.truncated = false;
        self.peak = 0;
    }

    /// A new open slot, the root of a variable's value, returning its number.
    pub fn open(&mut self, ty: Ty, budget: u64) -> u32 {
        let root = self.slots.len() as u32;
        self.open_in(ty, budget, root)
    }

    fn open_in(&mut self, ty: Ty, budget: u64, root: u32) -> u32 {
        self.slots.push(Slot { ty, budget, fill: Fill::Open, root });
        self.peak = self.peak.max(self.slots.len());
        (self.slots.len() - 1) as u32
    }

    /// The root slot of the value `slot` is part of.
    pub fn root(&self, slot: u32) -> Option<u32> {
        self.slots.get(slot as usize).map(|s| s.root)
    }

    /// The number of slots, for `truncate` when backtracking.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Opens `slot` again and drops every slot from `len` on (made by its refinement).
    pub fn reopen(&mut self, slot: u32, len: usize) {
        self.slots.truncate(len);
        if let Some(s) = self.slots.get_mut(slot as usize) {
            s.fill = Fill::Open;
        }
    }

    /// Fills open `slot` with `alt`.
    pub fn fill(&mut self, slot: u32, alt: &Alternative) {
        let root = self.slots[slot as usize].root;
        let fill = match alt {
            Alternative::Ctor { tag, fields } => {
                Fill::Ctor(*tag, fields.iter().map(|(ty, b)| self.open_in(ty.clone(), *b, root)).collect())
            }
            Alternative::Suc(b) => Fill::Suc(self.open_in(Ty::Nat, *b, root)),
            Alternative::Known(v) => Fill::Known(v.clone()),
        };
        self.slots[slot as usize].fill = fill;
    }

    /// The ways to fill open slot `slot`, smallest first; `whole`: evaluation needs the
    /// whole value (a `nat` is then listed at once rather than one `Suc` at a time).
    pub fn alternatives(&mut self, slot: u32, whole: bool) -> Result<Vec<Alternative>, RefineError> {
        let Some(Slot { ty, budget, fill: Fill::Open, .. }) = self.slots.get(slot as usize).cloned() else {
            return Err(RefineError::UnknownHole(slot));
        };
        let below = budget.saturating_sub(1);
        Ok(match &ty {
            Ty::Nat if whole => {
                self.truncated = true;
                (0..=budget).map(|n| Alternative::Known(Value::nat(n))).collect()
            }
            Ty::Nat => {
                // `0 | Suc _` is every number: only a spent budget leaves some out.
                let mut alts = vec![Alternative::Known(Value::nat(0))];
                if budget > 0 {
                    alts.push(Alternative::Suc(below));
                } else {
                    self.truncated = true;
                }
                alts
            }
            Ty::Data(d) => {
                let data = self.program.data(*d);
                let enumeration = data.ctors.iter().all(|c| c.fields.is_empty());
                let field_budget = if data.name == "prod" { budget } else { below };
                let mut alts = Vec::new();
                if budget > 0 || enumeration {
                    for (tag, c) in data.ctors.clone().iter().enumerate() {
                        if c.fields.iter().all(|f| self.inhabited(f, field_budget)) {
                            let fields = c.fields.iter().map(|f| (f.clone(), field_budget)).collect();
                            alts.push(Alternative::Ctor { tag: tag as u32, fields });
                        }
                    }
                }
                if alts.len() < data.ctors.len() {
                    self.truncated = true;
                }
                alts
            }
            // Numbers, truth values, sets and functions: the exhaustive space's values.
            _ => {
                let space = self.spaces.space(&ty, budget).map_err(|_| RefineError::TooBig)?;
                if cardinality(self.program, &ty).is_none_or(|n| n > u128::from(space.count())) {
                    self.truncated = true;
                }
                (0..space.count()).map(|i| Alternative::Known(space.value(i))).collect()
            }
        })
    }

    /// Whether `ty` has a value at budget `budget` (the exhaustive space is not empty).
    pub fn inhabited(&mut self, ty: &Ty, budget: u64) -> bool {
        let Ty::Data(d) = ty else {
            // Numbers, truth values and sets always have one; a function needs a result.
            return match ty {
                Ty::Fun(_, res) => self.inhabited(res, budget.saturating_sub(1)),
                _ => true,
            };
        };
        if let Some(b) = self.inhabited.get(&(ty.clone(), budget)) {
            return *b;
        }
        let data = self.program.data(*d);
        let enumeration = data.ctors.iter().all(|c| c.fields.is_empty());
        let b = if budget == 0 && !enumeration {
            false
        } else {
            let field_budget = if data.name == "prod" { budget } else { budget - 1 };
            // Guards against a type whose pairs nest forever at the same budget.
            self.inhabited.insert((ty.clone(), budget), false);
            data.ctors.clone().iter().any(|c| c.fields.iter().all(|f| self.inhabited(f, field_budget)))
        };
        self.inhabited.insert((ty.clone(), budget), b);
        b
    }

    /// The partial value of the tree rooted at `slot`: holes where slots are open.
    pub fn value(&self, slot: u32) -> Value {
        self.build(slot, &|h| Value::Hole(h))
    }

    /// The smallest completion of the tree rooted at `slot`: each open slot filled with the
    /// first value of its alternatives (a counterexample found with holes left holds for
    /// every completion, so this one is as good as any, and the smallest to read).
    pub fn smallest(&mut self, slot: u32) -> Option<Value> {
        let mut fill = HashMap::new();
        self.smallest_fills(slot, &mut fill)?;
        Some(self.build(slot, &|h| fill.get(&h.id).map_or(Value::nat(u64::from(h.suc)), |v| add_suc(v, h.suc))))
    }

    fn smallest_fills(&mut self, slot: u32, fill: &mut HashMap<u32, Value>) -> Option<()> {
        match self.slots.get(slot as usize)?.fill.clone() {
            Fill::Open => {
                let ty = self.slots[slot as usize].ty.clone();
                let budget = self.slots[slot as usize].budget;
                fill.insert(slot, self.smallest_of(&ty, budget)?);
            }
            Fill::Ctor(_, fields) => {
                for f in fields {
                    self.smallest_fills(f, fill)?;
                }
            }
            Fill::Suc(s) => self.smallest_fills(s, fill)?,
            Fill::Known(_) => {}
        }
        Some(())
    }

    /// The first value of `ty` at `budget` in the exhaustive order.
    fn smallest_of(&mut self, ty: &Ty, budget: u64) -> Option<Value> {
        let space = self.spaces.space(ty, budget).ok()?;
        (space.count() > 0).then(|| space.value(0))
    }

    /// The partial value of the tree rooted at `slot` built directly as a word in `jit`'s
    /// arena (narrowing mode): the same value `value` gives, without an interpreter value in
    /// between for its constructors (the cost of a compiled partial case is mostly this).
    pub fn encode(&self, slot: u32, jit: &mut Jit) -> Result<Word, JitOutcome> {
        let s = &self.slots[slot as usize];
        match &s.fill {
            Fill::Open => jit.hole_word(Hole::new(slot)),
            Fill::Known(v) => jit.word_of(v, &s.ty),
            Fill::Ctor(tag, fields) => {
                let mut words = [0 as Word; 8];
                if fields.len() > words.len() {
                    return jit.word_of(&self.value(slot), &s.ty);
                }
                for (w, f) in words.iter_mut().zip(fields) {
                    *w = self.encode(*f, jit)?;
                }
                jit.ctor_word(*tag, &words[..fields.len()])
            }
            Fill::Suc(_) => match self.build(slot, &|h| Value::Hole(h)) {
                Value::Hole(h) => jit.hole_word(h),
                v => jit.word_of(&v, &s.ty),
            },
        }
    }

    fn build(&self, slot: u32, hole: &dyn Fn(Hole) -> Value) -> Value {
        let Some(s) = self.slots.get(slot as usize) else { return Value::Bool(false) };
        match &s.fill {
            Fill::Open => hole(Hole::new(slot)),
            Fill::Known(v) => v.clone(),
            Fill::Ctor(tag, fields) => Value::ctor(*tag, fields.iter().map(|f| self.build(*f, hole)).collect()),
            Fill::Suc(_) => {
                // `Suc^k` of what ends the chain: a number, or a hole that knows its `Suc`s.
                let mut k = 0u32;
                let mut cur = slot;
                loop {
                    match &self.slots[cur as usize].fill {
                        Fill::Suc(next) => {
                            k += 1;
                            cur = *next;
                        }
                        Fill::Open => return hole(Hole { id: cur, suc: k }),
                        Fill::Known(v) => return add_suc(v, k),
                        Fill::Ctor(..) => return Value::Bool(false),
                    }
                }
            }
        }
    }
}

/// `Suc^k v` for a number `v`.
fn add_suc(v: &Value, k: u32) -> Value {
    match v {
        Value::Int(n) => Value::Int(n.add(&lang::interp::Int::from(i64::from(k)))),
        v => v.clone(),
    }
}
