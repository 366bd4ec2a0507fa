//! Evaluating `value` items, in file order, on the evaluation engine
//! (`quickcheck::engine::Evaluator`): compiled by default (the file's values together, once, at
//! the first value, within half of its time), each value the JIT cannot decide handed over
//! to the reference interpreter; with `Options::interpreter`, by the interpreter alone.
//! Owns the evaluation limits of a `value` and the diagnostic a failed one becomes.

use lang::interp::{EvalError, Limits};
use lang::{CheckedTheory, Diagnostic, Span, ValueOutcome};
use quickcheck::engine::{Engine, Evaluator, JitTier};
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
        EvalError::Undefined(_) | EvalError::NotExecutable(_) | EvalError::OutOfMemory | EvalError::Need(_) => d,
    }
}

/// The `value`s of one file, evaluated one at a time in file order.
pub struct ValueEvaluator {
    /// The engine's compiled side, kept from one value to the next. The evaluator itself
    /// lives for one value: its program is the theory's, which lowers each value into it.
    tier: JitTier,
}

impl ValueEvaluator {
    /// An evaluator for `theory`'s values, compiling them (at the first one) when `use_jit`.
    pub fn new(_theory: &mut CheckedTheory, use_jit: bool) -> ValueEvaluator {
        ValueEvaluator { tier: JitTier::new(Engine::from(use_jit), &[]) }
    }

    /// Evaluates value item `index` within `limits`.
    pub fn eval(&mut self, theory: &mut CheckedTheory, index: usize, limits: &Limits) -> ValueOutcome {
        let tier = std::mem::replace(&mut self.tier, JitTier::new(Engine::Interpreter, &[]));
        // Before the engine compiles, every value is lowered, so that they compile together,
        // once (within this value's time: the engine compiles at its first call).
        let (program, fun) = if tier.pending() {
            let (program, funs) = theory.lower_values();
            (program, funs[index])
        } else {
            let (program, fun, _) = theory.lower_value(index);
            (program, fun)
        };
        let mut evaluator = Evaluator::with_tier(program, tier);
        let result = evaluator.call(fun, &[], limits);
        self.tier = evaluator.into_tier();
        match result {
            Ok(value) => theory.value_outcome(index, &value),
            Err(error) => ValueOutcome::Failed(error),
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
        assert!(!ev.tier.has_jit() && !ev.tier.pending());
        let fresh = Limits { deadline: Some(Instant::now() + Duration::from_secs(5)), ..Limits::default() };
        assert!(matches!(ev.eval(&mut th, values[1], &fresh), ValueOutcome::Value { printed, .. } if printed == "1"));
        // With time left, the first value compiles the file's values.
        let mut ev = ValueEvaluator::new(&mut th, true);
        assert!(matches!(ev.eval(&mut th, values[0], &fresh), ValueOutcome::Value { printed, .. } if printed == "1"));
        assert!(ev.tier.has_jit());
    }
}
