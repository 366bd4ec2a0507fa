//! The `random` tester: `iterations` random assignments for each size from 1 to `size`,
//! replayable from the printed seed, each counterexample shrunk before it is shown.
//!
//! Generators are derived from the types and draw every random decision from a `Choices`
//! source, which records it. A value is thus a function of its choice sequence, and
//! shrinking works on that sequence (integrated shrinking: every candidate is produced by
//! the generator itself, so it respects whatever the generator guarantees): deleting choices
//! drops list elements and subtrees, lowering a choice lowers a number or picks an earlier,
//! non-recursive constructor. Variables are drawn in schedule order, so the choices of the
//! outer arguments come first and are shrunk first.

use crate::case::{run_step, Flow};
use crate::outcome::ShrinkStats;
use crate::program::{Schedule, Step};
use crate::runner::{Runner, Stop};
use crate::search::{on_failure, Budget, End, SizeResult};
use lang::core::conjecture::Conjecture;
use lang::core::ir::{DataId, Program, Ty};
use lang::interp::{cardinality, Closure, SetValue, Value};
use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Instant;

/// Where a generator's decisions come from: a random generator (recording them), or a
/// recorded sequence being replayed (missing choices read as 0, the simplest).
pub struct Choices<'a> {
    rng: Option<&'a mut Xoshiro256PlusPlus>,
    replay: &'a [u64],
    pos: usize,
    /// The choices made, normalized (each below its bound).
    pub record: Vec<u64>,
}

impl<'a> Choices<'a> {
    pub fn random(rng: &'a mut Xoshiro256PlusPlus) -> Choices<'a> {
        Choices { rng: Some(rng), replay: &[], pos: 0, record: Vec::new() }
    }

    pub fn replay(choices: &'a [u64]) -> Choices<'a> {
        Choices { rng: None, replay: choices, pos: 0, record: Vec::new() }
    }

    /// A choice in `0..n` (`n >= 1`).
    fn draw(&mut self, n: u64) -> u64 {
        let v = match self.rng.as_mut() {
            Some(r) => r.random_range(0..n.max(1)),
            None => self.replay.get(self.pos).copied().unwrap_or(0).min(n.saturating_sub(1)),
        };
        self.pos += 1;
        self.record.push(v);
        v
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
                    self.pos += 1;
                    self.record.push(m as u64);
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

/// Random values of the types of one program.
pub struct Generators<'p> {
    prog: &'p Program,
    /// Per datatype: constructor tags, non-recursive ones first, and which are recursive.
    ctor_order: Vec<Option<Vec<(u32, bool)>>>,
}

impl<'p> Generators<'p> {
    pub fn new(prog: &'p Program) -> Generators<'p> {
        Generators { prog, ctor_order: vec![None; prog.datas.len()] }
    }

    pub fn value(&mut self, ty: &Ty, size: u64, ch: &mut Choices) -> Value {
        match ty {
            Ty::Bool => Value::Bool(ch.draw(2) == 1),
            Ty::Nat => Value::nat(ch.draw(size + 1)),
            Ty::Int => {
                // 0, 1, -1, 2, -2, ...: a smaller choice is a smaller magnitude.
                let c = ch.draw(2 * size + 1) as i64;
                Value::int(if c % 2 == 1 { c / 2 + 1 } else { -(c / 2) })
            }
            Ty::Data(d) => self.data(*d, size, ch),
            Ty::Set(e) => {
                let mut elems = Vec::new();
                ch.sequence(size, |ch| elems.push(self.value(e, size, ch)));
                Value::set(SetValue::finite(elems))
            }
            Ty::Fun(a, b) => {
                if let Some(keys) =
                    cardinality(self.prog, a).filter(|n| *n <= 64).and_then(|_| lang::interp::enumerate(self.prog, a))
                {
                    let entries: Vec<(Value, Value)> = keys.into_iter().map(|k| (k, self.value(b, size, ch))).collect();
                    let default = entries.first().map(|(_, v)| v.clone()).unwrap_or(Value::Bool(false));
                    return Value::fun_map(default, entries);
                }
                let default = self.value(b, size, ch);
                let mut entries = Vec::new();
                ch.sequence(size, |ch| {
                    let k = self.value(a, size, ch);
                    entries.push((k, self.value(b, size, ch)));
                });
                Value::fun_map(default, entries)
            }
        }
    }

    fn data(&mut self, d: DataId, size: u64, ch: &mut Choices) -> Value {
        let dd = self.prog.data(d);
        if dd.name == "list" && dd.ctors.len() == 2 && dd.ctors[1].fields.len() == 2 {
            // Lists as QuickCheck draws them: length and elements up to the size.
            let elem = dd.ctors[1].fields[0].clone();
            let mut elems = Vec::new();
            ch.sequence(size, |ch| elems.push(self.value(&elem, size, ch)));
            let mut v = Value::nullary(0);
            for x in elems.into_iter().rev() {
                v = Value::ctor(1, vec![x, v]);
            }
            return v;
        }
        let order = self.order(d);
        let base = order.iter().filter(|(_, rec)| !rec).count().max(1);
        let n = if size == 0 { base } else { order.len() };
        let (tag, _) = order[ch.draw(n as u64) as usize];
        let fields = self.prog.data(d).ctors[tag as usize].fields.clone();
        let recursive = fields.iter().filter(|f| self.mentions(f, d)).count() as u64;
        let pair = self.prog.data(d).name == "prod";
        let vals = fields
            .iter()
            .map(|f| {
                let s = if pair || !self.mentions(f, d) { size } else { size.saturating_sub(1) / recursive.max(1) };
                self.value(f, s, ch)
            })
            .collect();
        Value::ctor(tag, vals)
    }

    /// The constructors of `d`, non-recursive first.
    fn order(&mut self, d: DataId) -> Vec<(u32, bool)> {
        if let Some(o) = &self.ctor_order[d.0 as usize] {
            return o.clone();
        }
        let ctors = self.prog.data(d).ctors.clone();
        let mut o: Vec<(u32, bool)> =
            ctors.iter().enumerate().map(|(t, c)| (t as u32, c.fields.iter().any(|f| self.mentions(f, d)))).collect();
        o.sort_by_key(|(t, rec)| (*rec, *t));
        self.ctor_order[d.0 as usize] = Some(o.clone());
        o
    }

    /// Whether values of `ty` can contain values of datatype `d`.
    fn mentions(&self, ty: &Ty, d: DataId) -> bool {
        let mut seen = Vec::new();
        mentions(self.prog, ty, d, &mut seen)
    }
}

fn mentions(p: &Program, ty: &Ty, d: DataId, seen: &mut Vec<DataId>) -> bool {
    match ty {
        Ty::Bool | Ty::Nat | Ty::Int => false,
        Ty::Fun(a, b) => mentions(p, a, d, seen) || mentions(p, b, d, seen),
        Ty::Set(e) => mentions(p, e, d, seen),
        Ty::Data(e) => {
            if *e == d {
                return true;
            }
            if seen.contains(e) {
                return false;
            }
            seen.push(*e);
            p.data(*e).ctors.iter().any(|c| c.fields.iter().any(|f| mentions(p, f, d, seen)))
        }
    }
}

/// The size of a value for shrinking statistics: its constructor cells, set elements and
/// map entries.
pub fn value_size(v: &Value) -> u64 {
    match v {
        Value::Bool(_) | Value::Int(_) => 0,
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

/// One random case: the schedule run with values drawn from `ch`.
struct Case {
    flow: Flow,
    generated: Vec<Option<Value>>,
}

fn run_case(
    r: &mut Runner,
    sched: &Schedule,
    gens: &mut Generators,
    size: u64,
    ch: &mut Choices,
) -> Result<Case, Stop> {
    r.reset_arena();
    r.clear();
    let mut generated = vec![None; r.conj.vars.len()];
    let mut taint = None;
    for step in &sched.steps {
        let flow = match step {
            Step::Gen(v) => {
                let val = gens.value(&r.conj.vars[*v].ty.clone(), size, ch);
                let w = r.word_of(*v, &val);
                generated[*v] = Some(val.clone());
                r.set(*v, val, w);
                Flow::Next
            }
            s => run_step(r, *s, &mut taint)?,
        };
        if flow != Flow::Next {
            return Ok(Case { flow, generated });
        }
    }
    Ok(Case { flow: Flow::Passed, generated })
}

/// The random tester of one type instance, run size by size.
pub struct Random<'c> {
    c: &'c Conjecture,
    sched: Schedule,
    r: Runner<'c>,
    gens: Generators<'c>,
    genuine_only: bool,
}

impl<'c> Random<'c> {
    pub fn new(c: &'c Conjecture, genuine_only: bool, budget: &Budget, use_jit: bool) -> Random<'c> {
        Random {
            c,
            sched: Schedule::of(c),
            r: Runner::new(c, use_jit, budget.deadline),
            gens: Generators::new(&c.program),
            genuine_only,
        }
    }

    /// Runs `iterations` random cases of size `size`; a failing case is shrunk, then
    /// re-checked.
    pub fn run_size(&mut self, size: u64, iterations: u64, rng: &mut Xoshiro256PlusPlus, budget: Budget) -> SizeResult {
        let mut res = SizeResult::default();
        for _ in 0..iterations {
            if res.tests & 255 == 0 && budget.exceeded() {
                res.end = Some(if budget.cancelled() { End::Cancelled } else { End::Stopped(Stop::Timeout) });
                return res;
            }
            let mut ch = Choices::random(rng);
            let case = match run_case(&mut self.r, &self.sched, &mut self.gens, size, &mut ch) {
                Ok(case) => case,
                Err(stop) => {
                    res.end = Some(End::Stopped(stop));
                    return res;
                }
            };
            res.tests += 1;
            match case.flow {
                Flow::Passed => res.passed += 1,
                Flow::Failed(taint) => {
                    res.passed += 1;
                    if taint.is_some() && self.genuine_only {
                        continue;
                    }
                    let before: u64 = case.generated.iter().flatten().map(value_size).sum();
                    let t0 = Instant::now();
                    let (choices, attempts) =
                        shrink(&mut self.r, &self.sched, &mut self.gens, size, ch.record, taint.is_none(), &budget);
                    let replayed =
                        run_case(&mut self.r, &self.sched, &mut self.gens, size, &mut Choices::replay(&choices));
                    let shrunk = match replayed {
                        Ok(Case { flow: Flow::Failed(_), generated }) => generated,
                        _ => case.generated,
                    };
                    res.shrink = Some(ShrinkStats {
                        size_before: before,
                        size_after: shrunk.iter().flatten().map(value_size).sum(),
                        attempts,
                        seconds: t0.elapsed().as_secs_f64(),
                    });
                    if let Some(end) = on_failure(self.c, &self.sched, &shrunk, self.genuine_only, budget.deadline) {
                        res.end = Some(end);
                        return res;
                    }
                }
                _ => {}
            }
        }
        res
    }
}

/// The most candidates shrinking tries for one counterexample.
const SHRINK_ATTEMPTS: u64 = 20_000;

/// Shrinks a failing choice sequence: repeatedly deletes blocks of choices and lowers single
/// choices, keeping a candidate when it still fails (genuinely, if `genuine` is set) and is
/// smaller in shortlex order. Returns the smallest sequence and the candidates tried.
fn shrink(
    r: &mut Runner,
    sched: &Schedule,
    gens: &mut Generators,
    size: u64,
    start: Vec<u64>,
    genuine: bool,
    budget: &Budget,
) -> (Vec<u64>, u64) {
    let mut best = start;
    let mut attempts = 0u64;
    let mut fails = |cand: &[u64], attempts: &mut u64| -> Option<Vec<u64>> {
        *attempts += 1;
        let mut ch = Choices::replay(cand);
        match run_case(r, sched, gens, size, &mut ch) {
            Ok(Case { flow: Flow::Failed(t), .. }) if !genuine || t.is_none() => Some(ch.record),
            _ => None,
        }
    };
    let smaller = |a: &[u64], b: &[u64]| a.len() < b.len() || (a.len() == b.len() && a < b);
    loop {
        let mut improved = false;
        for block in [8usize, 4, 2, 1] {
            let mut i = 0;
            while i + block <= best.len() {
                if attempts >= SHRINK_ATTEMPTS || budget.exceeded() {
                    return (best, attempts);
                }
                let mut cand = best.clone();
                cand.drain(i..i + block);
                match fails(&cand, &mut attempts) {
                    Some(rec) if smaller(&rec, &best) => {
                        best = rec;
                        improved = true;
                    }
                    _ => i += 1,
                }
            }
        }
        let mut i = 0;
        while i < best.len() {
            i += 1;
            let i = i - 1;
            if best[i] == 0 {
                continue;
            }
            if attempts >= SHRINK_ATTEMPTS || budget.exceeded() {
                return (best, attempts);
            }
            // Binary search for the smallest value of this choice that still fails.
            let (mut lo, mut hi) = (0u64, best[i]);
            let mut found: Option<Vec<u64>> = None;
            let mut cand = best.clone();
            cand[i] = 0;
            if let Some(rec) = fails(&cand, &mut attempts) {
                found = Some(rec);
                hi = 0;
            }
            while lo + 1 < hi {
                let mid = lo + (hi - lo) / 2;
                let mut cand = best.clone();
                cand[i] = mid;
                match fails(&cand, &mut attempts) {
                    Some(rec) => {
                        hi = mid;
                        found = Some(rec);
                    }
                    None => lo = mid,
                }
            }
            if let Some(rec) = found {
                if smaller(&rec, &best) {
                    best = rec;
                    improved = true;
                }
            }
        }
        if !improved {
            return (best, attempts);
        }
    }
}
