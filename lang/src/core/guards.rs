//! Quantifiers whose body guards their variable: `∀x. x ∈ A ⟶ P` is `∀x∈A. P`,
//! `∃x. x ∈ A ∧ P` is `∃x∈A. P`, and over `nat` `∀i. i < n ⟶ P` is `∀i<n. P`. Isabelle's
//! users write both forms; written unbounded over an infinite type the quantifier cannot be
//! enumerated, while the guard says which values matter. The guard may stand anywhere in the
//! chain of premises (`∀x. P x ⟶ x ∈ A ⟶ Q x`, `∀x. x ∈ A ∧ P x ⟶ Q x`) or among the
//! conjuncts, and below further quantifiers of the same kind (`∀x y. x ∈ A ⟶ y ∈ B ⟶ P`),
//! provided the bounding term mentions none of the variables bound on the way.
//!
//! The truth value is the same; what changes is the order of evaluation (the guard first),
//! as with any bounded quantifier. Used by the lowering (`core::lower`) and by the
//! conjecture's check for quantifiers over infinite types (`core::conjecture`), so the two
//! agree on which quantifiers are bounded.

use super::ir::Quant;
use crate::types::builtins::Builtin;
use crate::types::hir::{Bound, LocalId, Term, TermKind};

/// `q l. body` as a bounded quantifier: the bound and the body without its guard. `nat`:
/// the variable is a `nat`, so an upper bound makes it finite too.
pub fn guarded(q: Quant, l: LocalId, body: &Term, nat: bool) -> Option<(Bound, Term)> {
    if q == Quant::Ex1 {
        return None;
    }
    let mut body = body.clone();
    let bound = take(q, l, &mut body, &mut Vec::new(), nat)?;
    Some((bound, body))
}

/// Takes a guard of `l` out of `t` (replacing the guarded part by what remains).
fn take(q: Quant, l: LocalId, t: &mut Term, inner: &mut Vec<LocalId>, nat: bool) -> Option<Bound> {
    if q == Quant::Ex {
        // A conjunct that is the guard itself (`∃x. x ∈ A`) leaves `True`.
        if let Some(bound) = guard(l, t, inner, nat) {
            *t = Term { kind: TermKind::Builtin(Builtin::True), ty: t.ty.clone(), span: t.span };
            return Some(bound);
        }
    }
    let connective = if q == Quant::All { Builtin::Imp } else { Builtin::And };
    match &mut t.kind {
        TermKind::App(f, b) => {
            let TermKind::App(head, a) = &mut f.kind else { return None };
            if !matches!(head.kind, TermKind::Builtin(h) if h == connective) {
                return None;
            }
            if let Some(bound) = guard(l, a, inner, nat) {
                let rest = (**b).clone();
                *t = rest;
                return Some(bound);
            }
            // Among a premise's conjuncts (`∀`) or the conjuncts (`∃`), then further along.
            let within = if q == Quant::All { Quant::Ex } else { q };
            take(within, l, a, inner, nat).or_else(|| take(q, l, b, inner, nat))
        }
        TermKind::Quant(q2, l2, _, body) if *q2 == q => {
            inner.push(*l2);
            let r = take(q, l, body, inner, nat);
            inner.pop();
            r
        }
        _ => None,
    }
}

/// The bound `t` puts on `l`: `l ∈ A`, or over `nat` `l < n`, `l ≤ n`, with a bounding
/// term free of `l` and of the variables bound on the way (`inner`).
fn guard(l: LocalId, t: &Term, inner: &[LocalId], nat: bool) -> Option<Bound> {
    let (head, args) = t.spine();
    let TermKind::Builtin(b) = head.kind else { return None };
    let [x, bound] = args[..] else { return None };
    if !matches!(x.kind, TermKind::Local(v) if v == l) || mentions(bound, l, inner) {
        return None;
    }
    let bound = Box::new(bound.clone());
    match b {
        Builtin::Member => Some(Bound::In(bound)),
        Builtin::Less if nat => Some(Bound::Less(bound)),
        Builtin::LessEq if nat => Some(Bound::LessEq(bound)),
        _ => None,
    }
}

/// Whether `t` mentions `l` or one of `inner`.
fn mentions(t: &Term, l: LocalId, inner: &[LocalId]) -> bool {
    let mut found = false;
    t.visit(&mut |u| found |= matches!(u.kind, TermKind::Local(v) if v == l || inner.contains(&v)));
    found
}
