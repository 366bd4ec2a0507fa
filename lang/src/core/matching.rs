//! Pattern-match compilation: a list of rows (patterns over the scrutinee variables, first
//! match wins) becomes nested one-level `Case`/`NatCase`/`If` tests. At each step the first
//! column in which the first row has a constructor is split on, keeping the rows in order,
//! so the sequential semantics of `fun` holds. Rows that run out become `Undefined(Match)`.

use super::ir::*;
use super::lower::{Cx, Lowerer};
use crate::types::hir::{LocalId, Pat, PatKind, Term};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};

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
        PatKind::Num(_) | PatKind::Suc(_) if ty == Ty::Nat => {
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
        PatKind::Num(_) | PatKind::Suc(_) => {
            // Integer literals: a chain of equality tests, in order of first appearance.
            let mut lits: Vec<BigInt> = Vec::new();
            for r in &rows {
                if let PatKind::Num(n) = &r.pats[i].kind {
                    if !lits.contains(n) {
                        lits.push(n.clone());
                    }
                }
            }
            let mut rest_cols = cols.clone();
            rest_cols.remove(i);
            let default_rows: Vec<Row> =
                rows.iter().filter(|r| !refutable(&r.pats[i])).map(|r| specialize_irrefutable(r, i, v, 0)).collect();
            let mut out = compile(lw, cx, rest_cols.clone(), default_rows);
            for n in lits.iter().rev() {
                let these: Vec<Row> = rows
                    .iter()
                    .filter_map(|r| match &r.pats[i].kind {
                        PatKind::Num(m) if m == n => Some(with_column(r, i, vec![])),
                        PatKind::Num(_) | PatKind::Suc(_) => None,
                        _ => Some(specialize_irrefutable(r, i, v, 0)),
                    })
                    .collect();
                let then = compile(lw, cx, rest_cols.clone(), these);
                let lit = if ty == Ty::Int || n.is_negative() {
                    Lit::Int(n.clone())
                } else {
                    Lit::Nat(n.magnitude().clone())
                };
                let test = Expr::Prim(Prim::Eq(ty.clone()), vec![Expr::Var(v), Expr::Lit(lit)]);
                out = Expr::If(Box::new(test), Box::new(then), Box::new(out));
            }
            out
        }
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
