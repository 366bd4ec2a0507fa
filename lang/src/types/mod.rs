//! Types and the typed theory: type representation (`ty`), classes and sorts (`classes`),
//! unification (`unify`), the environment (`env`), builtins (`builtins`), the typed terms
//! (`hir`), elaboration of surface terms (`elab`) and the command checker (`check`).
//! `check_theory` runs them over one file on top of the (cached) prelude.

pub mod builtins;
mod check;
pub mod classes;
mod code;
pub mod elab;
pub mod env;
pub mod hir;
pub mod options;
pub mod ty;
pub mod unify;

use crate::core::ir::{FunId, Program, Ty};
use crate::core::lower::Lowerer;
use crate::diagnostic::Diagnostic;
use crate::interp::{self, Limits};
use crate::span::Span;
use crate::syntax::ast;
use crate::theory::{CheckedTheory, Item, ItemKind, QuickcheckCmd, RawOption, ValueOutcome};
use check::Checker;
use env::{Env, NameRef};
use std::cell::OnceCell;
use std::collections::HashMap;
use std::rc::Rc;

type Names = Rc<HashMap<Rc<str>, NameRef>>;

/// What a checked file keeps for the later stages.
pub(crate) struct TheoryState {
    pub env: Rc<Env>,
    pub prelude: Names,
    pub lemmas: Vec<hir::Lemma>,
    pub values: Vec<hir::ValueTerm>,
    lowerer: Option<Lowerer>,
    value_funs: HashMap<usize, FunId>,
}

impl TheoryState {
    fn lowerer(&mut self) -> &mut Lowerer {
        let (env, prelude) = (self.env.clone(), self.prelude.clone());
        self.lowerer.get_or_insert_with(|| Lowerer::new(env, prelude))
    }

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

    pub fn eval_value(&mut self, index: usize, limits: &Limits) -> ValueOutcome {
        let (program, fid, _) = self.lower_value(index);
        match interp::call(program, fid, vec![], limits) {
            Ok(v) => self.value_outcome(index, &v),
            Err(e) => ValueOutcome::Failed(e),
        }
    }

    pub fn lower_values(&mut self) -> (&Program, Vec<FunId>) {
        let funs = (0..self.values.len()).map(|i| self.lower_value(i).1).collect();
        (&self.lowerer().program, funs)
    }

    pub fn value_outcome(&mut self, index: usize, value: &interp::Value) -> ValueOutcome {
        let (program, _, ty) = self.lower_value(index);
        let printed = interp::print_value(program, value, &ty);
        ValueOutcome::Value { printed, ty: self.values[index].shown_type.clone() }
    }

    pub fn dump_ir(&mut self) -> String {
        for i in 0..self.values.len() {
            self.lower_value(i);
        }
        crate::core::print::print_program(&self.lowerer().program)
    }
}

thread_local! {
    static PRELUDE: OnceCell<Result<(Env, Names), Vec<Diagnostic>>> = const { OnceCell::new() };
}

/// The prelude's environment, checked once per thread.
fn prelude() -> Result<(Env, Names), Vec<Diagnostic>> {
    PRELUDE.with(|cell| {
        cell.get_or_init(|| {
            let text = crate::prelude::MAIN_THY;
            let parsed = crate::syntax::parse_theory(text);
            let mut c = Checker::new(Env::default(), None, text);
            c.diagnostics = parsed.diagnostics;
            for cmd in &parsed.theory.commands {
                // The prelude's lemmas are not tested; its `[code]` lemmas are registered.
                let result = match &cmd.kind {
                    ast::CommandKind::Lemma(l) if l.code => c.lemma_command(l, cmd.span).map(|_| ()),
                    _ => c.command(cmd),
                };
                if let Err(d) = result {
                    c.diagnostics.push(d);
                }
            }
            if c.diagnostics.is_empty() {
                let names = Rc::new(c.env.names.clone());
                Ok((c.env, names))
            } else {
                Err(c.diagnostics)
            }
        })
        .clone()
    })
}

/// Diagnostics of the prelude itself (empty when it is well-formed).
pub fn prelude_diagnostics() -> Vec<Diagnostic> {
    prelude().err().unwrap_or_default()
}

/// Theories that Isabelle's `Main` contains (or that add nothing the subset could use), so
/// importing them is importing the prelude.
fn is_part_of_main(name: &str) -> bool {
    const PARTS: &[&str] = &[
        "Main",
        "Pure",
        "Complex_Main",
        "List",
        "Nat",
        "Int",
        "Set",
        "Fun",
        "Option",
        "Product_Type",
        "Sum_Type",
        "Orderings",
        "Groups",
        "Rings",
        "Divides",
        "GCD",
        "Power",
        "Finite_Set",
        "Lattices",
        "Num",
        "Wellfounded",
    ];
    let base = name.strip_prefix("HOL.").unwrap_or(name);
    PARTS.contains(&base) || name == "HOL"
}

fn raw_options(opts: &[ast::QcOption]) -> Vec<RawOption> {
    opts.iter()
        .map(|o| RawOption { name: o.name.name.clone(), value: o.value.as_ref().map(|v| v.name.clone()), span: o.span })
        .collect()
}

pub(crate) fn check_theory(text: &str) -> CheckedTheory {
    let parsed = crate::syntax::parse_theory(text);
    let mut diagnostics = parsed.diagnostics;
    let uses_main = parsed.theory.imports.is_empty() || parsed.theory.imports.iter().any(|i| i.name == "Main");
    // Only the prelude exists: other imports (`HOL-Library.Multiset`) are read as nothing.
    for i in &parsed.theory.imports {
        if !is_part_of_main(&i.name) {
            diagnostics.push(
                Diagnostic::warning(i.span, format!("theory `{}` is not available: hol provides `Main` only", i.name))
                    .with_label("this import is ignored")
                    .with_note("constants and types defined there are unknown here"),
            );
        }
    }
    let (env, prelude_names) = if uses_main {
        match prelude() {
            Ok((env, names)) => (env, Some(names)),
            Err(ds) => {
                let first = ds.first().map(|d| {
                    let line = crate::prelude::MAIN_THY[..d.primary.span.start as usize].lines().count().max(1);
                    format!("{} (Main.thy line {line})", d.message)
                });
                diagnostics.push(
                    Diagnostic::error(Span::new(0, 0), "internal error: the prelude Main.thy has errors")
                        .with_note(first.unwrap_or_default()),
                );
                (Env::default(), None)
            }
        }
    } else {
        (Env::default(), None)
    };
    let mut c = Checker::new(env, prelude_names, text);
    let mut items: Vec<Item> = Vec::new();
    // The items of the lemma that quickcheck commands attach to (one per proposition):
    // Some(None) after a lemma that had an error (its quickchecks are skipped silently).
    let mut last_lemma: Option<Option<Vec<usize>>> = None;
    for cmd in &parsed.theory.commands {
        use ast::CommandKind as K;
        // Options are checked first: a command with a bad option is reported and dropped.
        let options = match &cmd.kind {
            K::Quickcheck(opts) | K::QuickcheckParams(opts) => Some((opts, false)),
            K::Declare(opts) => Some((opts, true)),
            _ => None,
        };
        if let Some((opts, in_declare)) = options {
            let mut bad = None;
            for o in opts.iter() {
                match options::check_option(o, in_declare, &c.env) {
                    Ok(None) => {}
                    Ok(Some(w)) => c.warnings.push(w),
                    Err(d) => {
                        bad.get_or_insert(d);
                    }
                }
            }
            if let Some(d) = bad {
                c.diagnostics.push(d);
                continue;
            }
        }
        let result = match &cmd.kind {
            K::Lemma(l) => {
                let statement = l.shows.iter().map(|t| t.span).reduce(Span::to).unwrap_or(cmd.span);
                match c.lemma_command(l, cmd.span) {
                    Ok(indices) => {
                        // One item per proposition, at its own span, named as Isabelle names
                        // the facts: `l(1)`, `l(2)`.
                        let several = indices.len() > 1 && indices.len() == l.shows.len();
                        let mut lemma_items = Vec::new();
                        for (k, index) in indices.into_iter().enumerate() {
                            let (name, statement, span) = if several {
                                let name = l.name.as_ref().map(|n| format!("{}({})", n.name, k + 1));
                                (name, l.shows[k].span, l.shows[k].span)
                            } else {
                                (l.name.as_ref().map(|n| n.name.clone()), statement, cmd.span)
                            };
                            items.push(Item {
                                span,
                                kind: ItemKind::Lemma { name, statement, quickchecks: vec![], index },
                            });
                            lemma_items.push(items.len() - 1);
                        }
                        last_lemma = Some(Some(lemma_items));
                        Ok(())
                    }
                    Err(d) => {
                        last_lemma = Some(None);
                        Err(d)
                    }
                }
            }
            K::Quickcheck(opts) => match &last_lemma {
                Some(Some(lemma_items)) => {
                    for &i in lemma_items {
                        if let ItemKind::Lemma { quickchecks, .. } = &mut items[i].kind {
                            quickchecks.push(QuickcheckCmd { span: cmd.span, options: raw_options(opts) });
                        }
                    }
                    Ok(())
                }
                Some(None) => Ok(()),
                None => Err(Diagnostic::error(cmd.span, "`quickcheck` needs a lemma to test")
                    .with_label("no lemma before this command")),
            },
            K::Proof | K::Text => Ok(()),
            // `nitpick`, `thm`, ... may stand between a lemma and its `quickcheck`.
            K::Ignored(_) => c.command(cmd),
            K::QuickcheckParams(opts) | K::Declare(opts) => {
                // `declare [[quickcheck_size = 3]]` is `size = 3`; other attributes were warned about.
                let options: Vec<RawOption> = raw_options(opts)
                    .into_iter()
                    .filter_map(|mut o| {
                        if matches!(cmd.kind, K::Declare(_)) {
                            o.name = o.name.strip_prefix("quickcheck_")?.to_string();
                        }
                        Some(o)
                    })
                    .collect();
                if !options.is_empty() {
                    items.push(Item { span: cmd.span, kind: ItemKind::Params { options } });
                }
                Ok(())
            }
            K::Value(t) => {
                last_lemma = None;
                c.value(t)
                    .map(|index| items.push(Item { span: cmd.span, kind: ItemKind::Value { term: t.span, index } }))
            }
            _ => {
                last_lemma = None;
                c.command(cmd)
            }
        };
        if let Err(d) = result {
            c.diagnostics.push(d);
        }
    }
    diagnostics.append(&mut c.diagnostics);
    diagnostics.append(&mut c.warnings);
    diagnostics.sort_by_key(|d| d.primary.span.start);
    let prelude = c.prelude.clone().unwrap_or_else(|| Rc::new(c.env.names.clone()));
    CheckedTheory {
        name: parsed.theory.name.name.clone(),
        name_span: parsed.theory.name.span,
        diagnostics,
        items,
        state: TheoryState {
            env: Rc::new(c.env),
            prelude,
            lemmas: c.lemmas,
            values: c.values,
            lowerer: None,
            value_funs: HashMap::new(),
        },
    }
}
