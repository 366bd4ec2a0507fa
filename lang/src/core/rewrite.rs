//! What the compiled-code passes (`specialize`, `set_quantifiers`) share: running a rewrite
//! over every function body, including the functions a pass appends on the way, and the
//! renaming and beta reduction their copies are built with.

use super::ir::*;
use std::collections::HashMap;

/// A pass over a program's function bodies that may append functions as it goes.
pub(crate) trait BodyPass {
    fn program(&mut self) -> &mut Program;
    /// Rewrites the body of function `f`. The body is a copy: the program still holds the
    /// original meanwhile, so the pass may read any function, this one included.
    fn rewrite(&mut self, f: usize, body: &mut Expr);
}

/// Runs `pass` over every function, those it appends included, each after the ones before.
pub(crate) fn run(pass: &mut impl BodyPass) {
    let mut i = 0;
    while i < pass.program().funs.len() {
        let mut body = pass.program().funs[i].body.clone();
        pass.rewrite(i, &mut body);
        pass.program().funs[i].body = body;
        i += 1;
    }
}

/// `e` with its bound variables renumbered from 0 in binding order: equal for closures
/// that differ only in variable names (the memo key; keeps mutual recursion finite).
pub(crate) fn canonical(e: &Expr) -> Expr {
    let mut c = e.clone();
    rename_bound(&mut c, &mut HashMap::new(), &mut 0);
    c
}

/// `(λps. body) args` as a chain of lets, which evaluates the arguments in order, then the
/// body. The parameters must be fresh (not free in any argument).
pub(crate) fn beta(ps: &[(VarId, Ty)], body: Expr, args: Vec<Expr>) -> Expr {
    let mut out = body;
    for ((v, t), a) in ps.iter().zip(args).rev() {
        out = Expr::Let(*v, t.clone(), Box::new(a), Box::new(out));
    }
    out
}

/// Renames every variable bound in `e` to a fresh one from `next` on (`map` holds the
/// renamings in scope; free variables stay).
pub(crate) fn rename_bound(e: &mut Expr, map: &mut HashMap<VarId, VarId>, next: &mut u32) {
    fn fresh(v: &mut VarId, map: &mut HashMap<VarId, VarId>, next: &mut u32) {
        let n = VarId(*next);
        *next += 1;
        map.insert(*v, n);
        *v = n;
    }
    match e {
        Expr::Var(v) => {
            if let Some(n) = map.get(v) {
                *v = *n;
            }
        }
        Expr::Lambda(ps, body) => {
            ps.iter_mut().for_each(|(v, _)| fresh(v, map, next));
            rename_bound(body, map, next);
        }
        Expr::Let(v, _, rhs, body) => {
            rename_bound(rhs, map, next);
            fresh(v, map, next);
            rename_bound(body, map, next);
        }
        Expr::Case { scrut, alts, default, .. } => {
            rename_bound(scrut, map, next);
            for alt in alts {
                alt.binders.iter_mut().for_each(|v| fresh(v, map, next));
                rename_bound(&mut alt.body, map, next);
            }
            if let Some(d) = default {
                rename_bound(d, map, next);
            }
        }
        Expr::NatCase { scrut, zero, pred, succ } => {
            rename_bound(scrut, map, next);
            rename_bound(zero, map, next);
            fresh(pred, map, next);
            rename_bound(succ, map, next);
        }
        Expr::Quant { var, domain, body, .. } | Expr::SetCompr { var, domain, body, .. } => {
            if let Some(d) = domain {
                rename_bound(d, map, next);
            }
            fresh(var, map, next);
            rename_bound(body, map, next);
        }
        _ => e.for_each_child_mut(&mut |c| rename_bound(c, map, next)),
    }
}
