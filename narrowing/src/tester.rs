//! The `narrowing` row of the registry. It lives above `quickcheck` (which knows it only
//! by name, as a row saying it is not built), so a front end's registry adds it:
//! `Registry::standard().with(NarrowingTester)` replaces that row in place.

use crate::search::Narrowing;
use lang::core::conjecture::Conjecture;
use quickcheck::testers::{Coverage, Search, Setup, Tester};

/// The `narrowing` tester.
pub struct NarrowingTester;

impl Tester for NarrowingTester {
    fn name(&self) -> &'static str {
        "narrowing"
    }

    fn about(&self) -> &'static str {
        "Symbolic testing with partial values, refined where evaluation looks into them"
    }

    fn in_portfolio(&self) -> bool {
        true
    }

    /// At size `n` it decides every assignment the exhaustive tester enumerates at size `n`.
    fn coverage(&self) -> Coverage {
        Coverage::Complete
    }

    /// A quantifier over an infinite type is searched in the statement's prenex form,
    /// when it has one.
    fn not_executable(&self, c: &Conjecture) -> Option<String> {
        match &c.prenex {
            Some(Ok(_)) => None,
            Some(Err(why)) => Some(why.clone()),
            None => c.not_executable.clone(),
        }
    }

    fn search<'c>(&self, conjecture: &'c Conjecture, setup: &Setup) -> Box<dyn Search + 'c> {
        Box::new(Narrowing::new(conjecture, setup))
    }
}
