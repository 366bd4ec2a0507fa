//! The core IR: the one contract between the front end and every back end (reference
//! interpreter, Cranelift JIT, narrowing).
//!
//! It is monomorphic: every polymorphic function and datatype of the theory is instantiated
//! at the concrete types it is used at (demand-driven, by `core::lower`), so a back end always
//! knows the exact type and layout of every value and which arithmetic rules apply
//! (`nat` subtraction truncates, `int` does not). Pattern matching is compiled away: a `Case`
//! inspects one scrutinee, one constructor tag deep — each `Case` is a place where narrowing
//! can demand a partial value. Functions are first-order at the top level with known arities;
//! `Lambda` and `Apply` are the only higher-order forms, to be closure-converted by codegen.
//! Incomplete patterns end in an explicit `Undefined`.

use num_bigint::{BigInt, BigUint};
use std::collections::BTreeSet;

/// Index into `Program::datas`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DataId(pub u32);

/// Index into `Program::funs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FunId(pub u32);

/// Index into `Program::inductives`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PredId(pub u32);

/// A local variable; unique within one function body (parameters included).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);

/// A monomorphic type.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ty {
    Bool,
    /// Unbounded natural numbers.
    Nat,
    /// Unbounded integers.
    Int,
    /// An instance of a datatype (`nat list`, `unit`, `a3` finite types, user datatypes).
    Data(DataId),
    /// Curried function type.
    Fun(Box<Ty>, Box<Ty>),
    /// Finite sets and complements of finite sets over the element type.
    Set(Box<Ty>),
}

impl Ty {
    pub fn fun(arg: Ty, res: Ty) -> Ty {
        Ty::Fun(Box::new(arg), Box::new(res))
    }

    pub fn set(elem: Ty) -> Ty {
        Ty::Set(Box::new(elem))
    }

    /// Splits `a ⇒ b ⇒ c` into `([a, b], c)`.
    pub fn uncurry(&self) -> (Vec<&Ty>, &Ty) {
        let mut args = Vec::new();
        let mut t = self;
        while let Ty::Fun(a, r) = t {
            args.push(&**a);
            t = r;
        }
        (args, t)
    }
}

/// A datatype instance. `name` is the source name (`list`, `prod`, `tree`) and `args` the
/// type arguments it was instantiated at; the printer uses both (`list` prints as `[..]`,
/// `prod` as `(a, b)`, `unit` as `()`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataDef {
    pub name: String,
    pub args: Vec<Ty>,
    pub ctors: Vec<CtorDef>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CtorDef {
    pub name: String,
    pub fields: Vec<Ty>,
}

/// Constructor `tag` (its index in `DataDef::ctors`) of datatype `data`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CtorRef {
    pub data: DataId,
    pub tag: u32,
}

/// A top-level function (or constant, when `params` is empty) at one type instance.
#[derive(Clone, Debug, PartialEq)]
pub struct FunDef {
    /// Source name with the instance's type arguments: `rev[nat]`, `plant[a3]`.
    pub name: String,
    pub params: Vec<(VarId, Ty)>,
    pub ret: Ty,
    pub body: Expr,
    /// Number of `VarId`s used in the body (all ids are below this).
    pub num_vars: u32,
}

/// An `inductive` predicate at one type instance, kept as Horn clauses for the smart
/// generators; the interpreter runs it in checking mode (all arguments known).
#[derive(Clone, Debug, PartialEq)]
pub struct InductiveDef {
    pub name: String,
    pub params: Vec<Ty>,
    pub clauses: Vec<Clause>,
}

/// `premises ⟹ pred head`: the clause's variables are universally quantified.
#[derive(Clone, Debug, PartialEq)]
pub struct Clause {
    pub vars: Vec<(VarId, Ty)>,
    /// One term per parameter of the predicate, over `vars`.
    pub head: Vec<Expr>,
    /// Boolean terms over `vars` (calls of this or other predicates among them).
    pub premises: Vec<Expr>,
    pub num_vars: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Lit {
    Bool(bool),
    Nat(BigUint),
    Int(BigInt),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NumTy {
    Nat,
    Int,
}

/// The quantifiers, as the typed terms have them.
pub use crate::types::hir::Quant;

/// Why a value is undefined. Reaching one makes a result "potentially spurious", not an error.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Undef {
    /// No equation of the named function matched (`hd []`).
    Match(String),
    /// The constant `undefined`.
    Undefined,
    /// No arm of a `case` expression in the named function (or `value`/lemma) matched.
    Case(String),
}

/// Primitive operations, always applied to all their arguments (`Expr::Prim`).
/// Arithmetic on `nat` and `int` is unbounded; an implementation either computes the exact
/// result or reports that it could not, never a wrapped one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Prim {
    Add(NumTy),
    /// `nat` subtraction truncates at 0.
    Sub(NumTy),
    Mul(NumTy),
    /// `x div 0 = 0`; `int` division floors.
    Div(NumTy),
    /// `x mod 0 = x`; `int` remainder has the sign of the divisor.
    Mod(NumTy),
    /// `int` negation.
    Neg,
    /// `Suc n = n + 1` on `nat`.
    Suc,
    /// `int :: nat ⇒ int`.
    IntOfNat,
    /// `nat :: int ⇒ nat` (negative values give 0).
    NatOfInt,
    Not,
    /// Structural equality at the given type. Functions over finite domains and sets compare
    /// extensionally.
    Eq(Ty),
    /// `<` at the given type: numbers numerically, `False < True`, datatypes by constructor
    /// index and then fields lexicographically (lists: lexicographic), sets: proper subset.
    Lt(Ty),
    /// `≤`, as `Lt`; on sets `⊆`.
    Le(Ty),
    /// `{}` of the given element type.
    SetEmpty(Ty),
    /// `UNIV` of the given element type.
    SetUniv(Ty),
    /// `insert x A`.
    SetInsert(Ty),
    /// `x ∈ A`.
    SetMember(Ty),
    SetUnion(Ty),
    SetInter(Ty),
    /// `A - B`.
    SetDiff(Ty),
    /// `- A`.
    SetCompl(Ty),
    /// `sorted_list_of_set A`: the elements of a finite set in ascending order, as a value of
    /// the given list type (a `list` datatype instance with constructors `Nil` and `Cons`).
    /// The complement of a finite set has no such list: not executable.
    SetToList(Ty),
    /// `finite A` for a set of the given element type: a complement of a finite set is
    /// infinite exactly when the element type is; every other set is finite.
    SetFinite(Ty),
}

/// A constructor alternative of a `Case`: binds the constructor's fields.
#[derive(Clone, Debug, PartialEq)]
pub struct Alt {
    pub tag: u32,
    pub binders: Vec<VarId>,
    pub body: Expr,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Var(VarId),
    Lit(Lit),
    /// Saturated constructor application (nullary constructors have no arguments).
    Ctor(CtorRef, Vec<Expr>),
    /// Saturated call of a known top-level function.
    Call(FunId, Vec<Expr>),
    /// Saturated primitive.
    Prim(Prim, Vec<Expr>),
    /// A top-level function with at least one parameter, as a closure value.
    FunRef(FunId),
    /// Call of a closure value with one or more arguments (curried semantics: applying a
    /// function of arity 2 to one argument gives a closure).
    Apply(Box<Expr>, Vec<Expr>),
    /// `λx y. body`; free variables are captured by value.
    Lambda(Vec<(VarId, Ty)>, Box<Expr>),
    Let(VarId, Ty, Box<Expr>, Box<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// Case analysis of a datatype value, one constructor deep. Tags not listed go to
    /// `default`; when `default` is `None` every tag is listed.
    Case {
        scrut: Box<Expr>,
        data: DataId,
        alts: Vec<Alt>,
        default: Option<Box<Expr>>,
    },
    /// Case analysis of a `nat`: `0 ⇒ zero | Suc pred ⇒ succ`.
    NatCase {
        scrut: Box<Expr>,
        zero: Box<Expr>,
        pred: VarId,
        succ: Box<Expr>,
    },
    /// `∀x::ty. body` (also `∃`, `∃!`); with `domain`, the quantifier ranges over that set's
    /// elements (`∀x∈A. P`). Without a domain the type must be enumerable (finite).
    Quant {
        q: Quant,
        var: VarId,
        ty: Ty,
        domain: Option<Box<Expr>>,
        body: Box<Expr>,
    },
    /// `{x::ty. body}` (with `domain`: `{x ∈ A. body}`). Without a domain the type must be
    /// enumerable.
    SetCompr {
        var: VarId,
        ty: Ty,
        domain: Option<Box<Expr>>,
        body: Box<Expr>,
    },
    /// Checking-mode call of an inductive predicate with all arguments known.
    Pred(PredId, Vec<Expr>),
    Undefined(Undef),
}

impl Expr {
    /// Calls `f` on each direct subexpression with the variables that subexpression binds
    /// on top of this one's scope (a λ's parameters for its body, a `Let`'s variable for its
    /// body, a case alternative's binders, ...). Back ends build their scoped analyses
    /// (free variables for closure conversion) on this one traversal.
    pub fn for_each_child<'a>(&'a self, f: &mut dyn FnMut(&'a Expr, &[VarId])) {
        match self {
            Expr::Var(_) | Expr::Lit(_) | Expr::FunRef(_) | Expr::Undefined(_) => {}
            Expr::Ctor(_, args) | Expr::Call(_, args) | Expr::Prim(_, args) | Expr::Pred(_, args) => {
                args.iter().for_each(|a| f(a, &[]))
            }
            Expr::Apply(g, args) => {
                f(g, &[]);
                args.iter().for_each(|a| f(a, &[]));
            }
            Expr::Lambda(params, body) => {
                let ps: Vec<VarId> = params.iter().map(|(v, _)| *v).collect();
                f(body, &ps);
            }
            Expr::Let(v, _, rhs, body) => {
                f(rhs, &[]);
                f(body, &[*v]);
            }
            Expr::If(c, t, e) => {
                f(c, &[]);
                f(t, &[]);
                f(e, &[]);
            }
            Expr::Case { scrut, alts, default, .. } => {
                f(scrut, &[]);
                alts.iter().for_each(|alt| f(&alt.body, &alt.binders));
                if let Some(d) = default {
                    f(d, &[]);
                }
            }
            Expr::NatCase { scrut, zero, pred, succ } => {
                f(scrut, &[]);
                f(zero, &[]);
                f(succ, &[*pred]);
            }
            Expr::Quant { var, domain, body, .. } | Expr::SetCompr { var, domain, body, .. } => {
                if let Some(d) = domain {
                    f(d, &[]);
                }
                f(body, &[*var]);
            }
        }
    }

    /// The number of nodes of `self` (itself included) for which `pred` holds.
    pub fn count(&self, pred: &dyn Fn(&Expr) -> bool) -> usize {
        let mut n = usize::from(pred(self));
        self.for_each_child(&mut |c, _| n += c.count(pred));
        n
    }

    /// The number of nodes of `self` and its nesting depth (`self` alone is 1 deep),
    /// computed with a work list instead of recursion: a caller can decide from them whether
    /// a body is small and shallow enough for the recursive passes, before running them.
    pub fn shape<'a>(&'a self) -> (usize, usize) {
        let mut work: Vec<(&'a Expr, usize)> = vec![(self, 1)];
        let (mut nodes, mut depth) = (0usize, 0usize);
        while let Some((e, d)) = work.pop() {
            nodes += 1;
            depth = depth.max(d);
            e.for_each_child(&mut |c, _| work.push((c, d + 1)));
        }
        (nodes, depth)
    }

    /// How deeply quantifiers and comprehensions, the loops of compiled code, nest in
    /// `self`, computed with a work list: register allocation over deeply nested loops
    /// costs far more than their size says.
    pub fn loop_nesting(&self) -> usize {
        let mut work: Vec<(&Expr, usize)> = vec![(self, 0)];
        let mut deepest = 0;
        while let Some((e, d)) = work.pop() {
            let d = d + usize::from(matches!(e, Expr::Quant { .. } | Expr::SetCompr { .. }));
            deepest = deepest.max(d);
            e.for_each_child(&mut |c, _| work.push((c, d)));
        }
        deepest
    }

    /// `for_each_child`, mutably and without the binders.
    pub fn for_each_child_mut(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        match self {
            Expr::Var(_) | Expr::Lit(_) | Expr::FunRef(_) | Expr::Undefined(_) => {}
            Expr::Ctor(_, args) | Expr::Call(_, args) | Expr::Prim(_, args) | Expr::Pred(_, args) => {
                args.iter_mut().for_each(f)
            }
            Expr::Apply(g, args) => {
                f(g);
                args.iter_mut().for_each(f);
            }
            Expr::Lambda(_, body) => f(body),
            Expr::Let(_, _, rhs, body) => {
                f(rhs);
                f(body);
            }
            Expr::If(c, t, e) => {
                f(c);
                f(t);
                f(e);
            }
            Expr::Case { scrut, alts, default, .. } => {
                f(scrut);
                alts.iter_mut().for_each(|alt| f(&mut alt.body));
                if let Some(d) = default {
                    f(d);
                }
            }
            Expr::NatCase { scrut, zero, succ, .. } => {
                f(scrut);
                f(zero);
                f(succ);
            }
            Expr::Quant { domain, body, .. } | Expr::SetCompr { domain, body, .. } => {
                if let Some(d) = domain {
                    f(d);
                }
                f(body);
            }
        }
    }
}

/// A whole monomorphic program. Grows as `core::lower` instantiates what is demanded.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Program {
    pub datas: Vec<DataDef>,
    pub funs: Vec<FunDef>,
    pub inductives: Vec<InductiveDef>,
    /// Code equations: `(f, c)` means compiled code runs `funs[c]` (same parameters, lowered
    /// from `f`'s `[code]` lemmas) wherever it runs `f`. The interpreter, the reference,
    /// runs the definitions and ignores this.
    pub code: Vec<(FunId, FunId)>,
}

impl Program {
    /// Whether `ty` or a type inside it (through datatype fields, each datatype once)
    /// satisfies `pred`: "can a value of `ty` contain a function?" and the like.
    pub fn type_contains(&self, ty: &Ty, pred: &dyn Fn(&Ty) -> bool) -> bool {
        fn go(p: &Program, ty: &Ty, pred: &dyn Fn(&Ty) -> bool, seen: &mut Vec<DataId>) -> bool {
            if pred(ty) {
                return true;
            }
            match ty {
                Ty::Bool | Ty::Nat | Ty::Int => false,
                Ty::Fun(a, b) => go(p, a, pred, seen) || go(p, b, pred, seen),
                Ty::Set(a) => go(p, a, pred, seen),
                Ty::Data(id) => {
                    if seen.contains(id) || id.0 as usize >= p.datas.len() {
                        return false;
                    }
                    seen.push(*id);
                    p.data(*id).ctors.iter().any(|c| c.fields.iter().any(|f| go(p, f, pred, seen)))
                }
            }
        }
        go(self, ty, pred, &mut Vec::new())
    }

    /// Makes this program what compiled code runs: every function with code equations takes
    /// the body of its code version. Whether any function has code equations.
    pub fn apply_code_equations(&mut self) -> bool {
        for &(f, c) in &self.code {
            let code = &self.funs[c.0 as usize];
            debug_assert_eq!(self.funs[f.0 as usize].params, code.params, "a code version keeps the parameters");
            let (body, num_vars) = (code.body.clone(), code.num_vars);
            let def = &mut self.funs[f.0 as usize];
            def.body = body;
            def.num_vars = num_vars;
        }
        !self.code.is_empty()
    }

    /// `apply_code_equations` on a copy; `None` when no function has code equations.
    pub fn with_code_equations(&self) -> Option<Program> {
        let mut p = self.clone();
        p.apply_code_equations().then_some(p)
    }

    pub fn data(&self, id: DataId) -> &DataDef {
        &self.datas[id.0 as usize]
    }

    pub fn fun(&self, id: FunId) -> &FunDef {
        &self.funs[id.0 as usize]
    }

    pub fn inductive(&self, id: PredId) -> &InductiveDef {
        &self.inductives[id.0 as usize]
    }

    pub fn ctor(&self, c: CtorRef) -> &CtorDef {
        &self.data(c.data).ctors[c.tag as usize]
    }
}

/// Adds to `free` the variables occurring in `e` outside the binders in `bound` and those of
/// `e` itself (what a closure of `e` captures). Safe on any nesting depth: the analysis
/// moves to a fresh stack segment when the current one runs low.
pub fn free_vars(e: &Expr, bound: &mut Vec<u32>, free: &mut BTreeSet<u32>) {
    if crate::stack::grow(|| free_vars_here(e, bound, free)).is_none() {
        // Too deep to analyse: nothing is captured, and evaluation of such a term fails with
        // `TooDeep` anyway.
    }
}

fn free_vars_here(e: &Expr, bound: &mut Vec<u32>, free: &mut BTreeSet<u32>) {
    if let Expr::Var(v) = e {
        if !bound.contains(&v.0) {
            free.insert(v.0);
        }
    }
    e.for_each_child(&mut |child, binders| {
        let n = bound.len();
        bound.extend(binders.iter().map(|v| v.0));
        free_vars(child, bound, free);
        bound.truncate(n);
    });
}
