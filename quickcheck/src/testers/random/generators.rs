//! The random tester's generators: a random value of any type of the program, drawn from
//! a `Choices` source that records every decision, so a value is a function of its choice
//! sequence (what shrinking works on). Values are built with a `Build`er: interpreter values,
//! or JIT words straight into the arena. Sizes are split among the parts of a value that
//! grow, so a value costs polynomially in the size whatever the type's depth, and a case
//! whose drawing passes a build budget (`CASE_BUILD_STEPS`) or the deadline is abandoned.

use crate::runner::Arena;
use crate::types::mentions;
use codegen::Word;
use lang::core::ir::{DataId, Program, Ty};
use lang::interp::{cardinality, Closure, SetValue, Value};
use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashMap;
use std::rc::Rc;
use std::time::Instant;

/// Where a generator's decisions come from: a random generator, or a recorded sequence
/// being replayed (missing choices read as 0, the simplest). Replays always record the
/// choices they make; random draws only when asked: most random cases pass, and a failing
/// one is drawn once more, recording, from the generator's state before it.
pub struct Choices<'a> {
    rng: Option<&'a mut Xoshiro256PlusPlus>,
    replay: &'a [u64],
    pos: usize,
    recording: bool,
    /// The choices made, normalized (each below its bound), when recording.
    pub record: Vec<u64>,
}

impl<'a> Choices<'a> {
    /// Random choices, not recorded.
    pub fn random(rng: &'a mut Xoshiro256PlusPlus) -> Choices<'a> {
        Choices { rng: Some(rng), replay: &[], pos: 0, recording: false, record: Vec::new() }
    }

    /// Random choices, recorded.
    pub fn random_recorded(rng: &'a mut Xoshiro256PlusPlus) -> Choices<'a> {
        Choices { recording: true, ..Choices::random(rng) }
    }

    pub fn replay(choices: &'a [u64]) -> Choices<'a> {
        Choices { rng: None, replay: choices, pos: 0, recording: true, record: Vec::new() }
    }

    /// A choice in `0..n` (`n >= 1`).
    fn draw(&mut self, n: u64) -> u64 {
        let v = match self.rng.as_mut() {
            Some(r) => r.random_range(0..n.max(1)),
            None => self.replay.get(self.pos).copied().unwrap_or(0).min(n.saturating_sub(1)),
        };
        self.note(v);
        v
    }

    fn note(&mut self, v: u64) {
        self.pos += 1;
        if self.recording {
            self.record.push(v);
        }
    }

    /// `sequence` of `draw(n)`, each choice given to `each`: the same choices, drawn in
    /// one loop when drawing at random without recording, where the builder `b` gets the
    /// length and draws the elements itself (`Build::int_list_with`, straight into the
    /// arena); otherwise `b` gets the choices made (`Build::int_list`). Returns the length.
    fn draws(&mut self, max: u64, n: u64, each: impl Fn(u64) -> i64, b: &mut impl Build, buf: &mut Vec<i64>) -> u64 {
        if let (Some(r), false) = (self.rng.as_deref_mut(), self.recording) {
            let len = r.random_range(0..=max);
            // An announcing 1 and a choice per element, and the closing 0.
            self.pos += 2 * len as usize + 1;
            b.int_list_with(len as usize, || each(r.random_range(0..n.max(1))));
            return len;
        }
        buf.clear();
        self.sequence(max, |ch| buf.push(each(ch.draw(n))));
        b.int_list(buf);
        buf.len() as u64
    }

    /// Generates a sequence of up to `max` elements: a random run picks its length
    /// uniformly (not recorded), and each element is announced by a recorded 1 and the end
    /// by a recorded 0, so deleting an element's choices shortens the sequence cleanly.
    fn sequence(&mut self, max: u64, mut elem: impl FnMut(&mut Choices<'a>)) {
        let planned = self.rng.as_mut().map(|r| r.random_range(0..=max));
        let mut i = 0;
        loop {
            let more = match planned {
                Some(len) => {
                    let m = i < len;
                    self.note(m as u64);
                    m
                }
                None => self.draw(2) == 1,
            };
            if !more {
                break;
            }
            elem(self);
            i += 1;
        }
    }
}

/// What a generator builds values with: a stack machine, so one generator serves both
/// interpreter values (for reports and the interpreter) and JIT words built straight into
/// the arena (for speed: no allocation per case once the stack has grown).
pub trait Build {
    fn bool(&mut self, b: bool);
    fn int(&mut self, i: i64);
    /// Pops `n` fields and pushes constructor `tag` applied to them.
    fn ctor(&mut self, tag: u32, n: usize);
    /// Pops `n` elements and pushes the list of them (`Nil` tag 0, `Cons` tag 1).
    fn list(&mut self, n: usize);
    /// Pops `n` elements and pushes the finite set of them.
    fn set(&mut self, n: usize);
    /// Pops a default and `n` key/value pairs and pushes the finite map.
    fn map(&mut self, n: usize);
    /// Pushes a value built elsewhere (a function over a finite domain, tabulated).
    fn value(&mut self, v: Value);
    /// Pushes the list of the numbers `xs` (`nat` or `int`).
    fn int_list(&mut self, xs: &[i64]) {
        for x in xs {
            self.int(*x);
        }
        self.list(xs.len());
    }
    /// Pushes the list of the `len` numbers `elem` gives, called in order.
    fn int_list_with(&mut self, len: usize, mut elem: impl FnMut() -> i64) {
        for _ in 0..len {
            self.int(elem());
        }
        self.list(len);
    }
}

/// Builds interpreter values.
#[derive(Default)]
pub struct ValueBuilder {
    stack: Vec<Value>,
}

impl ValueBuilder {
    pub fn take(&mut self) -> Value {
        self.stack.pop().expect("a generated value")
    }
}

impl Build for ValueBuilder {
    fn bool(&mut self, b: bool) {
        self.stack.push(Value::Bool(b));
    }
    fn int(&mut self, i: i64) {
        self.stack.push(Value::int(i));
    }
    fn ctor(&mut self, tag: u32, n: usize) {
        let fields = self.stack.split_off(self.stack.len() - n);
        self.stack.push(if fields.is_empty() { Value::nullary(tag) } else { Value::ctor(tag, fields) });
    }
    fn list(&mut self, n: usize) {
        let elems = self.stack.split_off(self.stack.len() - n);
        let mut v = Value::nullary(0);
        for x in elems.into_iter().rev() {
            v = Value::ctor(1, vec![x, v]);
        }
        self.stack.push(v);
    }
    fn set(&mut self, n: usize) {
        let elems = self.stack.split_off(self.stack.len() - n);
        self.stack.push(Value::set(SetValue::finite(elems)));
    }
    fn map(&mut self, n: usize) {
        let mut flat = self.stack.split_off(self.stack.len() - (1 + 2 * n)).into_iter();
        let default = flat.next().expect("a default");
        let mut entries = Vec::with_capacity(n);
        while let (Some(k), Some(v)) = (flat.next(), flat.next()) {
            entries.push((k, v));
        }
        self.stack.push(Value::fun_map(default, entries));
    }
    fn value(&mut self, v: Value) {
        self.stack.push(v);
    }
}

/// Builds JIT words in the runner's arena (`Runner::arena`). Only for types without sets
/// and functions (`Runner::words_ok`); a full arena leaves `failed` set.
pub struct WordBuilder<'r> {
    pub arena: Arena<'r>,
    pub stack: &'r mut Vec<Word>,
    pub failed: bool,
}

impl WordBuilder<'_> {
    /// Pushes `w`, or a placeholder when it could not be built.
    #[inline]
    fn push(&mut self, w: Option<Word>) {
        self.failed |= w.is_none();
        self.stack.push(w.unwrap_or(0));
    }
}

impl Build for WordBuilder<'_> {
    fn bool(&mut self, b: bool) {
        self.stack.push(Arena::bool(b));
    }
    fn int(&mut self, i: i64) {
        self.stack.push(Arena::int(i));
    }
    fn ctor(&mut self, tag: u32, n: usize) {
        let at = self.stack.len() - n;
        let w = self.arena.ctor(tag, &self.stack[at..]);
        self.stack.truncate(at);
        self.push(w);
    }
    fn int_list(&mut self, xs: &[i64]) {
        let w = self.arena.int_list(xs);
        self.push(w);
    }
    fn int_list_with(&mut self, len: usize, elem: impl FnMut() -> i64) {
        let w = self.arena.int_list_with(len, elem);
        self.push(w);
    }
    fn list(&mut self, n: usize) {
        let at = self.stack.len() - n;
        let w = self.arena.list(&self.stack[at..]);
        self.stack.truncate(at);
        self.push(w);
    }
    fn set(&mut self, _: usize) {
        self.failed = true;
    }
    fn map(&mut self, _: usize) {
        self.failed = true;
    }
    fn value(&mut self, _: Value) {
        self.failed = true;
    }
}

/// A field of a constructor, as a generator sees it.
struct Field {
    ty: Ty,
    /// Whether it can contain the datatype itself.
    recursive: bool,
    /// Whether its values grow with the size (`Generators::grows`).
    grows: bool,
}

/// What a generator needs to know about a datatype, computed once.
struct DataInfo {
    /// Constructor tags, non-recursive first.
    order: Vec<u32>,
    /// How many constructors are non-recursive (at least 1).
    base: usize,
    /// Per constructor: its fields, and how many are recursive.
    ctors: Vec<(Vec<Field>, u64)>,
    /// `'a list`, drawn QuickCheck's way: a length, then the elements.
    list_elem: Option<Ty>,
    /// Whether the values of the list's elements grow with the size: then the size is split
    /// among them (`Generators::data`).
    elem_grows: bool,
    /// Whether values of the datatype grow with the size: it is recursive, or a field grows.
    grows: bool,
    pair: bool,
}

/// Why drawing a case's values was abandoned (`Generators::abandoned`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Abandon {
    /// The values took more than `CASE_BUILD_STEPS` steps (or the arena was full).
    TooLarge,
    /// The deadline passed.
    Timeout,
}

/// The most build steps (constructor cells, numbers, set elements, map entries) the values
/// of one case may take. Sizes are split among the parts of a value, so a value's cost is
/// polynomial in the size; this bound catches what is still too large (types whose size is
/// exponential in their written length through synonyms, many variables at huge sizes), so
/// a case ends cleanly, long before memory does: a million steps are at most some 100 MB
/// as interpreter values and fit the JIT's arena (`codegen::DEFAULT_ARENA_WORDS`, 4 M
/// words) as lists of numbers; 30 lists of 10,000 numbers (the largest size) take 300,000.
pub const CASE_BUILD_STEPS: u64 = 1 << 20;

/// How often (in build steps) drawing a case looks at the clock.
pub(super) const CLOCK_EVERY: u64 = 1 << 12;

/// The most cells a function over a finite domain may take as a table of all its keys
/// (nested tables multiply); a larger one is drawn as a finite map with a default.
const TABLE_CELLS: u64 = 256;

/// How a function type is drawn (`Generators::fun_info`).
#[derive(Clone)]
struct FunInfo {
    /// As a table, every key of its finite domain (these, in order) with its own value;
    /// else as a finite map with a default.
    table: Option<Rc<[Value]>>,
    /// Whether its keys, its results, and its values grow with the size.
    key_grows: bool,
    result_grows: bool,
    grows: bool,
    /// The most build steps one takes at size 0 (`Generators::least_cells`).
    least: u64,
}

/// Random values of the types of one program.
pub struct Generators<'p> {
    prog: &'p Program,
    datas: Vec<Option<Rc<DataInfo>>>,
    /// What is known about each function type met.
    funs: HashMap<Ty, FunInfo>,
    /// The elements of a list of numbers being replayed, reused across lists.
    numbers: Vec<i64>,
    /// Build steps taken by the current case (`start_case`), and the most it may take.
    steps: u64,
    pub(super) limit: u64,
    /// When drawing must stop: checked every `CLOCK_EVERY` steps.
    deadline: Option<Instant>,
    /// Set when the current case's values were abandoned; every draw after it is a
    /// placeholder.
    abandoned: Option<Abandon>,
}

impl<'p> Generators<'p> {
    pub fn new(prog: &'p Program) -> Generators<'p> {
        Generators {
            prog,
            datas: vec![None; prog.datas.len()],
            funs: HashMap::new(),
            numbers: Vec::new(),
            steps: 0,
            limit: CASE_BUILD_STEPS,
            deadline: None,
            abandoned: None,
        }
    }

    /// Generators that stop drawing at `deadline`.
    pub fn with_deadline(prog: &'p Program, deadline: Instant) -> Generators<'p> {
        Generators { deadline: Some(deadline), ..Generators::new(prog) }
    }

    /// Starts drawing a new case: the step budget is whole again.
    pub fn start_case(&mut self) {
        self.steps = 0;
        self.abandoned = None;
    }

    /// Whether (and why) drawing the current case was abandoned: its values are then
    /// placeholders, not values of their types, and must not be used.
    pub fn abandoned(&self) -> Option<Abandon> {
        self.abandoned
    }

    /// Marks the current case as abandoned (the arena being full, say).
    pub fn abandon(&mut self, why: Abandon) {
        self.abandoned.get_or_insert(why);
    }

    /// Build steps taken by the current case.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Counts `n` build steps; `false` (and the case abandoned) past the budget or the
    /// deadline.
    fn spend(&mut self, n: u64) -> bool {
        if self.abandoned.is_some() {
            return false;
        }
        let before = self.steps;
        self.steps = self.steps.saturating_add(n);
        if self.steps > self.limit {
            self.abandoned = Some(Abandon::TooLarge);
        } else if before / CLOCK_EVERY != self.steps / CLOCK_EVERY && self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.abandoned = Some(Abandon::Timeout);
        }
        self.abandoned.is_none()
    }

    /// Whether the values of `ty` can grow with the size (lists, sets, recursive datatypes,
    /// functions drawn as finite maps); numbers and booleans only get larger, not more.
    /// Where a value has several parts that grow, the size is split among them, as
    /// QuickCheck's sized generators do, so that nesting such types does not multiply the
    /// cost: a `nat list list ... list` of depth `d` at size `n` has O(d n) cells, not n^d.
    pub fn grows(&mut self, ty: &Ty) -> bool {
        match ty {
            Ty::Bool | Ty::Nat | Ty::Int => false,
            Ty::Set(_) => true,
            Ty::Data(d) => self.info(*d).grows,
            Ty::Fun(..) => self.fun_info(ty).grows,
        }
    }

    /// How a function type `ty` is drawn, computed once per type (a nest of function types
    /// asks about every level).
    fn fun_info(&mut self, ty: &Ty) -> FunInfo {
        if let Some(i) = self.funs.get(ty) {
            return i.clone();
        }
        let Ty::Fun(a, r) = ty else { unreachable!("fun_info of a function type") };
        let result_least = self.least_cells(r);
        // A table when the domain has at most 64 elements and the table, nested tables in
        // `r` multiplied in, takes at most `TABLE_CELLS` cells at size 0.
        let table = cardinality(self.prog, a)
            .filter(|n| *n <= 64)
            .and_then(|n| u64::try_from(n).ok())
            .filter(|keys| keys.saturating_mul(result_least) <= TABLE_CELLS);
        let keys: Option<Rc<[Value]>> = table.and_then(|_| lang::interp::enumerate(self.prog, a)).map(Rc::from);
        let table = keys.as_ref().map(|k| k.len() as u64);
        let (key_grows, result_grows) = (self.grows(a), self.grows(r));
        let info = FunInfo {
            table: keys,
            key_grows,
            result_grows,
            grows: table.is_none() || result_grows,
            least: match table {
                Some(keys) => keys.saturating_mul(result_least),
                None => result_least.saturating_add(1),
            },
        };
        self.funs.insert(ty.clone(), info.clone());
        info
    }

    /// The most build steps a value of `ty` takes at size 0, where every part that grows
    /// is smallest: what a table of such values costs whatever the size.
    fn least_cells(&mut self, ty: &Ty) -> u64 {
        match ty {
            Ty::Bool | Ty::Nat | Ty::Int | Ty::Set(_) => 1,
            Ty::Data(d) => {
                let info = self.info(*d);
                if info.list_elem.is_some() {
                    return 1;
                }
                // At size 0 only the non-recursive constructors are drawn.
                let mut most = 1u64;
                for tag in &info.order[..info.base] {
                    let (fields, _) = &info.ctors[*tag as usize];
                    let mut cells = 1u64;
                    for f in fields.iter().filter(|f| !f.recursive) {
                        cells = cells.saturating_add(self.least_cells(&f.ty));
                    }
                    most = most.max(cells);
                }
                most
            }
            Ty::Fun(..) => self.fun_info(ty).least,
        }
    }

    /// A random value of `ty` as an interpreter value.
    pub fn value(&mut self, ty: &Ty, size: u64, ch: &mut Choices) -> Value {
        let mut b = ValueBuilder::default();
        self.gen(ty, size, ch, &mut b);
        b.take()
    }

    /// Draws a value of `ty` of size `size` into `b`: always exactly one value pushed, a
    /// placeholder (`false`) once the case is abandoned (`spend`).
    pub fn gen(&mut self, ty: &Ty, size: u64, ch: &mut Choices, b: &mut impl Build) {
        if !self.spend(1) {
            return b.bool(false);
        }
        match ty {
            Ty::Bool => b.bool(ch.draw(2) == 1),
            Ty::Nat | Ty::Int => b.int(number(ty, size, ch)),
            Ty::Data(d) => self.data(*d, size, ch, b),
            Ty::Set(e) => {
                if self.grows(e) {
                    let (n, each) = split(size, ch);
                    for _ in 0..n {
                        self.gen(e, each, ch, b);
                    }
                    return b.set(n as usize);
                }
                let mut n = 0;
                ch.sequence(size, |ch| {
                    self.gen(e, size, ch, b);
                    n += 1;
                });
                b.set(n)
            }
            Ty::Fun(a, r) => {
                let info = self.fun_info(ty);
                if let Some(keys) = &info.table {
                    // Every key gets a value; the first one's is the default.
                    let mut vb = ValueBuilder::default();
                    let mut results = Vec::with_capacity(keys.len());
                    for _ in keys.iter() {
                        self.gen(r, size, ch, &mut vb);
                        results.push(vb.take());
                    }
                    let default = results.first().cloned().unwrap_or(Value::Bool(false));
                    b.value(Value::fun_map(default, keys.iter().cloned().zip(results).collect()));
                    return;
                }
                let (key_grows, result_grows) = (info.key_grows, info.result_grows);
                if key_grows || result_grows {
                    // A default and `n` entries share the size.
                    let n = ch.draw(size.saturating_add(1));
                    let part = size / n.saturating_add(1);
                    let (ks, rs) = (if key_grows { part } else { size }, if result_grows { part } else { size });
                    self.gen(r, rs, ch, b);
                    for _ in 0..n {
                        self.gen(a, ks, ch, b);
                        self.gen(r, rs, ch, b);
                    }
                    return b.map(n as usize);
                }
                self.gen(r, size, ch, b);
                let mut n = 0;
                ch.sequence(size, |ch| {
                    self.gen(a, size, ch, b);
                    self.gen(r, size, ch, b);
                    n += 1;
                });
                b.map(n)
            }
        }
    }

    fn data(&mut self, d: DataId, size: u64, ch: &mut Choices, b: &mut impl Build) {
        let info = self.info(d);
        if let Some(elem @ (Ty::Nat | Ty::Int)) = &info.list_elem {
            // Lists of numbers, the most common test data, in one loop and without a
            // builder step per element; the same choices as below.
            let nat = *elem == Ty::Nat;
            let len = ch.draws(size, number_choices(elem, size), |c| number_of_choice(nat, c), b, &mut self.numbers);
            self.spend(len);
            return;
        }
        if let (Some(elem), true) = (&info.list_elem, info.elem_grows) {
            // Elements that grow share the size, so nesting lists does not multiply it.
            let (n, each) = split(size, ch);
            for _ in 0..n {
                self.gen(elem, each, ch, b);
            }
            return b.list(n as usize);
        }
        if let Some(elem) = &info.list_elem {
            let mut n = 0;
            ch.sequence(size, |ch| {
                self.gen(elem, size, ch, b);
                n += 1;
            });
            return b.list(n);
        }
        let n = if size == 0 { info.base } else { info.order.len() };
        let tag = info.order[ch.draw(n as u64) as usize];
        let (fields, recursive) = &info.ctors[tag as usize];
        let recursive = *recursive;
        for f in fields {
            let s = if info.pair || recursive == 0 || !f.grows {
                size
            } else if f.recursive {
                size.saturating_sub(1) / recursive
            } else {
                // A part that grows in a node of a recursive value: the node's size is split
                // among it and the subtrees, so nested user datatypes do not multiply it.
                size.saturating_sub(1) / (recursive + 1)
            };
            self.gen(&f.ty, s, ch, b);
        }
        b.ctor(tag, fields.len())
    }

    fn info(&mut self, d: DataId) -> Rc<DataInfo> {
        if let Some(i) = &self.datas[d.0 as usize] {
            return i.clone();
        }
        let prog = self.prog;
        let dd = prog.data(d);
        let mut ctors: Vec<(Vec<Field>, u64)> = Vec::with_capacity(dd.ctors.len());
        for c in &dd.ctors {
            let mut fields = Vec::with_capacity(c.fields.len());
            for f in &c.fields {
                let recursive = mentions(prog, f, d);
                // A non-recursive field cannot reach `d`, so this never comes back here.
                let grows = recursive || self.grows(f);
                fields.push(Field { ty: f.clone(), recursive, grows });
            }
            let rec = fields.iter().filter(|f| f.recursive).count() as u64;
            ctors.push((fields, rec));
        }
        let mut order: Vec<u32> = (0..ctors.len() as u32).collect();
        order.sort_by_key(|t| (ctors[*t as usize].1 > 0, *t));
        let base = ctors.iter().filter(|(_, rec)| *rec == 0).count().max(1);
        let list_elem = (dd.name == "list" && dd.ctors.len() == 2 && dd.ctors[1].fields.len() == 2)
            .then(|| dd.ctors[1].fields[0].clone());
        let elem_grows = list_elem.is_some() && ctors[1].0[0].grows;
        let grows = ctors.iter().any(|(fields, _)| fields.iter().any(|f| f.grows));
        let info = Rc::new(DataInfo { order, base, ctors, list_elem, elem_grows, grows, pair: dd.name == "prod" });
        self.datas[d.0 as usize] = Some(info.clone());
        info
    }
}

/// How many parts share `size`, and each one's size: a count `n` in `0..=size`, drawn as one
/// choice (so every part's size is known before the first is drawn, in a replay too), and
/// `size / n` each, as QuickCheck's sized generators split their size among subterms.
fn split(size: u64, ch: &mut Choices) -> (u64, u64) {
    let n = ch.draw(size.saturating_add(1));
    (n, size / n.max(1))
}

/// A `nat` in `0..=size`, or an `int` in `-size..=size` drawn as 0, 1, -1, 2, -2, ... (a
/// smaller choice is a smaller magnitude).
fn number(ty: &Ty, size: u64, ch: &mut Choices) -> i64 {
    let c = ch.draw(number_choices(ty, size));
    number_of_choice(*ty == Ty::Nat, c)
}

/// How many numbers of `ty` (`nat` or `int`) there are at `size`.
fn number_choices(ty: &Ty, size: u64) -> u64 {
    if *ty == Ty::Nat {
        size + 1
    } else {
        2 * size + 1
    }
}

/// The number of choice `c`, a `nat` if `nat`, an `int` otherwise.
fn number_of_choice(nat: bool, c: u64) -> i64 {
    let c = c as i64;
    if nat {
        c
    } else if c % 2 == 1 {
        c / 2 + 1
    } else {
        -(c / 2)
    }
}

/// The size of a value for shrinking statistics: its constructor cells, set elements and
/// map entries.
pub fn value_size(v: &Value) -> u64 {
    match v {
        Value::Bool(_) | Value::Int(_) | Value::Hole(_) | Value::Stuck(_) => 0,
        Value::Ctor(_, _) => {
            let f = v.fields();
            if f.is_empty() {
                0
            } else {
                1 + f.iter().map(value_size).sum::<u64>()
            }
        }
        Value::Set(s) => s.elems().iter().map(|e| 1 + value_size(e)).sum(),
        Value::Fun(c) => match &**c {
            Closure::Map { entries, .. } => entries.iter().map(|(k, x)| 1 + value_size(k) + value_size(x)).sum(),
            _ => 0,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testers::random::tests::conjecture;
    use rand::SeedableRng;

    /// The size is split among the parts of a value that grow, so deep nests of lists,
    /// functions and user datatypes cost polynomially in the size (here at most linearly per
    /// level), not exponentially in the depth: before, a `nat list^20` at size 4 had up to
    /// 4^20 cells.
    #[test]
    fn deep_types_cost_polynomially_in_the_size() {
        let list20 = format!("nat{}", " list".repeat(20));
        let fun16 = vec!["nat"; 17].join(" ⇒ ");
        let tree6 = format!("nat{}", " tree".repeat(6));
        let set6 = format!("nat{}", " set".repeat(6));
        let c = conjecture(&format!(
            "datatype 'a tree = Leaf | Node \"'a tree\" 'a \"'a tree\"\n\
             lemma \"(a :: {list20}) = a ∧ (b :: {fun16}) = b ∧ (c :: {tree6}) = c ∧ (d :: {set6}) = d\" oops"
        ));
        let mut gens = Generators::new(&c.program);
        for var in &c.vars {
            for size in [0u64, 1, 2, 4, 8, 30, 100] {
                let mut most = 0;
                for seed in 0..40u64 {
                    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
                    gens.start_case();
                    let v = gens.value(&var.ty, size, &mut Choices::random(&mut rng));
                    assert_eq!(gens.abandoned(), None, "{}, size {size}", var.name);
                    most = most.max(gens.steps());
                    assert!(value_size(&v) <= gens.steps());
                }
                // 20 levels (16 for the function), a few steps per element and level.
                assert!(most <= 64 * (size + 1), "{}: {most} steps at size {size}", var.name);
            }
        }
    }

    /// Lists of numbers, the common case, are drawn as before: the size is not split among
    /// numbers, which do not grow.
    #[test]
    fn lists_of_numbers_keep_the_whole_size() {
        let c = conjecture("lemma \"(xs :: nat list) = xs\" oops");
        let mut gens = Generators::new(&c.program);
        let mut ch = Choices::replay(&[1, 30, 1, 29, 0]);
        let v = gens.value(&c.vars[0].ty, 30, &mut ch);
        assert_eq!(lang::interp::print_value(&c.program, &v, &c.vars[0].ty), "[30, 29]");
    }
}
