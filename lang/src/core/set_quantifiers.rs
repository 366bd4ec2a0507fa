//! Quantifiers over sets built by recursive functions, for compiled code.
//!
//! `∀y ∈ tset l. y < x`, with `tset (T l x r) = tset l ∪ {x} ∪ tset r`, builds the set of a
//! whole subtree to test each element once. Distributing the quantifier over the set's
//! construction (`∀y∈A ∪ B. P` is `(∀y∈A. P) ∧ (∀y∈B. P)`, `∀y∈insert a A. P` is
//! `P a ∧ (∀y∈A. P)`, `∀y∈{}. P` is `True`; `∃` dually) turns it into a walk: a copy of
//! `tset` per quantified predicate, `tset.all0 l x`, that builds no set and stops at the
//! first counterexample. Set expressions of other forms (intersections, comprehensions,
//! variables) keep the quantifier over the built set.
//!
//! The truth value is the same; what can differ is which of several undefined or
//! non-terminating parts is reached first, as with any short-circuit. Compiled code runs
//! the result (`codegen` applies it), and so do the smart generators' relations (a walk
//! with its bound as input fuses into the predicate that builds the walked value,
//! `core::fuse`); the interpreter runs the program as lowered and re-checks every
//! counterexample.

use super::ir::*;
use super::rewrite::{self, BodyPass};

/// At most this many walking copies per program.
const MAX_WALKS: usize = 256;

/// Replaces every `∀`/`∃` of `p` over a call of a set-valued function by a call of a walking
/// copy of that function (appended; existing functions keep their ids and parameters).
/// Whether there was such a quantifier.
pub fn apply(p: &mut Program) -> bool {
    let mut d = Distributor { p, walks: Vec::new() };
    // Walks are rewritten in turn too: their fallbacks may hold quantifiers of their own.
    rewrite::run(&mut d);
    !d.walks.is_empty()
}

/// `apply` on a copy of `p`; `None` when there is no such quantifier.
pub fn distribute_set_quantifiers(p: &Program) -> Option<Program> {
    let mut q = p.clone();
    apply(&mut q).then_some(q)
}

struct Distributor<'p> {
    p: &'p mut Program,
    /// Walks made: the set function, the quantifier, the walk. A walk takes the set
    /// function's parameters and then the predicate, as a closure.
    walks: Vec<(FunId, Quant, FunId)>,
}

impl BodyPass for Distributor<'_> {
    fn program(&mut self) -> &mut Program {
        self.p
    }

    fn rewrite(&mut self, _: usize, body: &mut Expr) {
        self.rewrite(body);
    }
}

impl Distributor<'_> {
    /// Replaces the quantifiers over set-function calls in `e`.
    fn rewrite(&mut self, e: &mut Expr) {
        e.for_each_child_mut(&mut |c| self.rewrite(c));
        let Expr::Quant { q, var, ty, domain: Some(dom), body } = e else { return };
        let Expr::Call(g, args) = &mut **dom else { return };
        let Some(walk) = self.walk(*g, *q) else { return };
        let pred =
            Expr::Lambda(vec![(*var, ty.clone())], std::mem::replace(body, Box::new(Expr::Lit(Lit::Bool(false)))));
        let mut args = std::mem::take(args);
        args.push(pred);
        *e = Expr::Call(walk, args);
    }

    /// The walk of set function `g` for quantifier `q`, made on first use; `None` when `g`
    /// does not return a set, `q` is `∃!`, or the walks are used up.
    fn walk(&mut self, g: FunId, q: Quant) -> Option<FunId> {
        if let Some((_, _, w)) = self.walks.iter().find(|(f, k, _)| *f == g && *k == q) {
            return Some(*w);
        }
        let f = self.p.fun(g).clone();
        let Ty::Set(elem) = &f.ret else { return None };
        if q == Quant::Ex1 || self.walks.len() >= MAX_WALKS {
            return None;
        }
        let id = FunId(self.p.funs.len() as u32);
        self.walks.push((g, q, id));
        // A placeholder, so that the walks this one calls get the ids after it.
        self.p.funs.push(FunDef {
            name: format!("{}.{}{}", f.name, if q == Quant::All { "all" } else { "ex" }, self.walks.len() - 1),
            params: vec![],
            ret: Ty::Bool,
            body: Expr::Lit(Lit::Bool(false)),
            num_vars: 0,
        });
        let pred = VarId(f.num_vars);
        let mut w = Walk { d: self, q, elem: (**elem).clone(), pred, next: f.num_vars + 1 };
        let body = w.set(f.body);
        let next = w.next;
        let mut params = f.params;
        params.push((pred, Ty::Fun(elem.clone(), Box::new(Ty::Bool))));
        let def = &mut self.p.funs[id.0 as usize];
        def.params = params;
        def.body = body;
        def.num_vars = next;
        Some(id)
    }
}

/// Turns one set-valued body into the truth of `q y ∈ it. pred y`.
struct Walk<'d, 'p> {
    d: &'d mut Distributor<'p>,
    q: Quant,
    elem: Ty,
    /// The walk's predicate parameter.
    pred: VarId,
    next: u32,
}

impl Walk<'_, '_> {
    fn set(&mut self, e: Expr) -> Expr {
        let all = self.q == Quant::All;
        match e {
            Expr::Prim(Prim::SetEmpty(_), _) => Expr::Lit(Lit::Bool(all)),
            Expr::Prim(Prim::SetInsert(_), mut xs) if xs.len() == 2 => {
                let rest = xs.pop().expect("two arguments");
                let x = xs.pop().expect("two arguments");
                let here = Expr::Apply(Box::new(Expr::Var(self.pred)), vec![x]);
                let rest = self.set(rest);
                self.combine(here, rest)
            }
            Expr::Prim(Prim::SetUnion(_), mut xs) if xs.len() == 2 => {
                let b = xs.pop().expect("two arguments");
                let a = xs.pop().expect("two arguments");
                let a = self.set(a);
                let b = self.set(b);
                self.combine(a, b)
            }
            Expr::Call(g, mut args) if matches!(self.d.p.fun(g).ret, Ty::Set(_)) => match self.d.walk(g, self.q) {
                Some(w) => {
                    args.push(Expr::Var(self.pred));
                    Expr::Call(w, args)
                }
                None => self.fallback(Expr::Call(g, args)),
            },
            Expr::If(c, a, b) => Expr::If(c, Box::new(self.set(*a)), Box::new(self.set(*b))),
            Expr::Let(v, t, rhs, body) => Expr::Let(v, t, rhs, Box::new(self.set(*body))),
            Expr::Case { scrut, data, alts, default } => Expr::Case {
                scrut,
                data,
                alts: alts
                    .into_iter()
                    .map(|a| Alt { tag: a.tag, binders: a.binders, body: self.set(a.body) })
                    .collect(),
                default: default.map(|d| Box::new(self.set(*d))),
            },
            Expr::NatCase { scrut, zero, pred, succ } => {
                Expr::NatCase { scrut, zero: Box::new(self.set(*zero)), pred, succ: Box::new(self.set(*succ)) }
            }
            Expr::Undefined(u) => Expr::Undefined(u),
            other => self.fallback(other),
        }
    }

    /// `a ∧ b` for `∀`, `a ∨ b` for `∃`, evaluated left to right.
    fn combine(&self, a: Expr, b: Expr) -> Expr {
        let (t, f) =
            if self.q == Quant::All { (b, Expr::Lit(Lit::Bool(false))) } else { (Expr::Lit(Lit::Bool(true)), b) };
        Expr::If(Box::new(a), Box::new(t), Box::new(f))
    }

    /// The quantifier over the built set.
    fn fallback(&mut self, set: Expr) -> Expr {
        let y = VarId(self.next);
        self.next += 1;
        Expr::Quant {
            q: self.q,
            var: y,
            ty: self.elem.clone(),
            domain: Some(Box::new(set)),
            body: Box::new(Expr::Apply(Box::new(Expr::Var(self.pred)), vec![Expr::Var(y)])),
        }
    }
}
