//! The core IR as SMT-LIB terms: `bool` as `Bool`, `nat` and `int` as unbounded `Int` (a
//! `nat` variable constrained to be ≥ 0), with Isabelle's arithmetic where SMT-LIB's
//! differs: truncated `nat` subtraction, `div`/`mod` by zero (`x div 0 = 0`, `x mod 0 =
//! x`), and `int` division rounding toward −∞ with the remainder taking the divisor's sign
//! (SMT-LIB's is Euclidean). Functions are inlined, a recursive one unrolled to a bound:
//! a call past it is a fresh value under a *cut*, the condition under which evaluation
//! reaches it, which the tester asserts false, so no model rests on a call that was not
//! unrolled. What has no encoding here (a datatype, a set, a function value) is an `Err`
//! naming it, and the tester checks that part after decoding instead.
//!
//! What it does not know: the solver process, models, the tester's loop.

use easy_smt::{Context, SExpr};
use lang::core::ir::{Expr, FunId, Lit, NumTy, Prim, Program, Ty, VarId};
use std::collections::HashMap;

/// How deep calls are inlined before the encoding gives up (a bound on long chains of
/// definitions; recursion is bounded by the unrolling).
const MAX_INLINE_DEPTH: usize = 256;

/// The most calls one encoding inlines: a function recursing twice per call doubles its
/// term with every level of unrolling.
const MAX_CALLS: usize = 20_000;

/// The encoding of a part.
pub struct Encoded {
    pub term: SExpr,
    /// The conditions under which a call past the unrolling is reached: each must be false.
    pub cuts: Vec<SExpr>,
    /// The fresh constants standing for those calls' values, with their sorts, to declare.
    pub fresh: Vec<(String, SExpr)>,
    /// Each application of a function variable: its symbol and the argument's term (where
    /// a model's function is read).
    pub apps: Vec<(SExpr, SExpr)>,
    /// Facts of the encoding's terms to assert with it: a `nat` function's value at each
    /// point it is applied to is ≥ 0.
    pub side: Vec<SExpr>,
}

/// The argument and result sorts of a function of type `ty`, if it is a function of one
/// argument between types with a sort (a variable of this type is an uninterpreted
/// function of the solver).
pub fn fun_sort(ctx: &Context, ty: &Ty) -> Option<(SExpr, SExpr)> {
    match ty {
        Ty::Fun(a, r) => Some((sort(ctx, a)?, sort(ctx, r)?)),
        _ => None,
    }
}

/// Whether a value of type `ty` has an encoding: a sort, or a function between sorts.
pub fn encodable(ctx: &Context, ty: &Ty) -> bool {
    sort(ctx, ty).is_some() || fun_sort(ctx, ty).is_some()
}

/// The sort of a value of `ty`, if it has one here.
pub fn sort(ctx: &Context, ty: &Ty) -> Option<SExpr> {
    match ty {
        Ty::Bool => Some(ctx.bool_sort()),
        Ty::Nat | Ty::Int => Some(ctx.int_sort()),
        _ => None,
    }
}

/// The term of `f` applied to `args` (the body of a conjecture's part over its variables),
/// each recursive function unrolled `unroll` calls deep; `prefix` names its fresh
/// constants apart from other parts'. `funs` are the arguments that are function symbols
/// (function variables).
pub fn call(
    ctx: &Context,
    prog: &Program,
    f: FunId,
    args: &[SExpr],
    funs: &[(SExpr, bool)],
    unroll: usize,
    prefix: &str,
) -> Result<Encoded, String> {
    let mut e = Encoder {
        ctx,
        prog,
        funs,
        apps: Vec::new(),
        side: Vec::new(),
        inlining: Vec::new(),
        unroll,
        path: Vec::new(),
        cuts: Vec::new(),
        fresh: Vec::new(),
        prefix,
        calls: 0,
    };
    let term = e.call(f, args)?;
    Ok(Encoded { term, cuts: e.cuts, fresh: e.fresh, apps: e.apps, side: e.side })
}

struct Encoder<'a> {
    ctx: &'a Context,
    prog: &'a Program,
    /// The function symbols (function variables), with whether each gives `nat`s.
    funs: &'a [(SExpr, bool)],
    apps: Vec<(SExpr, SExpr)>,
    side: Vec<SExpr>,
    /// The functions being inlined, innermost last.
    inlining: Vec<FunId>,
    /// How many calls of one function deep a recursion is unrolled.
    unroll: usize,
    /// The conditions of the branches around the term being encoded.
    path: Vec<SExpr>,
    cuts: Vec<SExpr>,
    fresh: Vec<(String, SExpr)>,
    prefix: &'a str,
    calls: usize,
}

type Env = HashMap<VarId, SExpr>;

impl Encoder<'_> {
    fn call(&mut self, f: FunId, args: &[SExpr]) -> Result<SExpr, String> {
        let def = self.prog.fun(f);
        if self.inlining.iter().filter(|g| **g == f).count() >= self.unroll {
            // Past the unrolling: any value, on condition that evaluation never gets here.
            let Some(sort) = sort(self.ctx, &def.ret) else {
                return Err(format!("`{}` returns a value of a type without an encoding", def.name));
            };
            let name = format!("{}cut{}", self.prefix, self.fresh.len());
            self.fresh.push((name.clone(), sort));
            let reached = match self.path.as_slice() {
                [] => self.ctx.true_(),
                [c] => *c,
                cs => self.ctx.and_many(cs.iter().copied()),
            };
            self.cuts.push(reached);
            return Ok(self.ctx.atom(name));
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
        if let Some((_, t)) = def.params.iter().find(|(_, t)| !encodable(self.ctx, t)) {
            return Err(format!("`{}` takes a value of a type without an encoding ({t:?})", def.name));
        }
        let env: Env = def.params.iter().map(|(v, _)| *v).zip(args.iter().copied()).collect();
        self.inlining.push(f);
        let body = self.expr(&def.body, &env);
        self.inlining.pop();
        body
    }

    /// Whether `t` is a function variable's symbol (not a value of a sort).
    fn is_fun(&self, t: &SExpr) -> bool {
        self.funs.iter().any(|(f, _)| f == t)
    }

    /// `e` where `cond` holds (a branch: calls cut inside it are reached only then).
    fn branch(&mut self, cond: SExpr, e: &Expr, env: &Env) -> Result<SExpr, String> {
        self.path.push(cond);
        let r = self.expr(e, env);
        self.path.pop();
        r
    }

    fn expr(&mut self, e: &Expr, env: &Env) -> Result<SExpr, String> {
        let c = self.ctx;
        Ok(match e {
            Expr::Var(v) => *env.get(v).ok_or_else(|| format!("variable {v:?} is not a number or truth value"))?,
            Expr::Lit(Lit::Bool(b)) => {
                if *b {
                    c.true_()
                } else {
                    c.false_()
                }
            }
            Expr::Lit(Lit::Nat(n)) => c.atom(n.to_string()),
            Expr::Lit(Lit::Int(n)) => int(c, n),
            Expr::If(g, t, f) => {
                let g = self.expr(g, env)?;
                let t = self.branch(g, t, env)?;
                let f = self.branch(c.not(g), f, env)?;
                if self.is_fun(&t) || self.is_fun(&f) {
                    return Err("a function variable chosen by a condition".into());
                }
                c.ite(g, t, f)
            }
            Expr::Let(v, ty, rhs, body) => {
                if sort(c, ty).is_none() {
                    return Err(format!("a `let` of a type without an encoding ({ty:?})"));
                }
                let rhs = self.expr(rhs, env)?;
                let mut env = env.clone();
                env.insert(*v, rhs);
                self.expr(body, &env)?
            }
            Expr::NatCase { scrut, zero, pred, succ } => {
                let n = self.expr(scrut, env)?;
                let is_zero = c.eq(n, c.numeral(0));
                let zero = self.branch(is_zero, zero, env)?;
                let mut env = env.clone();
                env.insert(*pred, c.sub(n, c.numeral(1)));
                let succ = self.branch(c.not(is_zero), succ, &env)?;
                c.ite(is_zero, zero, succ)
            }
            Expr::Call(f, args) => {
                let args = args.iter().map(|a| self.expr(a, env)).collect::<Result<Vec<_>, _>>()?;
                self.call(*f, &args)?
            }
            Expr::Prim(p, args) => {
                let args = args.iter().map(|a| self.expr(a, env)).collect::<Result<Vec<_>, _>>()?;
                if args.iter().any(|a| self.is_fun(a)) {
                    return Err("a function variable compared or computed with".into());
                }
                prim(c, p, &args)?
            }
            Expr::Undefined(_) => return Err("an underspecified value (`undefined`)".into()),
            Expr::Ctor(..) | Expr::Case { .. } => return Err("a datatype value".into()),
            Expr::Apply(g, args) => {
                let sym = match &**g {
                    Expr::Var(v) => env.get(v).and_then(|s| self.funs.iter().find(|(f, _)| f == s)).copied(),
                    _ => None,
                };
                let (Some((sym, nat)), [arg]) = (sym, args.as_slice()) else {
                    return Err("a function value applied (other than a function variable to one argument)".into());
                };
                let arg = self.expr(arg, env)?;
                self.apps.push((sym, arg));
                let app = c.list(vec![sym, arg]);
                if nat {
                    self.side.push(c.gte(app, c.numeral(0)));
                }
                app
            }
            Expr::FunRef(_) | Expr::Lambda(..) => return Err("a function value".into()),
            Expr::Quant { .. } | Expr::SetCompr { .. } => return Err("a quantifier or set".into()),
            Expr::Pred(..) => return Err("an inductive predicate".into()),
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

fn prim(c: &Context, p: &Prim, a: &[SExpr]) -> Result<SExpr, String> {
    let arg = |i: usize| a.get(i).copied().ok_or_else(|| format!("{p:?} without its arguments"));
    let zero = c.numeral(0);
    let numeric = |ty: &Ty| matches!(ty, Ty::Nat | Ty::Int | Ty::Bool);
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
        Prim::Eq(ty) if numeric(ty) => c.eq(arg(0)?, arg(1)?),
        Prim::Lt(Ty::Bool) => c.and(c.not(arg(0)?), arg(1)?),
        Prim::Le(Ty::Bool) => c.or(c.not(arg(0)?), arg(1)?),
        Prim::Lt(Ty::Nat | Ty::Int) => c.lt(arg(0)?, arg(1)?),
        Prim::Le(Ty::Nat | Ty::Int) => c.lte(arg(0)?, arg(1)?),
        Prim::SetEmpty(_)
        | Prim::SetUniv(_)
        | Prim::SetInsert(_)
        | Prim::SetMember(_)
        | Prim::SetUnion(_)
        | Prim::SetInter(_)
        | Prim::SetDiff(_)
        | Prim::SetCompl(_)
        | Prim::SetToList(_)
        | Prim::SetFinite(_) => return Err("a set".into()),
        Prim::Eq(_) | Prim::Lt(_) | Prim::Le(_) => return Err("a comparison of values without an encoding".into()),
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
