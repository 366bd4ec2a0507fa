//! `quickcheck`: tests a lemma of a checked theory and says whether it is false, with the
//! smallest counterexample found. It never prints: a `Report` is a function of the theory,
//! the options and the seed.
//!
//! Data flow: `lang` lowers the lemma at each type instance (finite types `a1 ... an`, or
//! `default_type`) into a `Conjecture`; `program` orders its steps (generate, compute, check);
//! the `driver` resolves the tester the options name in the `registry` (or runs the
//! registry's `portfolio`), walks the instances and sizes in `schedule` order within a
//! `budget`, and hands each step to the tester's per-instance search (`testers`:
//! `exhaustive` over `space`s, `random` with shrinking), which evaluates cases with a
//! `runner` (on `engine`, which picks the interpreter or the JIT); every counterexample is re-checked
//! by the interpreter (`case`) before it becomes an `outcome`.
//!
//! Map: `driver` (the run around every search: instances, sizes, limits, verdicts, report),
//! `schedule` (instance and size order), `budget` (deadline and cancellation), `registry`
//! (the one table of testers, and tester names), `portfolio` (the default: testers side by
//! side), `testers` (the `Tester` trait and one module per tester), `options` (parameters as
//! written), `outcome` (the report), `case` (one case, and its re-check), `program` (a
//! conjecture's steps), `runner` (evaluating parts), `engine` (interpreter or compiled code,
//! for every evaluator of the workspace), `space` (values by size), `types`.

pub mod budget;
pub mod case;
pub mod driver;
pub mod engine;
pub mod generalize;
pub mod options;
pub mod outcome;
mod portfolio;
pub mod program;
pub mod registry;
pub mod runner;
mod schedule;
pub mod smart;
pub mod smt;
pub mod space;
pub mod testers;
pub mod types;

pub use budget::{Budget, Cancel};
pub use driver::{check_lemma, first_counterexample, fresh_seed, instances, run_tester, Judge, Turn};
pub use options::{Expect, Options, Overrides};
pub use outcome::{Counterexample, Evaluated, Evidence, Generalization, OutcomeKind, Report, ShrinkStats, SolverStats};
pub use registry::{Registry, TesterName};
pub use runner::Engine;
pub use testers::{Coverage, End, Search, Setup, SizeResult, Tester};
