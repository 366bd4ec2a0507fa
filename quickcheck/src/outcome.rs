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
    /// What the counterexample stands for (`generalize`): the most general patterns of it
    /// found false on every instance tested (or proved false by narrowing), most general
    /// first. Empty when none was found or `generalize = false`.
    pub generalizations: Vec<Generalization>,
}

/// A generalized counterexample: the lemma is false for every value of the pattern's
/// variables (that meets the condition), written in theory syntax.
#[derive(Clone, Debug, PartialEq)]
pub struct Generalization {
    /// `(variable, pattern)` for the lemma's variables that the pattern restricts, in the
    /// lemma's order: `xs = x # x # _` (a name used twice stands for equal values, `_` for
    /// any value; a lemma variable named inside another's pattern stays free).
    pub pattern: Vec<(String, String)>,
    /// The side condition on the pattern's variables, if any: `x ∈ set xs`.
    pub condition: Option<String>,
    pub evidence: Evidence,
}

/// Why a generalization is believed.
#[derive(Clone, Debug, PartialEq)]
pub enum Evidence {
    /// Every instance tested was a counterexample: all instances up to size `size` and
    /// `random` more drawn up to size `random_size` (`instances` in all). It may still be
    /// too general beyond them.
    Tested { instances: u64, size: u64, random: u64, random_size: u64, every: bool },
    /// Narrowing evaluated the lemma to false with the `_` parts unknown.
    Proved,
}

impl Generalization {
    /// `xs = x # x # _`, `xs = x # ys when x ∈ set ys`, `whenever 0 < n` (no variable
    /// restricted beyond the condition), `any values`, as the report shows it.
    pub fn words(&self) -> String {
        let pattern: Vec<String> = self.pattern.iter().map(|(n, v)| format!("{n} = {v}")).collect();
        match (pattern.is_empty(), &self.condition) {
            (true, None) => "any values".into(),
            (true, Some(c)) => format!("whenever {c}"),
            (false, None) => pattern.join(", "),
            (false, Some(c)) => format!("{} when {c}", pattern.join(", ")),
        }
    }

    /// How it was found: `tested on 500 instances: every one up to size 3 and 380 random
    /// ones up to size 7`; with a condition, on those of them that met it.
    pub fn evidence_words(&self) -> String {
        let Evidence::Tested { instances, size, random, random_size, every } = &self.evidence else {
            return "proved by narrowing".into();
        };
        let of = match (every, size, random) {
            (true, _, _) => "every instance".to_string(),
            (false, 0, _) => format!("{random} random ones up to size {random_size}"),
            (false, _, 0) => format!("every one up to size {size}"),
            (false, _, _) => format!("every one up to size {size} and {random} random ones up to size {random_size}"),
        };
        let plural = if *instances == 1 { "" } else { "s" };
        match (&self.condition, every) {
            (None, true) => format!("tested on every instance ({instances})"),
            (None, false) => format!("tested on {instances} instance{plural}: {of}"),
            (Some(_), _) => format!("tested on the {instances} instance{plural} meeting the condition among {of}"),
        }
    }
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
    /// Counterexamples after the first (`counterexamples = k`), each not an instance of the
    /// generalizations of those before it, in the order found.
    pub further: Vec<Counterexample>,
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
            further: Vec::new(),
        }
    }

    pub fn with_message(mut self, m: impl Into<String>) -> Report {
        self.message = Some(m.into());
        self
    }
}
