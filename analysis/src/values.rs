//! Evaluating `value` items: with the Cranelift JIT by default (the file's values are
//! compiled together, once), handing a value over to the reference interpreter when the JIT
//! cannot decide it (a number past 64 bits, a construct it does not compile); with
//! `Options::interpreter`, by the interpreter alone. Owns the evaluation limits and the
//! diagnostic a failed `value` becomes.

use codegen::{Jit, JitOutcome};
use lang::core::ir::FunId;
use lang::interp::{EvalError, Limits};
use lang::{CheckedTheory, Diagnostic, Span, ValueOutcome};
use std::time::{Duration, Instant};

/// Wall-clock time each `value` may evaluate for.
pub const VALUE_TIMEOUT: Duration = Duration::from_secs(5);

/// The limits of one `value`, starting now.
pub fn value_limits() -> Limits {
    Limits { deadline: Some(Instant::now() + VALUE_TIMEOUT), ..Limits::default() }
}

/// The error a `value` whose evaluation failed with `error` under `limits` is reported as,
/// at its term.
pub fn evaluation_failed(term: Span, error: &EvalError, limits: &Limits) -> Diagnostic {
    let d = Diagnostic::error(term, error.to_string()).with_label("while evaluating this `value`");
    match error {
        EvalError::Timeout => d.with_note(format!("each `value` may evaluate for {} s", VALUE_TIMEOUT.as_secs())),
        EvalError::OutOfFuel => d.with_note(format!("each `value` may take {} evaluation steps", limits.fuel)),
        EvalError::TooDeep => d.with_note(format!("calls may nest {} deep", limits.max_depth)),
        EvalError::Undefined(_) | EvalError::NotExecutable(_) | EvalError::OutOfMemory => d,
    }
}

/// The `value`s of one file, evaluated one at a time in file order.
pub struct ValueEvaluator {
    jit: Compiled,
}

/// The compiled values: compiled at the first `value` evaluated, so that compiling counts
/// against that value's time limit.
enum Compiled {
    /// Not yet compiled.
    Pending,
    /// The JIT and the function of each value index.
    Ready(Box<Jit>, Vec<FunId>),
    /// Evaluating with the interpreter: asked for, no values, the program did not compile,
    /// or compiling took too long.
    Off,
}

impl ValueEvaluator {
    /// An evaluator for `theory`'s values, compiling them (at the first one) when `use_jit`.
    pub fn new(theory: &mut CheckedTheory, use_jit: bool) -> ValueEvaluator {
        let jit = if use_jit && !theory.value_indices().is_empty() { Compiled::Pending } else { Compiled::Off };
        ValueEvaluator { jit }
    }

    /// Evaluates value item `index` within `limits`.
    pub fn eval(&mut self, theory: &mut CheckedTheory, index: usize, limits: &Limits) -> ValueOutcome {
        if matches!(self.jit, Compiled::Pending) {
            // The file's values are compiled together, once, within half of this value's
            // time: a program that takes longer (or does not compile) is evaluated by the
            // interpreter, this value in the time left.
            let deadline = limits.deadline.map(|d| quickcheck::runner::compile_deadline(Instant::now(), d));
            let (program, funs) = theory.lower_values();
            self.jit = match Jit::with_deadline(program, codegen::DEFAULT_ARENA_WORDS, &[], deadline) {
                Ok(jit) => Compiled::Ready(Box::new(jit), funs),
                Err(_) => Compiled::Off,
            };
        }
        if let Compiled::Ready(jit, funs) = &mut self.jit {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Compiling happens within the first value's time: with that time already spent it is
    /// abandoned and the interpreter evaluates the value (which ends as a timeout unless it
    /// finishes before the interpreter looks at the clock); the values after it are
    /// evaluated by the interpreter, each in its own time.
    #[test]
    fn compiling_counts_against_the_first_value() {
        let mut th = lang::check_theory(
            "theory T imports Main begin
             fun g :: \"nat ⇒ nat\" where \"g 1000000 = 1\" | \"g _ = 0\"
             value \"g 1000000\"
             value \"g 1000000 + g 3\"
             end",
        );
        assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
        let values = th.value_indices();
        let mut ev = ValueEvaluator::new(&mut th, true);
        let spent = Limits { deadline: Some(Instant::now()), ..Limits::default() };
        let first = ev.eval(&mut th, values[0], &spent);
        assert!(
            matches!(&first, ValueOutcome::Failed(EvalError::Timeout))
                || matches!(&first, ValueOutcome::Value { printed, .. } if printed == "1"),
            "{first:?}"
        );
        assert!(matches!(ev.jit, Compiled::Off));
        let fresh = Limits { deadline: Some(Instant::now() + Duration::from_secs(5)), ..Limits::default() };
        assert!(matches!(ev.eval(&mut th, values[1], &fresh), ValueOutcome::Value { printed, .. } if printed == "1"));
        // With time left, the first value compiles the file's values.
        let mut ev = ValueEvaluator::new(&mut th, true);
        assert!(matches!(ev.eval(&mut th, values[0], &fresh), ValueOutcome::Value { printed, .. } if printed == "1"));
        assert!(matches!(ev.jit, Compiled::Ready(..)));
    }
}
