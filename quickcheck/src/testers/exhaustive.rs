//! The `exhaustive` tester: every assignment up to the size, sizes in increasing order, so
//! the first counterexample found is among the smallest. Continuation-based in the sense of
//! the paper: each generated variable is a loop around the rest of the schedule, so a premise
//! is checked as soon as its variables are set and a false one prunes every assignment below.
//! Table spaces are built into the JIT's arena once per size; a case costs an arena release,
//! word copies and the native calls of its parts.

use crate::budget::Budget;
use crate::case::{part, run_step, Flow};
use crate::driver::{Judge, Turn};
use crate::program::{Schedule, Step};
use crate::runner::{Arena, Runner};
use crate::space::{Alt, Space, Spaces};
use crate::testers::{Coverage, End, Search, Setup, SizeResult, Tester};
use codegen::{LevelEnd, SharedCells, Word};
use lang::core::conjecture::Conjecture;
use lang::core::ir::{FunId, Ty, Undef};
use lang::interp::cardinality;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

/// The `exhaustive` row of the registry.
pub struct ExhaustiveTester;

impl Tester for ExhaustiveTester {
    fn name(&self) -> &'static str {
        "exhaustive"
    }

    fn about(&self) -> &'static str {
        "Every case up to the size, smallest first"
    }

    fn in_portfolio(&self) -> bool {
        true
    }

    fn coverage(&self) -> Coverage {
        Coverage::Complete
    }

    fn search<'c>(&self, conjecture: &'c Conjecture, setup: &Setup) -> Box<dyn Search + 'c> {
        Box::new(Exhaustive::new(conjecture, setup))
    }
}

/// The exhaustive search of one type instance, run size by size.
pub struct Exhaustive<'c> {
    c: &'c Conjecture,
    sched: Schedule,
    r: Runner<'c>,
    spaces: Spaces<'c>,
    gens: Vec<usize>,
    cards: Vec<Option<u128>>,
    /// Per step: for a `Gen` step followed by checks, the level compiled code loops over.
    levels: Vec<Option<Level>>,
    /// The whole space was enumerated: every generated variable has a finite type and its
    /// space at the last size was all of it, so larger sizes would repeat the same tests.
    pub exhausted: bool,
}

impl<'c> Exhaustive<'c> {
    pub fn new(c: &'c Conjecture, setup: &Setup) -> Exhaustive<'c> {
        let sched = Schedule::of(c);
        let gens: Vec<usize> = sched.generated().collect();
        let cards = gens.iter().map(|v| cardinality(&c.program, &c.vars[*v].ty)).collect();
        let levels = Level::all(c, &sched);
        Exhaustive {
            c,
            r: Runner::new(c, setup.engine, setup.deadline),
            spaces: Spaces::new(&c.program),
            sched,
            gens,
            cards,
            levels,
            exhausted: false,
        }
    }

    /// Tests every assignment of generator size `size` (Isabelle's `size - 1`).
    fn run(&mut self, size: u64, budget: Budget, judge: Judge<'_>) -> SizeResult {
        let c = self.c;
        let mut sp: Vec<Option<Rc<Space>>> = vec![None; c.vars.len()];
        for v in &self.gens {
            match self.spaces.space(&c.vars[*v].ty, size) {
                Ok(s) => sp[*v] = Some(s),
                Err(_) => return SizeResult { end: Some(End::TooBig), ..SizeResult::default() },
            }
        }
        let r = &mut self.r;
        let cases = self.gens.iter().filter_map(|v| sp[*v].as_ref()).fold(1u64, |n, s| n.saturating_mul(s.count()));
        r.tier_up(cases);
        r.clear();
        let mut words = WordCache::default();
        let mut word_only = vec![false; c.vars.len()];
        let mut arena = r.arena();
        if arena.compiled() {
            // The values of the tables are alive (in `sp`) all along `shared`'s life.
            let mut shared = SharedCells::default();
            for v in &self.gens {
                if let Some(s) = &sp[*v] {
                    words.prebuild(s, &c.vars[*v].ty, &mut arena, &mut shared);
                    word_only[*v] = !crate::types::has_functions(&c.program, &c.vars[*v].ty);
                }
            }
        }
        let whole = self
            .gens
            .iter()
            .zip(&self.cards)
            .all(|(v, card)| card.is_some_and(|n| sp[*v].as_ref().is_some_and(|s| u128::from(s.count()) == n)));
        let mut st = Walk {
            r,
            sched: &self.sched,
            levels: &self.levels,
            sp,
            words,
            word_only,
            judge,
            budget,
            tests: 0,
            passed: 0,
            ticks: 0,
        };
        let end = st.search(0, None);
        let res = SizeResult { end, tests: st.tests, passed: st.passed, ..SizeResult::default() };
        self.exhausted = whole && res.end.is_none();
        res
    }
}

impl Search for Exhaustive<'_> {
    fn run_size(&mut self, turn: &mut Turn) -> SizeResult {
        self.run(turn.size, turn.budget, turn.judge)
    }

    fn exhausted(&self) -> bool {
        self.exhausted
    }
}

/// The checks right after a generated variable: compiled code runs them over many of its
/// values in one loop (`Jit::run_rows`).
struct Level {
    checks: Vec<FunId>,
    /// Steps follow the checks: a case passing them all is taken deeper, one at a time.
    descend: bool,
    /// The step after the checks.
    next: usize,
}

impl Level {
    /// The level of each `Gen` step followed by at least one check.
    fn all(c: &Conjecture, sched: &Schedule) -> Vec<Option<Level>> {
        let steps = &sched.steps;
        (0..steps.len())
            .map(|k| {
                if !matches!(steps[k], Step::Gen(_)) {
                    return None;
                }
                let checks: Vec<FunId> = steps[k + 1..]
                    .iter()
                    .map_while(|s| match s {
                        Step::Check(p) => Some(part(c, *p).fun),
                        _ => None,
                    })
                    .collect();
                let next = k + 1 + checks.len();
                (!checks.is_empty()).then_some(Level { checks, descend: next < steps.len(), next })
            })
            .collect()
    }
}

/// Cases a level runs between two looks at the budget.
const LEVEL_CHUNK: usize = 256;

/// One size's enumeration, step by step of the schedule.
struct Walk<'r, 'c> {
    r: &'r mut Runner<'c>,
    sched: &'r Schedule,
    levels: &'r [Option<Level>],
    sp: Vec<Option<Rc<Space>>>,
    words: WordCache,
    /// Variables whose values are set as words only (no functions inside): their
    /// interpreter values are read back from the words when needed.
    word_only: Vec<bool>,
    judge: Judge<'r>,
    budget: Budget<'r>,
    tests: u64,
    passed: u64,
    ticks: u64,
}

impl Walk<'_, '_> {
    fn search(&mut self, k: usize, taint: Option<Undef>) -> Option<End> {
        let step = self.sched.steps[k];
        let Step::Gen(v) = step else {
            let mut t = taint;
            return match run_step(self.r, step, &mut t) {
                Err(s) => Some(End::Stopped(s)),
                Ok(Flow::Next) => self.search(k + 1, t),
                Ok(Flow::Rejected) => {
                    self.tests += 1;
                    None
                }
                Ok(Flow::Passed) => {
                    self.tests += 1;
                    self.passed += 1;
                    None
                }
                Ok(Flow::Failed(_)) => {
                    self.tests += 1;
                    self.passed += 1;
                    self.failure()
                }
            };
        };
        let space = self.sp[v].clone().expect("a space for every generated variable");
        let words = self.words.of(&space);
        if let (Some(w), Some(level), true) = (&words, &self.levels[k], self.word_only[v]) {
            return self.search_level(k, v, level, &space, w, taint);
        }
        let mut odometer = Odometer::new(&space);
        let m = self.r.arena().mark();
        for i in 0..space.count() {
            self.ticks += 1;
            if self.ticks & 1023 == 0 {
                if let Some(e) = self.over_budget() {
                    return Some(e);
                }
            }
            let mut arena = self.r.arena();
            arena.release(m);
            let word = match (words.as_deref(), &mut odometer) {
                (Some(w), Some(o)) => {
                    let word = o.word(&space, w, &mut arena);
                    o.advance(&space);
                    word
                }
                (Some(w), None) => w.word(&space, i, &mut arena),
                (None, _) => None,
            };
            match word {
                Some(w) if self.word_only[v] => self.r.set_word(v, w),
                w => self.r.set(v, space.value(i), w),
            }
            if let Some(e) = self.search(k + 1, taint.clone()) {
                return Some(e);
            }
        }
        self.r.arena().release(m);
        None
    }

    /// `search` at step `k`, generating `v` (set as words only), whose values' words are
    /// `words`, followed by `level`'s checks: the words of up to `LEVEL_CHUNK` values are
    /// built, then compiled code runs the checks over them in one loop, handing back the
    /// cases it does not settle (one passing the checks of a level that descends, a
    /// candidate, or one without a plain truth value), which go on one at a time.
    fn search_level(
        &mut self,
        k: usize,
        v: usize,
        level: &Level,
        space: &Space,
        words: &SpaceWords,
        taint: Option<Undef>,
    ) -> Option<End> {
        let mut odometer = Odometer::new(space);
        let m = self.r.arena().mark();
        let n = space.count();
        let mut buf: Vec<Word> = Vec::with_capacity(LEVEL_CHUNK);
        // The argument rows of the cases of `buf` (`Batch::rows_with`).
        let mut rows: Vec<Word> = Vec::new();
        let mut i = 0;
        while i < n {
            if let Some(e) = self.over_budget() {
                return Some(e);
            }
            let mut arena = self.r.arena();
            arena.release(m);
            buf.clear();
            while buf.len() < LEVEL_CHUNK && i < n {
                let w = match &mut odometer {
                    Some(o) => o.word(space, words, &mut arena).inspect(|_| o.advance(space)),
                    None => words.word(space, i, &mut arena),
                };
                let Some(w) = w else { break };
                buf.push(w);
                i += 1;
            }
            if buf.is_empty() {
                // No word for value `i` (the arena is full): its value goes to the interpreter.
                if let Some(o) = &mut odometer {
                    o.advance(space);
                }
                self.r.set(v, space.value(i), None);
                if let Some(e) = self.search(k + 1, taint.clone()) {
                    return Some(e);
                }
                i += 1;
                continue;
            }
            self.ticks += buf.len() as u64;
            let chunk = self.r.arena().mark();
            let width = self.r.batch().width();
            rows.clear();
            self.r.batch().rows_with(v, &buf, &mut rows);
            let mut j = 0;
            while j < buf.len() {
                self.r.arena().release(chunk);
                let mut batch = self.r.batch();
                let (end, counts) = if batch.runs(&level.checks, Some(v)) {
                    batch.run(&level.checks, level.descend, &rows[j * width..])
                } else {
                    (LevelEnd::Handover(0), Default::default())
                };
                self.tests += counts.rejected + counts.passed;
                self.passed += counts.passed;
                let (at, next) = match end {
                    LevelEnd::Done => break,
                    // The checks held: straight to the steps after them.
                    LevelEnd::Descend(d) => (j + d, level.next),
                    // The case once more, step by step, where its outcome is read.
                    LevelEnd::Failed(d) | LevelEnd::Handover(d) => (j + d, k + 1),
                };
                self.r.arena().release(chunk);
                self.r.set_word(v, buf[at]);
                if let Some(e) = self.search(next, taint.clone()) {
                    return Some(e);
                }
                j = at + 1;
            }
        }
        self.r.arena().release(m);
        None
    }

    /// How the search ends when the budget is spent.
    fn over_budget(&self) -> Option<End> {
        self.budget.over_at(self.passed)
    }

    fn failure(&mut self) -> Option<End> {
        let n = self.r.conj.vars.len();
        let generated: Vec<_> = (0..n).map(|v| if self.sp[v].is_some() { self.r.value(v) } else { None }).collect();
        self.judge.verdict(self.r.conj, self.sched, &generated)
    }
}

/// Arena words of the values of table spaces, built once per size before any case runs (so
/// releasing the arena after a case keeps them; values sharing a tail share its cells), and
/// for each lazy space how its values' words are built from its fields', one constructor
/// cell per level.
#[derive(Default)]
struct WordCache {
    spaces: HashMap<*const Space, Rc<SpaceWords>, BuildHasherDefault<PtrHasher>>,
}

/// Hashes a pointer by one multiplication (the default SipHash was 5% of the exhaustive
/// tester's time when spaces were looked up per case).
#[derive(Default)]
struct PtrHasher(u64);

impl Hasher for PtrHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_usize(&mut self, x: usize) {
        self.0 = (x as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29);
    }
}

/// The words of one space's values.
enum SpaceWords {
    /// A table's, built (`None`: left to the interpreter).
    Table(Box<[Option<Word>]>),
    /// A lazy space's, built per value from its fields': per alternative, per field.
    Lazy(Vec<Vec<Rc<SpaceWords>>>),
}

impl SpaceWords {
    /// The word of value `i` of `s` (whose words these are), if the JIT can build it.
    fn word(&self, s: &Space, i: u64, arena: &mut Arena) -> Option<Word> {
        let alts = match self {
            SpaceWords::Table(ws) => return ws.get(i as usize).copied().flatten(),
            SpaceWords::Lazy(alts) => alts,
        };
        // By binary search: a type with many constructors costs log n per value.
        let (at, mut n) = s.locate_index(i)?;
        let (a, fields) = (s.alts().get(at)?, alts.get(at)?);
        // The field indices, the last field moving fastest.
        let mut digits = [0u64; MAX_FIELDS];
        let k = a.fields.len();
        if k > MAX_FIELDS {
            return None;
        }
        for j in (0..k).rev() {
            let c = a.fields[j].count();
            digits[j] = n % c;
            n /= c;
        }
        alt_word(a, fields, &digits[..k], arena)
    }
}

/// Values of lazy spaces with more fields than this get no word (the interpreter runs them).
const MAX_FIELDS: usize = 16;

/// The word of alternative `a`'s value whose fields are the values number `digits` of its
/// field spaces (whose words are `fields`).
fn alt_word(a: &Alt, fields: &[Rc<SpaceWords>], digits: &[u64], arena: &mut Arena) -> Option<Word> {
    let mut buf = [0 as Word; MAX_FIELDS];
    if digits.len() > MAX_FIELDS {
        return None;
    }
    for (j, d) in digits.iter().enumerate() {
        buf[j] = fields[j].word(&a.fields[j], *d, arena)?;
    }
    arena.ctor(a.tag, &buf[..digits.len()])
}

/// The position of the current value of a lazy space walked in index order: its
/// alternative and each field's index, the last field moving fastest (the order of
/// `Space::value`). Advancing it costs no division, where decoding an index costs one per
/// field.
struct Odometer {
    alt: usize,
    digits: Vec<u64>,
}

impl Odometer {
    /// At the first value of `s`; `None` for a table.
    fn new(s: &Space) -> Option<Odometer> {
        let a = s.alts().first()?;
        Some(Odometer { alt: 0, digits: vec![0; a.fields.len()] })
    }

    fn advance(&mut self, s: &Space) {
        let alts = s.alts();
        let Some(a) = alts.get(self.alt) else { return };
        for j in (0..self.digits.len()).rev() {
            self.digits[j] += 1;
            if self.digits[j] < a.fields[j].count() {
                return;
            }
            self.digits[j] = 0;
        }
        self.alt += 1;
        if let Some(next) = alts.get(self.alt) {
            self.digits.clear();
            self.digits.resize(next.fields.len(), 0);
        }
    }

    /// The word of the current value (`words` are `s`'s).
    fn word(&self, s: &Space, words: &SpaceWords, arena: &mut Arena) -> Option<Word> {
        let (SpaceWords::Lazy(alts), Some(a)) = (words, s.alts().get(self.alt)) else { return None };
        alt_word(a, &alts[self.alt], &self.digits, arena)
    }
}

impl WordCache {
    /// Builds the words of `s` (of type `ty`) and of the spaces inside it.
    fn prebuild(&mut self, s: &Rc<Space>, ty: &Ty, arena: &mut Arena, shared: &mut SharedCells) -> Rc<SpaceWords> {
        if let Some(w) = self.spaces.get(&Rc::as_ptr(s)) {
            return w.clone();
        }
        let words = Rc::new(match s.as_table() {
            // Tables take at most half the arena; values left without a word run in the
            // interpreter.
            Some(t) => SpaceWords::Table(
                t.iter().map(|x| if arena.half_free() { arena.value(x, ty, shared) } else { None }).collect(),
            ),
            None => SpaceWords::Lazy(
                s.alts()
                    .iter()
                    .map(|a| a.fields.iter().zip(&a.tys).map(|(f, t)| self.prebuild(f, t, arena, shared)).collect())
                    .collect(),
            ),
        });
        self.spaces.insert(Rc::as_ptr(s), words.clone());
        words
    }

    /// The words of `s`, when built.
    fn of(&self, s: &Space) -> Option<Rc<SpaceWords>> {
        self.spaces.get(&(s as *const Space)).cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::Engine;
    use lang::core::conjecture::TypeChoice;
    use std::time::{Duration, Instant};

    /// A lazy space (lists of up to 8 elements, 623,530 of them) walked as the search walks
    /// it: the words the odometer builds, and those decoded from the index, are the values.
    #[test]
    fn lazy_space_words_are_its_values() {
        let th = lang::check_theory("theory T imports Main begin\nlemma \"length (xs :: nat list) < 100\" oops\nend");
        assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
        let c = th.lower_conjecture(0, &[TypeChoice::Named("nat".into())]);
        let mut r = Runner::new(&c, Engine::Compiled, Instant::now() + Duration::from_secs(60));
        let ty = c.vars[0].ty.clone();
        let space = Spaces::new(&c.program).space(&ty, 9).unwrap();
        assert!(space.as_table().is_none() && space.count() == 623_530);
        let mut cache = WordCache::default();
        let words = cache.prebuild(&space, &ty, &mut r.arena(), &mut SharedCells::default());
        let mut odometer = Odometer::new(&space).expect("a lazy space");
        let m = r.arena().mark();
        for i in 0..space.count() {
            let mut arena = r.arena();
            arena.release(m);
            let w = odometer.word(&space, &words, &mut arena).expect("a word");
            odometer.advance(&space);
            if i % 101 == 0 || i < 2_000 || i + 2_000 > space.count() {
                let decoded = words.word(&space, i, &mut arena).expect("a word");
                r.set_word(0, w);
                let by_odometer = r.value(0);
                r.set_word(0, decoded);
                assert_eq!((by_odometer, r.value(0)), (Some(space.value(i)), Some(space.value(i))), "value {i}");
            }
        }
    }
}
