//! The `exhaustive` tester: every assignment up to the size, sizes in increasing order, so
//! the first counterexample found is among the smallest. Continuation-based in the sense of
//! the paper: each generated variable is a loop around the rest of the schedule, so a premise
//! is checked as soon as its variables are set and a false one prunes every assignment below.
//! Table spaces are built into the JIT's arena once per size; a case costs an arena release,
//! word copies and the native calls of its parts.

use crate::case::{run_step, Flow};
use crate::program::{Schedule, Step};
use crate::runner::{Runner, Stop};
use crate::search::{on_failure, Budget, End, SizeResult};
use crate::space::{Space, Spaces};
use codegen::Word;
use lang::core::conjecture::Conjecture;
use lang::core::ir::Undef;
use lang::interp::cardinality;
use std::rc::Rc;

/// The exhaustive tester of one type instance, run size by size.
pub struct Exhaustive<'c> {
    c: &'c Conjecture,
    sched: Schedule,
    r: Runner<'c>,
    spaces: Spaces<'c>,
    gens: Vec<usize>,
    cards: Vec<Option<u128>>,
    genuine_only: bool,
    /// The whole space was enumerated: every generated variable has a finite type and its
    /// space at the last size was all of it, so larger sizes would repeat the same tests.
    pub exhausted: bool,
}

impl<'c> Exhaustive<'c> {
    pub fn new(c: &'c Conjecture, genuine_only: bool, budget: &Budget, use_jit: bool) -> Exhaustive<'c> {
        let sched = Schedule::of(c);
        let gens: Vec<usize> = sched.generated().collect();
        let cards = gens.iter().map(|v| cardinality(&c.program, &c.vars[*v].ty)).collect();
        Exhaustive {
            c,
            r: Runner::new(c, use_jit, budget.deadline),
            spaces: Spaces::new(&c.program),
            sched,
            gens,
            cards,
            genuine_only,
            exhausted: false,
        }
    }

    /// Tests every assignment of generator size `size` (Isabelle's `size - 1`).
    pub fn run_size(&mut self, size: u64, budget: Budget) -> SizeResult {
        let c = self.c;
        let mut sp: Vec<Option<Rc<Space>>> = vec![None; c.vars.len()];
        for v in &self.gens {
            match self.spaces.space(&c.vars[*v].ty, size) {
                Ok(s) => sp[*v] = Some(s),
                Err(_) => return SizeResult { end: Some(End::TooBig), ..SizeResult::default() },
            }
        }
        let r = &mut self.r;
        r.reset_arena();
        let mut words: Vec<Vec<Option<Word>>> = vec![Vec::new(); c.vars.len()];
        if r.has_jit() {
            for v in &self.gens {
                if let Some(t) = sp[*v].as_ref().and_then(|s| s.as_table()) {
                    words[*v] = t.iter().map(|x| r.word_of(*v, x)).collect();
                }
            }
        }
        let whole = self
            .gens
            .iter()
            .zip(&self.cards)
            .all(|(v, card)| card.is_some_and(|n| sp[*v].as_ref().is_some_and(|s| u128::from(s.count()) == n)));
        let mut st = Search {
            r,
            sched: &self.sched,
            sp,
            words,
            genuine_only: self.genuine_only,
            budget,
            tests: 0,
            passed: 0,
            ticks: 0,
        };
        let end = st.search(0, None);
        let res = SizeResult { end, tests: st.tests, passed: st.passed, shrink: None };
        self.exhausted = whole && res.end.is_none();
        res
    }
}

struct Search<'r, 'c> {
    r: &'r mut Runner<'c>,
    sched: &'r Schedule,
    sp: Vec<Option<Rc<Space>>>,
    /// Arena words of each table space's values (`None` where the JIT cannot build one).
    words: Vec<Vec<Option<Word>>>,
    genuine_only: bool,
    budget: Budget<'r>,
    tests: u64,
    passed: u64,
    ticks: u64,
}

impl Search<'_, '_> {
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
        let m = self.r.mark();
        for i in 0..space.count() {
            self.ticks += 1;
            if self.ticks & 1023 == 0 && self.budget.exceeded() {
                return Some(if self.budget.cancelled() { End::Cancelled } else { End::Stopped(Stop::Timeout) });
            }
            self.r.release(m);
            match space.as_table() {
                Some(t) => {
                    let w = self.words[v].get(i as usize).copied().flatten();
                    self.r.set(v, t[i as usize].clone(), w);
                }
                None => {
                    let val = space.value(i);
                    let w = self.r.word_of(v, &val);
                    self.r.set(v, val, w);
                }
            }
            if let Some(e) = self.search(k + 1, taint.clone()) {
                return Some(e);
            }
        }
        self.r.release(m);
        None
    }

    fn failure(&mut self) -> Option<End> {
        let n = self.r.conj.vars.len();
        let generated: Vec<_> = (0..n).map(|v| if self.sp[v].is_some() { self.r.value(v) } else { None }).collect();
        on_failure(self.r.conj, self.sched, &generated, self.genuine_only, self.budget.deadline)
    }
}
