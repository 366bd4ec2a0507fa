//! The per-file driver: parses a theory, checks it command by command against the prelude,
//! and keeps what later stages need (`value` terms to evaluate, lemmas with their quickcheck
//! commands, option defaults) as `Item`s in file order. An error in one command is reported
//! and the next command is checked as if the bad one were absent.

use crate::core::ir::{Program, Ty};
use crate::diagnostic::Diagnostic;
use crate::interp::{EvalError, Limits};
use crate::span::Span;
pub use crate::types::imports::TheoryLoader;

/// One theory file after checking.
pub struct CheckedTheory {
    /// The name in `theory Name`.
    pub name: String,
    /// Where that name is written.
    pub name_span: Span,
    /// Parse, type and definition errors, in file order.
    pub diagnostics: Vec<Diagnostic>,
    /// The file's `value`s, lemmas and option defaults, in file order.
    pub items: Vec<Item>,
    pub(crate) state: crate::types::TheoryState,
}

/// Something in the file that a later stage acts on.
#[derive(Clone, Debug)]
pub struct Item {
    /// The whole command.
    pub span: Span,
    pub kind: ItemKind,
}

/// A `quickcheck[...]`-style option as written: `size = 5` is `("size", Some("5"))`,
/// `random` is `("random", None)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawOption {
    pub name: String,
    pub value: Option<String>,
    pub span: Span,
}

/// A `quickcheck` command under a lemma.
#[derive(Clone, Debug)]
pub struct QuickcheckCmd {
    pub span: Span,
    pub options: Vec<RawOption>,
}

#[derive(Clone, Debug)]
pub enum ItemKind {
    /// `value "t"`: `term` is the span of the term text; evaluate with
    /// `CheckedTheory::eval_value`.
    Value { term: Span, index: usize },
    /// A lemma that type-checked, with the quickcheck commands that follow it.
    Lemma { name: Option<String>, statement: Span, quickchecks: Vec<QuickcheckCmd>, index: usize },
    /// A lemma that is not tested because it uses what failed before it (a definition that
    /// failed, an import that did not load): each of its quickcheck commands is reported as
    /// not executable, with `reason`.
    Untested { name: Option<String>, statement: Span, quickchecks: Vec<QuickcheckCmd>, reason: String },
    /// `quickcheck_params[...]` or `declare [[quickcheck_...]]`: defaults for what follows.
    Params { options: Vec<RawOption> },
}

/// The result of evaluating a `value` command.
#[derive(Clone, Debug)]
pub enum ValueOutcome {
    /// The value printed in theory syntax, with its type printed.
    Value { printed: String, ty: String },
    /// Evaluation ended without a value (undefined, out of fuel, too deep, timeout, not
    /// executable).
    Failed(EvalError),
}

/// Checks a theory that imports no sibling theories (a sibling import is an error), its
/// quickcheck options naming Isabelle's testers (`types::options::STANDARD_TESTERS`).
pub fn check_theory(text: &str) -> CheckedTheory {
    let testers = crate::types::options::STANDARD_TESTERS;
    crate::types::check_theory(text, &crate::types::imports::NoSiblings, testers)
}

/// Checks a theory whose sibling imports `loader` reads, its quickcheck options naming the
/// testers `testers` (a front end's registry: `tester = t` and a bare `t` must be one).
pub fn check_theory_with(text: &str, loader: &dyn TheoryLoader, testers: &[&str]) -> CheckedTheory {
    crate::types::check_theory(text, loader, testers)
}

impl CheckedTheory {
    /// Evaluates the `value` item number `index` (from `ItemKind::Value`) with the reference
    /// interpreter.
    pub fn eval_value(&mut self, index: usize, limits: &Limits) -> ValueOutcome {
        self.state.eval_value(index, limits)
    }

    /// Lowers the `value` item number `index` into the core IR: the program and the id of
    /// the nullary function whose body is the term. Back ends (the JIT) evaluate from this.
    pub fn lower_value(&mut self, index: usize) -> (&Program, crate::core::ir::FunId, Ty) {
        self.state.lower_value(index)
    }

    /// The typed form of the lemma item number `index` (from `ItemKind::Lemma`).
    pub fn lemma(&self, index: usize) -> &crate::types::hir::Lemma {
        &self.state.lemmas[index]
    }

    /// Lowers lemma item `index` for testing, its type variables instantiated by `choices`
    /// (one per `lemma(index).params`), into a program of its own.
    pub fn lower_conjecture(
        &self,
        index: usize,
        choices: &[crate::core::conjecture::TypeChoice],
    ) -> crate::core::conjecture::Conjecture {
        crate::core::conjecture::lower_conjecture(
            &self.state.lemmas[index],
            self.state.env.clone(),
            self.state.prelude.clone(),
            choices,
        )
    }

    /// The indices of the file's `value` items, in file order (for `eval_value` and friends).
    pub fn value_indices(&self) -> Vec<usize> {
        self.items
            .iter()
            .filter_map(|it| match it.kind {
                ItemKind::Value { index, .. } => Some(index),
                _ => None,
            })
            .collect()
    }

    /// Lowers every `value` item, so one program holds them all (a back end compiles it once),
    /// and returns it with the function of each value, by value index.
    pub fn lower_values(&mut self) -> (&Program, Vec<crate::core::ir::FunId>) {
        self.state.lower_values()
    }

    /// The outcome of `value` item `index` from a value computed by another evaluator (the
    /// JIT) over the program of `lower_values`.
    pub fn value_outcome(&mut self, index: usize, value: &crate::interp::Value) -> ValueOutcome {
        self.state.value_outcome(index, value)
    }

    /// The core IR of everything the file's `value` commands and monomorphic lemmas use, in
    /// its text form.
    pub fn dump_ir(&mut self) -> String {
        self.state.dump_ir()
    }
}
