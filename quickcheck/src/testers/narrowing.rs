//! The `narrowing` tester (Isabelle's: symbolic testing with partial values, refined where
//! evaluation needs them): a row of the registry whose search a later issue builds, on the
//! `narrowing` crate. Until then it applies to no lemma, and a run that names it is an error
//! saying so.

use crate::testers::{Coverage, Search, Setup, Tester};
use lang::core::conjecture::Conjecture;

/// The `narrowing` row of the registry.
pub struct NarrowingTester;

impl Tester for NarrowingTester {
    fn name(&self) -> &'static str {
        "narrowing"
    }

    fn about(&self) -> &'static str {
        "Symbolic testing with partial values (not available yet)"
    }

    fn applies(&self, _conjecture: &Conjecture) -> Result<(), String> {
        Err(format!("the `{}` tester is not available yet", self.name()))
    }

    fn coverage(&self) -> Coverage {
        Coverage::Complete
    }

    fn search<'c>(&self, _conjecture: &'c Conjecture, _setup: &Setup) -> Box<dyn Search + 'c> {
        unreachable!("the driver runs no search of a tester that does not apply")
    }
}
