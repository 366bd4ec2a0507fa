//! Running the parts of a conjecture on one assignment, for the testers. Where a part runs,
//! compiled code or the reference interpreter, is the engine's decision
//! (`crate::engine::Evaluator`, on the run's `Engine`); this module keeps the assignment
//! in both of their forms (JIT words, interpreter values, each read from the other when
//! needed) and turns what a part gave into a `Verdict` or a `Stop`. What a verdict means
//! for the search is the tester's to decide.
//!
//! A tester sees three faces of a `Runner`:
//! - the assignment and the parts (`Runner`): set variables, step through the schedule,
//!   read a verdict per part;
//! - the arena-backed value builder (`Runner::arena`, an `Arena`): test data built as words
//!   straight into the JIT's arena, the only place outside `codegen` that knows how words
//!   are laid out;
//! - the batch runner (`Runner::batch`, a `Batch`): rows of words run through the parts in
//!   one compiled loop.

pub use crate::engine::Engine;

use crate::engine::{Answer, Evaluator};
use codegen::{ArenaMark, Jit, LevelCounts, LevelEnd, SharedCells, Word};
use lang::core::conjecture::{Conjecture, ConjectureVar};
use lang::core::ir::{FunId, Ty, Undef};
use lang::interp::{EvalError, Limits, Value};
use std::time::Instant;

/// Fuel for one part on one assignment. A test case that needs more is treated as not
/// terminating (the lemma times out) rather than holding up the search.
const CASE_FUEL: u64 = 50_000_000;
const CASE_DEPTH: u32 = 100_000;

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
    /// An evaluation's failure (on either engine) as the end of the search.
    fn of(e: EvalError) -> Stop {
        match e {
            EvalError::Timeout => Stop::Timeout,
            EvalError::NotExecutable(why) => Stop::NotExecutable(why),
            e => Stop::Diverged(e.to_string()),
        }
    }
}

/// Runs the parts of one conjecture on the assignment the tester sets, on the engine of
/// the run (kept across sizes: the program is compiled once).
pub struct Runner<'c> {
    pub conj: &'c Conjecture,
    eval: Evaluator<'c>,
    /// The current assignment as JIT words (valid while the arena is not released below it).
    words: Words,
    /// The current assignment as interpreter values, where known.
    values: Vec<Option<Value>>,
    /// The variables each function of the program reads (empty for the lemma's constants).
    fun_uses: Vec<Vec<usize>>,
    /// Per variable: its values may be built as words directly (no sets or functions
    /// inside); empty until the program is compiled.
    words_ok: Vec<bool>,
    /// The limits of one part on one assignment; their deadline is the run's.
    limits: Limits,
}

/// The assignment as JIT words, one per variable (`word[v]` meaningful where `has[v]`): a
/// row of arguments for compiled code.
struct Words {
    word: Vec<Word>,
    has: Vec<bool>,
}

impl Words {
    /// The whole row, if it sets every variable of `uses`.
    #[inline]
    fn row_for(&self, uses: &[usize]) -> Option<&[Word]> {
        uses.iter().all(|v| self.has[*v]).then_some(&self.word[..])
    }
}

impl<'c> Runner<'c> {
    /// A runner on `engine`, its cases limited to `deadline`. The parts get level loops when
    /// compiled, for the testers' loops over many cases (`Batch::run`).
    pub fn new(conj: &'c Conjecture, engine: impl Into<Engine>, deadline: Instant) -> Runner<'c> {
        let parts: Vec<FunId> = conj.premises.iter().chain([&conj.conclusion]).map(|p| p.fun).collect();
        Runner::with_level_loops(conj, engine.into(), deadline, &parts)
    }

    /// A runner for a tester that runs its cases one at a time (the smart and SMT testers,
    /// generalization): no level loops are compiled, which would take about as long as the
    /// rest of the program (a batch still runs, a call per row).
    pub fn one_at_a_time(conj: &'c Conjecture, engine: impl Into<Engine>, deadline: Instant) -> Runner<'c> {
        Runner::with_level_loops(conj, engine.into(), deadline, &[])
    }

    fn with_level_loops(conj: &'c Conjecture, engine: Engine, deadline: Instant, levels: &[FunId]) -> Runner<'c> {
        let n = conj.vars.len();
        let mut r = Runner {
            conj,
            eval: Evaluator::new(&conj.program, engine, levels),
            words: Words { word: vec![0; n], has: vec![false; n] },
            values: vec![None; n],
            fun_uses: fun_uses(conj),
            words_ok: Vec::new(),
            limits: Limits { fuel: CASE_FUEL, max_depth: CASE_DEPTH, deadline: Some(deadline) },
        };
        // An engine that compiles from the first case compiles now.
        r.tier_up(0);
        r
    }

    /// Lets the engine compile the program if the cases run so far plus `expected` more
    /// make it pay (`Evaluator::tier_up`; compiling may take half the time left). Call it
    /// where a tester can start using words (before building a size's tables, before a
    /// random case).
    #[inline]
    pub fn tier_up(&mut self, expected: u64) {
        // The code may also have arrived during a call (`Evaluator::call` takes a finished
        // background compile), so what words allow is worked out once compiled code is there.
        self.eval.tier_up(expected, self.limits.deadline);
        if self.words_ok.is_empty() && self.eval.has_jit() {
            let p = &self.conj.program;
            self.words_ok = self.conj.vars.iter().map(|v| crate::types::words_ok(p, &v.ty)).collect();
        }
    }

    /// Whether variable `var` can be set from a word alone (`set_word`), its values built
    /// as words directly (`arena`).
    #[inline]
    pub fn words_ok(&self, var: usize) -> bool {
        self.words_ok.get(var).copied().unwrap_or(false)
    }

    /// Sets variable `var` to `value`, with its word when the caller has one; otherwise its
    /// word is built here when compiled code could run on it.
    pub fn set(&mut self, var: usize, value: Value, word: Option<Word>) {
        let word = word.or_else(|| {
            let jit = self.eval.jit_mut()?;
            jit.word_of(&value, &self.conj.vars[var].ty).ok()
        });
        self.values[var] = Some(value);
        match word {
            Some(w) => {
                self.words.word[var] = w;
                self.words.has[var] = true;
            }
            None => self.words.has[var] = false,
        }
    }

    /// Starts a case whose variables are set with `set_kept`: frees what the last case
    /// built, except the cells of the values set before.
    pub fn start_kept_case(&mut self) {
        if let Some(j) = self.eval.jit_mut() {
            j.free_to_kept();
        }
    }

    /// `set`, the word built by `Jit::word_of_kept`: a value set again in a later case (a
    /// tree tested with each key) is not built again.
    pub fn set_kept(&mut self, var: usize, value: Value) {
        let ty = &self.conj.vars[var].ty;
        let word = self.eval.jit_mut().and_then(|j| j.word_of_kept(&value, ty).ok());
        self.set(var, value, word);
    }

    /// Sets variable `var` from a word only (built in `arena`); its value is read back
    /// when needed.
    #[inline]
    pub fn set_word(&mut self, var: usize, word: Word) {
        self.values[var] = None;
        self.words.word[var] = word;
        self.words.has[var] = true;
    }

    /// The value of variable `var` in the current assignment.
    pub fn value(&mut self, var: usize) -> Option<Value> {
        value_of(&mut self.values, &self.words, &self.conj.vars, self.eval.jit(), var)
    }

    /// Forgets the current assignment and frees the whole arena (every word built before
    /// becomes invalid).
    pub fn clear(&mut self) {
        if let Some(j) = self.eval.jit_mut() {
            j.reset();
        }
        self.words.has.iter_mut().for_each(|h| *h = false);
        self.values.iter_mut().for_each(|v| *v = None);
    }

    /// Computes variable `var` with function `f` (a binding) from the current assignment.
    pub fn bind(&mut self, var: usize, f: FunId) -> Result<Result<(), Undef>, Stop> {
        match self.call(f) {
            Ok(Answer::Word(w)) => self.set_word(var, w),
            Ok(Answer::Value(v)) => self.set(var, v, None),
            Err(EvalError::Undefined(u)) => return Ok(Err(u)),
            Err(e) => return Err(Stop::of(e)),
        }
        Ok(Ok(()))
    }

    /// Evaluates the boolean function `f` on the current assignment.
    pub fn check(&mut self, f: FunId) -> Result<Verdict, Stop> {
        let holds = match self.call(f) {
            Ok(Answer::Word(w)) => w != 0,
            Ok(Answer::Value(Value::Bool(b))) => b,
            Ok(Answer::Value(_)) => return Err(Stop::NotExecutable("a part did not evaluate to a truth value".into())),
            Err(EvalError::Undefined(u)) => return Ok(Verdict::Undefined(u)),
            Err(e) => return Err(Stop::of(e)),
        };
        Ok(if holds { Verdict::Holds } else { Verdict::Fails })
    }

    /// Calls `f` on the current assignment: on its words when it has every word `f` reads,
    /// else (or when the engine hands the case over) on its values.
    #[inline]
    fn call(&mut self, f: FunId) -> Result<Answer, EvalError> {
        let uses = &self.fun_uses[f.0 as usize];
        let (values, words, vars) = (&mut self.values, &self.words, &self.conj.vars);
        let args = |jit: Option<&Jit>| values_of(values, words, vars, jit, uses);
        self.eval.call_words(f, words.row_for(uses), args, &self.limits)
    }

    /// Evaluates `f` in the interpreter and prints the result (for reports).
    pub fn show(&mut self, f: FunId) -> String {
        let uses = &self.fun_uses[f.0 as usize];
        let args = values_of(&mut self.values, &self.words, &self.conj.vars, self.eval.jit(), uses);
        match self.eval.interpret(f, args, &self.limits) {
            Ok(v) => self.eval.print(&v, &self.conj.program.fun(f).ret),
            Err(e) => format!("({e})"),
        }
    }

    /// Prints the current value of variable `var`.
    pub fn show_var(&mut self, var: usize) -> Option<String> {
        let v = self.value(var)?;
        Some(self.eval.print(&v, &self.conj.vars[var].ty))
    }

    /// The arena-backed value builder: words for the assignment, built in the JIT's arena.
    #[inline]
    pub fn arena(&mut self) -> Arena<'_> {
        Arena { jit: self.eval.jit_mut() }
    }

    /// The batch runner: the parts over many rows of words in one compiled loop.
    #[inline]
    pub fn batch(&mut self) -> Batch<'_, 'c> {
        Batch { r: self }
    }
}

/// The value of variable `var`, read back from its word (and kept) when only that is set.
fn value_of(
    values: &mut [Option<Value>],
    words: &Words,
    vars: &[ConjectureVar],
    jit: Option<&Jit>,
    var: usize,
) -> Option<Value> {
    if values[var].is_none() && words.has[var] {
        values[var] = jit.and_then(|j| j.value_of(words.word[var], &vars[var].ty).ok());
    }
    values[var].clone()
}

/// The interpreter's arguments for a function reading the variables `uses`: their values,
/// and any value for the others, which it does not read.
fn values_of(
    values: &mut [Option<Value>],
    words: &Words,
    vars: &[ConjectureVar],
    jit: Option<&Jit>,
    uses: &[usize],
) -> Vec<Value> {
    let mut args = vec![Value::Bool(false); vars.len()];
    for &v in uses {
        args[v] = value_of(values, words, vars, jit, v).unwrap_or(Value::Bool(false));
    }
    args
}

/// Builds test data as JIT words in the arena, for `Runner::set_word` and batch rows.
/// Without a compiled program there is no arena: every word is `None`, and marks are too.
/// A full arena gives `None` as well. Words stay valid until the arena is released below
/// them (`release` to an earlier mark, `Runner::clear`).
pub struct Arena<'a> {
    jit: Option<&'a mut Jit>,
}

impl Arena<'_> {
    /// Whether the program is compiled, so that words can be built at all.
    pub fn compiled(&self) -> bool {
        self.jit.is_some()
    }

    /// The arena's fill level.
    pub fn mark(&self) -> Option<ArenaMark> {
        self.jit.as_ref().map(|j| j.mark())
    }

    /// Frees everything built since `m` was taken.
    #[inline]
    pub fn release(&mut self, m: Option<ArenaMark>) {
        if let (Some(j), Some(m)) = (self.jit.as_mut(), m) {
            j.release(m);
        }
    }

    /// Whether at least half of the arena is still free (test data built before the cases
    /// must leave the cases room to run).
    pub fn half_free(&self) -> bool {
        self.jit.as_ref().is_some_and(|j| j.arena_room() >= j.arena_words() / 2)
    }

    /// The word of the interpreter value `v` of type `ty`, sharing the cells of fields
    /// shared with values built before through `shared` (`Jit::word_of_shared`).
    pub fn value(&mut self, v: &Value, ty: &Ty, shared: &mut SharedCells) -> Option<Word> {
        self.jit.as_mut().and_then(|j| j.word_of_shared(v, ty, shared).ok())
    }

    /// The word of a `bool`.
    #[inline]
    pub fn bool(b: bool) -> Word {
        Word::from(b)
    }

    /// The word of a `nat` or `int` that fits 64 bits.
    #[inline]
    pub fn int(i: i64) -> Word {
        i as Word
    }

    /// Constructor `tag` over the words of its fields.
    #[inline]
    pub fn ctor(&mut self, tag: u32, fields: &[Word]) -> Option<Word> {
        self.jit.as_mut().and_then(|j| j.ctor_word(tag, fields).ok())
    }

    /// The list of the words `elems` (`Nil` is constructor 0, `Cons` 1).
    #[inline]
    pub fn list(&mut self, elems: &[Word]) -> Option<Word> {
        let mut v = self.ctor(0, &[])?;
        for e in elems.iter().rev() {
            v = self.ctor(1, &[*e, v])?;
        }
        Some(v)
    }

    /// The list of the numbers `elems`.
    pub fn int_list(&mut self, elems: &[i64]) -> Option<Word> {
        self.jit.as_mut().and_then(|j| j.int_list_word(elems).ok())
    }

    /// The list of the `len` numbers `elem` gives in order (`Jit::int_list_with`).
    #[inline]
    pub fn int_list_with(&mut self, len: usize, elem: impl FnMut() -> i64) -> Option<Word> {
        self.jit.as_mut().and_then(|j| j.int_list_with(len, elem).ok())
    }
}

/// Runs parts over many cases at once: rows of argument words (one word per variable,
/// `width` per row) through compiled code's loop (`Jit::run_rows`), which hands back the
/// cases it does not settle for the tester to run one at a time.
pub struct Batch<'a, 'c> {
    r: &'a mut Runner<'c>,
}

impl Batch<'_, '_> {
    /// Whether compiled code runs every function of `checks` on rows that set every
    /// variable set now and, if given, variable `var` (with `None`, rows set every
    /// variable): none refused by the JIT, none reading a variable without a word.
    pub fn runs(&self, checks: &[FunId], var: Option<usize>) -> bool {
        let r = &*self.r;
        r.eval.has_jit()
            && checks.iter().all(|f| {
                r.eval.compiles(*f)
                    && (var.is_none() || r.fun_uses[f.0 as usize].iter().all(|v| Some(*v) == var || r.words.has[*v]))
            })
    }

    /// The number of words in a row: one per variable.
    pub fn width(&self) -> usize {
        self.r.words.word.len()
    }

    /// Appends to `rows` one row per word of `values`: the current assignment with
    /// variable `var` set to it.
    pub fn rows_with(&self, var: usize, values: &[Word], rows: &mut Vec<Word>) {
        for w in values {
            let at = rows.len() + var;
            rows.extend_from_slice(&self.r.words.word);
            rows[at] = *w;
        }
    }

    /// Runs `checks` on each row of `rows` (`Jit::run_rows`, which says what `descend`
    /// does): where it stopped, and the cases it ran to the end. The caller checks `runs`
    /// first.
    pub fn run(&mut self, checks: &[FunId], descend: bool, rows: &[Word]) -> (LevelEnd, LevelCounts) {
        let width = self.width();
        self.r.eval.run_rows(checks, descend, rows, width, &self.r.limits)
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
