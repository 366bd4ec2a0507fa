//! Running the parts of a conjecture on one assignment: in native code (the JIT) where it
//! can, in the reference interpreter where the JIT hands a case over (numbers past 64 bits,
//! constructs it does not compile). Testers set variables, step through the schedule, and
//! read a `Verdict` per part; what a verdict means for the search is theirs to decide.

use codegen::{Jit, JitOutcome, LevelCounts, LevelEnd, SharedCells, Word};
use lang::core::conjecture::Conjecture;
use lang::core::ir::{FunId, Undef};
use lang::interp::{EvalError, Interp, Limits, Value};
use std::time::Instant;

/// Fuel for one part on one assignment. A test case that needs more is treated as not
/// terminating (the lemma times out) rather than holding up the search.
const CASE_FUEL: u64 = 50_000_000;
const CASE_DEPTH: u32 = 100_000;

/// Evaluations after which compiling the program pays: the interpreter runs a small case in
/// a few microseconds, compiling takes a few milliseconds.
const TIER_UP: u64 = 2_000;

/// Where test cases run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The reference interpreter only (`--interpreter`).
    Interpreter,
    /// The interpreter first, compiled code once the search has grown past a few thousand
    /// evaluations: what `hol check` uses, so a lemma refuted at once never pays for
    /// compilation.
    Tiered,
    /// Compiled code from the first case (differential tests, benchmarks).
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

/// What evaluating a boolean part gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Holds,
    Fails,
    /// An underspecified function was reached: the part has no truth value.
    Undefined(Undef),
}

/// Why a search must end without an answer for this case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    Timeout,
    /// A case ran out of fuel, recursed too deep or exhausted memory.
    Diverged(String),
    NotExecutable(String),
}

impl Stop {
    fn of(e: EvalError) -> Stop {
        match e {
            EvalError::Timeout => Stop::Timeout,
            EvalError::NotExecutable(why) => Stop::NotExecutable(why),
            e => Stop::Diverged(e.to_string()),
        }
    }
}

pub struct Runner<'c> {
    pub conj: &'c Conjecture,
    jit: Option<Jit>,
    /// Compile when the search grows (`tier_up`).
    want_jit: bool,
    /// Parts evaluated so far.
    evals: u64,
    interp: Interp<'c>,
    /// The current assignment as JIT words (valid while the arena is not released below it).
    words: Vec<Word>,
    has_word: Vec<bool>,
    /// The current assignment as interpreter values, where known.
    values: Vec<Option<Value>>,
    /// Functions the JIT cannot run: always evaluated in the interpreter.
    jit_refuses: Vec<bool>,
    /// The variables each function of the program reads (empty for the lemma's constants).
    fun_uses: Vec<Vec<usize>>,
    /// Per variable: generators may build its values as words directly (no sets or
    /// functions inside, and there is a JIT).
    words_ok: Vec<bool>,
    pub deadline: Instant,
}

impl<'c> Runner<'c> {
    /// A runner on `engine` (see `Engine`).
    pub fn new(conj: &'c Conjecture, engine: impl Into<Engine>, deadline: Instant) -> Runner<'c> {
        let n = conj.vars.len();
        let engine = engine.into();
        let mut r = Runner {
            conj,
            jit: None,
            want_jit: engine != Engine::Interpreter,
            evals: 0,
            interp: Interp::new(&conj.program),
            words: vec![0; n],
            has_word: vec![false; n],
            values: vec![None; n],
            jit_refuses: vec![false; conj.program.funs.len()],
            fun_uses: fun_uses(conj),
            words_ok: vec![false; n],
            deadline,
        };
        if engine == Engine::Compiled {
            r.tier_up(u64::MAX);
        }
        r
    }

    /// Compiles the program when the cases run so far plus `expected` more reach
    /// `TIER_UP`. Call it where a tester can start using words (before building a size's
    /// tables, before a random case).
    pub fn tier_up(&mut self, expected: u64) {
        if !self.want_jit || self.jit.is_some() || self.evals.saturating_add(expected) < TIER_UP {
            return;
        }
        self.want_jit = false;
        // The parts get level loops, for the testers' loops over many cases (`Jit::run_rows`).
        let parts: Vec<FunId> = self.conj.premises.iter().chain([&self.conj.conclusion]).map(|p| p.fun).collect();
        // Compiling counts against the run's time limit: it may take half of what is left,
        // and a program that needs more is run by the interpreter in the other half.
        let deadline = compile_deadline(Instant::now(), self.deadline);
        self.jit = Jit::with_deadline(&self.conj.program, codegen::DEFAULT_ARENA_WORDS, &parts, Some(deadline)).ok();
        let (p, has) = (&self.conj.program, self.jit.is_some());
        self.words_ok = self.conj.vars.iter().map(|v| has && crate::types::words_ok(p, &v.ty)).collect();
    }

    /// Whether values of variable `var` can be built as words directly.
    pub fn words_ok(&self, var: usize) -> bool {
        self.words_ok[var]
    }

    pub fn has_jit(&self) -> bool {
        self.jit.is_some()
    }

    fn limits(&self) -> Limits {
        Limits { fuel: CASE_FUEL, max_depth: CASE_DEPTH, deadline: Some(self.deadline) }
    }

    /// The JIT's arena fill level (`None` without a JIT).
    pub fn mark(&self) -> Option<codegen::ArenaMark> {
        self.jit.as_ref().map(|j| j.mark())
    }

    pub fn release(&mut self, m: Option<codegen::ArenaMark>) {
        if let (Some(j), Some(m)) = (self.jit.as_mut(), m) {
            j.release(m);
        }
    }

    /// Frees the whole arena (words built before become invalid).
    pub fn reset_arena(&mut self) {
        if let Some(j) = self.jit.as_mut() {
            j.reset();
        }
        self.has_word.iter_mut().for_each(|h| *h = false);
    }

    /// Builds `v` (of the type of variable `var`) in the arena, if there is a JIT and it can.
    pub fn word_of(&mut self, var: usize, v: &Value) -> Option<Word> {
        let ty = &self.conj.vars[var].ty;
        self.jit.as_mut().and_then(|j| j.word_of(v, ty).ok())
    }

    /// Builds `v` of type `ty` in the arena, if there is a JIT and it can.
    pub fn word_of_ty(&mut self, v: &Value, ty: &lang::core::ir::Ty) -> Option<Word> {
        self.jit.as_mut().and_then(|j| j.word_of(v, ty).ok())
    }

    /// `word_of_ty`, sharing the cells of fields shared with values converted before through
    /// `shared` (`Jit::word_of_shared`).
    pub fn word_of_shared(&mut self, v: &Value, ty: &lang::core::ir::Ty, shared: &mut SharedCells) -> Option<Word> {
        self.jit.as_mut().and_then(|j| j.word_of_shared(v, ty, shared).ok())
    }

    /// Whether at least half of the JIT's arena is still free (test data built before the
    /// cases must leave the cases room to run).
    pub fn arena_half_free(&self) -> bool {
        self.jit.as_ref().is_some_and(|j| j.arena_room() >= j.arena_words() / 2)
    }

    /// Builds constructor `tag` over field words in the arena.
    #[inline]
    pub fn ctor_word(&mut self, tag: u32, fields: &[Word]) -> Option<Word> {
        self.jit.as_mut().and_then(|j| j.ctor_word(tag, fields).ok())
    }

    /// The list of the numbers `elems`, built in the JIT's arena.
    pub fn int_list_word(&mut self, elems: &[i64]) -> Option<Word> {
        self.jit.as_mut().and_then(|j| j.int_list_word(elems).ok())
    }

    /// The list of the `len` numbers `elem` gives in order, built in the JIT's arena
    /// (`Jit::int_list_with`), if there is a JIT and room.
    #[inline]
    pub fn int_list_with(&mut self, len: usize, elem: impl FnMut() -> i64) -> Option<Word> {
        self.jit.as_mut().and_then(|j| j.int_list_with(len, elem).ok())
    }

    /// Sets variable `var` to `value`, with its word when the caller has one.
    pub fn set(&mut self, var: usize, value: Value, word: Option<Word>) {
        self.values[var] = Some(value);
        match word {
            Some(w) => {
                self.words[var] = w;
                self.has_word[var] = true;
            }
            None => self.has_word[var] = false,
        }
    }

    /// Sets variable `var` from a word only; its value is read back when needed.
    pub fn set_word(&mut self, var: usize, word: Word) {
        self.values[var] = None;
        self.words[var] = word;
        self.has_word[var] = true;
    }

    /// The value of variable `var` in the current assignment.
    pub fn value(&mut self, var: usize) -> Option<Value> {
        if self.values[var].is_none() && self.has_word[var] {
            let ty = &self.conj.vars[var].ty;
            self.values[var] = self.jit.as_ref().and_then(|j| j.value_of(self.words[var], ty).ok());
        }
        self.values[var].clone()
    }

    /// Computes variable `var` with function `f` (a binding) from the current assignment.
    pub fn bind(&mut self, var: usize, f: FunId) -> Result<Result<(), Undef>, Stop> {
        if let Some(r) = self.try_jit(f) {
            return match r {
                Ok(w) => {
                    self.set_word(var, w);
                    Ok(Ok(()))
                }
                Err(JitOutcome::Undefined(u)) => Ok(Err(u)),
                Err(e) => Err(jit_stop(e)),
            };
        }
        match self.interp_call(f) {
            Ok(v) => {
                let w = self.word_of(var, &v);
                self.set(var, v, w);
                Ok(Ok(()))
            }
            Err(EvalError::Undefined(u)) => Ok(Err(u)),
            Err(e) => Err(Stop::of(e)),
        }
    }

    /// Evaluates the boolean function `f` on the current assignment.
    pub fn check(&mut self, f: FunId) -> Result<Verdict, Stop> {
        self.evals += 1;
        if let Some(r) = self.try_jit(f) {
            return match r {
                Ok(w) => Ok(if w != 0 { Verdict::Holds } else { Verdict::Fails }),
                Err(JitOutcome::Undefined(u)) => Ok(Verdict::Undefined(u)),
                Err(e) => Err(jit_stop(e)),
            };
        }
        match self.interp_call(f) {
            Ok(Value::Bool(b)) => Ok(if b { Verdict::Holds } else { Verdict::Fails }),
            Ok(_) => Err(Stop::NotExecutable("a part did not evaluate to a truth value".into())),
            Err(EvalError::Undefined(u)) => Ok(Verdict::Undefined(u)),
            Err(e) => Err(Stop::of(e)),
        }
    }

    /// Whether the JIT runs every function of `checks` on rows of words that set every
    /// variable set now and, if given, variable `var`: none refused, none reading a
    /// variable without a word (with `None`, rows set every variable).
    pub fn jit_runs(&self, checks: &[FunId], var: Option<usize>) -> bool {
        self.jit.is_some()
            && checks.iter().all(|f| {
                let i = f.0 as usize;
                !self.jit_refuses[i]
                    && (var.is_none() || self.fun_uses[i].iter().all(|v| Some(*v) == var || self.has_word[*v]))
            })
    }

    /// Appends to `rows` one row of arguments per word of `values`: the current assignment
    /// with variable `var` set to it (for `run_rows`).
    pub fn rows_with(&self, var: usize, values: &[Word], rows: &mut Vec<Word>) {
        for w in values {
            let at = rows.len() + var;
            rows.extend_from_slice(&self.words);
            rows[at] = *w;
        }
    }

    /// The number of words in a row of arguments: one per variable.
    pub fn width(&self) -> usize {
        self.words.len()
    }

    /// Runs `checks` on each row of `rows` (`width` words each, see `rows_with`) in compiled
    /// code (`Jit::run_rows`): where it stopped, and the cases it ran to the end. The caller
    /// checks `jit_runs` first.
    pub fn run_rows(&mut self, checks: &[FunId], descend: bool, rows: &[Word]) -> (LevelEnd, LevelCounts) {
        let limits = self.limits();
        let width = self.words.len();
        let Some(jit) = self.jit.as_mut() else {
            return (if rows.is_empty() { LevelEnd::Done } else { LevelEnd::Handover(0) }, LevelCounts::default());
        };
        let (end, counts) = jit.run_rows(checks, descend, rows, width, &limits);
        self.evals += counts.rejected + counts.passed;
        (end, counts)
    }

    /// Runs `f` in the JIT when it can decide: `None` to fall back to the interpreter.
    fn try_jit(&mut self, f: FunId) -> Option<Result<Word, JitOutcome>> {
        let i = f.0 as usize;
        if self.jit_refuses[i] || self.fun_uses[i].iter().any(|v| !self.has_word[*v]) {
            return None;
        }
        let limits = self.limits();
        let jit = self.jit.as_mut()?;
        let m = jit.mark();
        let r = jit.run(f, &self.words, &limits);
        match &r {
            Err(JitOutcome::NotSupported) => {
                self.jit_refuses[i] = true;
                jit.release(m);
                None
            }
            Err(JitOutcome::Overflow) => {
                jit.release(m);
                None
            }
            _ => Some(r),
        }
    }

    fn interp_call(&mut self, f: FunId) -> Result<Value, EvalError> {
        let n = self.conj.vars.len();
        // A variable the function does not use is not read; any value stands in.
        let mut args = vec![Value::Bool(false); n];
        for k in 0..self.fun_uses[f.0 as usize].len() {
            let v = self.fun_uses[f.0 as usize][k];
            args[v] = self.value(v).unwrap_or(Value::Bool(false));
        }
        let limits = self.limits();
        self.interp.call(f, args, &limits)
    }

    /// Evaluates `f` in the interpreter and prints the result (for reports).
    pub fn show(&mut self, f: FunId) -> String {
        match self.interp_call(f) {
            Ok(v) => {
                let ty = self.conj.program.fun(f).ret.clone();
                self.interp.print(&v, &ty)
            }
            Err(e) => format!("({e})"),
        }
    }

    /// Prints the current value of variable `var`.
    pub fn show_var(&mut self, var: usize) -> Option<String> {
        let v = self.value(var)?;
        let ty = self.conj.vars[var].ty.clone();
        Some(self.interp.print(&v, &ty))
    }

    /// Forgets the current assignment.
    pub fn clear(&mut self) {
        self.has_word.iter_mut().for_each(|h| *h = false);
        self.values.iter_mut().for_each(|v| *v = None);
    }
}

fn jit_stop(e: JitOutcome) -> Stop {
    match e {
        JitOutcome::Timeout => Stop::Timeout,
        JitOutcome::OutOfFuel => Stop::Diverged(EvalError::OutOfFuel.to_string()),
        JitOutcome::TooDeep => Stop::Diverged(EvalError::TooDeep.to_string()),
        JitOutcome::OutOfMemory => Stop::Diverged(EvalError::OutOfMemory.to_string()),
        // Handled by the caller.
        JitOutcome::Undefined(_) | JitOutcome::Overflow | JitOutcome::NotSupported => {
            Stop::Diverged("internal: unexpected JIT outcome".into())
        }
    }
}

/// For each function of the conjecture's program, the variables it reads.
fn fun_uses(c: &Conjecture) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new(); c.program.funs.len()];
    for p in c.premises.iter().chain(std::iter::once(&c.conclusion)) {
        out[p.fun.0 as usize] = p.uses.clone();
        if let Some(b) = &p.binding {
            out[b.fun.0 as usize] = b.uses.clone();
        }
        if let Some(s) = &p.sides {
            out[s.lhs.0 as usize] = p.uses.clone();
            out[s.rhs.0 as usize] = p.uses.clone();
        }
    }
    out
}

/// The deadline for compiling, starting `now`, of a program to be run by `deadline`: half the
/// time left, so that when compiling is abandoned the interpreter still has the other half.
pub fn compile_deadline(now: Instant, deadline: Instant) -> Instant {
    now + deadline.saturating_duration_since(now) / 2
}
