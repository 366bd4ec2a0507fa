//! The `random` tester: `iterations` random assignments for each size from 1 to `size`,
//! replayable from the printed seed, each counterexample shrunk before it is shown.
//!
//! Generators are derived from the types and draw every random decision from a `Choices`
//! source, which records it (`generators`). A value is thus a function of its choice
//! sequence, and shrinking works on that sequence (`shrink`). Variables are drawn in
//! schedule order, so the choices of the outer arguments come first and are shrunk first.
//! This module runs the cases: one at a time, or, when compiled code runs every part, in
//! batches of rows of words.

mod generators;
mod shrink;

pub use generators::{value_size, Abandon, Build, Choices, Generators, ValueBuilder, WordBuilder, CASE_BUILD_STEPS};

use crate::budget::Budget;
use crate::case::{run_step, Flow};
use crate::driver::{Judge, Turn};
use crate::outcome::ShrinkStats;
use crate::program::{Schedule, Step};
use crate::runner::{Runner, Stop};
use crate::testers::{Coverage, End, Search, Setup, SizeResult, Tester};
use codegen::{LevelEnd, Word};
use lang::core::conjecture::Conjecture;
use lang::core::ir::FunId;
use lang::interp::Value;
use rand_xoshiro::Xoshiro256PlusPlus;
use shrink::shrink;
use std::time::Instant;

/// One random case: the schedule run with values drawn from `ch`.
struct Case {
    flow: Flow,
    generated: Vec<Option<Value>>,
}

/// Runs one case; `Ok(None)` when its values were too large to build (`Abandon::TooLarge`):
/// the case is abandoned before any part runs, and counted apart from the tests. Drawing
/// past the deadline is `Stop::Timeout`.
fn run_case(
    r: &mut Runner,
    sched: &Schedule,
    gens: &mut Generators,
    size: u64,
    ch: &mut Choices,
    scratch: &mut Vec<Word>,
) -> Result<Option<Case>, Stop> {
    r.clear();
    gens.start_case();
    let mut taint = None;
    for step in &sched.steps {
        let flow = match step {
            Step::Gen(v) => {
                // The conjecture outlives the runner's borrow: no type clone per case.
                let conj: &Conjecture = r.conj;
                let ty = &conj.vars[*v].ty;
                if r.words_ok(*v) {
                    scratch.clear();
                    let mut b = WordBuilder { arena: r.arena(), stack: scratch, failed: false };
                    gens.gen(ty, size, ch, &mut b);
                    match (b.failed, scratch.pop()) {
                        (false, Some(w)) => r.set_word(*v, w),
                        // The arena is full: too large, as past the step budget.
                        _ => gens.abandon(Abandon::TooLarge),
                    }
                } else {
                    let val = gens.value(ty, size, ch);
                    if gens.abandoned().is_none() {
                        r.set(*v, val, None);
                    }
                }
                match gens.abandoned() {
                    Some(Abandon::TooLarge) => return Ok(None),
                    Some(Abandon::Timeout) => return Err(Stop::Timeout),
                    None => {}
                }
                Flow::Next
            }
            s => run_step(r, *s, &mut taint)?,
        };
        if flow != Flow::Next {
            let mut generated = Vec::new();
            if matches!(flow, Flow::Failed(_)) {
                // The failing assignment as values, read back before the arena is reused.
                generated = (0..r.conj.vars.len())
                    .map(|v| if sched.steps.contains(&Step::Gen(v)) { r.value(v) } else { None })
                    .collect();
            }
            return Ok(Some(Case { flow, generated }));
        }
    }
    Ok(Some(Case { flow: Flow::Passed, generated: Vec::new() }))
}

/// The `random` row of the registry.
pub struct RandomTester;

impl Tester for RandomTester {
    fn name(&self) -> &'static str {
        "random"
    }

    fn about(&self) -> &'static str {
        "Random cases of each size, counterexamples shrunk; replayable from the seed"
    }

    fn reads(&self) -> &'static [&'static str] {
        &["iterations"]
    }

    fn in_portfolio(&self) -> bool {
        true
    }

    fn coverage(&self) -> Coverage {
        Coverage::Sampled
    }

    fn search<'c>(&self, conjecture: &'c Conjecture, setup: &Setup) -> Box<dyn Search + 'c> {
        Box::new(Random::new(conjecture, setup))
    }
}

/// The random search of one type instance, run size by size.
pub struct Random<'c> {
    c: &'c Conjecture,
    sched: Schedule,
    r: Runner<'c>,
    gens: Generators<'c>,
    /// Cases per size (`iterations`).
    iterations: u64,
    /// The word builder's stack, reused across cases.
    scratch: Vec<Word>,
    /// A batch's rows of words, and the generator's state before each of its cases.
    rows: Vec<Word>,
    befores: Vec<Xoshiro256PlusPlus>,
    /// The parts in the order checked, if the schedule generates every variable before it
    /// checks any part (then cases can be drawn whole and run in batches); else empty.
    batch_checks: Vec<FunId>,
}

impl<'c> Random<'c> {
    pub fn new(c: &'c Conjecture, setup: &Setup) -> Random<'c> {
        let sched = Schedule::of(c);
        Random {
            c,
            batch_checks: batch_checks(c, &sched),
            sched,
            r: Runner::new(c, setup.engine, setup.deadline),
            gens: Generators::with_deadline(&c.program, setup.deadline),
            iterations: setup.options.iterations,
            scratch: Vec::new(),
            rows: Vec::new(),
            befores: Vec::new(),
        }
    }

    /// Runs `iterations` random cases of size `size`; a failing case is shrunk, then
    /// re-checked. When every variable is generated before any part is checked and compiled
    /// code runs the parts, cases are drawn `BATCH` at a time as rows of words and run in one
    /// loop (`Batch::run`); a case that loop stops at (a candidate, or one without a
    /// plain truth value) is drawn again from the generator's state before it and run on
    /// its own, so the draws, and every result, are those of one case at a time. (The
    /// search runs `self.iterations` cases per size; benchmarks choose their own.)
    pub fn run_iterations(&mut self, iterations: u64, turn: &mut Turn) -> SizeResult {
        let (size, budget, judge) = (turn.size, turn.budget, turn.judge);
        let rng = &mut *turn.rng;
        let mut res = SizeResult::default();
        let mut done = 0;
        while done < iterations {
            if let Some(end) = budget.over_at(res.passed) {
                res.end = Some(end);
                return res;
            }
            self.r.tier_up(iterations);
            let k = (iterations - done).min(BATCH);
            let batched = self.batches();
            if batched {
                let (ran, stop) = self.run_batch(size, k, rng, &mut res);
                done += ran;
                let Some(before) = stop else { continue };
                // The case the loop stopped at, once more on its own.
                *rng = before;
            }
            // One case at a time, up to the next budget check.
            let n = if batched { 1 } else { k.min(256) };
            for _ in 0..n {
                done += 1;
                if self.one_case(size, iterations, rng, &budget, judge, &mut res) {
                    return res;
                }
            }
        }
        res
    }

    /// Whether cases can be run in batches now (`run_size`): the schedule generates every
    /// variable before it checks the parts (`batch_checks`), as words, and compiled code runs
    /// the parts.
    fn batches(&mut self) -> bool {
        let words = self.sched.generated().all(|v| self.r.words_ok(v));
        words && !self.batch_checks.is_empty() && self.r.batch().runs(&self.batch_checks, None)
    }

    /// Draws `k` cases as rows of words and runs the parts over them. Returns how many cases
    /// ran to the end (counted in `res`), and, if the loop stopped at a case, the generator's
    /// state before that case.
    fn run_batch(
        &mut self,
        size: u64,
        k: u64,
        rng: &mut Xoshiro256PlusPlus,
        res: &mut SizeResult,
    ) -> (u64, Option<Xoshiro256PlusPlus>) {
        let conj: &Conjecture = self.c;
        let width = self.r.batch().width();
        self.r.clear();
        self.rows.clear();
        self.befores.clear();
        for _ in 0..k {
            self.befores.push(rng.clone());
            let at = self.rows.len();
            self.rows.resize(at + width, 0);
            let mut ch = Choices::random(rng);
            self.gens.start_case();
            for s in &self.sched.steps {
                let Step::Gen(v) = s else { break };
                self.scratch.clear();
                let mut b = WordBuilder { arena: self.r.arena(), stack: &mut self.scratch, failed: false };
                self.gens.gen(&conj.vars[*v].ty, size, &mut ch, &mut b);
                match (b.failed || self.gens.abandoned().is_some(), self.scratch.pop()) {
                    (false, Some(w)) => self.rows[at + *v] = w,
                    // The arena is full, or the case too large or out of time: this case
                    // goes on its own, which tells these apart.
                    _ => {
                        self.rows.truncate(at);
                        let before = self.befores.pop();
                        return self.finish_batch(res, before);
                    }
                }
            }
        }
        self.finish_batch(res, None)
    }

    /// Runs the rows drawn so far; `unbuilt` is the state before a case that could not be
    /// built, where the batch ends.
    fn finish_batch(
        &mut self,
        res: &mut SizeResult,
        unbuilt: Option<Xoshiro256PlusPlus>,
    ) -> (u64, Option<Xoshiro256PlusPlus>) {
        let (end, counts) = self.r.batch().run(&self.batch_checks, false, &self.rows);
        res.tests += counts.rejected + counts.passed;
        res.passed += counts.passed;
        match end {
            LevelEnd::Done => ((self.befores.len()) as u64, unbuilt),
            LevelEnd::Failed(i) | LevelEnd::Handover(i) | LevelEnd::Descend(i) => {
                (i as u64, Some(self.befores[i].clone()))
            }
        }
    }

    /// Draws and runs one case (shrinking and re-checking it if it fails); `true` when the
    /// search ends (`res.end` says why).
    fn one_case(
        &mut self,
        size: u64,
        iterations: u64,
        rng: &mut Xoshiro256PlusPlus,
        budget: &Budget,
        judge: Judge<'_>,
        res: &mut SizeResult,
    ) -> bool {
        self.r.tier_up(iterations);
        let before_case = rng.clone();
        let mut ch = Choices::random(rng);
        let case = run_case(&mut self.r, &self.sched, &mut self.gens, size, &mut ch, &mut self.scratch);
        let case = match case {
            Ok(Some(case)) => case,
            Ok(None) => {
                res.too_large += 1;
                return false;
            }
            Err(stop) => {
                res.end = Some(End::Stopped(stop));
                return true;
            }
        };
        res.tests += 1;
        let taint = match &case.flow {
            Flow::Failed(taint) => taint.clone(),
            flow => {
                res.passed += u64::from(*flow == Flow::Passed);
                return false;
            }
        };
        res.passed += 1;
        // Not kept: a potentially spurious case under `genuine_only`, or an instance of a
        // counterexample reported before (`counterexamples = k`), which shrinking would only
        // lead back to.
        if !judge.keeps(taint.is_some()) || judge.known.is_some_and(|k| k(&case.generated)) {
            return false;
        }
        // The same draws once more, recorded for shrinking; the generator ends in the
        // same state. (Should the case not fail again, the record is empty and the
        // case is reported unshrunk.)
        *rng = before_case;
        let mut ch = Choices::random_recorded(rng);
        let again = run_case(&mut self.r, &self.sched, &mut self.gens, size, &mut ch, &mut self.scratch);
        let (case, record) = match again {
            Ok(Some(c @ Case { flow: Flow::Failed(_), .. })) => (c, ch.record),
            _ => (case, Vec::new()),
        };
        let before: u64 = case.generated.iter().flatten().map(value_size).sum();
        let t0 = Instant::now();
        let sched = &self.sched;
        let (choices, attempts) = shrink(
            &mut self.r,
            sched,
            &mut self.gens,
            &mut self.scratch,
            size,
            record,
            taint.is_none(),
            judge.known,
            budget,
        );
        let mut replay = Choices::replay(&choices);
        let shrunk = match run_case(&mut self.r, sched, &mut self.gens, size, &mut replay, &mut self.scratch) {
            Ok(Some(Case { flow: Flow::Failed(_), generated })) => generated,
            _ => case.generated,
        };
        res.shrink = Some(ShrinkStats {
            size_before: before,
            size_after: shrunk.iter().flatten().map(value_size).sum(),
            attempts,
            seconds: t0.elapsed().as_secs_f64(),
        });
        if let Some(end) = judge.verdict(self.c, sched, &shrunk) {
            res.end = Some(end);
            return true;
        }
        false
    }
}

impl Search for Random<'_> {
    fn run_size(&mut self, turn: &mut Turn) -> SizeResult {
        self.run_iterations(self.iterations, turn)
    }
}

/// The parts `sched` checks, in order, if it generates every variable before it checks any
/// part; else none.
fn batch_checks(c: &Conjecture, sched: &Schedule) -> Vec<FunId> {
    let steps = &sched.steps;
    let gens = steps.iter().take_while(|s| matches!(s, Step::Gen(_))).count();
    steps[gens..]
        .iter()
        .map(|s| match s {
            Step::Check(p) => Some(crate::case::part(c, *p).fun),
            _ => None,
        })
        .collect::<Option<Vec<FunId>>>()
        .unwrap_or_default()
}

/// Cases drawn and run in one loop by the random tester (`Random::run_size`).
const BATCH: u64 = 64;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Options;
    use crate::runner::Engine;
    use generators::CLOCK_EVERY;
    use lang::core::conjecture::TypeChoice;
    use rand::SeedableRng;
    use std::time::Duration;

    /// Checks a one-lemma theory and lowers its conjecture at `nat` (also for the tests of
    /// `generators`).
    pub(super) fn conjecture(text: &str) -> Conjecture {
        let th = lang::check_theory(&format!("theory T imports Main begin\n{text}\nend"));
        assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
        th.lower_conjecture(0, &[TypeChoice::Named("nat".into())])
    }

    /// A random search of `c` on `engine`, with a minute to run.
    fn search<'c>(c: &'c Conjecture, engine: Engine) -> Random<'c> {
        let setup = Setup { options: &Options::default(), deadline: Instant::now() + Duration::from_secs(60), engine };
        Random::new(c, &setup)
    }

    /// Runs `iterations` cases of `size` on `t`, drawing from `rng`.
    fn run_size(t: &mut Random, size: u64, iterations: u64, rng: &mut Xoshiro256PlusPlus) -> SizeResult {
        let budget = Budget::until(Instant::now() + Duration::from_secs(60));
        t.run_iterations(iterations, &mut Turn::new(size, budget, false, rng))
    }

    /// Cases run in batches (compiled code) and one at a time (the interpreter) end alike:
    /// the same tests, passes and end, and the generator in the same state.
    #[test]
    fn batches_draw_and_decide_as_one_case_at_a_time() {
        let lemmas = [
            "rev xs = (xs :: nat list)",
            "rev (rev xs) = (xs :: nat list)",
            "length xs = length ys ⟹ xs @ ys = ys @ (xs :: int list)",
            "hd xs ≠ (3 :: nat) ∨ length xs > 2",
            "sum_list xs < (40 :: nat)",
        ];
        for lemma in lemmas {
            let th = lang::check_theory(&format!("theory T imports Main begin\nlemma \"{lemma}\" oops\nend"));
            assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
            let c = th.lower_conjecture(0, &[TypeChoice::Named("nat".into())]);
            for seed in 0..5 {
                let run = |engine: Engine| {
                    let mut t = search(&c, engine);
                    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
                    let results: Vec<SizeResult> = (0..12).map(|size| run_size(&mut t, size, 300, &mut rng)).collect();
                    (results.into_iter().map(|r| (r.tests, r.passed, r.end)).collect::<Vec<_>>(), rng)
                };
                let batched = run(Engine::Compiled);
                assert!(search(&c, Engine::Compiled).batches(), "{lemma}");
                assert_eq!(batched, run(Engine::Interpreter), "{lemma}, seed {seed}");
            }
        }
    }

    /// A case whose values take more than the step budget is abandoned before it runs and
    /// counted apart from the tests; the search goes on, alike on both engines.
    #[test]
    fn a_case_too_large_to_build_is_abandoned_and_counted() {
        let c = conjecture("lemma \"(xs :: nat list list) = xs\" oops");
        let run = |engine: Engine| {
            let mut t = search(&c, engine);
            t.gens.limit = 12;
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
            let res = run_size(&mut t, 20, 200, &mut rng);
            (res, rng)
        };
        let (res, rng) = run(Engine::Compiled);
        assert_eq!(res.end, None);
        assert!(res.too_large > 0 && res.tests > 0, "{res:?}");
        assert_eq!(res.tests + res.too_large, 200);
        assert_eq!((res, rng), run(Engine::Interpreter));
    }

    /// Drawing looks at the clock while it builds: a large value drawn past the deadline is
    /// abandoned, and the case ends the search as a timeout.
    #[test]
    fn drawing_stops_at_the_deadline() {
        let c = conjecture("lemma \"(xs :: nat list list) = xs\" oops");
        let mut gens = Generators::with_deadline(&c.program, Instant::now());
        gens.start_case();
        // 10,000 elements, each a list of one number.
        let choices: Vec<u64> =
            std::iter::once(10_000).chain(std::iter::repeat([1, 1, 0]).flatten().take(30_000)).collect();
        gens.value(&c.vars[0].ty, 10_000, &mut Choices::replay(&choices));
        assert_eq!(gens.abandoned(), Some(Abandon::Timeout));
        assert!(gens.steps() < 2 * CLOCK_EVERY, "stopped soon after the deadline: {}", gens.steps());
        let mut r = Runner::new(&c, Engine::Interpreter, Instant::now());
        let sched = Schedule::of(&c);
        let case = run_case(&mut r, &sched, &mut gens, 10_000, &mut Choices::replay(&choices), &mut Vec::new());
        assert!(matches!(case, Err(Stop::Timeout)));
    }

    /// Lists of numbers drawn at random straight into the arena (the fast path) and drawn
    /// recording their choices as values make the same draws: the same value, the generator
    /// left in the same state. A failing case is drawn again recording, so they must agree.
    #[test]
    fn lists_of_numbers_draw_the_same_unrecorded_and_recorded() {
        let th = lang::check_theory(
            "theory T imports Main begin\nlemma \"length (xs :: nat list) = length (ys :: int list)\" oops\nend",
        );
        assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
        let c = th.lower_conjecture(0, &[TypeChoice::Named("nat".into())]);
        let mut r = Runner::new(&c, Engine::Compiled, Instant::now() + Duration::from_secs(60));
        let mut gens = Generators::new(&c.program);
        let mut scratch = Vec::new();
        for seed in 0..200u64 {
            for (v, var) in c.vars.iter().enumerate() {
                let size = seed % 25;
                let mut fast = Xoshiro256PlusPlus::seed_from_u64(seed);
                let mut recorded = fast.clone();
                r.clear();
                scratch.clear();
                let mut b = WordBuilder { arena: r.arena(), stack: &mut scratch, failed: false };
                gens.gen(&var.ty, size, &mut Choices::random(&mut fast), &mut b);
                assert!(!b.failed);
                r.set_word(v, scratch.pop().expect("a word"));
                let mut ch = Choices::random_recorded(&mut recorded);
                let value = gens.value(&var.ty, size, &mut ch);
                assert!(!ch.record.is_empty());
                assert_eq!(r.value(v), Some(value), "seed {seed}, {}", var.name);
                assert_eq!(fast, recorded, "seed {seed}: the generators' states");
            }
        }
    }
}
