//! A lemma as a conjecture to test: Isabelle's preprocessing of the statement, then its parts
//! lowered into the core IR at one instance of its type variables.
//!
//! Preprocessing (as Isabelle's Quickcheck does before any tester runs): universal
//! quantifiers in positive position (outermost, or in the conclusion of a `⟶` chain) and
//! existentials in a premise become free variables; `A ⟶ B` in the conclusion makes `A` a
//! premise; a premise `A ∧ B` is two premises, so each is checked as soon as its variables
//! are known. A premise `x = t` (or `t = x`) with `t` free of `x` is kept with its binding, so
//! a tester can compute `x` instead of enumerating it.
//!
//! Each part becomes a top-level function whose parameters are all the conjecture's
//! variables, in `Conjecture::vars` order, so a tester calls every part the same way; `uses`
//! says which variables a part actually reads. What this module does not know: in which
//! order variables are generated, how values are enumerated, and what an outcome is: that is
//! the testers' business (`quickcheck`).

use super::ir::{FunId, Program, Ty};
use super::lower::Lowerer;
use crate::span::Span;
use crate::types::builtins::Builtin;
use crate::types::hir::{Lemma, LocalId, Term, TermKind};
use crate::types::ty::Type;
use std::collections::HashMap;
use std::sync::Arc;

/// What a type variable of the lemma is instantiated with.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeChoice {
    /// A finite type of `n` elements `a1 ... an`.
    Finite(u32),
    /// A type of the theory without parameters (`nat`, `int`, a user datatype).
    Named(String),
}

/// A lemma lowered for testing at one instance of its type variables.
#[derive(Clone, Debug)]
pub struct Conjecture {
    pub program: Program,
    /// The variables of the test program: the lemma's free variables, then the variables of
    /// the quantifiers preprocessing turned into free ones.
    pub vars: Vec<ConjectureVar>,
    pub premises: Vec<Part>,
    pub conclusion: Part,
    /// `('a, finite_3)` for each type variable, as instantiated.
    pub instance: Vec<(String, String)>,
    /// Why enumerating testers cannot run this instance: a quantifier left inside the
    /// formula ranges over an infinite type.
    pub not_executable: Option<String>,
}

#[derive(Clone, Debug)]
pub struct ConjectureVar {
    pub name: String,
    pub ty: Ty,
}

/// A premise or the conclusion: a `bool` function over all of `Conjecture::vars`.
#[derive(Clone, Debug)]
pub struct Part {
    pub fun: FunId,
    /// Indices into `Conjecture::vars` of the variables the part mentions.
    pub uses: Vec<usize>,
    pub span: Span,
    /// For a premise `x = t` with `t` free of `x`: `x` can be computed as `t`.
    pub binding: Option<Binding>,
    /// For an equation `l = r`: both sides, evaluated for reports.
    pub sides: Option<Sides>,
}

#[derive(Clone, Debug)]
pub struct Binding {
    pub var: usize,
    /// `t`, over all of `Conjecture::vars`.
    pub fun: FunId,
    pub uses: Vec<usize>,
}

#[derive(Clone, Debug)]
pub struct Sides {
    pub lhs: FunId,
    pub rhs: FunId,
    pub lhs_span: Span,
    pub rhs_span: Span,
    pub ty: Ty,
}

/// `f a b` when `t` is the builtin `b` applied to exactly two arguments.
fn binary(t: &Term, b: Builtin) -> Option<(&Term, &Term)> {
    let (head, args) = t.spine();
    match (&head.kind, args.as_slice()) {
        (TermKind::Builtin(h), [x, y]) if *h == b => Some((x, y)),
        _ => None,
    }
}

/// The statement after preprocessing: premises, conclusion, and the locals that became free.
struct Preprocessed<'a> {
    premises: Vec<&'a Term>,
    conclusion: &'a Term,
    new_frees: Vec<LocalId>,
}

fn preprocess(lemma: &Lemma) -> Preprocessed<'_> {
    let mut p = Preprocessed { premises: Vec::new(), conclusion: &lemma.conclusion, new_frees: Vec::new() };
    for prem in &lemma.premises {
        add_premise(&mut p, prem);
    }
    let mut c = &lemma.conclusion;
    loop {
        match &c.kind {
            TermKind::Quant(crate::core::ir::Quant::All, l, None, body) => {
                p.new_frees.push(*l);
                c = body;
            }
            _ => match binary(c, Builtin::Imp) {
                Some((a, b)) => {
                    add_premise(&mut p, a);
                    c = b;
                }
                None => break,
            },
        }
    }
    p.conclusion = c;
    p
}

fn add_premise<'a>(p: &mut Preprocessed<'a>, t: &'a Term) {
    if let TermKind::Quant(crate::core::ir::Quant::Ex, l, None, body) = &t.kind {
        p.new_frees.push(*l);
        return add_premise(p, body);
    }
    if let Some((a, b)) = binary(t, Builtin::And) {
        add_premise(p, a);
        return add_premise(p, b);
    }
    p.premises.push(t);
}

/// The locals of `t` among `vars`, as indices into `vars`, ascending.
fn uses_of(t: &Term, vars: &[LocalId]) -> Vec<usize> {
    let mut out = Vec::new();
    t.visit(&mut |s: &Term| {
        if let TermKind::Local(l) = s.kind {
            if let Some(i) = vars.iter().position(|v| *v == l) {
                if !out.contains(&i) {
                    out.push(i);
                }
            }
        }
    });
    out.sort_unstable();
    out
}

/// The type variables of `lemma` that finite types cannot stand for: those whose sort asks
/// for arithmetic (`'a::plus`).
pub fn needs_numeric(lemma: &Lemma, param: usize) -> bool {
    const FINITE_OK: &[&str] = &["type", "equal", "ord", "order", "linorder", "preorder", "finite", "enum"];
    lemma.params[param].1.iter().any(|c| !FINITE_OK.contains(&&**c))
}

/// Lowers `lemma` at the type instance `choices` (one per `lemma.params`).
pub fn lower_conjecture(
    lemma: &Lemma,
    env: Arc<crate::types::env::Env>,
    prelude: Arc<HashMap<Arc<str>, crate::types::env::NameRef>>,
    choices: &[TypeChoice],
) -> Conjecture {
    let mut lw = Lowerer::new(env, prelude);
    lw.use_code_equations = !lemma.code;
    let mut subst: HashMap<Arc<str>, Ty> = HashMap::new();
    let mut instance = Vec::new();
    for ((name, _), choice) in lemma.params.iter().zip(choices) {
        let ty = match choice {
            TypeChoice::Finite(n) => lw.finite_type(*n),
            TypeChoice::Named(t) => lw.ty(&Type::Con(Arc::from(t.as_str()), Arc::from([])), &HashMap::new()),
        };
        instance
            .push((format!("'{}", name.trim_start_matches('\'')), super::type_syntax::print_type(&lw.program, &ty)));
        subst.insert(name.clone(), ty);
    }
    let pre = preprocess(lemma);
    let mut var_locals: Vec<LocalId> = lemma.frees.clone();
    var_locals.extend(pre.new_frees.iter().copied());
    let mut vars: Vec<ConjectureVar> = Vec::new();
    for l in &var_locals {
        let local = &lemma.locals[*l as usize];
        // Two quantifiers may bind the same name (`(∃x. P x) ⟶ (∀x. P x)`): as free
        // variables they are told apart as Isabelle does, `x`, `xa`, `xb`, ...
        let mut name = local.name.to_string();
        let mut suffix = b'a';
        while vars.iter().any(|v| v.name == name) && suffix <= b'z' {
            name = format!("{}{}", local.name, suffix as char);
            suffix += 1;
        }
        vars.push(ConjectureVar { name, ty: lw.ty(&local.ty, &subst) });
    }
    let mut not_executable = None;
    for t in pre.premises.iter().chain(std::iter::once(&pre.conclusion)) {
        t.visit(&mut |s: &Term| {
            if not_executable.is_some() {
                return;
            }
            if let TermKind::Quant(q, l, None, _) = &s.kind {
                let ty = lw.ty(&lemma.locals[*l as usize].ty, &subst);
                if crate::core::cardinality::cardinality(&lw.program, &ty).is_none() {
                    let sym = match q {
                        crate::core::ir::Quant::All => "∀",
                        crate::core::ir::Quant::Ex => "∃",
                        crate::core::ir::Quant::Ex1 => "∃!",
                    };
                    not_executable = Some(format!(
                        "the quantifier `{sym}{}` ranges over the infinite type `{}`",
                        lemma.locals[*l as usize].name,
                        super::type_syntax::print_type(&lw.program, &ty)
                    ));
                }
            }
        });
    }
    let mut n = 0;
    let mut lower = |lw: &mut Lowerer, what: &str, t: &Term| {
        n += 1;
        lw.lower_body(&format!("{what}{n}"), &lemma.locals, &var_locals, subst.clone(), t)
    };
    let mut part = |lw: &mut Lowerer, t: &Term, premise: bool| {
        let fun = lower(lw, if premise { "premise" } else { "conclusion" }, t);
        let uses = uses_of(t, &var_locals);
        let mut binding = None;
        let mut sides = None;
        if let Some((l, r)) = binary(t, Builtin::Eq) {
            if premise {
                for (x, def) in [(l, r), (r, l)] {
                    if let TermKind::Local(x) = x.kind {
                        let def_uses = uses_of(def, &var_locals);
                        if let Some(var) = var_locals.iter().position(|v| *v == x) {
                            if !def_uses.contains(&var) {
                                binding = Some(Binding { var, fun: lower(lw, "binding", def), uses: def_uses });
                                break;
                            }
                        }
                    }
                }
            }
            let ty = lw.ty(&l.ty, &subst);
            sides = Some(Sides {
                lhs: lower(lw, "lhs", l),
                rhs: lower(lw, "rhs", r),
                lhs_span: l.span,
                rhs_span: r.span,
                ty,
            });
        }
        Part { fun, uses, span: t.span, binding, sides }
    };
    let premises = pre.premises.iter().map(|t| part(&mut lw, t, true)).collect();
    let conclusion = part(&mut lw, pre.conclusion, false);
    Conjecture { program: lw.program, vars, premises, conclusion, instance, not_executable }
}

/// The name of the finite type of `n` elements, and of its elements.
pub fn finite_type_name(n: u32) -> String {
    format!("finite_{n}")
}

impl Lowerer {
    /// A finite type of `n` elements `a1 ... an` (nullary constructors, ordered as numbered).
    pub fn finite_type(&mut self, n: u32) -> Ty {
        let name = finite_type_name(n);
        if let Some(i) = self.program.datas.iter().position(|d| d.name == name && d.args.is_empty()) {
            return Ty::Data(super::ir::DataId(i as u32));
        }
        let ctors = (1..=n).map(|i| super::ir::CtorDef { name: format!("a{i}"), fields: vec![] }).collect();
        self.program.datas.push(super::ir::DataDef { name, args: vec![], ctors });
        Ty::Data(super::ir::DataId(self.program.datas.len() as u32 - 1))
    }
}
