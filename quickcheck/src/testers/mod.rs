//! What a tester is: a module implementing `Tester`, listed as one row of the `Registry`
//! (`crate::registry`). A tester says who it is (its name, as Isabelle spells it, and a line
//! for `--help`), what it reads, where it applies, how its answers rank, and how it searches
//! one type instance size by size (`Search`). Everything around the search (sizes and their
//! order over the instances, time limits, cancellation, re-checking counterexamples,
//! `genuine_only`, the report and its messages) is the driver's (`crate::driver`), written
//! once for every tester.
//!
//! The rows of the standard registry: `random` (random cases, shrunk), `exhaustive` (every
//! case up to the size), `smart_exhaustive` (the assignments the premises generate), and
//! `narrowing` (`unavailable` here: the `narrowing` crate above replaces the row).

pub mod exhaustive;
pub mod random;
pub mod smart_exhaustive;
pub mod smt;
pub mod unavailable;

use crate::driver::Turn;
use crate::options::Options;
use crate::outcome::{Counterexample, ShrinkStats};
use crate::runner::{Engine, Stop};
use lang::core::conjecture::Conjecture;
use std::time::Instant;

/// A tester: one row of the registry. Object-safe and shared by the portfolio's threads;
/// the state of a search lives in the `Search` it makes per instance, not here.
pub trait Tester: Send + Sync {
    /// The name options, reports and JSON records use (`quickcheck[random]`,
    /// `"tester": "random"`): Isabelle's, in snake case.
    fn name(&self) -> &'static str;

    /// One line for `--help`.
    fn about(&self) -> &'static str;

    /// The options of its own it reads (beyond the driver's `size`, `timeout`,
    /// `genuine_only`, `finite_types`, ...), named as in `quickcheck[...]`: said in `--help`.
    fn reads(&self) -> &'static [&'static str] {
        &[]
    }

    /// Why it cannot run this instance, if so: by default a quantifier over an infinite
    /// type left inside the statement (`Conjecture::not_executable`), which only a tester
    /// that searches it (narrowing, on `Conjecture::prenex`) overrides.
    fn not_executable(&self, conjecture: &Conjecture) -> Option<String> {
        conjecture.not_executable.clone()
    }

    /// Whether it can test this instance; `Err` says why not, and is the run's error when
    /// the tester was named (a portfolio leaves such a row out).
    fn applies(&self, _conjecture: &Conjecture) -> Result<(), String> {
        Ok(())
    }

    /// Why it cannot run on this machine at all, if so (`smt` without an SMT solver): named,
    /// its runs are not executable with this reason; the portfolio leaves it out and its
    /// report's log says so.
    fn unavailable(&self) -> Option<String> {
        None
    }

    /// Whether it runs in the default portfolio (no tester named).
    fn in_portfolio(&self) -> bool {
        false
    }

    /// Whether the portfolio runs it on this instance (named, it runs on any instance it
    /// `applies` to): the smart generators only where there are premises.
    fn suits(&self, _conjecture: &Conjecture) -> bool {
        true
    }

    /// What its "no counterexample" says, which decides how the report states it and how
    /// the portfolio ranks it.
    fn coverage(&self) -> Coverage;

    /// The search of one type instance, driven size by size (`Search::run_size`).
    fn search<'c>(&self, conjecture: &'c Conjecture, setup: &Setup) -> Box<dyn Search + 'c>;
}

/// What a tester's search covers at each size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coverage {
    /// Every case up to the size: "none up to size n". The portfolio prefers this answer
    /// to a potentially spurious counterexample.
    Complete,
    /// Cases drawn from the run's random stream: the report names the seed (replay with
    /// `--seed`) and "no counterexample" says how many tests ran ("none in n random tests
    /// up to size s"). The portfolio ranks this answer below a potentially spurious
    /// counterexample.
    Sampled,
}

/// What a search is made with: the run's options, its deadline (the runner's limit for one
/// case), and where cases run.
pub struct Setup<'a> {
    pub options: &'a Options,
    pub deadline: Instant,
    pub engine: Engine,
}

/// The search of one type instance, kept across sizes (its JIT is compiled once).
pub trait Search {
    /// Tests the cases of generator size `turn.size` (Isabelle's size minus one). A
    /// failing case goes to `turn.judge`; the search looks at `turn.budget` between
    /// batches of cases and ends with `turn.budget.over()` once it is spent.
    fn run_size(&mut self, turn: &mut Turn) -> SizeResult;

    /// Whether the whole space was tested: every generated variable has a finite type and
    /// the last size covered all of it, so larger sizes would repeat the same tests.
    fn exhausted(&self) -> bool {
        false
    }
}

/// How a search ended before covering its space.
#[derive(Clone, Debug, PartialEq)]
pub enum End {
    /// A counterexample, with the generated variables' values (`generated[v]`, `None` for
    /// the others; empty when there are none to give) for its generalization.
    Genuine(Counterexample, Vec<Option<lang::interp::Value>>),
    Spurious(Counterexample),
    Stopped(Stop),
    /// The JIT reported a counterexample the interpreter does not confirm.
    Disagreement(String),
    /// The space of this size is too big to build.
    TooBig,
    /// The size ended once `Budget::enough` of its cases passed the premises (the benches'
    /// Target setting): covered as far as asked, not completely.
    Enough,
    /// The run was cancelled: from outside, or by the portfolio when another tester
    /// answered (the driver tells them apart).
    Cancelled,
}

/// What testing one instance at one size did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SizeResult {
    /// `None`: the size was covered without an answer.
    pub end: Option<End>,
    pub tests: u64,
    pub passed: u64,
    pub shrink: Option<ShrinkStats>,
    /// Random cases abandoned while drawing their values, too large to build
    /// (`random::CASE_BUILD_STEPS`); not among `tests`.
    pub too_large: u64,
    /// Holes refined, for a search over partial values (narrowing: its `tests` are partial
    /// cases).
    pub refinements: Option<u64>,
    /// What a search that found nothing adds to "none up to size n" (narrowing: that the
    /// statement was decided, or where its search for witnesses was cut).
    pub note: Option<String>,
    /// Narrowing: the most slots of partial values alive at once in this size's search
    /// (memory grows with the depth of the refinement tree, not with its size).
    pub peak_slots: Option<u64>,
    /// Lines for the `verbose` report (the smart generators' data flow).
    pub log: Vec<String>,
    /// An SMT solver's work in this size (`smt`): its name, the models decoded and the
    /// time spent, which the run adds up.
    pub solver: Option<crate::outcome::SolverStats>,
}
