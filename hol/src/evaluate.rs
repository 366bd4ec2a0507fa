//! Evaluating `value` items: with the Cranelift JIT by default (the file's values are
//! compiled together, once), handing a value over to the reference interpreter when the JIT
//! cannot decide it (a number past 64 bits, a construct it does not compile); with
//! `--interpreter`, by the interpreter alone.

use codegen::{Jit, JitOutcome};
use lang::core::ir::FunId;
use lang::interp::{EvalError, Limits};
use lang::{CheckedTheory, ValueOutcome};

pub struct ValueEvaluator {
    /// The compiled values and the function of each value index; `None` when evaluating
    /// with the interpreter (asked for, no values, or the program did not compile).
    jit: Option<(Jit, Vec<FunId>)>,
}

impl ValueEvaluator {
    pub fn new(theory: &mut CheckedTheory, use_jit: bool) -> ValueEvaluator {
        let jit = if use_jit && !theory.value_indices().is_empty() {
            let (program, funs) = theory.lower_values();
            // A program the JIT cannot compile is still evaluated, by the interpreter.
            Jit::compile(program).ok().map(|jit| (jit, funs))
        } else {
            None
        };
        ValueEvaluator { jit }
    }

    pub fn eval(&mut self, theory: &mut CheckedTheory, index: usize, limits: &Limits) -> ValueOutcome {
        if let Some((jit, funs)) = &mut self.jit {
            match jit.call(funs[index], &[], limits) {
                Ok(value) => return theory.value_outcome(index, &value),
                Err(outcome) if outcome.hand_over() => {}
                Err(outcome) => return ValueOutcome::Failed(eval_error(outcome)),
            }
        }
        theory.eval_value(index, limits)
    }
}

fn eval_error(outcome: JitOutcome) -> EvalError {
    match outcome {
        JitOutcome::Undefined(u) => EvalError::Undefined(u),
        JitOutcome::OutOfFuel => EvalError::OutOfFuel,
        JitOutcome::TooDeep => EvalError::TooDeep,
        JitOutcome::Timeout => EvalError::Timeout,
        JitOutcome::OutOfMemory => EvalError::OutOfMemory,
        // Handed over above; kept total for the compiler.
        JitOutcome::Overflow | JitOutcome::NotSupported => {
            EvalError::NotExecutable("the JIT handed this case over".into())
        }
    }
}
