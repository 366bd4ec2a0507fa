//! The evaluation engine: where a function of a program runs, in the reference interpreter
//! (`lang::interp`) or in compiled code (`Jit`), decided here and nowhere else. Owns the
//! policy every evaluator of the workspace follows (a file's `value`s, a lemma's test
//! cases): which `Engine` a run asked for, when compiling pays (`TIER_UP`), how much of the
//! run's time compiling may take (`compile_deadline`), which cases compiled code hands back
//! to the interpreter (`JitOutcome::hand_over`) and which functions it refuses for good, and
//! the one error type both engines' failures map to (`EvalError`).
//!
//! An `Evaluator` runs functions of one program: the interpreter is always there (the
//! reference, and the fallback), compiled code once the engine has compiled the program.
//! Its compiled side (`JitTier`) owns everything it needs (the JIT keeps its own copy of
//! the program), so it can outlive a borrow of the program: an owner that edits the
//! program between evaluations (the theory whose `value`s are lowered into it) parks it
//! with `Evaluator::into_tier` and picks it up again with `Evaluator::with_tier`.

use codegen::{BackgroundCompile, Jit, JitOutcome, LevelCounts, LevelEnd, Word, DEFAULT_ARENA_WORDS};
use lang::core::ir::{FunId, Program, Ty};
use lang::interp::{EvalError, Interp, Limits, Value};
use std::time::Instant;

/// Evaluations after which compiling a program pays (`Engine::Tiered`): the interpreter runs
/// a small case in a few microseconds, compiling takes a few milliseconds.
pub const TIER_UP: u64 = 2_000;

/// Interpreter steps (units of fuel) after which compiling pays (`Engine::Tiered`), however
/// few the evaluations: a step costs the interpreter a few hundred instructions, so this is
/// a few milliseconds of interpreting, about what compiling a lemma's program costs. Costly
/// cases (a conclusion that sorts, a search's goals) compile early; a lemma refuted in a few
/// cheap cases never does. Counted in steps, not time, so that when a run compiles does not
/// depend on the machine's load.
pub const TIER_UP_STEPS: u64 = 10_000;

/// The share of `TIER_UP` and `TIER_UP_STEPS` after which a tiered engine with a core to
/// spare starts compiling on another thread (`BackgroundCompile`): the interpreter goes on
/// meanwhile, so starting early costs the run no time, only the other core's. A run
/// refuted in its first few hundred cases still never compiles.
pub const BACKGROUND_SHARE: u64 = 10;

/// Where functions run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The reference interpreter only (`--interpreter`).
    Interpreter,
    /// The interpreter first, compiled code once the evaluations reach `TIER_UP`: what
    /// `hol check` tests lemmas with, so a lemma refuted at once never pays for compiling.
    Tiered,
    /// Compiled code from the first evaluation (a file's `value`s, differential tests,
    /// benchmarks).
    Compiled,
}

/// `true` is `Compiled`, `false` is `Interpreter`.
impl From<bool> for Engine {
    fn from(jit: bool) -> Engine {
        if jit {
            Engine::Compiled
        } else {
            Engine::Interpreter
        }
    }
}

impl Engine {
    /// Whether this engine ever runs compiled code.
    pub fn compiles(self) -> bool {
        self != Engine::Interpreter
    }

    /// Whether compiling pays after `evals` evaluations that took the interpreter `steps`
    /// steps: never, at `TIER_UP` evaluations or `TIER_UP_STEPS` steps, or at once.
    pub fn compile_pays(self, evals: u64, steps: u64) -> bool {
        match self {
            Engine::Interpreter => false,
            Engine::Tiered => evals >= TIER_UP || steps >= TIER_UP_STEPS,
            Engine::Compiled => true,
        }
    }

    /// Whether a tiered engine with a core to spare starts compiling in the background
    /// after `evals` evaluations and `steps` steps (`BACKGROUND_SHARE`).
    fn background_pays(self, evals: u64, steps: u64) -> bool {
        self == Engine::Tiered && (evals >= TIER_UP / BACKGROUND_SHARE || steps >= TIER_UP_STEPS / BACKGROUND_SHARE)
    }
}

/// Whether this process may compile on a thread of its own: the machine has more than one
/// core (on one core the compiling thread would only slow the interpreter down).
fn spare_core() -> bool {
    static SPARE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *SPARE.get_or_init(|| std::thread::available_parallelism().is_ok_and(|n| n.get() > 1))
}

/// The deadline for compiling, starting `now`, of a program to be run by `deadline`: half the
/// time left, so that when compiling is abandoned the interpreter still has the other half.
pub fn compile_deadline(now: Instant, deadline: Instant) -> Instant {
    now + deadline.saturating_duration_since(now) / 2
}

/// What a call on words answered (`Evaluator::call_words`): compiled code's word, or the
/// interpreter's value when the case was handed over.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    Word(Word),
    Value(Value),
}

/// The compiled side of an `Evaluator` and its state: whether compiling is still to come,
/// the evaluations so far, the JIT once compiled, the functions it refused. Owned, with no
/// borrow of the program (see the module's doc).
pub struct JitTier {
    engine: Engine,
    /// Compiling is still to come: the engine compiles and it has not been tried.
    pending: bool,
    /// Evaluations so far, towards the engine's threshold.
    evals: u64,
    /// The functions compiled with a level loop (`Jit::with_levels`), for `run_rows`.
    levels: Vec<FunId>,
    jit: Option<Jit>,
    /// Per function of the program as compiled: compiled code refused it (it reached a
    /// construct the JIT does not compile), so it runs in the interpreter from then on.
    /// Functions added to the program after compiling are not here, and never run compiled.
    refused: Vec<bool>,
    /// Whether compiling may run on another thread (a tiered engine, a spare core).
    in_background: bool,
    /// The compile running on another thread, while `pending`, and the number of functions
    /// the program had when it started (the program may grow meanwhile: functions added
    /// later are not in the code, and run in the interpreter).
    background: Option<(BackgroundCompile, usize)>,
}

impl JitTier {
    /// The compiled side of an evaluator on `engine`, compiling a level loop for each of
    /// `levels` (boolean functions such as a lemma's parts, for `Evaluator::run_rows`).
    pub fn new(engine: Engine, levels: &[FunId]) -> JitTier {
        JitTier {
            engine,
            pending: engine.compiles(),
            evals: 0,
            levels: levels.to_vec(),
            jit: None,
            refused: Vec::new(),
            in_background: engine == Engine::Tiered && spare_core(),
            background: None,
        }
    }

    /// The same, compiling on the evaluating thread only (when the thresholds are met),
    /// never in the background: for runs whose every step must not depend on timing.
    pub fn in_place(engine: Engine, levels: &[FunId]) -> JitTier {
        JitTier { in_background: false, ..JitTier::new(engine, levels) }
    }

    /// Whether the program is compiled.
    pub fn has_jit(&self) -> bool {
        self.jit.is_some()
    }

    /// Whether compiling is still to come (the engine compiles, and it was not tried yet).
    pub fn pending(&self) -> bool {
        self.pending
    }
}

/// Evaluates the functions of one program: compiled code where the engine has compiled it
/// and it decides the case, the reference interpreter otherwise.
pub struct Evaluator<'p> {
    program: &'p Program,
    interp: Interp<'p>,
    tier: JitTier,
}

impl<'p> Evaluator<'p> {
    /// An evaluator of `program` on `engine`; see `JitTier::new` for `levels`. Nothing is
    /// compiled yet (`tier_up`).
    pub fn new(program: &'p Program, engine: Engine, levels: &[FunId]) -> Evaluator<'p> {
        Evaluator::with_tier(program, JitTier::new(engine, levels))
    }

    /// An evaluator of `program` going on with `tier`, taken from an evaluator of the same
    /// program (`into_tier`), which may have grown since: functions added since run in the
    /// interpreter.
    pub fn with_tier(program: &'p Program, tier: JitTier) -> Evaluator<'p> {
        Evaluator { program, interp: Interp::new(program), tier }
    }

    /// The compiled side, kept past the borrow of the program (`with_tier`).
    pub fn into_tier(self) -> JitTier {
        self.tier
    }

    /// Compiles the program when the engine compiles, it was not tried yet, and the
    /// evaluations so far plus the `expected` coming, or the interpreter's steps so far,
    /// reach the engine's threshold (`Engine::Compiled`: at once). Compiling counts against the time of what it is
    /// compiled for, which ends at `deadline`: it may take half of what is left, and a
    /// program that needs more runs in the interpreter in the other half. Returns whether
    /// this call compiled it. Calls on values tier up by themselves (`call`); a caller of
    /// `call_words` chooses the moment, as it must have words to run compiled code on.
    ///
    /// A tiered engine with a core to spare starts compiling on another thread at a tenth
    /// of the thresholds (`BACKGROUND_SHARE`) and goes on interpreting; the call after the
    /// thread finished takes its code (returning true), and a call at the thresholds waits
    /// for it: past them a run is compiled, as without the thread.
    #[inline]
    pub fn tier_up(&mut self, expected: u64, deadline: Option<Instant>) -> bool {
        let t = &self.tier;
        if !t.pending {
            return false;
        }
        let (evals, steps) = (t.evals.saturating_add(expected), self.interp.steps());
        let pays = t.engine.compile_pays(evals, steps);
        if let Some((bg, _)) = &t.background {
            return (pays || bg.is_finished()) && self.take_background();
        }
        if pays {
            return self.compile(deadline);
        }
        if t.in_background && t.engine.background_pays(evals, steps) {
            self.start_background(deadline);
        }
        false
    }

    /// Compiles the program, once (`tier_up`): whether it compiled.
    #[cold]
    #[inline(never)]
    fn compile(&mut self, deadline: Option<Instant>) -> bool {
        let deadline = deadline.map(|d| compile_deadline(Instant::now(), d));
        let jit = Jit::with_deadline(self.program, DEFAULT_ARENA_WORDS, &self.tier.levels, deadline);
        self.install(jit.ok(), self.program.funs.len())
    }

    /// Starts compiling the program on another thread (without a thread, it is compiled
    /// here once it pays).
    #[cold]
    #[inline(never)]
    fn start_background(&mut self, deadline: Option<Instant>) {
        let t = &mut self.tier;
        let deadline = deadline.map(|d| compile_deadline(Instant::now(), d));
        t.background = BackgroundCompile::start(self.program, DEFAULT_ARENA_WORDS, &t.levels, deadline)
            .map(|bg| (bg, self.program.funs.len()));
        t.in_background = t.background.is_some();
    }

    /// Takes the code of the finished background compile: whether it compiled.
    #[cold]
    #[inline(never)]
    fn take_background(&mut self) -> bool {
        match self.tier.background.take() {
            Some((bg, funs)) => self.install(bg.finish().ok(), funs),
            None => self.install(None, 0),
        }
    }

    /// Ends compiling with `jit` (`None`: it failed, the interpreter runs everything), the
    /// code of the program's first `funs` functions.
    fn install(&mut self, jit: Option<Jit>, funs: usize) -> bool {
        let t = &mut self.tier;
        t.pending = false;
        t.jit = jit;
        t.refused = vec![false; funs];
        t.jit.is_some()
    }

    /// Whether the program is compiled.
    #[inline]
    pub fn has_jit(&self) -> bool {
        self.tier.jit.is_some()
    }

    /// The JIT, once compiled: its arena is where callers of `call_words` build words.
    #[inline]
    pub fn jit(&self) -> Option<&Jit> {
        self.tier.jit.as_ref()
    }

    #[inline]
    pub fn jit_mut(&mut self) -> Option<&mut Jit> {
        self.tier.jit.as_mut()
    }

    /// Whether compiled code runs `f`: the program is compiled, and did not refuse `f`.
    #[inline]
    pub fn compiles(&self, f: FunId) -> bool {
        self.tier.jit.is_some() && !self.refused(f)
    }

    #[inline]
    fn refused(&self, f: FunId) -> bool {
        self.tier.refused.get(f.0 as usize).copied().unwrap_or(true)
    }

    /// Calls `f` on `args`: in compiled code when the engine compiles (tiering up first,
    /// `tier_up`, within `limits`' deadline) and it decides the case, else in the
    /// interpreter. Compiled code's arena is reset first (`Jit::call`): words built before
    /// become invalid.
    pub fn call(&mut self, f: FunId, args: &[Value], limits: &Limits) -> Result<Value, EvalError> {
        self.tier_up(1, limits.deadline);
        self.tier.evals += 1;
        if let Some(r) = self.compiled(f, |jit| jit.call(f, args, limits)) {
            return r;
        }
        self.interp.call(f, args.to_vec(), limits)
    }

    /// Calls `f` on words: in compiled code on `words` (every argument as a word, built in
    /// the JIT's arena; `None` when the caller does not have them all) when it decides the
    /// case, else in the interpreter on the values `args` makes (given the JIT, to read
    /// words back). A word answered stays in the arena; a case handed over leaves the arena
    /// as it was.
    #[inline]
    pub fn call_words(
        &mut self,
        f: FunId,
        words: Option<&[Word]>,
        args: impl FnOnce(Option<&Jit>) -> Vec<Value>,
        limits: &Limits,
    ) -> Result<Answer, EvalError> {
        self.tier.evals += 1;
        if let Some(words) = words {
            if let Some(r) = self.compiled(f, |jit| jit.run(f, words, limits)) {
                return r.map(Answer::Word);
            }
        }
        let args = args(self.tier.jit.as_ref());
        self.interp.call(f, args, limits).map(Answer::Value)
    }

    /// Runs `checks` over `rows` of words in compiled code (`Jit::run_rows`, where the
    /// arguments are described): where it stopped, and the cases it ran to the end (each an
    /// evaluation). Without a JIT every case is handed back. The caller checks `compiles`
    /// for every check first.
    pub fn run_rows(
        &mut self,
        checks: &[FunId],
        descend: bool,
        rows: &[Word],
        width: usize,
        limits: &Limits,
    ) -> (LevelEnd, LevelCounts) {
        let Some(jit) = self.tier.jit.as_mut() else {
            return (if rows.is_empty() { LevelEnd::Done } else { LevelEnd::Handover(0) }, LevelCounts::default());
        };
        let (end, counts) = jit.run_rows(checks, descend, rows, width, limits);
        self.tier.evals += counts.rejected + counts.passed;
        (end, counts)
    }

    /// Calls `f` in the interpreter only: the reference, for re-checking what compiled code
    /// found and for reports.
    pub fn interpret(&mut self, f: FunId, args: Vec<Value>, limits: &Limits) -> Result<Value, EvalError> {
        self.interp.call(f, args, limits)
    }

    /// `v` of type `ty` in theory syntax (`Interp::print`).
    pub fn print(&mut self, v: &Value, ty: &Ty) -> String {
        self.interp.print(v, ty)
    }

    /// Runs `f` in compiled code by `run`, when compiled code runs it: `None` to hand the
    /// case to the interpreter (no JIT, `f` refused, or the JIT cannot decide this case,
    /// when whatever the run built in the arena is freed; a construct it does not compile
    /// refuses `f` from then on).
    #[inline]
    fn compiled<T>(
        &mut self,
        f: FunId,
        run: impl FnOnce(&mut Jit) -> Result<T, JitOutcome>,
    ) -> Option<Result<T, EvalError>> {
        if self.refused(f) {
            return None;
        }
        let jit = self.tier.jit.as_mut()?;
        let mark = jit.mark();
        match run(jit) {
            Ok(x) => Some(Ok(x)),
            Err(outcome) if outcome.hand_over() => {
                if outcome == JitOutcome::NotSupported {
                    self.tier.refused[f.0 as usize] = true;
                }
                jit.release(mark);
                None
            }
            Err(outcome) => Some(Err(eval_error(outcome))),
        }
    }
}

/// A JIT run's failure as the interpreter's (`hand_over` outcomes never get here).
fn eval_error(outcome: JitOutcome) -> EvalError {
    match outcome {
        JitOutcome::Undefined(u) => EvalError::Undefined(u),
        JitOutcome::OutOfFuel => EvalError::OutOfFuel,
        JitOutcome::TooDeep => EvalError::TooDeep,
        JitOutcome::Timeout => EvalError::Timeout,
        JitOutcome::OutOfMemory => EvalError::OutOfMemory,
        JitOutcome::Need(d) => EvalError::Need(d),
        JitOutcome::Overflow | JitOutcome::NotSupported => {
            unreachable!("the JIT handed this case over to the interpreter")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lang::core::conjecture::TypeChoice;
    use lang::core::ir::FunDef;
    use std::time::Duration;

    /// The program of a one-lemma theory at `nat`, and its conclusion.
    fn lemma(text: &str) -> (Program, FunId) {
        let th = lang::check_theory(&format!("theory T imports Main begin\n{text}\nend"));
        assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
        let c = th.lower_conjecture(0, &[TypeChoice::Named("nat".into())]);
        (c.program, c.conclusion.fun)
    }

    /// The conjecture most tests here run: `rev (rev xs) = xs`, and its conclusion.
    fn rev_rev() -> (Program, FunId) {
        lemma("lemma \"rev (rev xs) = (xs :: nat list)\" oops")
    }

    /// A deadline no test reaches.
    fn later() -> Option<Instant> {
        Some(Instant::now() + Duration::from_secs(60))
    }

    fn limits() -> Limits {
        Limits { deadline: later(), ..Limits::default() }
    }

    /// Each engine compiles when its policy says: never, after `TIER_UP` evaluations, or
    /// at once.
    #[test]
    fn engines_compile_at_their_threshold() {
        let (p, f) = rev_rev();
        let later = later();
        let mut e = Evaluator::new(&p, Engine::Interpreter, &[f]);
        assert!(!e.tier_up(u64::MAX, later) && !e.has_jit());
        let mut e = Evaluator::with_tier(&p, JitTier::in_place(Engine::Tiered, &[f]));
        assert!(!e.tier_up(TIER_UP - 1, later) && !e.has_jit());
        assert!(e.tier_up(TIER_UP, later) && e.compiles(f));
        // Once: a second tier-up does nothing.
        assert!(!e.tier_up(u64::MAX, later) && e.has_jit());
        let mut e = Evaluator::new(&p, Engine::Compiled, &[f]);
        assert!(e.tier_up(0, later) && e.has_jit());
    }

    /// A few costly cases compile as many cheap ones do: the interpreter's steps count.
    #[test]
    fn costly_cases_compile_early() {
        let (p, f) = rev_rev();
        let mut e = Evaluator::with_tier(&p, JitTier::in_place(Engine::Tiered, &[f]));
        let long = (0..60).rev().fold(Value::nullary(0), |tail, i| Value::ctor(1, vec![Value::nat(i), tail]));
        let mut calls = 0;
        while !e.has_jit() {
            assert_eq!(e.call(f, std::slice::from_ref(&long), &limits()), Ok(Value::Bool(true)));
            calls += 1;
            assert!(calls < 100, "still interpreting after {calls} costly cases");
        }
        assert!(e.interp.steps() >= TIER_UP_STEPS, "compiled after {calls} cases");
    }

    /// A tiered evaluator of `p` whose compile has just started on another thread.
    fn compiling_in_background(p: &Program) -> Evaluator<'_> {
        let mut e = Evaluator::new(p, Engine::Tiered, &[]);
        assert!(!e.tier_up(TIER_UP / BACKGROUND_SHARE, later()) && e.tier.background.is_some() && !e.has_jit());
        e
    }

    /// With a core to spare, a tiered engine starts compiling on another thread at a tenth
    /// of the threshold and keeps interpreting, with the same answers, until the code is
    /// there; an evaluator dropped while its compile runs cancels it.
    #[test]
    fn tiered_engines_compile_in_the_background() {
        if !spare_core() {
            return;
        }
        let (p, f) = rev_rev();
        let later = later();
        let mut e = Evaluator::new(&p, Engine::Tiered, &[]);
        assert!(!e.tier_up(TIER_UP / BACKGROUND_SHARE - 1, later) && e.tier.background.is_none());
        let mut e = compiling_in_background(&p);
        let list = Value::ctor(1, vec![Value::nat(3), Value::nullary(0)]);
        let mut interpreted = 0;
        while !e.has_jit() {
            assert_eq!(e.call(f, std::slice::from_ref(&list), &limits()), Ok(Value::Bool(true)));
            interpreted += 1;
            assert!(interpreted < 10_000_000, "the background compile never arrived");
        }
        assert!(e.compiles(f) && !e.tier.pending() && e.tier.background.is_none());
        assert_eq!(e.call(f, std::slice::from_ref(&list), &limits()), Ok(Value::Bool(true)));
        // Announced cases that make compiling pay wait for the code.
        let mut e = compiling_in_background(&p);
        assert!(e.tier_up(TIER_UP, later) && e.compiles(f));
        // Known demand compiles at once, in place.
        let mut e = Evaluator::new(&p, Engine::Tiered, &[]);
        assert!(e.tier_up(TIER_UP, later) && e.tier.background.is_none());
        // Dropped mid-compile: cancelled, nothing left behind to wait for.
        drop(compiling_in_background(&p));
    }

    /// Compiling may take half of the time left: with none left it is abandoned, for good,
    /// and the interpreter evaluates.
    #[test]
    fn compiling_past_the_deadline_leaves_the_interpreter() {
        let (p, f) = rev_rev();
        let mut e = Evaluator::new(&p, Engine::Compiled, &[]);
        assert!(!e.tier_up(0, Some(Instant::now())) && !e.has_jit() && !e.tier.pending());
        let nil = Value::nullary(0);
        assert_eq!(e.call(f, &[nil], &limits()), Ok(Value::Bool(true)));
        assert!(!e.has_jit());
    }

    /// A number past 64 bits is handed to the interpreter, which computes it; the function
    /// still runs compiled on the next case.
    #[test]
    fn overflow_is_handed_over() {
        let (p, f) = lemma("lemma \"(x :: nat) * x * x * x * x ≥ x\" oops");
        let mut e = Evaluator::new(&p, Engine::Compiled, &[]);
        let big = Value::nat(1 << 20);
        assert_eq!(e.call(f, std::slice::from_ref(&big), &limits()), Ok(Value::Bool(true)));
        assert!(e.compiles(f));
        let jit = e.jit_mut().expect("compiled");
        let w = jit.word_of(&big, &p.fun(f).params[0].1).expect("a word");
        let args = |_: Option<&Jit>| vec![big.clone()];
        assert_eq!(e.call_words(f, Some(&[w]), args, &limits()), Ok(Answer::Value(Value::Bool(true))));
        let small = e.jit_mut().and_then(|j| j.word_of(&Value::nat(3), &p.fun(f).params[0].1).ok());
        let args = |_: Option<&Jit>| vec![Value::nat(3)];
        assert_eq!(e.call_words(f, small.as_ref().map(std::slice::from_ref), args, &limits()), Ok(Answer::Word(1)));
    }

    /// Failures map to the interpreter's errors, whichever engine ran the case.
    #[test]
    fn failures_are_eval_errors_on_both_engines() {
        let (p, f) = lemma("lemma \"hd xs = (0 :: nat)\" oops");
        for engine in [Engine::Interpreter, Engine::Compiled] {
            let mut e = Evaluator::new(&p, engine, &[]);
            let r = e.call(f, &[Value::nullary(0)], &limits());
            assert!(matches!(r, Err(EvalError::Undefined(_))), "{engine:?}: {r:?}");
            assert_eq!(e.has_jit(), engine == Engine::Compiled);
        }
    }

    /// The compiled side outlives the evaluator it was taken from, and goes on where it was.
    #[test]
    fn the_tier_is_kept_across_evaluators() {
        let (p, f) = rev_rev();
        let mut e = Evaluator::new(&p, Engine::Compiled, &[]);
        assert_eq!(e.call(f, &[Value::nullary(0)], &limits()), Ok(Value::Bool(true)));
        let tier = e.into_tier();
        assert!(tier.has_jit() && !tier.pending());
        let mut e = Evaluator::with_tier(&p, tier);
        assert!(e.compiles(f) && !e.tier_up(0, None));
    }

    /// A program that grows while it is compiled in the background (a theory's `value`s
    /// lowered into it meanwhile): the code covers the functions it had when compiling
    /// started, and a function added since runs in the interpreter.
    #[test]
    fn functions_added_during_a_background_compile_are_interpreted() {
        if !spare_core() {
            return;
        }
        let (p, f) = rev_rev();
        let later = later();
        let tier = compiling_in_background(&p).into_tier();
        let mut grown = p.clone();
        let added = FunId(grown.funs.len() as u32);
        grown.funs.push(FunDef { name: "added".into(), ..grown.fun(f).clone() });
        let mut e = Evaluator::with_tier(&grown, tier);
        while !e.tier_up(TIER_UP, later) && !e.has_jit() {}
        assert!(e.compiles(f) && !e.compiles(added));
        let nil = Value::nullary(0);
        assert_eq!(e.call(added, std::slice::from_ref(&nil), &limits()), Ok(Value::Bool(true)));
        assert_eq!(e.call(f, &[nil], &limits()), Ok(Value::Bool(true)));
    }
}
