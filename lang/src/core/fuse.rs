//! Fusion of conjunctions, for the smart generators: `rb_ordered t ∧ rb_red t ∧ rb_black t`
//! becomes one call of a predicate that holds when all three do, defined by one case on
//! `t` whose alternatives are the conjunctions of the three alternatives, so its recursive
//! calls on the subtrees are again one call of the fused predicate.
//!
//! Why: run backwards, a conjunction of predicates on one variable produces the variable
//! from one of them and checks the rest on whole values (every ordered tree, its colours
//! checked at the end), where the fused predicate builds only values whose parts already
//! satisfy all of them (each subtree a red-black tree before its parent is built): the
//! search prunes at every level instead of at the top.
//!
//! What is fused: in a conjunction (`∧` is lowered as `if a then b else False`), the calls
//! on one variable of two or more *structural* predicates (one parameter of a datatype, a
//! boolean result, a body that is one case on the parameter); and two conjuncts that are
//! cases on the same variable (`case p of (a, c) ⇒ A` and `case p of (a', c') ⇒ B`: one
//! case whose alternative is `A ∧ B`, so the calls inside meet in one conjunction).
//!
//! A fused predicate holds exactly when the conjunction does; only which conjunct an
//! evaluation looks at first changes, so an undefined conjunct may be met where the
//! original stopped at a false one (an undecided goal, never a different truth value).
//! The pass is for the smart generators' copy of the program; the interpreter and compiled
//! code run the program as lowered.

use super::ir::*;
use super::rewrite::{self, rename_bound, BodyPass};
use std::collections::HashMap;

/// At most this many fused predicates per program.
const MAX_FUSED: usize = 64;

/// Replaces the conjunctions of structural predicates on one variable in `p` by fused
/// predicates (appended; existing functions keep their ids). Whether it fused any.
pub fn apply(p: &mut Program) -> bool {
    let mut f = Fuser { p, fused: HashMap::new() };
    rewrite::run(&mut f);
    !f.fused.is_empty()
}

struct Fuser<'p> {
    p: &'p mut Program,
    /// The fused predicate of each set of predicates (sorted).
    fused: HashMap<Vec<FunId>, FunId>,
}

impl BodyPass for Fuser<'_> {
    fn program(&mut self) -> &mut Program {
        self.p
    }

    fn rewrite(&mut self, _f: usize, body: &mut Expr) {
        self.expr(body);
    }
}

/// Whether `e` is `a ∧ b` as lowered.
fn is_and(e: &Expr) -> bool {
    matches!(e, Expr::If(_, _, f) if **f == Expr::Lit(Lit::Bool(false)))
}

/// The conjuncts of `e`, left to right.
fn conjuncts(e: Expr, out: &mut Vec<Expr>) {
    match e {
        Expr::If(a, b, f) if *f == Expr::Lit(Lit::Bool(false)) => {
            conjuncts(*a, out);
            conjuncts(*b, out);
        }
        e => out.push(e),
    }
}

/// The conjunction of `cs` (`True` when empty), as `∧` is lowered.
pub fn conjunction(mut cs: Vec<Expr>) -> Expr {
    let Some(mut out) = cs.pop() else { return Expr::Lit(Lit::Bool(true)) };
    while let Some(c) = cs.pop() {
        out = Expr::If(Box::new(c), Box::new(out), Box::new(Expr::Lit(Lit::Bool(false))));
    }
    out
}

/// Replaces the variables of `e` that `map` renames (they are free in `e`: bound ones have
/// other numbers).
fn rename_free(e: &mut Expr, map: &HashMap<VarId, VarId>) {
    if let Expr::Var(v) = e {
        if let Some(w) = map.get(v) {
            *v = *w;
        }
    }
    e.for_each_child_mut(&mut |c| rename_free(c, map));
}

/// The datatype that `f` cases on when it is a structural predicate: one parameter of a
/// datatype, a boolean result, a body that is one case on the parameter.
pub fn structural(p: &Program, f: FunId) -> Option<DataId> {
    let def = p.funs.get(f.0 as usize)?;
    let [(param, Ty::Data(d))] = def.params.as_slice() else { return None };
    if def.ret != Ty::Bool {
        return None;
    }
    match &def.body {
        Expr::Case { scrut, data, .. } if **scrut == Expr::Var(*param) && data == d => Some(*d),
        _ => None,
    }
}

impl Fuser<'_> {
    fn expr(&mut self, e: &mut Expr) {
        if !is_and(e) {
            e.for_each_child_mut(&mut |c| self.expr(c));
            return;
        }
        let mut cs = Vec::new();
        conjuncts(std::mem::replace(e, Expr::Lit(Lit::Bool(true))), &mut cs);
        let mut cs = self.fuse_calls(merge_cases(cs));
        cs.iter_mut().for_each(|c| self.expr(c));
        *e = conjunction(cs);
    }

    /// The calls of structural predicates on one variable, two or more, as one call of
    /// their fused predicate where the first of them was.
    fn fuse_calls(&mut self, cs: Vec<Expr>) -> Vec<Expr> {
        let call_on = |c: &Expr| match c {
            Expr::Call(f, args) => match args.as_slice() {
                [Expr::Var(x)] => Some((*f, *x)),
                _ => None,
            },
            _ => None,
        };
        // By variable: the structural predicates called on it, in order.
        let mut groups: Vec<(VarId, Vec<FunId>)> = Vec::new();
        for c in &cs {
            let Some((f, x)) = call_on(c) else { continue };
            if structural(self.p, f).is_none() {
                continue;
            }
            match groups.iter_mut().find(|(y, _)| *y == x) {
                Some((_, fs)) if !fs.contains(&f) => fs.push(f),
                Some(_) => {}
                None => groups.push((x, vec![f])),
            }
        }
        groups.retain(|(_, fs)| fs.len() > 1);
        let mut out = Vec::with_capacity(cs.len());
        let mut placed: Vec<VarId> = Vec::new();
        for c in cs {
            let Some((f, x)) = call_on(&c) else {
                out.push(c);
                continue;
            };
            let Some((_, fs)) = groups.iter().find(|(y, fs)| *y == x && fs.contains(&f)) else {
                out.push(c);
                continue;
            };
            if placed.contains(&x) {
                continue;
            }
            match self.fused(fs.clone()) {
                Some(g) => {
                    placed.push(x);
                    out.push(Expr::Call(g, vec![Expr::Var(x)]));
                }
                None => out.push(c),
            }
        }
        out
    }

    /// The predicate that holds when every one of `fs` (structural, on one datatype) does:
    /// one case on its parameter, each alternative the conjunction of theirs.
    fn fused(&mut self, fs: Vec<FunId>) -> Option<FunId> {
        let mut key = fs.clone();
        key.sort();
        if let Some(g) = self.fused.get(&key) {
            return Some(*g);
        }
        if self.fused.len() >= MAX_FUSED {
            return None;
        }
        let d = structural(self.p, fs[0])?;
        if fs.iter().any(|f| structural(self.p, *f) != Some(d)) {
            return None;
        }
        let mut next = 0u32;
        let mut fresh = || {
            next += 1;
            VarId(next - 1)
        };
        let t = fresh();
        let ctors = self.p.data(d).ctors.clone();
        let binders: Vec<Vec<VarId>> = ctors.iter().map(|c| c.fields.iter().map(|_| fresh()).collect()).collect();
        let mut alts = Vec::new();
        for (tag, bs) in binders.iter().enumerate() {
            let mut parts = Vec::new();
            for f in &fs {
                let def = self.p.fun(*f);
                let Expr::Case { alts: falts, default, .. } = &def.body else { return None };
                let mut map = HashMap::from([(def.params[0].0, t)]);
                let body = match falts.iter().find(|a| a.tag as usize == tag) {
                    Some(a) => {
                        map.extend(a.binders.iter().copied().zip(bs.iter().copied()));
                        &a.body
                    }
                    None => default.as_deref()?,
                };
                let mut body = body.clone();
                rename_bound(&mut body, &mut map, &mut next);
                parts.push(body);
            }
            alts.push(Alt { tag: tag as u32, binders: bs.clone(), body: conjunction(parts) });
        }
        let names: Vec<&str> = fs.iter().map(|f| self.p.fun(*f).name.as_str()).collect();
        let id = FunId(self.p.funs.len() as u32);
        self.fused.insert(key, id);
        self.p.funs.push(FunDef {
            name: format!("({})", names.join(" ∧ ")),
            params: vec![(t, Ty::Data(d))],
            ret: Ty::Bool,
            body: Expr::Case { scrut: Box::new(Expr::Var(t)), data: d, alts, default: None },
            num_vars: next,
        });
        Some(id)
    }
}

/// Conjuncts that are cases on the same variable, with every alternative listed, as one
/// case where the first was, each alternative the conjunction of theirs (the later ones'
/// binders renamed to the first's).
fn merge_cases(cs: Vec<Expr>) -> Vec<Expr> {
    let mut out: Vec<Expr> = Vec::with_capacity(cs.len());
    for c in cs {
        let Expr::Case { scrut, data, alts, default: None } = c else {
            out.push(c);
            continue;
        };
        let into = out.iter_mut().find(|o| {
            matches!(o, Expr::Case { scrut: s, data: d, default: None, .. }
                if matches!(**s, Expr::Var(_)) && *s == scrut && *d == data)
        });
        let Some(Expr::Case { alts: first, .. }) = into else {
            out.push(Expr::Case { scrut, data, alts, default: None });
            continue;
        };
        for mut alt in alts {
            let Some(f) = first.iter_mut().find(|a| a.tag == alt.tag) else { continue };
            let map: HashMap<VarId, VarId> = alt.binders.iter().copied().zip(f.binders.iter().copied()).collect();
            rename_free(&mut alt.body, &map);
            let body = std::mem::replace(&mut f.body, Expr::Lit(Lit::Bool(true)));
            f.body = conjunction(vec![body, alt.body]);
        }
    }
    out
}
