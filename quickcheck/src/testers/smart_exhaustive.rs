//! The `smart_exhaustive` tester (Isabelle's smart generators: exhaustive enumeration that
//! checks premises on partial assignments, bounded by `depth`): a row of the registry whose
//! search a later issue builds. Until then it applies to no lemma, and a run that names it
//! is an error saying so.

use crate::testers::{Coverage, Search, Setup, Tester};
use lang::core::conjecture::Conjecture;

/// The `smart_exhaustive` row of the registry.
pub struct SmartExhaustiveTester;

impl Tester for SmartExhaustiveTester {
    fn name(&self) -> &'static str {
        "smart_exhaustive"
    }

    fn about(&self) -> &'static str {
        "Exhaustive, checking premises on partial assignments (not available yet)"
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
