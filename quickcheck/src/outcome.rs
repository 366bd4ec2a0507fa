//! What a quickcheck run found, as data: the outcome, the counterexample in theory syntax
//! with the terms evaluated under it, and the figures of the search. Front ends render it;
//! nothing here prints.

use crate::options::Expect;
use crate::registry::TesterName;
use lang::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutcomeKind {
    Counterexample,
    PotentiallySpurious,
    NoCounterexample,
    Timeout,
    NotExecutable,
    Error,
}

impl OutcomeKind {
    /// The name in JSON output.
    pub fn name(self) -> &'static str {
        match self {
            OutcomeKind::Counterexample => "counterexample",
            OutcomeKind::PotentiallySpurious => "potentially_spurious",
            OutcomeKind::NoCounterexample => "no_counterexample",
            OutcomeKind::Timeout => "timeout",
            OutcomeKind::NotExecutable => "not_executable",
            OutcomeKind::Error => "error",
        }
    }

    /// Whether this outcome meets `expect` (the spec: a potentially spurious counterexample
    /// neither meets `counterexample` nor breaks `no_counterexample`; a timeout or
    /// not-executable outcome meets neither).
    pub fn meets(self, expect: Expect) -> bool {
        match expect {
            Expect::NoExpectation => true,
            Expect::Counterexample => self == OutcomeKind::Counterexample,
            Expect::NoCounterexample => {
                matches!(self, OutcomeKind::NoCounterexample | OutcomeKind::PotentiallySpurious)
            }
        }
    }
}

/// A term of the lemma and its value under the counterexample.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluated {
    pub span: Span,
    pub value: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Counterexample {
    /// `(variable, value)` in theory syntax, in the lemma's order.
    pub assignment: Vec<(String, String)>,
    /// Each premise, then both sides of the conclusion's equation (or the conclusion).
    pub evaluated: Vec<Evaluated>,
    /// How the type variables were instantiated: `('a, finite_2)`.
    pub instance: Vec<(String, String)>,
    /// Why the counterexample is only potentially spurious: the underspecified function.
    pub spurious_because: Option<String>,
    /// Narrowing's partial counterexample: the variables whose values it left partly open,
    /// with `_` where the lemma is false whatever the value is (proved, not tested; the
    /// assignment above is one completion). Empty for other testers.
    pub partial: Vec<(String, String)>,
    /// Narrowing on a statement with `∃` inside: how the outermost `∃` was refuted, one line
    /// per case of its variables with the values of the next `∀` that make the statement
    /// false (`y = 0: false for x = Suc _`); proved, not tested. Empty otherwise.
    pub refutation: Vec<String>,
}

/// What shrinking did to a random counterexample.
#[derive(Clone, Debug, PartialEq)]
pub struct ShrinkStats {
    /// Total size of the assignment (constructors and numbers) before and after.
    pub size_before: u64,
    pub size_after: u64,
    /// Candidates tested.
    pub attempts: u64,
    pub seconds: f64,
}

/// What an SMT solver did in a run (the `smt` tester).
#[derive(Clone, Debug, PartialEq)]
pub struct SolverStats {
    /// The binary's name and the version it reports: `z3 4.8.12`.
    pub name: String,
    /// Models decoded and tested (counterexamples made smaller included).
    pub models: u64,
    /// Time spent waiting for its answers.
    pub seconds: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The tester that ran (for the portfolio, the one whose answer this is).
    pub tester: TesterName,
    pub outcome: OutcomeKind,
    pub counterexample: Option<Counterexample>,
    /// For no counterexample: the bound searched ("up to size 5"); for not executable, error
    /// and timeout: why.
    pub message: Option<String>,
    /// Test cases run (assignments tried, including those a premise rejected; for narrowing,
    /// partial cases evaluated).
    pub tests: u64,
    /// Of them, those that passed every premise.
    pub passed_premises: u64,
    /// Random cases abandoned before they ran, their values too large to build; not among
    /// `tests`, and said in `message`.
    pub too_large: u64,
    /// Holes refined, for a tester that evaluates partial values (narrowing); `None` for the
    /// others.
    pub refinements: Option<u64>,
    /// The size reached.
    pub size: u64,
    pub seconds: f64,
    /// The seed of the random tester (replay with `--seed`).
    pub seed: Option<u64>,
    /// Every variable ranged over a finite type and the whole space was enumerated, so the
    /// statement holds for these types.
    pub exhausted: bool,
    pub shrink: Option<ShrinkStats>,
    /// The SMT solver's name, models and time, for a tester that asks one.
    pub solver: Option<SolverStats>,
    /// With `verbose`: one line per instance and size tested, in order.
    pub log: Vec<String>,
    /// The run was cancelled from outside (`Cancel`) before it answered: the outcome is a
    /// timeout whose message says so.
    pub cancelled: bool,
}

impl Report {
    pub fn new(tester: impl Into<TesterName>, outcome: OutcomeKind) -> Report {
        Report {
            tester: tester.into(),
            outcome,
            counterexample: None,
            message: None,
            tests: 0,
            passed_premises: 0,
            too_large: 0,
            refinements: None,
            size: 0,
            seconds: 0.0,
            seed: None,
            exhausted: false,
            shrink: None,
            solver: None,
            log: Vec::new(),
            cancelled: false,
        }
    }

    pub fn with_message(mut self, m: impl Into<String>) -> Report {
        self.message = Some(m.into());
        self
    }
}
