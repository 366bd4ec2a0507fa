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
//! on one variable of two or more *structural* predicates (a first parameter of a
//! datatype, a boolean result, a body that is one case on that parameter); and two
//! conjuncts that are cases on the same variable (`case p of (a, c) ⇒ A` and
//! `case p of (a', c') ⇒ B`: one case whose alternative is `A ∧ B`, so the calls inside
//! meet in one conjunction).
//!
//! A structural predicate may take inputs after the value: `∀y ∈ keys l. y < x`, walked
//! over `l` (`core::set_quantifiers`, then `core::specialize`), is `walk l x`, and
//! `ordered l ∧ walk l x` fuses into a predicate of `l` and `x` that builds only subtrees
//! whose keys are below `x`, pruning by the bound at every level. A predicate is fused once
//! per variable, with the inputs of its first call; a second call with other inputs (the
//! bound of the node above) stays a conjunct, written as a check (`check_only`), so that it
//! never runs backwards to build the value the fused call builds, and the fused
//! predicates stay finitely many (one per set of predicates).
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
    let original = (0..p.funs.len())
        .map(|i| FunId(i as u32))
        .filter(|f| structural_with_inputs(p, *f).is_some())
        .map(|f| (f, p.fun(f).clone()))
        .collect();
    let mut f = Fuser { p, original, fused: HashMap::new(), components: HashMap::new() };
    rewrite::run(&mut f);
    !f.fused.is_empty()
}

struct Fuser<'p> {
    p: &'p mut Program,
    /// The structural predicates as they were before the pass: fused predicates are built
    /// from these, so that a body the pass already rewrote is not fused a second time.
    original: HashMap<FunId, FunDef>,
    /// The fused predicate of each set of predicates (sorted).
    fused: HashMap<Vec<FunId>, FunId>,
    /// The predicates each fused one was made of, in the order of its inputs.
    components: HashMap<FunId, Vec<FunId>>,
}

impl BodyPass for Fuser<'_> {
    fn program(&mut self) -> &mut Program {
        self.p
    }

    fn rewrite(&mut self, _f: usize, body: &mut Expr) {
        self.expr(body);
    }
}

/// Whether `e` is `a ∧ b` as lowered (and not a `check_only`).
fn is_and(e: &Expr) -> bool {
    matches!(e, Expr::If(_, b, f) if **f == Expr::Lit(Lit::Bool(false)) && **b != Expr::Lit(Lit::Bool(true)))
}

/// `if c then True else False`: the same truth as `c`, which the Horn translation
/// (`core::horn`) keeps as a check (an `if` inside a condition is a `Compute` goal), so that
/// a relation call `c` does not run backwards to produce a value another goal builds.
fn check_only(c: Expr) -> Expr {
    Expr::If(Box::new(c), Box::new(Expr::Lit(Lit::Bool(true))), Box::new(Expr::Lit(Lit::Bool(false))))
}

/// The conjuncts of `e`, left to right.
fn conjuncts(e: Expr, out: &mut Vec<Expr>) {
    match e {
        Expr::If(a, b, _) if is_and(&e) => {
            conjuncts(*a, out);
            conjuncts(*b, out);
        }
        e => out.push(e),
    }
}

/// The conjunction of `cs` (`True` when empty), as `∧` is lowered; conjuncts `True` are
/// left out.
pub fn conjunction(mut cs: Vec<Expr>) -> Expr {
    cs.retain(|c| *c != Expr::Lit(Lit::Bool(true)));
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
    if def.params.len() != 1 {
        return None;
    }
    structural_with_inputs(p, f)
}

/// The datatype that `f` cases on when it is a structural predicate with inputs: a first
/// parameter of a datatype, then any (`∀y ∈ keys t. y < x` walked over `t` takes `x`), a
/// boolean result, a body that is one case on the first parameter.
pub fn structural_with_inputs(p: &Program, f: FunId) -> Option<DataId> {
    let def = p.funs.get(f.0 as usize)?;
    let Some((param, Ty::Data(d))) = def.params.first() else { return None };
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
    /// their fused predicate where the first of them was. A predicate with inputs is fused
    /// once per variable, with the inputs of its first call there; a later call with other
    /// inputs stays a conjunct of its own (so `walk t x ∧ walk t y` keeps the fused
    /// predicates finitely many).
    fn fuse_calls(&mut self, cs: Vec<Expr>) -> Vec<Expr> {
        let call_on = |p: &Program, c: &Expr| match c {
            Expr::Call(f, args) => match args.first() {
                Some(Expr::Var(x)) if structural_with_inputs(p, *f).is_some() => Some((*f, *x)),
                _ => None,
            },
            _ => None,
        };
        // A fused predicate met again (a rewritten body calls one) stands for its
        // components, so that it joins a group as they do.
        let cs: Vec<Expr> = cs.into_iter().flat_map(|c| self.components_of(c)).collect();
        let calls: Vec<Option<(FunId, VarId)>> = cs.iter().map(|c| call_on(self.p, c)).collect();
        // By variable: the first call of each structural predicate on it (its conjunct).
        let mut groups: Vec<(VarId, Vec<(FunId, usize)>)> = Vec::new();
        for (i, call) in calls.iter().enumerate() {
            let Some((f, x)) = *call else { continue };
            match groups.iter_mut().find(|(y, _)| *y == x) {
                Some((_, fs)) if !fs.iter().any(|(g, _)| *g == f) => fs.push((f, i)),
                Some(_) => {}
                None => groups.push((x, vec![(f, i)])),
            }
        }
        groups.retain(|(_, fs)| fs.len() > 1);
        // The fused call of each group, placed where its first member is.
        let mut replaced: Vec<Option<Expr>> = vec![None; cs.len()];
        let mut dropped = vec![false; cs.len()];
        for (x, members) in &groups {
            let fs: Vec<FunId> = members.iter().map(|(f, _)| *f).collect();
            let Some((g, order)) = self.fused(fs) else { continue };
            let mut args = vec![Expr::Var(*x)];
            for f in order {
                let (_, i) = members.iter().find(|(h, _)| *h == f).expect("a member");
                let Expr::Call(_, member_args) = &cs[*i] else { unreachable!("a call") };
                args.extend(member_args[1..].iter().cloned());
            }
            for (j, call) in calls.iter().enumerate() {
                let Some((f, y)) = *call else { continue };
                let Some((_, i)) = members.iter().find(|(h, _)| *h == f) else { continue };
                // A member, or a repetition of one; a call with other inputs stays.
                if y == *x && (j == *i || cs[j] == cs[*i]) {
                    dropped[j] = true;
                }
            }
            let first = members.iter().map(|(_, i)| *i).min().expect("members");
            replaced[first] = Some(Expr::Call(g, args));
        }
        // A call on a fused variable left over (the same predicate with other inputs) only
        // checks the value the fused call builds.
        let fused_vars: Vec<VarId> = groups.iter().map(|(x, _)| *x).collect();
        let mut out = Vec::with_capacity(cs.len());
        for (j, c) in cs.into_iter().enumerate() {
            match replaced[j].take() {
                Some(call) => out.push(call),
                None if dropped[j] => {}
                None if calls[j].is_some_and(|(_, x)| fused_vars.contains(&x)) => out.push(check_only(c)),
                None => out.push(c),
            }
        }
        out
    }

    /// A call of a fused predicate as the calls of its components; any other expression
    /// as it is.
    fn components_of(&self, c: Expr) -> Vec<Expr> {
        let Expr::Call(g, args) = &c else { return vec![c] };
        let Some(parts) = self.components.get(g) else { return vec![c] };
        let mut rest = args[1..].iter();
        parts
            .iter()
            .map(|f| {
                let n = self.original[f].params.len() - 1;
                let mut call = vec![args[0].clone()];
                call.extend(rest.by_ref().take(n).cloned());
                Expr::Call(*f, call)
            })
            .collect()
    }

    /// The predicate that holds when every one of `fs` (structural, on one datatype) does:
    /// one case on its first parameter, each alternative the conjunction of theirs; its
    /// other parameters are the inputs of each of `fs`, in the order returned.
    fn fused(&mut self, fs: Vec<FunId>) -> Option<(FunId, Vec<FunId>)> {
        let mut key = fs.clone();
        key.sort();
        if let Some(g) = self.fused.get(&key) {
            return Some((*g, key));
        }
        if self.fused.len() >= MAX_FUSED {
            return None;
        }
        let data = |f: &FunId| match &self.original.get(f)?.params[0].1 {
            Ty::Data(d) => Some(*d),
            _ => None,
        };
        let d = data(&fs[0])?;
        if fs.iter().any(|f| data(f) != Some(d)) {
            return None;
        }
        let mut next = 0u32;
        let mut fresh = || {
            next += 1;
            VarId(next - 1)
        };
        let t = fresh();
        // Each predicate's inputs, in the order of the key.
        let mut params = vec![(t, Ty::Data(d))];
        let mut inputs: HashMap<FunId, Vec<VarId>> = HashMap::new();
        for f in &key {
            let vs: Vec<VarId> = self.original[f].params[1..]
                .iter()
                .map(|(_, ty)| {
                    let v = fresh();
                    params.push((v, ty.clone()));
                    v
                })
                .collect();
            inputs.insert(*f, vs);
        }
        let ctors = self.p.data(d).ctors.clone();
        let binders: Vec<Vec<VarId>> = ctors.iter().map(|c| c.fields.iter().map(|_| fresh()).collect()).collect();
        let mut alts = Vec::new();
        for (tag, bs) in binders.iter().enumerate() {
            let mut parts = Vec::new();
            for f in &fs {
                let def = &self.original[f];
                let Expr::Case { alts: falts, default, .. } = &def.body else { return None };
                let mut map = HashMap::from([(def.params[0].0, t)]);
                map.extend(def.params[1..].iter().map(|(v, _)| *v).zip(inputs[f].iter().copied()));
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
        self.fused.insert(key.clone(), id);
        self.components.insert(id, key.clone());
        self.p.funs.push(FunDef {
            name: format!("({})", names.join(" ∧ ")),
            params,
            ret: Ty::Bool,
            body: Expr::Case { scrut: Box::new(Expr::Var(t)), data: d, alts, default: None },
            num_vars: next,
        });
        Some((id, key))
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
