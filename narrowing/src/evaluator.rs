//! Where a partial case's parts run: the reference interpreter (`Interp::partial`) or code
//! compiled for partial words (`codegen::Jit::narrowing`), chosen by the search's
//! `Engine` as for the other testers: `Tiered` compiles once the partial cases reach
//! `codegen::engine::TIER_UP`. Compiled code answers with the same value or demand as the
//! interpreter, or hands the part over (a set operation, a number past the word, a limit
//! reached), and the interpreter answers instead; so which engine ran never shows in a
//! result, a count or a counterexample.

use codegen::engine::{compile_deadline, Engine, TIER_UP};
use codegen::{Jit, JitOutcome};
use lang::core::ir::{FunId, Program};
use lang::interp::{EvalError, Interp, Limits, Value};
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
    /// Parts evaluated so far, towards `TIER_UP`.
    evals: u64,
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
            answered: 0,
            handed_over: 0,
        }
    }

    /// `f` on `args`, which may hold holes: its value, or `EvalError::Need` with the hole
    /// it needs.
    pub fn call(&mut self, f: FunId, args: Vec<Value>, limits: &Limits) -> Result<Value, EvalError> {
        self.evals += 1;
        if !self.compiled && self.engine.compiles() && (self.engine == Engine::Compiled || self.evals >= TIER_UP) {
            self.compile(limits.deadline);
        }
        if let Some(jit) = self.jit.as_mut().filter(|_| !self.refused[f.0 as usize]) {
            match jit.call(f, &args, limits) {
                Ok(v) => {
                    self.answered += 1;
                    return Ok(v);
                }
                Err(JitOutcome::Need(d)) => {
                    self.answered += 1;
                    return Err(EvalError::Need(d));
                }
                Err(JitOutcome::Undefined(u)) => {
                    self.answered += 1;
                    return Err(EvalError::Undefined(u));
                }
                Err(JitOutcome::Timeout) => return Err(EvalError::Timeout),
                Err(JitOutcome::NotSupported) => {
                    self.refused[f.0 as usize] = true;
                    self.handed_over += 1;
                }
                // A number past the word, or a limit compiled code counts differently
                // from the interpreter: the interpreter decides.
                Err(_) => self.handed_over += 1,
            }
        }
        self.interp.call(f, args, limits)
    }

    #[cold]
    fn compile(&mut self, deadline: Option<Instant>) {
        self.compiled = true;
        let deadline = deadline.map(|d| compile_deadline(Instant::now(), d));
        self.jit = Jit::narrowing(self.program, deadline).ok();
    }
}
