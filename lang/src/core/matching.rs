//! Pattern-match compilation: a list of rows (patterns over the scrutinee variables, first
//! match wins) becomes nested one-level `Case`/`NatCase`/`If` tests. At each step the first
//! column in which the first row has a constructor is split on, keeping the rows in order,
//! so the sequential semantics of `fun` holds. Rows that run out become `Undefined(Match)`.
//! Numerals are split on by peeling `Suc`s only while they are small (`PEEL_LIMIT`); a
//! column with a larger one is decided by comparisons (`numeric`), so a pattern's IR does
//! not grow with the number it denotes.

use super::ir::*;
use super::lower::{Cx, Lowerer};
use crate::types::hir::{LocalId, Pat, PatKind, Term};
use num_bigint::{BigInt, BigUint};
use num_traits::{One, Signed, Zero};
use std::collections::{HashMap, HashSet};

pub(crate) struct Row<'t> {
    pats: Vec<Pat>,
    binds: Vec<(LocalId, VarId)>,
    body: &'t Term,
}

impl<'t> Row<'t> {
    pub fn new(pats: Vec<Pat>, body: &'t Term) -> Row<'t> {
        Row { pats, binds: Vec::new(), body }
    }
}

fn refutable(p: &Pat) -> bool {
    !matches!(p.kind, PatKind::Var(_) | PatKind::Wild)
}

fn wild(like: &Pat) -> Pat {
    Pat { kind: PatKind::Wild, ty: like.ty.clone(), span: like.span }
}

/// Replaces column `i` of `row` by `subs`, or by `n` wildcards if the column is a variable
/// or wildcard (binding the variable to the column's scrutinee `v`).
fn specialize_irrefutable<'t>(row: &Row<'t>, i: usize, v: VarId, n: usize) -> Row<'t> {
    let mut pats = row.pats.clone();
    let p = pats.remove(i);
    let mut binds = row.binds.clone();
    if let PatKind::Var(l) = p.kind {
        binds.push((l, v));
    }
    for k in 0..n {
        pats.insert(i + k, wild(&p));
    }
    Row { pats, binds, body: row.body }
}

fn with_column<'t>(row: &Row<'t>, i: usize, subs: Vec<Pat>) -> Row<'t> {
    let mut pats = row.pats.clone();
    pats.remove(i);
    for (k, s) in subs.into_iter().enumerate() {
        pats.insert(i + k, s);
    }
    Row { pats, binds: row.binds.clone(), body: row.body }
}

fn no_match(cx: &Cx) -> Expr {
    Expr::Undefined(if cx.in_case { Undef::Case(cx.fname.to_string()) } else { Undef::Match(cx.fname.to_string()) })
}

pub(crate) fn compile(lw: &mut Lowerer, cx: &mut Cx, cols: Vec<(VarId, Ty)>, rows: Vec<Row>) -> Expr {
    let Some(first) = rows.first() else {
        return no_match(cx);
    };
    let Some(i) = first.pats.iter().position(refutable) else {
        for (p, (v, _)) in first.pats.iter().zip(&cols) {
            if let PatKind::Var(l) = p.kind {
                cx.vars.insert(l, *v);
            }
        }
        for (l, v) in &first.binds {
            cx.vars.insert(*l, *v);
        }
        return lw.expr(cx, first.body);
    };
    let (v, ty) = cols[i].clone();
    match &first.pats[i].kind {
        PatKind::Ctor(..) => {
            let Ty::Data(data) = ty else {
                return no_match(cx);
            };
            let ctors = lw.program.data(data).ctors.clone();
            let mut alts = Vec::new();
            for (tag, c) in ctors.iter().enumerate() {
                let fields: Vec<(VarId, Ty)> = c.fields.iter().map(|t| (cx.fresh(), t.clone())).collect();
                let sub_rows: Vec<Row> = rows
                    .iter()
                    .filter_map(|r| match &r.pats[i].kind {
                        PatKind::Ctor(_, t, subs) if *t as usize == tag => Some(with_column(r, i, subs.clone())),
                        PatKind::Ctor(..) => None,
                        _ => Some(specialize_irrefutable(r, i, v, fields.len())),
                    })
                    .collect();
                let mut sub_cols = cols.clone();
                sub_cols.splice(i..=i, fields.iter().cloned());
                let body = compile(lw, cx, sub_cols, sub_rows);
                alts.push(Alt { tag: tag as u32, binders: fields.into_iter().map(|(v, _)| v).collect(), body });
            }
            Expr::Case { scrut: Box::new(Expr::Var(v)), data, alts, default: None }
        }
        PatKind::Num(_) | PatKind::Suc(_) if ty == Ty::Nat && peelable(&rows, i) => {
            let zero_rows: Vec<Row> = rows
                .iter()
                .filter_map(|r| match &r.pats[i].kind {
                    PatKind::Num(n) if n.is_zero() => Some(with_column(r, i, vec![])),
                    PatKind::Num(_) | PatKind::Suc(_) => None,
                    _ => Some(specialize_irrefutable(r, i, v, 0)),
                })
                .collect();
            let mut zero_cols = cols.clone();
            zero_cols.remove(i);
            let zero = compile(lw, cx, zero_cols, zero_rows);
            let pred = cx.fresh();
            let succ_rows: Vec<Row> = rows
                .iter()
                .filter_map(|r| {
                    let p = &r.pats[i];
                    match &p.kind {
                        PatKind::Num(n) if n.is_zero() => None,
                        PatKind::Num(n) => {
                            let sub = Pat { kind: PatKind::Num(n - BigInt::one()), ty: p.ty.clone(), span: p.span };
                            Some(with_column(r, i, vec![sub]))
                        }
                        PatKind::Suc(sub) => Some(with_column(r, i, vec![(**sub).clone()])),
                        _ => Some(specialize_irrefutable(r, i, v, 1)),
                    }
                })
                .collect();
            let mut succ_cols = cols.clone();
            succ_cols[i] = (pred, Ty::Nat);
            let succ = compile(lw, cx, succ_cols, succ_rows);
            Expr::NatCase { scrut: Box::new(Expr::Var(v)), zero: Box::new(zero), pred, succ: Box::new(succ) }
        }
        PatKind::Num(_) | PatKind::Suc(_) => numeric(lw, cx, cols, rows, i),
        PatKind::Bool(_) => {
            let mut rest_cols = cols.clone();
            rest_cols.remove(i);
            let branch = |b: bool, lw: &mut Lowerer, cx: &mut Cx| {
                let these: Vec<Row> = rows
                    .iter()
                    .filter_map(|r| match &r.pats[i].kind {
                        PatKind::Bool(c) if *c == b => Some(with_column(r, i, vec![])),
                        PatKind::Bool(_) => None,
                        _ => Some(specialize_irrefutable(r, i, v, 0)),
                    })
                    .collect();
                compile(lw, cx, rest_cols.clone(), these)
            };
            let t = branch(true, lw, cx);
            let f = branch(false, lw, cx);
            Expr::If(Box::new(Expr::Var(v)), Box::new(t), Box::new(f))
        }
        PatKind::Var(_) | PatKind::Wild => unreachable!("column {i} was chosen as refutable"),
    }
}

/// Numerals up to this value in a `nat` column are matched by peeling one `Suc` at a time
/// (`NatCase`), as `0`, `Suc n` and `Suc (Suc n)` are in most definitions: a few one-level
/// tests, each a demand point. A column with a larger numeral is decided by comparisons
/// instead (`numeric`): peeling `1000000` would nest a million tests, and the cost of a
/// pattern must not depend on its value.
const PEEL_LIMIT: u32 = 8;

/// Whether column `i` (of type `nat`) is matched by peeling `Suc`s: every numeral in it,
/// and every `Suc` chain, is at most `PEEL_LIMIT`. Peeling only lowers the numbers, so a
/// column that is peeled stays peelable.
fn peelable(rows: &[Row], i: usize) -> bool {
    rows.iter().all(|r| match num_pat(&r.pats[i]) {
        NumPat::Exact(n) => n <= BigInt::from(PEEL_LIMIT),
        NumPat::AtLeast(k, _) => k <= PEEL_LIMIT as usize,
        NumPat::Any | NumPat::Never => true,
    })
}

/// A pattern of a `nat` or `int` column as the set of numbers it matches.
enum NumPat {
    /// Exactly this number: `5`, `Suc 4`, `-3`.
    Exact(BigInt),
    /// `Suc (… (Suc p))` with `k ≥ 1` `Suc`s around a variable or wildcard `p`: the numbers
    /// `≥ k`, binding `p`'s variable (if any) to `x - k`.
    AtLeast(usize, Option<LocalId>),
    /// A variable or wildcard (bound by `specialize_irrefutable`).
    Any,
    /// Nothing a numeric column can hold (a constructor or `True`: not well-typed).
    Never,
}

fn num_pat(p: &Pat) -> NumPat {
    let (mut k, mut p) = (0usize, p);
    while let PatKind::Suc(sub) = &p.kind {
        k += 1;
        p = sub;
    }
    match &p.kind {
        PatKind::Num(n) => NumPat::Exact(n + BigInt::from(k)),
        PatKind::Var(l) if k > 0 => NumPat::AtLeast(k, Some(*l)),
        PatKind::Wild if k > 0 => NumPat::AtLeast(k, None),
        PatKind::Var(_) | PatKind::Wild => NumPat::Any,
        PatKind::Ctor(..) | PatKind::Bool(_) | PatKind::Suc(_) => NumPat::Never,
    }
}

/// Column `i` of numerals (`nat` or `int`) decided by comparisons: a chain of equality
/// tests, one per distinct numeral in order of first appearance, each branch taking the
/// rows that match that number; then, for the numbers that are none of them, a chain of
/// `k ≤ x` tests on the `Suc` chains' depths (deepest first), where a row `Suc^k n` binds
/// `n` to `x - k`. The IR has one test per distinct numeral or depth, whatever their values,
/// so its size is linear in the patterns' size, not in the numbers they denote. Rows are
/// grouped once (literal → rows naming it), so lowering does not compare every row with
/// every literal either.
fn numeric(lw: &mut Lowerer, cx: &mut Cx, cols: Vec<(VarId, Ty)>, rows: Vec<Row>, i: usize) -> Expr {
    let (v, ty) = cols[i].clone();
    let pats: Vec<NumPat> = rows.iter().map(|r| num_pat(&r.pats[i])).collect();
    let mut rest_cols = cols.clone();
    rest_cols.remove(i);
    let mut lits: Vec<&BigInt> = Vec::new();
    let mut naming: HashMap<&BigInt, Vec<usize>> = HashMap::new();
    let mut general: Vec<usize> = Vec::new();
    for (r, p) in pats.iter().enumerate() {
        match p {
            NumPat::Exact(n) => {
                let these = naming.entry(n).or_default();
                if these.is_empty() {
                    lits.push(n);
                }
                these.push(r);
            }
            NumPat::AtLeast(..) | NumPat::Any => general.push(r),
            NumPat::Never => {}
        }
    }
    // A row of `general` in a branch where `x` is known to be `at` (a literal) or is only
    // known to be at least its depth (`None`).
    let take = |cx: &mut Cx, r: usize, at: Option<&BigInt>, lets: &mut Vec<(VarId, Expr)>| -> Row {
        match &pats[r] {
            NumPat::AtLeast(k, l) => {
                let mut row = with_column(&rows[r], i, vec![]);
                if let Some(l) = l {
                    let p = cx.fresh();
                    let rhs = match at {
                        Some(n) => Expr::Lit(Lit::Nat((n - BigInt::from(*k)).magnitude().clone())),
                        None => Expr::Prim(Prim::Sub(NumTy::Nat), vec![Expr::Var(v), nat_lit(*k)]),
                    };
                    lets.push((p, rhs));
                    row.binds.push((*l, p));
                }
                row
            }
            _ => specialize_irrefutable(&rows[r], i, v, 0),
        }
    };
    // The numbers that are none of the literals: by depth of `Suc` chain, deepest first.
    let mut depths: Vec<usize> =
        general.iter().filter_map(|&r| if let NumPat::AtLeast(k, _) = pats[r] { Some(k) } else { None }).collect();
    depths.sort_unstable();
    depths.dedup();
    // The rows that match a number of at least `bound`, compiled on the remaining columns.
    let mut at_least = |bound: usize| {
        let mut lets = Vec::new();
        let these: Vec<Row> = general
            .iter()
            .filter(|&&r| match pats[r] {
                NumPat::AtLeast(k, _) => k <= bound,
                _ => true,
            })
            .map(|&r| take(cx, r, None, &mut lets))
            .collect();
        with_lets(compile(lw, cx, rest_cols.clone(), these), lets)
    };
    let mut out = at_least(0);
    for bound in depths.iter().copied() {
        let body = at_least(bound);
        let test = Expr::Prim(Prim::Le(Ty::Nat), vec![nat_lit(bound), Expr::Var(v)]);
        out = Expr::If(Box::new(test), Box::new(body), Box::new(out));
    }
    for n in lits.iter().rev() {
        let mut lets = Vec::new();
        let mut order: Vec<usize> = naming[n].clone();
        order.extend(general.iter().copied().filter(|&r| match pats[r] {
            NumPat::AtLeast(k, _) => BigInt::from(k) <= **n,
            _ => true,
        }));
        order.sort_unstable();
        let these: Vec<Row> = order
            .into_iter()
            .map(|r| match pats[r] {
                NumPat::Exact(_) => with_column(&rows[r], i, vec![]),
                _ => take(cx, r, Some(n), &mut lets),
            })
            .collect();
        let then = with_lets(compile(lw, cx, rest_cols.clone(), these), lets);
        let lit =
            if ty == Ty::Int || n.is_negative() { Lit::Int((*n).clone()) } else { Lit::Nat(n.magnitude().clone()) };
        let test = Expr::Prim(Prim::Eq(ty.clone()), vec![Expr::Var(v), Expr::Lit(lit)]);
        out = Expr::If(Box::new(test), Box::new(then), Box::new(out));
    }
    out
}

fn nat_lit(k: usize) -> Expr {
    Expr::Lit(Lit::Nat(BigUint::from(k)))
}

/// `let p = rhs in body` for each binding `body` uses (rows after the one that matched
/// never bind theirs), innermost last.
fn with_lets(body: Expr, lets: Vec<(VarId, Expr)>) -> Expr {
    if lets.is_empty() {
        return body;
    }
    let mut used = HashSet::new();
    vars_used(&body, &mut used);
    lets.into_iter().rev().fold(body, |body, (p, rhs)| {
        if used.contains(&p) {
            Expr::Let(p, Ty::Nat, Box::new(rhs), Box::new(body))
        } else {
            body
        }
    })
}

fn vars_used(e: &Expr, used: &mut HashSet<VarId>) {
    if let Expr::Var(x) = e {
        used.insert(*x);
    }
    e.for_each_child(&mut |c, _| vars_used(c, used));
}
