//! The core IR as SMT-LIB terms. `bool` is `Bool`; `nat` and `int` are unbounded `Int` (a
//! `nat` variable constrained to be ≥ 0), with Isabelle's arithmetic where SMT-LIB's
//! differs: truncated `nat` subtraction, `div`/`mod` by zero (`x div 0 = 0`, `x mod 0 =
//! x`), and `int` division rounding toward −∞ with the remainder taking the divisor's sign
//! (SMT-LIB's is Euclidean). Datatypes whose fields have sorts are solver datatypes
//! (`Sorts`), a `case` their testers and selectors. Finite sets are lists of guarded
//! elements (`x ∈ A` is "some guard holds and its element is x"), so `set xs`, `∀y∈set ys`,
//! `distinct` and quantifiers over finite types unfold into plain terms. Functions are
//! inlined, `λ`s and partial applications applied where they are called, a recursive
//! function (or an inductive predicate, its clauses matched against their conclusions)
//! unrolled to a bound: a call past it is a fresh value under a *cut*, the
//! condition under which evaluation reaches it, which the tester asserts false, so no model
//! rests on a call that was not unrolled. An underspecified value (`hd []`) is a fresh,
//! unconstrained one: evaluation of the decoded model says the model met it. What has no
//! encoding (an inductive clause with a variable only in its premises, a quantifier over
//! an infinite type, a set of an infinite type's complement) is an `Err` naming it, and the tester checks that part
//! after decoding instead.
//!
//! Every term is total, so naming a term with a fresh constant is sound under any
//! condition: arguments and scrutinees are named so a term used twice is printed once.
//!
//! What it does not know: the solver process, models' meaning, the tester's loop.

use easy_smt::{Context, SExpr, SExprData};
use lang::core::ir::{CtorRef, DataId, Expr, FunId, Lit, NumTy, PredId, Prim, Program, Ty, VarId};
use lang::interp::{Int, Value};
use lang::types::hir::Quant;
use std::collections::HashMap;
use std::rc::Rc;

/// How deep calls are inlined before the encoding gives up (a bound on long chains of
/// definitions; recursion is bounded by the unrolling).
const MAX_INLINE_DEPTH: usize = 256;

/// The most calls one encoding inlines: a function recursing twice per call doubles its
/// term with every level of unrolling.
const MAX_CALLS: usize = 20_000;

/// The most guarded elements one set term has.
const MAX_SET: usize = 20_000;

/// The most values a quantifier over a finite type is expanded to.
const MAX_EXPANSION: usize = 256;

/// Which datatypes of a program are solver datatypes: those whose fields all have sorts
/// (`bool`, numbers, such datatypes), none a function or a set.
pub struct Sorts {
    encodable: Vec<bool>,
}

impl Sorts {
    pub fn of(prog: &Program) -> Sorts {
        let mut encodable = vec![true; prog.datas.len()];
        // The greatest fixpoint: strike out datatypes with a field without a sort until none
        // changes.
        loop {
            let mut changed = false;
            for (d, dd) in prog.datas.iter().enumerate() {
                if encodable[d] && !dd.ctors.iter().flat_map(|c| &c.fields).all(|f| field_ok(&encodable, f)) {
                    encodable[d] = false;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        Sorts { encodable }
    }

    /// The sort of a value of `ty`, if it has one.
    pub fn sort(&self, ctx: &Context, ty: &Ty) -> Option<SExpr> {
        match ty {
            Ty::Bool => Some(ctx.bool_sort()),
            Ty::Nat | Ty::Int => Some(ctx.int_sort()),
            Ty::Data(d) if self.encodable[d.0 as usize] => Some(ctx.atom(data_name(*d))),
            _ => None,
        }
    }

    /// Whether any datatype has a sort.
    pub fn any(&self) -> bool {
        self.encodable.iter().any(|e| *e)
    }

    /// Declares the solver datatypes, all in one (they may be mutually recursive).
    pub fn declare(&self, ctx: &mut Context, prog: &Program) -> std::io::Result<()> {
        let ids: Vec<DataId> = (0..prog.datas.len()).filter(|d| self.encodable[*d]).map(|d| DataId(d as u32)).collect();
        if ids.is_empty() {
            return Ok(());
        }
        let mut decls = Vec::new();
        for d in &ids {
            let mut ctors = Vec::new();
            for (tag, c) in prog.data(*d).ctors.iter().enumerate() {
                let r = CtorRef { data: *d, tag: tag as u32 };
                let mut parts = vec![ctx.atom(ctor_name(r))];
                for (i, f) in c.fields.iter().enumerate() {
                    // Every field of an encodable datatype has a sort (`Sorts::of`).
                    let Some(sort) = self.sort(ctx, f) else {
                        return Err(std::io::Error::other(format!("a field of `{}` has no sort", prog.data(*d).name)));
                    };
                    parts.push(ctx.list(vec![ctx.atom(selector_name(r, i)), sort]));
                }
                ctors.push(ctx.list(parts));
            }
            decls.push(ctx.list(ctors));
        }
        ctx.declare_datatypes(ids.iter().map(|d| (data_name(*d), 0)), decls)
    }
}

fn field_ok(encodable: &[bool], ty: &Ty) -> bool {
    match ty {
        Ty::Bool | Ty::Nat | Ty::Int => true,
        Ty::Data(d) => encodable[d.0 as usize],
        Ty::Fun(..) | Ty::Set(_) => false,
    }
}

fn data_name(d: DataId) -> String {
    format!("D{}", d.0)
}

fn ctor_name(c: CtorRef) -> String {
    format!("D{}_{}", c.data.0, c.tag)
}

/// `((_ is C) x)`: whether `x` is built by constructor `r`.
fn is_ctor(c: &Context, r: CtorRef, x: SExpr) -> SExpr {
    c.list(vec![c.list(vec![c.atom("_"), c.atom("is"), c.atom(ctor_name(r))]), x])
}

fn selector_name(c: CtorRef, field: usize) -> String {
    format!("D{}_{}_{}", c.data.0, c.tag, field)
}

/// A variable of function type the solver chooses: an uninterpreted function of its
/// (curried) arguments, each with a sort, into a sort without `nat`s inside a datatype (a
/// model's `nat` must not be negative, and only a number result can be constrained at each
/// application).
#[derive(Clone, Debug)]
pub struct FunVar {
    pub sym: SExpr,
    pub args: Vec<Ty>,
    pub ret: Ty,
}

impl FunVar {
    /// `ty`'s function variable, if it is one: arguments with sorts, the result a truth
    /// value, a number, or a datatype with a sort and no `nat` inside.
    pub fn of(ctx: &Context, prog: &Program, sorts: &Sorts, sym: SExpr, ty: &Ty) -> Option<FunVar> {
        let (args, ret) = ty.uncurry();
        let ret_ok = match ret {
            Ty::Bool | Ty::Nat | Ty::Int => true,
            Ty::Data(_) => sorts.sort(ctx, ret).is_some() && !prog.type_contains(ret, &|t| *t == Ty::Nat),
            _ => false,
        };
        let args_ok = !args.is_empty() && args.iter().all(|a| sorts.sort(ctx, a).is_some());
        (args_ok && ret_ok).then(|| FunVar { sym, args: args.into_iter().cloned().collect(), ret: ret.clone() })
    }
}

/// Whether a variable of type `ty` has an encoding: a sort, or a function variable's type.
pub fn encodable(ctx: &Context, prog: &Program, sorts: &Sorts, ty: &Ty) -> bool {
    sorts.sort(ctx, ty).is_some() || FunVar::of(ctx, prog, sorts, ctx.false_(), ty).is_some()
}

/// A value of `ty` to stand where a model says nothing (a function variable's value away
/// from the points the parts apply it to): `False`, 0, or a datatype's first constructor
/// that needs no value of its own type, on such fields.
pub fn default_value(prog: &Program, ty: &Ty) -> Option<Value> {
    fn go(prog: &Program, ty: &Ty, depth: usize) -> Option<Value> {
        match ty {
            Ty::Bool => Some(Value::Bool(false)),
            Ty::Nat | Ty::Int => Some(Value::int(0)),
            Ty::Data(d) if depth > 0 => prog.data(*d).ctors.iter().enumerate().find_map(|(tag, c)| {
                let fields = c.fields.iter().map(|f| go(prog, f, depth - 1)).collect::<Option<Vec<_>>>()?;
                Some(Value::ctor(tag as u32, fields))
            }),
            _ => None,
        }
    }
    go(prog, ty, 16)
}

/// A conjecture variable as an argument of a part: a constant of its sort, or function
/// variable number `i` of the `funs` passed along.
#[derive(Clone, Copy, Debug)]
pub enum Arg {
    Term(SExpr),
    Fun(usize),
}

/// The encoding of a part.
pub struct Encoded {
    pub term: SExpr,
    /// The conditions under which a call past the unrolling is reached: each must be false.
    pub cuts: Vec<SExpr>,
    /// The fresh constants (cut calls' values, underspecified values, named terms), with
    /// their sorts, to declare.
    pub fresh: Vec<(String, SExpr)>,
    /// Each application of a function variable: its symbol and the arguments' terms (where
    /// a model's function is read).
    pub apps: Vec<(SExpr, Vec<SExpr>)>,
    /// Facts to assert with the term: the definitions of named terms, and that a `nat`
    /// function's value at each point it is applied to is ≥ 0.
    pub side: Vec<SExpr>,
}

/// The term of `f` applied to `args` (the body of a conjecture's part over its variables),
/// each recursive function unrolled `unroll` calls deep; `prefix` names its fresh
/// constants apart from other parts'. Each `(v, t)` of `bound`, in order, puts `t` applied
/// to the arguments in variable `v`'s place (a premise `f = t` binding a function variable,
/// whose equation has no encoding: the part reads `t` where it reads `f`).
#[allow(clippy::too_many_arguments)]
pub fn call(
    ctx: &Context,
    prog: &Program,
    sorts: &Sorts,
    f: FunId,
    args: &[Arg],
    funs: &[FunVar],
    bound: &[(usize, FunId)],
    unroll: usize,
    prefix: &str,
) -> Result<Encoded, String> {
    let mut e = Encoder {
        ctx,
        prog,
        sorts,
        funs,
        apps: Vec::new(),
        side: Vec::new(),
        inlining: Vec::new(),
        unfolding: Vec::new(),
        unroll,
        path: Vec::new(),
        cuts: Vec::new(),
        fresh: Vec::new(),
        prefix,
        calls: 0,
    };
    let mut args: Vec<Sym> = args
        .iter()
        .map(|a| match a {
            Arg::Term(t) => Sym::Term(*t),
            Arg::Fun(i) => Sym::FunVar(*i, Rc::new(Vec::new())),
        })
        .collect();
    for (v, t) in bound {
        let value = e.call(*t, args.clone())?;
        args[*v] = value;
    }
    let term = e.call(f, args)?;
    let term = e.term(term)?;
    Ok(Encoded { term, cuts: e.cuts, fresh: e.fresh, apps: e.apps, side: e.side })
}

/// What an expression encodes to.
#[derive(Clone)]
enum Sym<'p> {
    /// A value of a sort.
    Term(SExpr),
    /// A finite set: its possible elements, each present when its guard holds.
    Set(Rc<Vec<(SExpr, SExpr)>>),
    /// Function variable number `i`, applied to the arguments so far.
    FunVar(usize, Rc<Vec<SExpr>>),
    /// A function value applied to fewer arguments than it takes.
    Closure(Rc<Closure<'p>>),
}

struct Closure<'p> {
    code: Code<'p>,
    args: Vec<Sym<'p>>,
}

enum Code<'p> {
    Fun(FunId),
    Lambda { params: &'p [(VarId, Ty)], body: &'p Expr, env: Env<'p> },
}

type Env<'p> = HashMap<VarId, Sym<'p>>;

struct Encoder<'a> {
    ctx: &'a Context,
    prog: &'a Program,
    sorts: &'a Sorts,
    funs: &'a [FunVar],
    apps: Vec<(SExpr, Vec<SExpr>)>,
    side: Vec<SExpr>,
    /// The functions being inlined, innermost last.
    inlining: Vec<FunId>,
    /// The inductive predicates being unfolded, innermost last.
    unfolding: Vec<PredId>,
    /// How many calls of one function deep a recursion is unrolled.
    unroll: usize,
    /// The conditions of the branches around the term being encoded.
    path: Vec<SExpr>,
    cuts: Vec<SExpr>,
    fresh: Vec<(String, SExpr)>,
    prefix: &'a str,
    calls: usize,
}

/// Whether `t` is more than an atom or a negative numeral (worth a name when used twice).
fn compound(c: &Context, t: SExpr) -> bool {
    match c.get(t) {
        SExprData::List([minus, n]) => !(c.get_atom(*minus) == Some("-") && c.get_atom(*n).is_some()),
        SExprData::List(_) => true,
        _ => false,
    }
}

/// A set of guarded elements, unless it has grown past `MAX_SET`.
fn set_sym<'p>(elems: Vec<(SExpr, SExpr)>) -> Result<Sym<'p>, String> {
    if elems.len() > MAX_SET {
        return Err(format!("a set of more than {MAX_SET} possible elements"));
    }
    Ok(Sym::Set(Rc::new(elems)))
}

/// The conjunction of `ts` (`true` when there are none).
pub fn all(c: &Context, ts: Vec<SExpr>) -> SExpr {
    match ts.len() {
        0 => c.true_(),
        1 => ts[0],
        _ => c.and_many(ts),
    }
}

/// The disjunction of `ts` (`false` when there are none).
pub fn any(c: &Context, ts: Vec<SExpr>) -> SExpr {
    match ts.len() {
        0 => c.false_(),
        1 => ts[0],
        _ => c.or_many(ts),
    }
}

impl<'a> Encoder<'a> {
    fn call(&mut self, f: FunId, args: Vec<Sym<'a>>) -> Result<Sym<'a>, String> {
        let def = self.prog.fun(f);
        if self.inlining.iter().filter(|g| **g == f).count() >= self.unroll {
            // Past the unrolling: any value, on condition that evaluation never gets here.
            self.cuts.push(all(self.ctx, self.path.clone()));
            return match &def.ret {
                Ty::Set(_) => Ok(Sym::Set(Rc::new(Vec::new()))),
                ty => self
                    .fresh_value(ty)
                    .map(Sym::Term)
                    .map_err(|_| format!("`{}` returns a value without an encoding", def.name)),
            };
        }
        self.calls += 1;
        if self.calls > MAX_CALLS {
            return Err(format!("unrolling `{}` inlines more than {MAX_CALLS} calls", def.name));
        }
        if self.inlining.len() >= MAX_INLINE_DEPTH {
            return Err(format!("calls nested deeper than {MAX_INLINE_DEPTH} at `{}`", def.name));
        }
        if def.params.len() != args.len() {
            return Err(format!("`{}` applied to {} of its {} arguments", def.name, args.len(), def.params.len()));
        }
        let mut env = Env::with_capacity(args.len());
        for ((v, ty), a) in def.params.iter().zip(args) {
            let a = self.named(a, ty)?;
            env.insert(*v, a);
        }
        self.inlining.push(f);
        let body = self.expr(&def.body, &env, Some(&def.ret));
        self.inlining.pop();
        body
    }

    /// A fresh constant of `ty`'s sort.
    fn fresh_value(&mut self, ty: &Ty) -> Result<SExpr, String> {
        let sort = self.sorts.sort(self.ctx, ty).ok_or_else(|| format!("a value of type {ty:?} has no encoding"))?;
        let name = format!("{}k{}", self.prefix, self.fresh.len());
        self.fresh.push((name.clone(), sort));
        Ok(self.ctx.atom(name))
    }

    /// `s`, a compound term replaced by a fresh constant equal to it (so that a value used
    /// several times is printed once).
    fn named(&mut self, s: Sym<'a>, ty: &Ty) -> Result<Sym<'a>, String> {
        match s {
            Sym::Term(t) if compound(self.ctx, t) && self.sorts.sort(self.ctx, ty).is_some() => {
                let k = self.fresh_value(ty)?;
                self.side.push(self.ctx.eq(k, t));
                Ok(Sym::Term(k))
            }
            s => Ok(s),
        }
    }

    fn term(&self, s: Sym) -> Result<SExpr, String> {
        match s {
            Sym::Term(t) => Ok(t),
            Sym::Set(_) => Err("a set where a value of a sort was expected".into()),
            Sym::FunVar(..) | Sym::Closure(_) => Err("a function value compared or computed with".into()),
        }
    }

    fn set(&self, s: Sym<'a>) -> Result<Rc<Vec<(SExpr, SExpr)>>, String> {
        match s {
            Sym::Set(s) => Ok(s),
            _ => Err("a set expected".into()),
        }
    }

    /// `e` where `cond` holds (a branch: calls cut inside it are reached only then).
    fn branch(&mut self, cond: SExpr, e: &'a Expr, env: &Env<'a>, ty: Option<&Ty>) -> Result<Sym<'a>, String> {
        self.path.push(cond);
        let r = self.expr(e, env, ty);
        self.path.pop();
        r
    }

    /// `if c then a else b`.
    fn ite(&self, c: SExpr, a: Sym<'a>, b: Sym<'a>) -> Result<Sym<'a>, String> {
        let ctx = self.ctx;
        Ok(match (a, b) {
            (Sym::Term(a), Sym::Term(b)) => Sym::Term(ctx.ite(c, a, b)),
            (Sym::Set(a), Sym::Set(b)) => {
                let not = ctx.not(c);
                let guarded =
                    a.iter().map(|(g, x)| (ctx.and(c, *g), *x)).chain(b.iter().map(|(g, x)| (ctx.and(not, *g), *x)));
                set_sym(guarded.collect())?
            }
            _ => return Err("a function value chosen by a condition".into()),
        })
    }

    /// `x ∈ A`.
    fn member(&self, x: SExpr, a: &[(SExpr, SExpr)]) -> SExpr {
        let c = self.ctx;
        any(c, a.iter().map(|(g, e)| c.and(*g, c.eq(x, *e))).collect())
    }

    /// `A ⊆ B`.
    fn subset(&self, a: &[(SExpr, SExpr)], b: &[(SExpr, SExpr)]) -> SExpr {
        let c = self.ctx;
        all(c, a.iter().map(|(g, e)| c.imp(*g, self.member(*e, b))).collect())
    }

    /// The elements a quantifier or comprehension over `ty` ranges over: the guarded
    /// elements of its domain, or every value of a finite type.
    fn range(&mut self, ty: &Ty, domain: Option<&'a Expr>, env: &Env<'a>) -> Result<Rc<Vec<(SExpr, SExpr)>>, String> {
        if let Some(d) = domain {
            let d = self.expr(d, env, None)?;
            return self.set(d);
        }
        let values = lang::interp::enumerate(self.prog, ty)
            .filter(|vs| vs.len() <= MAX_EXPANSION)
            .ok_or_else(|| "a quantifier over an infinite (or large) type".to_string())?;
        let t = self.ctx.true_();
        let terms = values.iter().map(|v| value_term(self.ctx, self.prog, self.sorts, v, ty).map(|x| (t, x)));
        Ok(Rc::new(terms.collect::<Option<Vec<_>>>().ok_or("a quantifier over a type without an encoding")?))
    }

    /// The body of a quantifier or comprehension at each element of its range, each
    /// encoded where the element's guard holds.
    fn over(
        &mut self,
        var: VarId,
        range: &[(SExpr, SExpr)],
        body: &'a Expr,
        env: &Env<'a>,
    ) -> Result<Vec<SExpr>, String> {
        let mut env = env.clone();
        let mut out = Vec::with_capacity(range.len());
        for (g, x) in range {
            env.insert(var, Sym::Term(*x));
            let b = self.branch(*g, body, &env, Some(&Ty::Bool))?;
            out.push(self.term(b)?);
        }
        Ok(out)
    }

    fn expr(&mut self, e: &'a Expr, env: &Env<'a>, ty: Option<&Ty>) -> Result<Sym<'a>, String> {
        let c = self.ctx;
        Ok(match e {
            Expr::Var(v) => env.get(v).cloned().ok_or_else(|| format!("variable {v:?} has no encoding"))?,
            Expr::Lit(Lit::Bool(b)) => Sym::Term(if *b { c.true_() } else { c.false_() }),
            Expr::Lit(Lit::Nat(n)) => Sym::Term(c.atom(n.to_string())),
            Expr::Lit(Lit::Int(n)) => Sym::Term(int(c, n)),
            Expr::If(g, t, f) => {
                let g = self.expr(g, env, Some(&Ty::Bool))?;
                // Named: the condition is copied into the path of every call cut inside
                // either branch, and a conjunction's left side (`∀y∈keys l. y < x ∧ …`) is
                // large (a red-black tree query at size 5 was 874 MB of such copies).
                let Sym::Term(g) = self.named(g, &Ty::Bool)? else { return Err("a truth value expected".into()) };
                let t = self.branch(g, t, env, ty)?;
                let f = self.branch(c.not(g), f, env, ty)?;
                self.ite(g, t, f)?
            }
            Expr::Let(v, vty, rhs, body) => {
                let rhs = self.expr(rhs, env, Some(vty))?;
                let rhs = self.named(rhs, vty)?;
                let mut env = env.clone();
                env.insert(*v, rhs);
                self.expr(body, &env, ty)?
            }
            Expr::NatCase { scrut, zero, pred, succ } => {
                let n = self.expr(scrut, env, Some(&Ty::Nat))?;
                let Sym::Term(n) = self.named(n, &Ty::Nat)? else { return Err("a number expected".into()) };
                let is_zero = c.eq(n, c.numeral(0));
                let zero = self.branch(is_zero, zero, env, ty)?;
                let mut env = env.clone();
                env.insert(*pred, Sym::Term(c.sub(n, c.numeral(1))));
                let succ = self.branch(c.not(is_zero), succ, &env, ty)?;
                self.ite(is_zero, zero, succ)?
            }
            Expr::Case { scrut, data, alts, default } => {
                let dty = Ty::Data(*data);
                if self.sorts.sort(c, &dty).is_none() {
                    return Err(format!("a value of `{}`, a datatype without an encoding", self.prog.data(*data).name));
                }
                let s = self.expr(scrut, env, Some(&dty))?;
                let s = self.named(s, &dty)?;
                let s = self.term(s)?;
                let mut arms: Vec<(SExpr, Sym<'a>)> = Vec::new();
                for alt in alts {
                    let r = CtorRef { data: *data, tag: alt.tag };
                    let cond = is_ctor(c, r, s);
                    let mut env = env.clone();
                    for (i, b) in alt.binders.iter().enumerate() {
                        env.insert(*b, Sym::Term(c.list(vec![c.atom(selector_name(r, i)), s])));
                    }
                    let body = self.branch(cond, &alt.body, &env, ty)?;
                    arms.push((cond, body));
                }
                if let Some(d) = default {
                    let cond = c.not(any(c, arms.iter().map(|(g, _)| *g).collect()));
                    let body = self.branch(cond, d, env, ty)?;
                    arms.push((cond, body));
                }
                let (_, mut out) = arms.pop().ok_or("a `case` without alternatives")?;
                while let Some((cond, arm)) = arms.pop() {
                    out = self.ite(cond, arm, out)?;
                }
                out
            }
            Expr::Ctor(r, args) => {
                let fields = &self.prog.ctor(*r).fields;
                if self.sorts.sort(c, &Ty::Data(r.data)).is_none() {
                    return Err(format!(
                        "a value of `{}`, a datatype without an encoding",
                        self.prog.data(r.data).name
                    ));
                }
                let mut terms = vec![c.atom(ctor_name(*r))];
                for (a, fty) in args.iter().zip(fields) {
                    let a = self.expr(a, env, Some(fty))?;
                    terms.push(self.term(a)?);
                }
                Sym::Term(if terms.len() == 1 { terms[0] } else { c.list(terms) })
            }
            Expr::Call(f, args) => {
                let params = &self.prog.fun(*f).params;
                let mut syms = Vec::with_capacity(args.len());
                for (i, a) in args.iter().enumerate() {
                    syms.push(self.expr(a, env, params.get(i).map(|(_, t)| t))?);
                }
                self.call(*f, syms)?
            }
            Expr::Prim(p, args) => self.prim(p, args, env)?,
            Expr::FunRef(f) => Sym::Closure(Rc::new(Closure { code: Code::Fun(*f), args: Vec::new() })),
            Expr::Lambda(params, body) => Sym::Closure(Rc::new(Closure {
                code: Code::Lambda { params, body, env: env.clone() },
                args: Vec::new(),
            })),
            Expr::Apply(g, args) => {
                let mut g = self.expr(g, env, None)?;
                for (i, a) in args.iter().enumerate() {
                    let aty = self.next_param(&g);
                    let a = self.expr(a, env, aty.as_ref())?;
                    g = self.apply(g, a, if i + 1 == args.len() { ty } else { None })?;
                }
                g
            }
            Expr::Quant { q, var, ty: vty, domain, body } => {
                let range = self.range(vty, domain.as_deref(), env)?;
                let holds = self.over(*var, &range, body, env)?;
                let guards = range.iter().map(|(g, _)| *g);
                match q {
                    Quant::All => Sym::Term(all(c, guards.zip(holds).map(|(g, b)| c.imp(g, b)).collect())),
                    Quant::Ex => Sym::Term(any(c, guards.zip(holds).map(|(g, b)| c.and(g, b)).collect())),
                    Quant::Ex1 => {
                        let sat: Vec<SExpr> = guards.zip(holds).map(|(g, b)| c.and(g, b)).collect();
                        let unique = |i: usize| {
                            let others =
                                (0..sat.len()).filter(|j| *j != i).map(|j| c.imp(sat[j], c.eq(range[j].1, range[i].1)));
                            all(c, std::iter::once(sat[i]).chain(others).collect())
                        };
                        Sym::Term(any(c, (0..sat.len()).map(unique).collect()))
                    }
                }
            }
            Expr::SetCompr { var, ty: vty, domain, body } => {
                let range = self.range(vty, domain.as_deref(), env)?;
                let holds = self.over(*var, &range, body, env)?;
                Sym::Set(Rc::new(range.iter().zip(holds).map(|((g, x), b)| (c.and(*g, b), *x)).collect()))
            }
            Expr::Pred(p, args) => {
                let params = &self.prog.inductive(*p).params;
                let mut syms = Vec::with_capacity(args.len());
                for (a, ty) in args.iter().zip(params) {
                    let a = self.expr(a, env, Some(ty))?;
                    syms.push(self.named(a, ty)?);
                }
                self.pred(*p, &syms)?
            }
            Expr::Undefined(_) => {
                let ty = ty.ok_or("an underspecified value of unknown type")?;
                Sym::Term(self.fresh_value(ty)?)
            }
        })
    }

    /// An inductive predicate applied to `args`, unfolded: some clause whose conclusion
    /// matches the arguments has its premises hold, recursion unfolded `unroll` levels deep
    /// (a premise past it is cut: never reached by a model). A clause's variables are read
    /// off its conclusion (constructors, `Suc`, literals inverted), so the encoding holds
    /// under negation too; a clause with a variable only in its premises (`star r x y ⟹
    /// star r y z ⟹ star r x z`) has no encoding.
    fn pred(&mut self, p: PredId, args: &[Sym<'a>]) -> Result<Sym<'a>, String> {
        let c = self.ctx;
        let def = self.prog.inductive(p);
        if self.unfolding.iter().filter(|q| **q == p).count() >= self.unroll {
            self.cuts.push(all(c, self.path.clone()));
            return self.fresh_value(&Ty::Bool).map(Sym::Term);
        }
        self.calls += 1;
        if self.calls > MAX_CALLS {
            return Err(format!("unfolding `{}` takes more than {MAX_CALLS} steps", def.name));
        }
        let mut cases = Vec::with_capacity(def.clauses.len());
        for clause in &def.clauses {
            let (mut env, mut conds, mut later) = (Env::new(), Vec::new(), Vec::new());
            for (pat, a) in clause.head.iter().zip(args) {
                self.invert(pat, a.clone(), &mut env, &mut conds, &mut later)?;
            }
            if clause.vars.iter().any(|(v, _)| !env.contains_key(v)) {
                return Err(format!(
                    "an inductive predicate (`{}`) with a clause variable only in its premises",
                    def.name
                ));
            }
            for (pat, x) in later {
                let t = self.expr(pat, &env, None)?;
                conds.push(c.eq(x, self.term(t)?));
            }
            let matches = all(c, conds);
            self.path.push(matches);
            self.unfolding.push(p);
            let premises: Result<Vec<SExpr>, String> = clause
                .premises
                .iter()
                .map(|prem| self.expr(prem, &env, Some(&Ty::Bool)).and_then(|s| self.term(s)))
                .collect();
            self.unfolding.pop();
            self.path.pop();
            cases.push(all(c, std::iter::once(matches).chain(premises?).collect()));
        }
        Ok(Sym::Term(any(c, cases)))
    }

    /// Matches `x` against `pat`, a clause's conclusion argument: binds its variables in
    /// `env`, collects the conditions of the match; a term that is no pattern (`n + 2`) is
    /// compared once every variable is bound (`later`).
    fn invert(
        &mut self,
        pat: &'a Expr,
        x: Sym<'a>,
        env: &mut Env<'a>,
        conds: &mut Vec<SExpr>,
        later: &mut Vec<(&'a Expr, SExpr)>,
    ) -> Result<(), String> {
        let c = self.ctx;
        match pat {
            Expr::Var(v) => match env.get(v) {
                Some(Sym::Term(t)) => conds.push(c.eq(*t, self.term(x)?)),
                Some(_) => return Err("an inductive clause repeating a function or set variable".into()),
                None => {
                    env.insert(*v, x);
                }
            },
            Expr::Ctor(r, fields) => {
                let x = self.term(x)?;
                conds.push(is_ctor(c, *r, x));
                for (i, f) in fields.iter().enumerate() {
                    let sel = c.list(vec![c.atom(selector_name(*r, i)), x]);
                    self.invert(f, Sym::Term(sel), env, conds, later)?;
                }
            }
            Expr::Prim(Prim::Suc, args) if args.len() == 1 => {
                let x = self.term(x)?;
                conds.push(c.gte(x, c.numeral(1)));
                self.invert(&args[0], Sym::Term(c.sub(x, c.numeral(1))), env, conds, later)?;
            }
            _ => later.push((pat, self.term(x)?)),
        }
        Ok(())
    }

    /// The type of the next argument a function value takes, where known.
    fn next_param(&self, g: &Sym) -> Option<Ty> {
        match g {
            Sym::FunVar(i, applied) => self.funs[*i].args.get(applied.len()).cloned(),
            Sym::Closure(cl) => match &cl.code {
                Code::Fun(f) => self.prog.fun(*f).params.get(cl.args.len()).map(|(_, t)| t.clone()),
                Code::Lambda { params, .. } => params.get(cl.args.len()).map(|(_, t)| t.clone()),
            },
            _ => None,
        }
    }

    /// `g a`: a function variable's application, or one more argument of a closure, which
    /// runs once it has all of them.
    fn apply(&mut self, g: Sym<'a>, a: Sym<'a>, ty: Option<&Ty>) -> Result<Sym<'a>, String> {
        match g {
            Sym::FunVar(i, applied) => {
                let fv = &self.funs[i];
                let mut args = (*applied).clone();
                args.push(self.term(a)?);
                if args.len() < fv.args.len() {
                    return Ok(Sym::FunVar(i, Rc::new(args)));
                }
                let (sym, nat) = (fv.sym, fv.ret == Ty::Nat);
                let app = self.ctx.list(std::iter::once(sym).chain(args.iter().copied()).collect());
                self.apps.push((sym, args));
                if nat {
                    self.side.push(self.ctx.gte(app, self.ctx.numeral(0)));
                }
                Ok(Sym::Term(app))
            }
            Sym::Closure(cl) => {
                let mut args = cl.args.clone();
                args.push(a);
                match &cl.code {
                    Code::Fun(f) if args.len() == self.prog.fun(*f).params.len() => self.call(*f, args),
                    Code::Lambda { params, body, env } if args.len() == params.len() => {
                        let mut env = env.clone();
                        for ((v, pty), a) in params.iter().zip(args) {
                            let a = self.named(a, pty)?;
                            env.insert(*v, a);
                        }
                        self.expr(body, &env, ty)
                    }
                    Code::Fun(f) => Ok(Sym::Closure(Rc::new(Closure { code: Code::Fun(*f), args }))),
                    Code::Lambda { params, body, env } => Ok(Sym::Closure(Rc::new(Closure {
                        code: Code::Lambda { params, body, env: env.clone() },
                        args,
                    }))),
                }
            }
            _ => Err("a value applied that is not a function".into()),
        }
    }

    fn prim(&mut self, p: &Prim, args: &'a [Expr], env: &Env<'a>) -> Result<Sym<'a>, String> {
        let c = self.ctx;
        let mut syms = Vec::with_capacity(args.len());
        for a in args {
            syms.push(self.expr(a, env, None)?);
        }
        let mut syms = syms.into_iter();
        let mut next = || syms.next().ok_or_else(|| format!("{p:?} without its arguments"));
        let set_of = |this: &Self, s: Result<Sym<'a>, String>| s.and_then(|s| this.set(s));
        Ok(match p {
            Prim::SetEmpty(_) => Sym::Set(Rc::new(Vec::new())),
            Prim::SetUniv(t) => Sym::Set(self.range(t, None, env)?),
            Prim::SetInsert(_) => {
                let x = self.term(next()?)?;
                let a = set_of(self, next())?;
                set_sym(std::iter::once((c.true_(), x)).chain(a.iter().copied()).collect())?
            }
            Prim::SetMember(_) => {
                let x = self.term(next()?)?;
                let a = set_of(self, next())?;
                Sym::Term(self.member(x, &a))
            }
            Prim::SetUnion(_) => {
                let (a, b) = (set_of(self, next())?, set_of(self, next())?);
                set_sym(a.iter().chain(b.iter()).copied().collect())?
            }
            Prim::SetInter(_) | Prim::SetDiff(_) => {
                let (a, b) = (set_of(self, next())?, set_of(self, next())?);
                let inter = matches!(p, Prim::SetInter(_));
                let keep = |x: SExpr| if inter { self.member(x, &b) } else { c.not(self.member(x, &b)) };
                Sym::Set(Rc::new(a.iter().map(|(g, x)| (c.and(*g, keep(*x)), *x)).collect()))
            }
            Prim::SetCompl(t) => {
                let a = set_of(self, next())?;
                let univ = self.range(t, None, env)?;
                Sym::Set(Rc::new(univ.iter().map(|(_, x)| (c.not(self.member(*x, &a)), *x)).collect()))
            }
            // Every set here is finite.
            Prim::SetFinite(_) => Sym::Term(c.true_()),
            Prim::SetToList(_) => return Err("a set's sorted list of elements".into()),
            Prim::Eq(Ty::Set(_)) | Prim::Le(Ty::Set(_)) | Prim::Lt(Ty::Set(_)) => {
                let (a, b) = (set_of(self, next())?, set_of(self, next())?);
                let (sub, sup) = (self.subset(&a, &b), self.subset(&b, &a));
                Sym::Term(match p {
                    Prim::Eq(_) => c.and(sub, sup),
                    Prim::Le(_) => sub,
                    _ => c.and(sub, c.not(sup)),
                })
            }
            Prim::Eq(ty) if self.sorts.sort(c, ty).is_some() => {
                let (a, b) = (self.term(next()?)?, self.term(next()?)?);
                Sym::Term(c.eq(a, b))
            }
            _ => {
                let mut terms = Vec::with_capacity(args.len());
                while let Ok(s) = next() {
                    terms.push(self.term(s)?);
                }
                Sym::Term(prim(c, p, &terms)?)
            }
        })
    }
}

/// An integer literal (SMT-LIB writes a negative one as `(- n)`).
pub fn int(c: &Context, n: &num_bigint::BigInt) -> SExpr {
    if n.sign() == num_bigint::Sign::Minus {
        c.negate(c.atom((-n).to_string()))
    } else {
        c.atom(n.to_string())
    }
}

/// The term of a value of `ty` (a truth value, a number, a datatype value).
pub fn value_term(c: &Context, prog: &Program, sorts: &Sorts, v: &Value, ty: &Ty) -> Option<SExpr> {
    sorts.sort(c, ty)?;
    Some(match (v, ty) {
        (Value::Bool(true), Ty::Bool) => c.true_(),
        (Value::Bool(false), Ty::Bool) => c.false_(),
        (Value::Int(i), Ty::Nat | Ty::Int) => int(c, &i.to_bigint()),
        (Value::Ctor(tag, _), Ty::Data(d)) => {
            let r = CtorRef { data: *d, tag: *tag };
            let name = c.atom(ctor_name(r));
            if v.fields().is_empty() {
                return Some(name);
            }
            let mut parts = vec![name];
            for (f, fty) in v.fields().iter().zip(&prog.ctor(r).fields) {
                parts.push(value_term(c, prog, sorts, f, fty)?);
            }
            c.list(parts)
        }
        _ => return None,
    })
}

/// A model's value of type `ty`: a truth value, an integer (`(- n)` when negative), or a
/// datatype value (a constructor applied to its fields, as z3 prints it, `let`s included).
pub fn decode(c: &Context, prog: &Program, e: SExpr, ty: &Ty) -> Option<Value> {
    decode_in(c, prog, e, ty, &HashMap::new())
}

fn decode_in(c: &Context, prog: &Program, e: SExpr, ty: &Ty, lets: &HashMap<String, SExpr>) -> Option<Value> {
    if let Some(a) = c.get_atom(e) {
        if let Some(bound) = lets.get(a) {
            return decode_in(c, prog, *bound, ty, lets);
        }
    }
    if let SExprData::List([head, binds, body]) = c.get(e) {
        if c.get_atom(*head) == Some("let") {
            let mut lets = lets.clone();
            for b in c.get_list(*binds)? {
                let [name, value] = c.get_list(*b)? else { return None };
                lets.insert(c.get_atom(*name)?.to_owned(), *value);
            }
            return decode_in(c, prog, *body, ty, &lets);
        }
    }
    match ty {
        Ty::Bool => match c.get_atom(e)? {
            "true" => Some(Value::Bool(true)),
            "false" => Some(Value::Bool(false)),
            _ => None,
        },
        // A negative `nat` is no value of its type (a field the encoding left unconstrained).
        Ty::Nat => match decode_in(c, prog, e, &Ty::Int, lets)? {
            Value::Int(i) if i.is_negative() => None,
            v => Some(v),
        },
        Ty::Int => match c.get(e) {
            SExprData::Atom(a) => a.parse::<num_bigint::BigInt>().ok().map(|n| Value::Int(Int::from(n))),
            SExprData::List([minus, n]) if c.get_atom(*minus) == Some("-") => match decode_in(c, prog, *n, ty, lets)? {
                Value::Int(i) => Some(Value::Int(Int::from(-i.to_bigint()))),
                _ => None,
            },
            _ => None,
        },
        Ty::Data(d) => {
            let (head, fields) = match c.get(e) {
                SExprData::Atom(_) => (e, &[][..]),
                SExprData::List([head, fields @ ..]) => (*head, fields),
                _ => return None,
            };
            let name = c.get_atom(head)?;
            let dd = prog.data(*d);
            let tag = (0..dd.ctors.len()).find(|t| ctor_name(CtorRef { data: *d, tag: *t as u32 }) == name)?;
            let ctor = &dd.ctors[tag];
            if ctor.fields.len() != fields.len() {
                return None;
            }
            let vals = fields
                .iter()
                .zip(&ctor.fields)
                .map(|(f, fty)| decode_in(c, prog, *f, fty, lets))
                .collect::<Option<Vec<_>>>()?;
            Some(Value::ctor(tag as u32, vals))
        }
        Ty::Fun(..) | Ty::Set(_) => None,
    }
}

fn prim(c: &Context, p: &Prim, a: &[SExpr]) -> Result<SExpr, String> {
    let arg = |i: usize| a.get(i).copied().ok_or_else(|| format!("{p:?} without its arguments"));
    let zero = c.numeral(0);
    Ok(match p {
        Prim::Add(_) => c.plus(arg(0)?, arg(1)?),
        Prim::Sub(NumTy::Nat) => {
            let (x, y) = (arg(0)?, arg(1)?);
            c.ite(c.gte(x, y), c.sub(x, y), zero)
        }
        Prim::Sub(NumTy::Int) => c.sub(arg(0)?, arg(1)?),
        Prim::Mul(_) => c.times(arg(0)?, arg(1)?),
        Prim::Div(t) => {
            let (x, y) = (arg(0)?, arg(1)?);
            c.ite(c.eq(y, zero), zero, floor_div(c, *t, x, y))
        }
        Prim::Mod(t) => {
            let (x, y) = (arg(0)?, arg(1)?);
            // `x - y * (x div y)`, which for `nat` and a positive divisor is SMT-LIB's `mod`.
            let m = match t {
                NumTy::Nat => c.modulo(x, y),
                NumTy::Int => c.sub(x, c.times(y, floor_div(c, *t, x, y))),
            };
            c.ite(c.eq(y, zero), x, m)
        }
        Prim::Neg => c.negate(arg(0)?),
        Prim::Suc => c.plus(arg(0)?, c.numeral(1)),
        Prim::IntOfNat => arg(0)?,
        Prim::NatOfInt => {
            let x = arg(0)?;
            c.ite(c.gte(x, zero), x, zero)
        }
        Prim::Not => c.not(arg(0)?),
        Prim::Lt(Ty::Bool) => c.and(c.not(arg(0)?), arg(1)?),
        Prim::Le(Ty::Bool) => c.or(c.not(arg(0)?), arg(1)?),
        Prim::Lt(Ty::Nat | Ty::Int) => c.lt(arg(0)?, arg(1)?),
        Prim::Le(Ty::Nat | Ty::Int) => c.lte(arg(0)?, arg(1)?),
        Prim::Eq(_) | Prim::Lt(_) | Prim::Le(_) => return Err("a comparison of values without an encoding".into()),
        _ => return Err(format!("{p:?} on values without an encoding")),
    })
}

/// `x div y` rounding toward −∞, for `y ≠ 0`. SMT-LIB's `div` is Euclidean: the same for a
/// positive divisor; for a negative one, `x div y = (-x) div (-y)`.
fn floor_div(c: &Context, t: NumTy, x: SExpr, y: SExpr) -> SExpr {
    match t {
        NumTy::Nat => c.div(x, y),
        NumTy::Int => c.ite(c.gt(y, c.numeral(0)), c.div(x, y), c.div(c.negate(x), c.negate(y))),
    }
}

/// That `x`, a value of `ty`, lies within generator size `size` as the exhaustive tester
/// counts it (`crate::space`): a datatype value of depth at most `size` (a pair's
/// components of the pair's size), every `nat` in it not negative, and, with `numbers`,
/// every number at most `size` in magnitude. `None` when the condition would need more
/// than `budget` more nodes (a tree type at a large size).
pub fn within(
    c: &Context,
    prog: &Program,
    ty: &Ty,
    size: u64,
    numbers: bool,
    x: SExpr,
    budget: &mut usize,
) -> Option<SExpr> {
    *budget = budget.checked_sub(1)?;
    let n = c.atom(size.to_string());
    Some(match ty {
        Ty::Bool => c.true_(),
        Ty::Nat if numbers => c.and(c.lte(c.numeral(0), x), c.lte(x, n)),
        Ty::Nat => c.lte(c.numeral(0), x),
        Ty::Int if numbers => c.and(c.lte(c.negate(n), x), c.lte(x, n)),
        Ty::Int => c.true_(),
        Ty::Data(d) => {
            let dd = prog.data(*d);
            if dd.ctors.iter().all(|k| k.fields.is_empty()) {
                return Some(c.true_());
            }
            if size == 0 {
                return Some(c.false_());
            }
            let field_size = if dd.name == "prod" { size } else { size - 1 };
            let mut alts = Vec::new();
            for (tag, k) in dd.ctors.iter().enumerate() {
                let r = CtorRef { data: *d, tag: tag as u32 };
                let mut conds = vec![is_ctor(c, r, x)];
                for (i, f) in k.fields.iter().enumerate() {
                    let sel = c.list(vec![c.atom(selector_name(r, i)), x]);
                    conds.push(within(c, prog, f, field_size, numbers, sel, budget)?);
                }
                alts.push(all(c, conds));
            }
            any(c, alts)
        }
        Ty::Fun(..) | Ty::Set(_) => return None,
    })
}

/// The magnitudes of the numbers in `x`, a value of `ty`, down to depth `size` (as deep as
/// `within` bounds it), each a term that is 0 where the value has no such number: their sum
/// is what a smaller counterexample makes smaller. `None` past `budget` nodes.
pub fn magnitudes(c: &Context, prog: &Program, ty: &Ty, size: u64, x: SExpr, budget: &mut usize) -> Option<Vec<SExpr>> {
    *budget = budget.checked_sub(1)?;
    let zero = c.numeral(0);
    Some(match ty {
        Ty::Nat => vec![x],
        Ty::Int => vec![c.ite(c.lt(x, zero), c.negate(x), x)],
        Ty::Data(d) if size > 0 => {
            let dd = prog.data(*d);
            let field_size = if dd.name == "prod" { size } else { size - 1 };
            let mut out = Vec::new();
            for (tag, k) in dd.ctors.iter().enumerate() {
                let r = CtorRef { data: *d, tag: tag as u32 };
                for (i, f) in k.fields.iter().enumerate() {
                    let sel = c.list(vec![c.atom(selector_name(r, i)), x]);
                    for m in magnitudes(c, prog, f, field_size, sel, budget)? {
                        out.push(c.ite(is_ctor(c, r, x), m, zero));
                    }
                }
            }
            out
        }
        _ => Vec::new(),
    })
}
