//! A checked theory file, the top of the front end: what later stages need of it (`value`
//! terms to evaluate, lemmas with their quickcheck commands, option defaults) as `Item`s in
//! file order, and the lowering of each into the core IR on demand. The driver that checks
//! a file is `check`; `support` says which of Isabelle's theories hol has.

mod check;
mod support;

pub use crate::types::image::ImageError;
pub use crate::types::imports::TheoryLoader;
pub use check::{load_prelude_image, prelude_image};
pub use support::{isabelle_support, Availability, TheorySupport};

use crate::core::ir::{FunId, Program, Ty};
use crate::core::lower::Lowerer;
use crate::diagnostic::Diagnostic;
use crate::interp::{self, EvalError, Limits};
use crate::span::Span;
use crate::types::env::{Env, NameRef};
use crate::types::hir;
use std::collections::HashMap;
use std::sync::Arc;

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
    env: Arc<Env>,
    /// The prelude's names (a lemma's lowering resolves builtins' definitions through it).
    prelude: Arc<HashMap<Arc<str>, NameRef>>,
    lemmas: Vec<hir::Lemma>,
    values: Vec<hir::ValueTerm>,
    /// Made at the first lowering: a file that is only checked never lowers.
    lowerer: Option<Lowerer>,
    /// The function each lowered `value` became.
    value_funs: HashMap<usize, FunId>,
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
/// quickcheck options naming Isabelle's testers (`types::options::ISABELLE_TESTERS`).
pub fn check_theory(text: &str) -> CheckedTheory {
    let testers = crate::types::options::ISABELLE_TESTERS;
    check::check_theory(text, &crate::types::imports::NoSiblings, testers)
}

/// Checks a theory whose sibling imports `loader` reads, its quickcheck options naming the
/// testers `testers` (a front end's registry: `tester = t` and a bare `t` must be one).
pub fn check_theory_with(text: &str, loader: &dyn TheoryLoader, testers: &[&str]) -> CheckedTheory {
    check::check_theory(text, loader, testers)
}

impl CheckedTheory {
    /// Evaluates the `value` item number `index` (from `ItemKind::Value`) with the reference
    /// interpreter.
    pub fn eval_value(&mut self, index: usize, limits: &Limits) -> ValueOutcome {
        let (program, fid, _) = self.lower_value(index);
        match interp::call(program, fid, vec![], limits) {
            Ok(v) => self.value_outcome(index, &v),
            Err(e) => ValueOutcome::Failed(e),
        }
    }

    /// Lowers the `value` item number `index` into the core IR: the program and the id of
    /// the nullary function whose body is the term. Back ends (the JIT) evaluate from this.
    pub fn lower_value(&mut self, index: usize) -> (&Program, FunId, Ty) {
        let fid = match self.value_funs.get(&index) {
            Some(f) => *f,
            None => {
                let v = self.values[index].clone();
                let f = self.lowerer().lower_body(&format!("value{index}"), &v.locals, &[], HashMap::new(), &v.term);
                self.value_funs.insert(index, f);
                f
            }
        };
        let lw = self.lowerer();
        let ret = lw.program.fun(fid).ret.clone();
        (&lw.program, fid, ret)
    }

    /// Value item `index` with its term rewritten by `f` (given its locals, which it may add to), evaluated by
    /// the reference interpreter: for tests of term transformations against the original.
    #[cfg(test)]
    pub(crate) fn eval_rewritten_value(
        &mut self,
        index: usize,
        f: impl FnOnce(&mut Vec<hir::Local>, &hir::Term) -> hir::Term,
    ) -> Result<interp::Value, EvalError> {
        let mut v = self.values[index].clone();
        let term = f(&mut v.locals, &v.term);
        let fid = self.lowerer().lower_body("rewritten", &v.locals, &[], HashMap::new(), &term);
        interp::call(&self.lowerer().program, fid, vec![], &Limits::default())
    }

    fn lowerer(&mut self) -> &mut Lowerer {
        let (env, prelude) = (self.env.clone(), self.prelude.clone());
        self.lowerer.get_or_insert_with(|| Lowerer::new(env, prelude))
    }

    /// The index (as `ItemKind::Lemma` has it) of the lemma called `name`.
    pub fn lemma_named(&self, name: &str) -> Option<usize> {
        self.items.iter().find_map(|it| match &it.kind {
            ItemKind::Lemma { name: Some(n), index, .. } if n == name => Some(*index),
            _ => None,
        })
    }

    /// The typed form of the lemma item number `index` (from `ItemKind::Lemma`).
    pub fn lemma(&self, index: usize) -> &crate::types::hir::Lemma {
        &self.lemmas[index]
    }

    /// Lowers lemma item `index` for testing, its type variables instantiated by `choices`
    /// (one per `lemma(index).params`), into a program of its own.
    pub fn lower_conjecture(
        &self,
        index: usize,
        choices: &[crate::core::conjecture::TypeChoice],
    ) -> crate::core::conjecture::Conjecture {
        crate::core::conjecture::lower_conjecture(&self.lemmas[index], self.env.clone(), self.prelude.clone(), choices)
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
    pub fn lower_values(&mut self) -> (&Program, Vec<FunId>) {
        let funs = (0..self.values.len()).map(|i| self.lower_value(i).1).collect();
        (&self.lowerer().program, funs)
    }

    /// The outcome of `value` item `index` from a value computed by another evaluator (the
    /// JIT) over the program of `lower_values`.
    pub fn value_outcome(&mut self, index: usize, value: &interp::Value) -> ValueOutcome {
        let (program, _, ty) = self.lower_value(index);
        let printed = interp::print_value(program, value, &ty);
        ValueOutcome::Value { printed, ty: self.values[index].shown_type.clone() }
    }

    /// The core IR of everything the file's `value` commands and monomorphic lemmas use, in
    /// its text form.
    pub fn dump_ir(&mut self) -> String {
        for i in 0..self.values.len() {
            self.lower_value(i);
        }
        crate::core::print::print_program(&self.lowerer().program)
    }
}

/// A checked theory may move to another thread (an editor checks on a worker and keeps the
/// result), and be shared by several (the portfolio's testers read it at once).
const _: () = {
    const fn send_and_sync<T: Send + Sync>() {}
    send_and_sync::<CheckedTheory>();
};
