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

use lang::core::ir::{Program, Ty};
use lang::interp::{cardinality, Hole, Value};
use quickcheck::space::Spaces;
use rustc_hash::FxHashMap;
use std::collections::HashMap;
use std::rc::Rc;

/// A slot's content.
#[derive(Clone, Debug)]
enum Fill {
    Open,
    /// Constructor `tag` with its fields in the `len` slots from `first` on (a
    /// refinement opens its fields' slots together).
    Ctor {
        tag: u32,
        first: u32,
        len: u32,
    },
    /// `Suc` of the given slot (a `nat`).
    Suc(u32),
    Known(Value),
}

#[derive(Clone, Debug)]
struct Slot {
    /// The slot's type, as an index into `Assignment::types`.
    ty: u32,
    budget: u64,
    fill: Fill,
    /// The slot of the variable's value this slot is part of (itself for a root).
    root: u32,
}

/// What fills a slot, as `Assignment::shape` shows it.
pub(crate) enum Shape<'a> {
    Open,
    /// Constructor `tag` with its fields in these slots.
    Ctor(u32, std::ops::Range<u32>),
    /// `Suc` of this slot (a `nat`).
    Suc(u32),
    /// This value, of this type.
    Known(&'a Value, &'a Ty),
}

/// One way to fill an open slot.
#[derive(Clone, Debug)]
pub enum Alternative {
    /// A constructor whose fields become open slots of these types (indices into
    /// `Assignment::types`) and budgets.
    Ctor {
        tag: u32,
        fields: Vec<(u32, u64)>,
    },
    /// `Suc ?` with `?` at this budget.
    Suc(u64),
    Known(Value),
}

/// The index of `nat` in `Assignment::types`, which starts with it.
const NAT: u32 = 0;

/// The alternatives of a kind of slot, and whether they leave values out; or why there
/// are none.
type Refinement = Result<(Rc<[Alternative]>, bool), RefineError>;

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
    /// The slots' types, each once, and their indices.
    types: Vec<Ty>,
    type_ids: FxHashMap<Ty, u32>,
    /// The alternatives of an open slot by its type, budget and whether the whole value is
    /// needed, and whether they leave values out (`truncated`): the same few slot kinds
    /// are refined over and over.
    alternatives: FxHashMap<(u32, u64, bool), Refinement>,
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
            types: vec![Ty::Nat],
            type_ids: [(Ty::Nat, NAT)].into_iter().collect(),
            alternatives: FxHashMap::default(),
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
        let ty = self.type_id(&ty);
        self.open_in(ty, budget, root)
    }

    /// The index of `ty` in `types`.
    fn type_id(&mut self, ty: &Ty) -> u32 {
        if let Some(id) = self.type_ids.get(ty) {
            return *id;
        }
        let id = self.types.len() as u32;
        self.types.push(ty.clone());
        self.type_ids.insert(ty.clone(), id);
        id
    }

    fn open_in(&mut self, ty: u32, budget: u64, root: u32) -> u32 {
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
                let first = self.slots.len() as u32;
                for (ty, b) in fields {
                    self.open_in(*ty, *b, root);
                }
                Fill::Ctor { tag: *tag, first, len: fields.len() as u32 }
            }
            Alternative::Suc(b) => Fill::Suc(self.open_in(NAT, *b, root)),
            Alternative::Known(v) => Fill::Known(v.clone()),
        };
        self.slots[slot as usize].fill = fill;
    }

    /// The ways to fill open slot `slot`, smallest first; `whole`: evaluation needs the
    /// whole value (a `nat` is then listed at once rather than one `Suc` at a time).
    pub fn alternatives(&mut self, slot: u32, whole: bool) -> Result<Rc<[Alternative]>, RefineError> {
        let Some(&Slot { ty, budget, fill: Fill::Open, .. }) = self.slots.get(slot as usize) else {
            return Err(RefineError::UnknownHole(slot));
        };
        let key = (ty, budget, whole);
        let r = match self.alternatives.get(&key) {
            Some(r) => r.clone(),
            None => {
                let before = std::mem::take(&mut self.truncated);
                let ty = self.types[ty as usize].clone();
                let r = self.compute_alternatives(&ty, budget, whole).map(|a| (Rc::from(a), self.truncated));
                self.truncated = before;
                self.alternatives.insert(key, r.clone());
                r
            }
        };
        let (alts, truncates) = r?;
        self.truncated |= truncates;
        Ok(alts)
    }

    fn compute_alternatives(&mut self, ty: &Ty, budget: u64, whole: bool) -> Result<Vec<Alternative>, RefineError> {
        let below = budget.saturating_sub(1);
        Ok(match ty {
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
                            let fields = c.fields.iter().map(|f| (self.type_id(f), field_budget)).collect();
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
                let space = self.spaces.space(ty, budget).map_err(|_| RefineError::TooBig)?;
                if cardinality(self.program, ty).is_none_or(|n| n > u128::from(space.count())) {
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
                let ty = self.types[self.slots[slot as usize].ty as usize].clone();
                let budget = self.slots[slot as usize].budget;
                fill.insert(slot, self.smallest_of(&ty, budget)?);
            }
            Fill::Ctor { first, len, .. } => {
                for f in first..first + len {
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

    /// What fills `slot`, for `ArenaWords`, which keeps the same partial values as words.
    pub(crate) fn shape(&self, slot: u32) -> Option<Shape<'_>> {
        let s = self.slots.get(slot as usize)?;
        Some(match &s.fill {
            Fill::Open => Shape::Open,
            Fill::Ctor { tag, first, len } => Shape::Ctor(*tag, *first..*first + *len),
            Fill::Suc(next) => Shape::Suc(*next),
            Fill::Known(v) => Shape::Known(v, &self.types[s.ty as usize]),
        })
    }

    fn build(&self, slot: u32, hole: &dyn Fn(Hole) -> Value) -> Value {
        let Some(s) = self.slots.get(slot as usize) else { return Value::Bool(false) };
        match &s.fill {
            Fill::Open => hole(Hole::new(slot)),
            Fill::Known(v) => v.clone(),
            Fill::Ctor { tag, first, len } => {
                Value::ctor(*tag, (*first..*first + *len).map(|f| self.build(f, hole)).collect())
            }
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
                        Fill::Ctor { .. } => return Value::Bool(false),
                    }
                }
            }
        }
    }
}

/// `Suc^k v` for a number `v`.
pub(crate) fn add_suc(v: &Value, k: u32) -> Value {
    match v {
        Value::Int(n) => Value::Int(n.add(&lang::interp::Int::from(i64::from(k)))),
        v => v.clone(),
    }
}
