//! Testers Isabelle has and hol does not yet (`smart_exhaustive`, `narrowing`): rows of the
//! registry, so their names are known everywhere a tester is named, that apply to no lemma.
//! A run that names one is an error saying so; the issue that builds it replaces its row
//! with a module of its own.

use crate::testers::{Coverage, Search, Setup, Tester};
use lang::core::conjecture::Conjecture;

/// A tester that is named but not built.
pub struct Unavailable {
    pub name: &'static str,
    /// What it will do, for `--help`.
    pub does: &'static str,
}

impl Tester for Unavailable {
    fn name(&self) -> &'static str {
        self.name
    }

    fn about(&self) -> &'static str {
        self.does
    }

    fn applies(&self, _conjecture: &Conjecture) -> Result<(), String> {
        Err(format!("the `{}` tester is not available yet", self.name))
    }

    fn coverage(&self) -> Coverage {
        Coverage::Complete
    }

    fn search<'c>(&self, _conjecture: &'c Conjecture, _setup: &Setup) -> Box<dyn Search + 'c> {
        unreachable!("the driver runs no search of a tester that does not apply")
    }
}
