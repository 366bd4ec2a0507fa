//! What a name that hol does not define means. Isabelle reads a name as a free variable
//! only when no imported theory declares it and every definition before it succeeded; hol
//! must never read more names as variables than Isabelle does, or a tester "refutes" a true
//! lemma by choosing a value for what is really a constant. So a name that is not defined
//! is, in this order:
//!
//! 1. a constant whose definition failed (in this file or an imported one): a lemma that
//!    uses it is not tested, and says why;
//! 2. a constant of an imported Isabelle theory that hol does not have (`wf`), or one that
//!    Isabelle's packages generate for the theory's own commands (`map_bt`, `f_dom`): an
//!    error;
//! 3. after a failure whose names hol cannot know (a definition that did not parse, an
//!    unsupported command, an import that did not load), unknowable: a lemma with such a name
//!    is not tested;
//! 4. otherwise a free variable (in lemmas) or an undefined constant (in definitions).

use super::isabelle::{Catalog, IsabelleTheory};
use crate::diagnostic::Diagnostic;
use crate::span::Span;
use crate::syntax::ast;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// Why something is missing: shown to the user as is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// `the definition of \`f\` (line 3) failed`.
    pub what: String,
    /// Where, when it is in this file.
    pub span: Option<Span>,
}

/// A lemma that is not tested because of a `Failure`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skip {
    /// The name in the lemma that led to the failure.
    pub name: String,
    pub span: Span,
    /// The whole reason, one sentence.
    pub reason: String,
}

#[derive(Debug, Default)]
pub struct Scope {
    /// The Isabelle theories whose constants are in scope.
    pub isabelle: Vec<&'static IsabelleTheory>,
    /// Constants whose definition failed.
    pub failed: HashMap<Arc<str>, Failure>,
    /// Types (datatypes, synonyms) whose definition failed.
    pub failed_types: HashMap<Arc<str>, Failure>,
    /// Imported names (`rev`, `Nil`) and types (`list`) that a failed definition of the
    /// theory's own would have hidden: they mean that failure, not the import, until a
    /// definition of them succeeds (the import is not what the user meant).
    pub hidden: HashSet<Arc<str>>,
    pub hidden_types: HashSet<Arc<str>>,
    /// The first failure after which hol cannot know which names exist.
    pub opaque: Option<Failure>,
    /// Constants Isabelle's packages generate for a theory's own commands (`map_bt`,
    /// `case_bt`, `f_dom`) that hol does not define, with what generates them.
    pub generated: HashMap<Arc<str>, String>,
    /// Set when elaborating a lemma ran into a failure (read with `take_skip`).
    skip: RefCell<Option<Skip>>,
}

/// How an unknown name resolves.
pub enum Unknown {
    /// A free variable (or, in a definition, an undefined constant).
    Variable,
    /// An error at the name.
    Error(Diagnostic),
}

impl Scope {
    /// The scope of a theory that imports `roots` of the catalog.
    pub fn new(roots: &[&str]) -> Scope {
        Scope { isabelle: super::isabelle::catalog().in_scope(roots), ..Scope::default() }
    }

    /// Records that `name`'s definition failed.
    pub fn fail(&mut self, name: &str, failure: Failure) {
        self.failed.entry(Arc::from(name)).or_insert(failure);
    }

    /// Records that the definition of type `name` failed.
    pub fn fail_type(&mut self, name: &str, failure: Failure) {
        self.failed_types.entry(Arc::from(name)).or_insert(failure);
    }

    /// The error for a use of type `name` when its definition failed.
    pub fn failed_type(&self, name: &str, span: Span) -> Option<Diagnostic> {
        let f = self.failed_types.get(name)?;
        let d = Diagnostic::error(span, format!("type `{name}` is not defined: {}", f.what))
            .with_label("its definition failed");
        Some(with_origin(d, f))
    }

    /// Records the constants Isabelle generates for a command that hol does not define
    /// (whether or not the command succeeded).
    pub fn generate(&mut self, cmd: &ast::CommandKind) {
        use ast::CommandKind as K;
        let mut add = |name: String, origin: String| {
            self.generated.entry(Arc::from(name.as_str())).or_insert(origin);
        };
        match cmd {
            K::Datatype(decls) => {
                for d in decls {
                    let t = &d.name.name;
                    let gen = |what: &str| format!("the {what} Isabelle's datatype package generates for `{t}`");
                    add(format!("case_{t}"), gen("case combinator"));
                    add(format!("rec_{t}"), gen("recursor"));
                    add(format!("size_{t}"), gen("size function"));
                    if !d.params.is_empty() {
                        add(format!("map_{t}"), gen("map function"));
                        add(format!("pred_{t}"), gen("predicator"));
                        add(format!("rel_{t}"), gen("relator"));
                        // Isabelle numbers the set functions over the live parameters
                        // (those not left of a `⇒`): either name may be the constant.
                        add(format!("set_{t}"), gen("set function"));
                        if d.params.len() > 1 {
                            for k in 1..=d.params.len() {
                                add(format!("set{k}_{t}"), gen("set function"));
                            }
                        }
                    }
                    for c in &d.ctors {
                        if let Some(disc) = &c.discriminator {
                            add(
                                disc.name.clone(),
                                format!("the discriminator of `{}` declared with `{t}`", c.name.name),
                            );
                        }
                    }
                }
            }
            K::Fun { kind: ast::FunKind::Fun | ast::FunKind::Function, consts, .. } => {
                for c in consts {
                    let f = &c.name.name;
                    for (suffix, what) in [
                        ("dom", "domain predicate"),
                        ("graph", "graph"),
                        ("rel", "recursion relation"),
                        ("sumC", "sum function"),
                    ] {
                        add(
                            format!("{f}_{suffix}"),
                            format!("the {what} Isabelle's function package generates for `{f}`"),
                        );
                    }
                }
            }
            _ => {}
        }
    }

    /// Records a failure whose names are unknown; the first one is kept.
    pub fn fail_opaque(&mut self, failure: Failure) {
        self.opaque.get_or_insert(failure);
    }

    /// The skip recorded by the last lemma that failed to elaborate, if that was why.
    pub fn take_skip(&self) -> Option<Skip> {
        self.skip.borrow_mut().take()
    }

    /// What the unknown name `name` at `span` is. `free` says whether the term may have free
    /// variables (a lemma) or not (a definition, a `value`).
    pub fn unknown(&self, name: &str, span: Span, free: bool) -> Unknown {
        if let Some(f) = self.failed.get(name) {
            if free {
                return self.skip(name, span, format!("it uses `{name}`, and {}", f.what), f);
            }
            let d = Diagnostic::error(span, format!("`{name}` is not defined: {}", f.what))
                .with_label("its definition failed");
            return Unknown::Error(with_origin(d, f));
        }
        if let Some(origin) = self.generated.get(name) {
            let d = Diagnostic::error(span, format!("`{name}` is {origin}, which hol does not support yet"));
            return Unknown::Error(if free {
                d.with_label("Isabelle reads this name as that constant, so it cannot be a variable here")
                    .with_note("the lemma is not tested: a value chosen for it would not be Isabelle's constant")
            } else {
                d.with_label("not supported yet")
            });
        }
        if let Some((qualifier, base)) = name.rsplit_once('.').filter(|(q, b)| !q.is_empty() && !b.is_empty()) {
            let d = match Catalog::qualified(&self.isabelle, qualifier, base) {
                Some(t) => Diagnostic::error(span, format!("`{name}` is a constant of {} that hol does not support yet", shown(t)))
                    .with_label("not supported yet"),
                None => Diagnostic::error(span, format!("unknown qualified name `{name}`"))
                    .with_label("no imported theory defines this")
                    .with_note("a qualified name `Theory.c` names the constant `c` of an imported theory; it is never a variable"),
            };
            return Unknown::Error(d);
        }
        if let Some(t) = Catalog::exporter(&self.isabelle, name) {
            let d = Diagnostic::error(
                span,
                format!("`{name}` is a constant of {} that hol does not support yet", shown(t)),
            );
            return Unknown::Error(if free {
                d.with_label("Isabelle reads this name as that constant, so it cannot be a variable here")
                    .with_note("the lemma is not tested: a value chosen for it would not be Isabelle's constant")
            } else {
                d.with_label("not supported yet")
            });
        }
        if free {
            if let Some(f) = &self.opaque {
                return self.skip(name, span, format!("hol cannot tell whether `{name}` is a variable: {}", f.what), f);
            }
        }
        Unknown::Variable
    }

    /// Records that the lemma being elaborated is not tested, and the error that ends it.
    fn skip(&self, name: &str, span: Span, reason: String, f: &Failure) -> Unknown {
        let d = Diagnostic::error(span, format!("not tested: {reason}")).with_label("this name");
        *self.skip.borrow_mut() = Some(Skip { name: name.to_owned(), span, reason });
        Unknown::Error(with_origin(d, f))
    }
}

fn with_origin(d: Diagnostic, f: &Failure) -> Diagnostic {
    match f.span {
        Some(at) => d.with_secondary(at, "this failed"),
        None => d,
    }
}

/// `Isabelle's Main (HOL.Wellfounded)`, `HOL-Library.Tree`.
pub(super) fn shown(t: &IsabelleTheory) -> String {
    if t.in_main() {
        format!("Isabelle's Main ({})", t.name)
    } else {
        t.name.to_owned()
    }
}
