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

use super::ir::{FunId, Program, Quant, Ty};
use super::lower::Lowerer;
use crate::span::Span;
use crate::types::builtins::Builtin;
use crate::types::env::Env;
use crate::types::hir::{Lemma, Local, LocalId, Term, TermKind};
use crate::types::ty::Type;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

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
    /// When `not_executable`: the statement in prenex form (`prenex`) for the narrowing
    /// tester, as a conjecture whose variables are these same ones followed by the
    /// quantified ones of `prefix`; or why it has no such form.
    pub prenex: Option<Result<Box<Conjecture>, String>>,
    /// Of a prenex form: its quantified variables, outermost first (indices into `vars`,
    /// after the free ones, which are universal and outermost). Empty otherwise.
    pub prefix: Vec<(Quant, usize)>,
    /// `program` with its quantifiers over recursively built sets turned into walks
    /// (`set_quantifiers`), made when first asked for: `lazy_program`.
    lazy: OnceLock<Option<Program>>,
}

impl Conjecture {
    /// The program to evaluate on partial values: `program` with `∀y∈tset t. P y` turned
    /// into a walk over `t` (`set_quantifiers`) that stops at the first element refuting
    /// `P`. Evaluated on a partial `t`, the built set would need every hole of `t`
    /// (any hole in a set operation's operand is demanded), the walk only those on its way:
    /// as lazy as Lazy SmallCheck's `all p (keys t)` over a list. Parts keep their ids;
    /// both of narrowing's engines run this program, so they still agree.
    pub fn lazy_program(&self) -> &Program {
        self.lazy
            .get_or_init(|| super::set_quantifiers::distribute_set_quantifiers(&self.program))
            .as_ref()
            .unwrap_or(&self.program)
    }
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

/// The statement after preprocessing: premises, conclusion, the locals that became free, and
/// the lemma's locals with those of unfolded definitions after them.
struct Preprocessed {
    locals: Vec<Local>,
    premises: Vec<Term>,
    conclusion: Term,
    new_frees: Vec<LocalId>,
}

/// `hides(ty)`: a quantifier over `ty` cannot be enumerated; a premise applying a
/// non-recursive definition whose body has one is unfolded (`prenex::unfold`).
fn preprocess(lemma: &Lemma, env: &Env, hides: &mut dyn FnMut(&Type) -> bool) -> Preprocessed {
    let mut p = Preprocessed {
        locals: lemma.locals.clone(),
        premises: Vec::new(),
        conclusion: lemma.conclusion.clone(),
        new_frees: Vec::new(),
    };
    for prem in &lemma.premises {
        add_premise(&mut p, prem, env, hides);
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
                    add_premise(&mut p, a, env, hides);
                    c = b;
                }
                None => break,
            },
        }
    }
    p.conclusion = c.clone();
    p
}

fn add_premise(p: &mut Preprocessed, t: &Term, env: &Env, hides: &mut dyn FnMut(&Type) -> bool) {
    if let TermKind::Quant(crate::core::ir::Quant::Ex, l, None, body) = &t.kind {
        p.new_frees.push(*l);
        return add_premise(p, body, env, hides);
    }
    if let Some((a, b)) = binary(t, Builtin::And) {
        add_premise(p, a, env, hides);
        return add_premise(p, b, env, hides);
    }
    if let Some(body) = super::prenex::unfold(env, &mut p.locals, t, hides) {
        return add_premise(p, &body, env, hides);
    }
    p.premises.push(t.clone());
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
    let mut lw = Lowerer::new(env.clone(), prelude);
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
    let infinite = |lw: &mut Lowerer, ty: &Type| {
        let ty = lw.ty(ty, &subst);
        crate::core::cardinality::cardinality(&lw.program, &ty).is_none()
    };
    let mut pre = preprocess(lemma, &env, &mut |ty| infinite(&mut lw, ty));
    let mut var_locals: Vec<LocalId> = lemma.frees.clone();
    var_locals.extend(pre.new_frees.iter().copied());
    let mut not_executable = None;
    for t in pre.premises.iter().chain(std::iter::once(&pre.conclusion)) {
        t.visit(&mut |s: &Term| {
            if not_executable.is_some() {
                return;
            }
            if let TermKind::Quant(q, l, None, body) = &s.kind {
                let ty = lw.ty(&pre.locals[*l as usize].ty, &subst);
                if crate::core::cardinality::cardinality(&lw.program, &ty).is_none()
                    && super::guards::guarded(*q, *l, body, ty == Ty::Nat).is_none()
                {
                    let sym = match q {
                        crate::core::ir::Quant::All => "∀",
                        crate::core::ir::Quant::Ex => "∃",
                        crate::core::ir::Quant::Ex1 => "∃!",
                    };
                    not_executable = Some(format!(
                        "the quantifier `{sym}{}` ranges over the infinite type `{}`",
                        pre.locals[*l as usize].name,
                        super::type_syntax::print_type(&lw.program, &ty)
                    ));
                }
            }
        });
    }
    let prenex = not_executable.as_ref().map(|_| {
        let p =
            super::prenex::prenex(&mut pre.locals, &pre.premises, &pre.conclusion, &mut |ty| infinite(&mut lw, ty))?;
        let mut locals = var_locals.clone();
        locals.extend(p.prefix.iter().map(|(_, l)| *l));
        let mut c = lower_parts(&mut lw, &pre.locals, &locals, var_locals.len(), &p.premises, &p.conclusion, &subst);
        c.prefix = p.prefix.iter().enumerate().map(|(i, (q, _))| (*q, var_locals.len() + i)).collect();
        c.instance = instance.clone();
        Ok(Box::new(c))
    });
    let mut c =
        lower_parts(&mut lw, &pre.locals, &var_locals, var_locals.len(), &pre.premises, &pre.conclusion, &subst);
    c.instance = instance;
    c.not_executable = not_executable;
    c.prenex = prenex;
    // Both lowerings went into one program: each conjecture carries all of it.
    if let Some(Ok(p)) = &mut c.prenex {
        p.program = lw.program.clone();
    }
    c.program = lw.program;
    c
}

/// The parts of `premises ⟹ conclusion` over the variables `var_locals`, lowered into
/// `lw`'s program (which the caller puts into the conjecture). Only the first `bindable`
/// variables may be computed from a premise `x = t`, and only from those: a quantified
/// variable of a prenex form is searched in its quantifier's order.
fn lower_parts(
    lw: &mut Lowerer,
    locals: &[Local],
    var_locals: &[LocalId],
    bindable: usize,
    premises: &[Term],
    conclusion: &Term,
    subst: &HashMap<Arc<str>, Ty>,
) -> Conjecture {
    let mut vars: Vec<ConjectureVar> = Vec::new();
    for l in var_locals {
        let local = &locals[*l as usize];
        // Two quantifiers may bind the same name (`(∃x. P x) ⟶ (∀x. P x)`): as free
        // variables they are told apart as Isabelle does, `x`, `xa`, `xb`, ...
        let mut name = local.name.to_string();
        let mut suffix = b'a';
        while vars.iter().any(|v| v.name == name) && suffix <= b'z' {
            name = format!("{}{}", local.name, suffix as char);
            suffix += 1;
        }
        vars.push(ConjectureVar { name, ty: lw.ty(&local.ty, subst) });
    }
    let mut n = 0;
    let mut lower = |lw: &mut Lowerer, what: &str, t: &Term| {
        n += 1;
        lw.lower_body(&format!("{what}{n}"), locals, var_locals, subst.clone(), t)
    };
    let mut part = |lw: &mut Lowerer, t: &Term, premise: bool| {
        let fun = lower(lw, if premise { "premise" } else { "conclusion" }, t);
        let uses = uses_of(t, var_locals);
        let mut binding = None;
        let mut sides = None;
        if let Some((l, r)) = binary(t, Builtin::Eq) {
            if premise {
                for (x, def) in [(l, r), (r, l)] {
                    if let TermKind::Local(x) = x.kind {
                        let def_uses = uses_of(def, var_locals);
                        if let Some(var) = var_locals.iter().position(|v| *v == x) {
                            if !def_uses.contains(&var) && var < bindable && def_uses.iter().all(|u| *u < bindable) {
                                binding = Some(Binding { var, fun: lower(lw, "binding", def), uses: def_uses });
                                break;
                            }
                        }
                    }
                }
            }
            let ty = lw.ty(&l.ty, subst);
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
    let premises = premises.iter().map(|t| part(lw, t, true)).collect();
    let conclusion = part(lw, conclusion, false);
    Conjecture {
        program: Program::default(),
        vars,
        premises,
        conclusion,
        instance: Vec::new(),
        not_executable: None,
        prenex: None,
        prefix: Vec::new(),
        lazy: OnceLock::new(),
    }
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
