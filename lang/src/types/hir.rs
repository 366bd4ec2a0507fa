//! The typed theory: terms after name resolution and type inference, with patterns still as
//! written (pattern-match compilation happens in `core::lower`). Every type here is fully
//! resolved: inference variables are gone, `Type::Param` stands for a type variable of the
//! enclosing constant's scheme (or of a lemma).

use super::builtins::Builtin;
use super::ty::{Sort, Type};
use crate::span::Span;
use num_bigint::BigInt;
use std::sync::Arc;

/// A quantifier: `∀`, `∃`, `∃!`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Quant {
    All,
    Ex,
    /// `∃!`
    Ex1,
}

/// Index into `Env::consts`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConstId(pub u32);

/// Index into `Env::datas`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DataIdx(pub u32);

/// A bound variable of one body (equation group, lemma or value): index into its `locals`.
pub type LocalId = u32;

#[derive(Clone, Debug, PartialEq)]
pub struct Local {
    pub name: Arc<str>,
    pub ty: Type,
}

/// A polymorphic type: `params` are the `Type::Param` names of `ty`, with their sorts.
#[derive(Clone, Debug, PartialEq)]
pub struct Scheme {
    pub params: Vec<(Arc<str>, Sort)>,
    pub ty: Type,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Term {
    pub kind: TermKind,
    pub ty: Type,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TermKind {
    Local(LocalId),
    /// A defined constant at an instance: one type per scheme parameter, in order.
    Const(ConstId, Vec<Type>),
    /// Constructor `tag` of a datatype at the given type arguments.
    Ctor(DataIdx, u32, Vec<Type>),
    /// A builtin; the term's type says at which instance.
    Builtin(Builtin),
    /// A numeral at type `nat` or `int`.
    Num(BigInt),
    App(Box<Term>, Box<Term>),
    Lambda(LocalId, Box<Term>),
    Let(LocalId, Box<Term>, Box<Term>),
    If(Box<Term>, Box<Term>, Box<Term>),
    Case(Box<Term>, Vec<(Pat, Term)>),
    Quant(Quant, LocalId, Option<Bound>, Box<Term>),
    /// `{x. P}` with an optional domain (`{x ∈ A. P}`).
    SetCompr(LocalId, Option<Box<Term>>, Box<Term>),
}

/// The bound of a bounded quantifier.
#[derive(Clone, Debug, PartialEq)]
pub enum Bound {
    In(Box<Term>),
    Less(Box<Term>),
    LessEq(Box<Term>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Pat {
    pub kind: PatKind,
    pub ty: Type,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum PatKind {
    Var(LocalId),
    Wild,
    Ctor(DataIdx, u32, Vec<Pat>),
    /// A `nat` or `int` literal.
    Num(BigInt),
    /// `Suc p`.
    Suc(Box<Pat>),
    Bool(bool),
}

/// A `datatype` with its parameters and constructors (field types over `Type::Param`).
#[derive(Clone, Debug, PartialEq)]
pub struct DataDecl {
    pub name: Arc<str>,
    pub params: Vec<Arc<str>>,
    pub ctors: Vec<CtorDecl>,
    /// The datatypes of the `datatype ... and ...` command that defined this one (itself
    /// included): Isabelle's `size` counts their occurrences as recursive ones.
    pub group: Vec<DataIdx>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CtorDecl {
    pub name: Arc<str>,
    pub fields: Vec<Type>,
}

/// A defined constant.
#[derive(Clone, Debug, PartialEq)]
pub struct ConstDef {
    pub name: Arc<str>,
    pub scheme: Scheme,
    pub kind: ConstKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ConstKind {
    /// `fun`/`primrec`/`definition`: equations `name p1 ... pn = rhs`, all with the same
    /// number of patterns (the arity), tried in order.
    Equations { locals: Vec<Local>, equations: Vec<(Vec<Pat>, Term)>, arity: usize },
    /// An `inductive` predicate: Horn clauses.
    Inductive { clauses: Vec<HornClause> },
}

/// `premises ⟹ pred args`, with its own variables.
#[derive(Clone, Debug, PartialEq)]
pub struct HornClause {
    pub locals: Vec<Local>,
    pub args: Vec<Term>,
    pub premises: Vec<Term>,
}

/// A constant's code equations: lemmas declared `[code]`, which compiled code runs in place
/// of the defining equations (as Isabelle's code generator does). Same shape as
/// `ConstKind::Equations`, over the constant's own type parameters and padded to the
/// definition's arity; the locals of all its code lemmas, renumbered into one list.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CodeEquations {
    pub locals: Vec<Local>,
    pub equations: Vec<(Vec<Pat>, Term)>,
    /// The lemmas (indices into the checked theory's lemmas) these equations come from.
    pub lemmas: Vec<usize>,
}

/// A checked lemma: `⟦premises⟧ ⟹ conclusion` over free variables `frees` (locals of the
/// lemma), with type parameters `params` to be instantiated by the tester.
#[derive(Clone, Debug, PartialEq)]
pub struct Lemma {
    pub name: Option<Arc<str>>,
    pub params: Vec<(Arc<str>, Sort)>,
    pub locals: Vec<Local>,
    pub frees: Vec<LocalId>,
    pub premises: Vec<Term>,
    pub conclusion: Term,
    pub span: Span,
    /// Declared `[code]` and registered as a code equation: tested against the definitions
    /// only (with its own equation in use, the compiled test would be trivially true).
    pub code: bool,
}

/// A checked `value` term, closed and monomorphic.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueTerm {
    pub locals: Vec<Local>,
    pub term: Term,
    pub span: Span,
    /// The term's type as inferred, before unconstrained type variables were fixed for
    /// evaluation (`'a list` for `[]`).
    pub shown_type: String,
}

impl Pat {
    /// `Term::rewrite` for patterns.
    pub fn rewrite(&mut self, ty: &mut impl FnMut(&mut Type), local: &mut impl FnMut(&mut LocalId)) {
        ty(&mut self.ty);
        match &mut self.kind {
            PatKind::Var(l) => local(l),
            PatKind::Ctor(_, _, subs) => subs.iter_mut().for_each(|s| s.rewrite(ty, local)),
            PatKind::Suc(s) => s.rewrite(ty, local),
            PatKind::Wild | PatKind::Num(_) | PatKind::Bool(_) => {}
        }
    }
}

impl Term {
    /// `f a b c` as `(f, [a, b, c])`: the head of an application and its arguments in order.
    pub fn spine(&self) -> (&Term, Vec<&Term>) {
        let mut args = Vec::new();
        let mut head = self;
        while let TermKind::App(f, x) = &head.kind {
            args.push(&**x);
            head = f;
        }
        args.reverse();
        (head, args)
    }

    /// Rewrites in place every type in this term (of subterms, instances and patterns) with
    /// `ty`, and every local (uses, binders, pattern variables) with `local`.
    pub fn rewrite(&mut self, ty: &mut impl FnMut(&mut Type), local: &mut impl FnMut(&mut LocalId)) {
        ty(&mut self.ty);
        match &mut self.kind {
            TermKind::Const(_, inst) | TermKind::Ctor(_, _, inst) => inst.iter_mut().for_each(&mut *ty),
            TermKind::Local(l) => local(l),
            TermKind::Builtin(_) | TermKind::Num(_) => {}
            TermKind::App(a, b) => {
                a.rewrite(ty, local);
                b.rewrite(ty, local);
            }
            TermKind::Let(l, a, b) => {
                local(l);
                a.rewrite(ty, local);
                b.rewrite(ty, local);
            }
            TermKind::Lambda(l, b) => {
                local(l);
                b.rewrite(ty, local);
            }
            TermKind::If(c, a, b) => {
                c.rewrite(ty, local);
                a.rewrite(ty, local);
                b.rewrite(ty, local);
            }
            TermKind::Case(s, arms) => {
                s.rewrite(ty, local);
                for (p, rhs) in arms {
                    p.rewrite(ty, local);
                    rhs.rewrite(ty, local);
                }
            }
            TermKind::Quant(_, l, bound, body) => {
                local(l);
                if let Some(Bound::In(a) | Bound::Less(a) | Bound::LessEq(a)) = bound {
                    a.rewrite(ty, local);
                }
                body.rewrite(ty, local);
            }
            TermKind::SetCompr(l, dom, body) => {
                local(l);
                if let Some(d) = dom {
                    d.rewrite(ty, local);
                }
                body.rewrite(ty, local);
            }
        }
    }

    /// Calls `f` on this term and every subterm, outermost first.
    pub fn visit(&self, f: &mut impl FnMut(&Term)) {
        f(self);
        match &self.kind {
            TermKind::Local(_) | TermKind::Const(..) | TermKind::Ctor(..) | TermKind::Builtin(_) | TermKind::Num(_) => {
            }
            TermKind::App(a, b) | TermKind::Let(_, a, b) => {
                a.visit(f);
                b.visit(f);
            }
            TermKind::Lambda(_, b) => b.visit(f),
            TermKind::If(c, a, b) => {
                c.visit(f);
                a.visit(f);
                b.visit(f);
            }
            TermKind::Case(s, arms) => {
                s.visit(f);
                arms.iter().for_each(|(_, r)| r.visit(f));
            }
            TermKind::Quant(_, _, bound, body) => {
                if let Some(Bound::In(a) | Bound::Less(a) | Bound::LessEq(a)) = bound {
                    a.visit(f);
                }
                body.visit(f);
            }
            TermKind::SetCompr(_, dom, body) => {
                if let Some(d) = dom {
                    d.visit(f);
                }
                body.visit(f);
            }
        }
    }
}
