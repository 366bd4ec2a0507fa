//! Where a partial case's parts run: the reference interpreter (`Interp::partial`) or code
//! compiled for partial words (`codegen::Jit::narrowing`), chosen by the search's
//! `Engine` as for the other testers: `Tiered` compiles once the partial cases, or the
//! interpreter's steps, reach the engine's threshold (`Engine::compile_pays`). Compiled code answers with the same value or demand as the
//! interpreter, or hands the part over (a set operation, a number past the word, a limit
//! reached), and the interpreter answers instead; so which engine ran never shows in a
//! result, a count or a counterexample.

use codegen::{Jit, JitOutcome, Word};
use lang::core::ir::{FunId, Program, Ty};
use lang::interp::{EvalError, Interp, Limits, Value};
use quickcheck::engine::{compile_deadline, Engine};
use std::time::Instant;

pub struct PartialEvaluator<'p> {
    program: &'p Program,
    pub interp: Interp<'p>,
    engine: Engine,
    jit: Option<Jit>,
    /// Compiling was tried (it may have failed: then the interpreter runs everything).
    compiled: bool,
    /// By function: compiled code handed a part over as not supported; it will again.
    refused: Vec<bool>,
    /// Parts evaluated so far, towards the engine's threshold.
    evals: u64,
    /// Changes whenever compiled code's arena may have been emptied behind the search's
    /// back (compiling, `Jit::call`), so words kept there (`ArenaWords`) are built again.
    epoch: u64,
    /// Parts compiled code answered, and those it handed over (for tests and benches).
    pub answered: u64,
    pub handed_over: u64,
}

impl<'p> PartialEvaluator<'p> {
    pub fn new(program: &'p Program, engine: Engine) -> PartialEvaluator<'p> {
        PartialEvaluator {
            program,
            interp: Interp::partial(program),
            engine,
            jit: None,
            compiled: false,
            refused: vec![false; program.funs.len()],
            evals: 0,
            epoch: 0,
            answered: 0,
            handed_over: 0,
        }
    }

    /// Compiles the program once the engine says it is time (`Engine::compile_pays`).
    fn tier_up(&mut self, limits: &Limits) {
        if !self.compiled && self.engine.compile_pays(self.evals, self.interp.steps()) {
            self.compile(limits.deadline);
        }
    }

    /// `f` on `args`, which may hold holes: its value, or `EvalError::Need` with the hole
    /// it needs.
    pub fn call(&mut self, f: FunId, args: Vec<Value>, limits: &Limits) -> Result<Value, EvalError> {
        self.evals += 1;
        self.tier_up(limits);
        if let Some(jit) = self.jit.as_mut().filter(|_| !self.refused[f.0 as usize]) {
            // `Jit::call` builds its arguments in an emptied arena.
            self.epoch += 1;
            let r = jit.call(f, &args, limits);
            if let Some(r) = self.answer(f, r) {
                return r;
            }
        }
        self.interp.call(f, args, limits)
    }

    /// `f` on `args` in the interpreter, whatever the engine.
    pub fn interpret(&mut self, f: FunId, args: Vec<Value>, limits: &Limits) -> Result<Value, EvalError> {
        self.interp.call(f, args, limits)
    }

    /// Starts a partial case: compiles if it is time; the compiled code that runs the
    /// case's parts on words (`call_words`), if any, and the arena's epoch.
    pub fn begin_case(&mut self, limits: &Limits) -> (Option<&mut Jit>, u64) {
        self.tier_up(limits);
        self.jit()
    }

    /// The compiled code, if any, and the arena's epoch (see `epoch`).
    pub fn jit(&mut self) -> (Option<&mut Jit>, u64) {
        (self.jit.as_mut(), self.epoch)
    }

    /// `f` on `words` (kept in the arena, `ArenaWords`) by compiled code: its result as a word and
    /// as a value, or its demand; `None` when compiled code hands the part over, and the
    /// caller asks the interpreter (`interpret`), as `call` would.
    pub fn call_words(
        &mut self,
        f: FunId,
        words: &[Word],
        limits: &Limits,
    ) -> Option<Result<(Word, Value), EvalError>> {
        self.evals += 1;
        if self.refused[f.0 as usize] {
            return None;
        }
        let jit = self.jit.as_mut()?;
        let ret = &self.program.fun(f).ret;
        let r = jit.run(f, words, limits).and_then(|w| match ret {
            // A truth value that is not partial (partial words are negative).
            Ty::Bool if (w as i64) >= 0 => Ok((w, Value::Bool(w != 0))),
            _ => Ok((w, jit.value_of(w, ret)?)),
        });
        self.answer(f, r)
    }

    /// Compiled code's answer, counted: `None` when it handed the part over.
    fn answer<T>(&mut self, f: FunId, r: Result<T, JitOutcome>) -> Option<Result<T, EvalError>> {
        let r = match r {
            Ok(v) => Ok(v),
            Err(JitOutcome::Need(d)) => Err(EvalError::Need(d)),
            Err(JitOutcome::Undefined(u)) => Err(EvalError::Undefined(u)),
            Err(JitOutcome::Timeout) => return Some(Err(EvalError::Timeout)),
            Err(JitOutcome::NotSupported) => {
                self.refused[f.0 as usize] = true;
                self.handed_over += 1;
                return None;
            }
            // A number past the word, or a limit compiled code counts differently from the
            // interpreter: the interpreter decides.
            Err(_) => {
                self.handed_over += 1;
                return None;
            }
        };
        self.answered += 1;
        Some(r)
    }

    #[cold]
    fn compile(&mut self, deadline: Option<Instant>) {
        self.compiled = true;
        self.epoch += 1;
        let deadline = deadline.map(|d| compile_deadline(Instant::now(), d));
        self.jit = Jit::narrowing(self.program, deadline).ok();
    }
}
