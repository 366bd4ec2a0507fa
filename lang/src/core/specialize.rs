//! Specialisation of higher-order functions for known closure arguments, for compiled code.
//!
//! `fold f xs a` passes `f` on unchanged in its recursive call: a *static* parameter. A call
//! `fold (λx s. x # s) xs []` with a closed λ (or a top-level function, `FunRef`) there gets a
//! copy of `fold` without that parameter, its uses replaced by the λ, and `λ` applied to
//! arguments beta-reduced into `let`s, so each step is a direct computation instead of a
//! closure call (the code equation `rev xs = fold Cons xs []` runs as a loop that conses).
//! Calls inside the copies are specialised in turn, up to a fixed number of copies.
//!
//! The program means the same; only compiled code runs the result (`codegen` applies it),
//! the interpreter runs the program as lowered, and the differential tests compare the two.

use super::ir::*;
use super::rewrite::{self, beta, canonical, rename_bound, BodyPass};
use std::collections::HashMap;

/// At most this many specialised copies per program (each is compiled: compile time).
const MAX_COPIES: usize = 256;

/// Redirects the calls of `p` that pass a known closure for a static parameter to
/// specialised copies (appended; existing functions keep their ids and parameters).
/// Whether there was such a call.
pub fn apply(p: &mut Program) -> bool {
    let statics = p.funs.iter().enumerate().map(|(i, f)| statics(FunId(i as u32), f)).collect();
    let mut s = Specializer { p, statics, copies: Vec::new(), types: HashMap::new() };
    rewrite::run(&mut s);
    !s.copies.is_empty()
}

/// `apply` on a copy of `p`; `None` when there is nothing to specialise.
pub fn specialize_closure_args(p: &Program) -> Option<Program> {
    let mut q = p.clone();
    apply(&mut q).then_some(q)
}

struct Specializer<'p> {
    p: &'p mut Program,
    /// Per function, per parameter: passed on unchanged by every self-call, and a function.
    statics: Vec<Vec<bool>>,
    copies: Vec<Copy>,
    /// The type of every variable of the function being rewritten.
    types: HashMap<VarId, Ty>,
}

/// A specialised copy of function `of` with the parameters at `fixed` replaced.
struct Copy {
    of: FunId,
    fixed: Vec<Fixed>,
    id: FunId,
}

/// A closure fixed for a parameter: `λc1 .. ck x1 .. xn. body` in canonical form, closed,
/// whose first `captures` parameters are the variables the closure captures at the call
/// (passed to the copy as extra arguments, after its own).
#[derive(Clone, PartialEq)]
struct Fixed {
    param: usize,
    closure: Expr,
    captures: usize,
}

impl BodyPass for Specializer<'_> {
    fn program(&mut self) -> &mut Program {
        self.p
    }

    fn rewrite(&mut self, f: usize, body: &mut Expr) {
        self.types = binder_types(&self.p.funs[f], self.p);
        self.rewrite_calls(body);
    }
}

impl Specializer<'_> {
    /// Redirects every call in `e` that passes a known closure for a static parameter.
    fn rewrite_calls(&mut self, e: &mut Expr) {
        e.for_each_child_mut(&mut |c| self.rewrite_calls(c));
        let Expr::Call(g, args) = e else { return };
        let Some(st) = self.statics.get(g.0 as usize) else { return };
        let mut fixed = Vec::new();
        let mut captured = Vec::new();
        for (i, a) in args.iter().enumerate() {
            if let Some((closure, caps)) = st[i].then(|| self.known_closure(a)).flatten() {
                fixed.push(Fixed { param: i, closure: canonical(&closure), captures: caps.len() });
                captured.extend(caps.into_iter().map(Expr::Var));
            }
        }
        if fixed.is_empty() {
            return;
        }
        let copy = match self.copies.iter().find(|c| c.of == *g && c.fixed == fixed) {
            Some(c) => c.id,
            None if self.copies.len() < MAX_COPIES => self.copy(*g, fixed.clone()),
            None => return,
        };
        let kept = std::mem::take(args).into_iter().enumerate().filter(|(i, _)| !fixed.iter().any(|f| f.param == *i));
        *e = Expr::Call(copy, kept.map(|(_, a)| a).chain(captured).collect());
    }

    /// A closure whose code is known where it is written, closed over what it captures:
    /// a top-level function, or a λ whose free variables have known types (`λc1 .. ck x.
    /// body`, with the captured variables `c1 .. ck`).
    fn known_closure(&self, e: &Expr) -> Option<(Expr, Vec<VarId>)> {
        match e {
            Expr::FunRef(_) => Some((e.clone(), Vec::new())),
            Expr::Lambda(ps, body) => {
                let mut free = std::collections::BTreeSet::new();
                super::ir::free_vars(e, &mut Vec::new(), &mut free);
                let caps: Vec<VarId> = free.into_iter().map(VarId).collect();
                let mut all = Vec::new();
                for c in &caps {
                    all.push((*c, self.types.get(c)?.clone()));
                }
                all.extend(ps.iter().cloned());
                Some((Expr::Lambda(all, body.clone()), caps))
            }
            _ => None,
        }
    }

    /// A copy of `g` with the parameters at `fixed` replaced by their closures; what the
    /// closures capture becomes parameters after `g`'s own.
    fn copy(&mut self, g: FunId, fixed: Vec<Fixed>) -> FunId {
        let id = FunId(self.p.funs.len() as u32);
        let f = self.p.fun(g).clone();
        self.copies.push(Copy { of: g, fixed: fixed.clone(), id });
        let is_fixed = |i: usize| fixed.iter().any(|k| k.param == i);
        let mut params: Vec<(VarId, Ty)> =
            f.params.iter().enumerate().filter(|(i, _)| !is_fixed(*i)).map(|(_, p)| p.clone()).collect();
        let mut next = f.num_vars;
        // Each closure with its captures bound to the copy's new parameters.
        let mut by_var: HashMap<VarId, Expr> = HashMap::new();
        let mut capture_params = Vec::new();
        for k in &fixed {
            let closure = match &k.closure {
                Expr::Lambda(ps, body) => {
                    let caps: Vec<(VarId, Ty)> = ps[..k.captures]
                        .iter()
                        .map(|(_, t)| {
                            next += 1;
                            (VarId(next - 1), t.clone())
                        })
                        .collect();
                    // The closure is canonical, its variables numbered from 0 like the
                    // copy's own: when it captures, it is renamed apart (from `next` on,
                    // past the capture parameters), as `beta` puts those parameters under
                    // its binders. Else `λc1 c2 x. c1 (c2 x)`, numbered `λv0 v1 v2`, with
                    // captures passed in `v2` and `v3`, became `λv2. let v0 = v2 in ..`:
                    // `c1` bound to the argument `x`, and compiled code applied a number.
                    let (mut ps, mut body) = (ps.clone(), (**body).clone());
                    if k.captures > 0 {
                        let mut renamed = HashMap::new();
                        for (v, _) in ps.iter_mut() {
                            renamed.insert(*v, VarId(next));
                            *v = VarId(next);
                            next += 1;
                        }
                        rename_bound(&mut body, &mut renamed, &mut next);
                    }
                    let args = caps.iter().map(|(v, _)| Expr::Var(*v)).collect();
                    capture_params.extend(caps);
                    let inner = beta(&ps[..k.captures], body, args);
                    Expr::Lambda(ps[k.captures..].to_vec(), Box::new(inner))
                }
                other => other.clone(),
            };
            by_var.insert(f.params[k.param].0, closure);
        }
        // The copy's self-calls drop the fixed arguments (the same variables, by staticness)
        // and pass the captures on.
        let mut body = f.body.clone();
        let passed: Vec<Expr> = capture_params.iter().map(|(v, _)| Expr::Var(*v)).collect();
        redirect_self_calls(&mut body, g, id, &|i| is_fixed(i), &passed);
        params.extend(capture_params);
        substitute(&mut body, &by_var, &mut next, self.p);
        let name = format!("{}.spec{}", f.name, self.copies.len() - 1);
        self.p.funs.push(FunDef { name, params, ret: f.ret, body, num_vars: next });
        self.statics.push(statics(id, &self.p.funs[id.0 as usize]));
        id
    }
}

/// Which parameters of `f` (with id `id`) are functions passed on unchanged by every
/// self-call and never rebound.
fn statics(id: FunId, f: &FunDef) -> Vec<bool> {
    let mut st: Vec<bool> = f.params.iter().map(|(_, t)| matches!(t, Ty::Fun(..))).collect();
    fn go(e: &Expr, id: FunId, f: &FunDef, st: &mut Vec<bool>) {
        if let Expr::Call(g, args) = e {
            if *g == id {
                for (i, a) in args.iter().enumerate() {
                    if *a != Expr::Var(f.params[i].0) {
                        st[i] = false;
                    }
                }
            }
        }
        e.for_each_child(&mut |c, binders| {
            for (i, (v, _)) in f.params.iter().enumerate() {
                if binders.contains(v) {
                    st[i] = false;
                }
            }
            go(c, id, f, st)
        });
    }
    go(&f.body, id, f, &mut st);
    st
}

fn redirect_self_calls(e: &mut Expr, g: FunId, copy: FunId, is_fixed: &dyn Fn(usize) -> bool, passed: &[Expr]) {
    e.for_each_child_mut(&mut |c| redirect_self_calls(c, g, copy, is_fixed, passed));
    if let Expr::Call(f, args) = e {
        if *f == g {
            let kept = std::mem::take(args).into_iter().enumerate().filter(|(i, _)| !is_fixed(*i));
            *e = Expr::Call(copy, kept.map(|(_, a)| a).chain(passed.iter().cloned()).collect());
        }
    }
}

/// The type of every variable `f` binds (its parameters, λ parameters, lets, case binders,
/// quantified variables).
fn binder_types(f: &FunDef, p: &Program) -> HashMap<VarId, Ty> {
    fn go(e: &Expr, p: &Program, m: &mut HashMap<VarId, Ty>) {
        match e {
            Expr::Lambda(ps, _) => m.extend(ps.iter().cloned()),
            Expr::Let(v, t, ..) => {
                m.insert(*v, t.clone());
            }
            Expr::Case { data, alts, .. } => {
                for a in alts {
                    let fields = &p.data(*data).ctors[a.tag as usize].fields;
                    m.extend(a.binders.iter().copied().zip(fields.iter().cloned()));
                }
            }
            Expr::NatCase { pred, .. } => {
                m.insert(*pred, Ty::Nat);
            }
            Expr::Quant { var, ty, .. } | Expr::SetCompr { var, ty, .. } => {
                m.insert(*var, ty.clone());
            }
            _ => {}
        }
        e.for_each_child(&mut |c, _| go(c, p, m));
    }
    let mut m: HashMap<VarId, Ty> = f.params.iter().cloned().collect();
    go(&f.body, p, &mut m);
    m
}

/// Replaces each variable of `by_var` by a fresh copy of its closure (bound variables
/// renamed from `next` on), beta-reducing the applications this makes direct.
fn substitute(e: &mut Expr, by_var: &HashMap<VarId, Expr>, next: &mut u32, p: &Program) {
    if let Expr::Var(v) = e {
        if let Some(k) = by_var.get(v) {
            let mut k = k.clone();
            rename_bound(&mut k, &mut HashMap::new(), next);
            *e = k;
        }
        return;
    }
    e.for_each_child_mut(&mut |c| substitute(c, by_var, next, p));
    if let Expr::Apply(f, args) = e {
        match &mut **f {
            Expr::FunRef(h) if p.fun(*h).params.len() == args.len() => *e = Expr::Call(*h, std::mem::take(args)),
            Expr::Lambda(ps, body) if ps.len() == args.len() => {
                let body = std::mem::replace(&mut **body, Expr::Lit(Lit::Bool(false)));
                *e = beta(ps, body, std::mem::take(args));
            }
            _ => {}
        }
    }
}
