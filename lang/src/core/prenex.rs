//! A statement's quantifiers over infinite types moved to the front (prenex normal form),
//! for the narrowing tester, which alone can search them (Isabelle's `PNF_Narrowing_Engine`);
//! and the unfolding of definitions that hide such a quantifier, so that one in a premise
//! becomes free variables like any premise `∃` (what Isabelle's users did by hand for the
//! hotel key-card attack).
//!
//! Moving a quantifier out is sound through `¬` (flipping it), `∧`, `∨` and `⟶` (flipping it
//! in the antecedent), because every binder is a distinct local (ids, not names: no capture),
//! and quantifiers from independent subformulas commute with each other, so their prefixes
//! may be interleaved; `∀` are put first where the order allows (deciding universals first
//! prunes more). `a ⟷ b` is read as `(a ⟶ b) ∧ (b ⟶ a)`, each side once in each polarity,
//! the second copies with binders of their own (new locals). Anywhere else (under `if`, a
//! function's argument, `∃!`) a quantifier over an infinite type stays where it is, and the
//! statement is not executable for narrowing either: `prenex` says which quantifier.
//!
//! What this module does not know: types beyond "is a quantifier over this type to be
//! pulled" (the caller's predicate), and how the prefix is searched.

use crate::span::Span;
use crate::types::builtins::Builtin;
use crate::types::env::Env;
use crate::types::hir::{ConstKind, Local, LocalId, PatKind, Quant, Term, TermKind};
use crate::types::ty::Type;
use std::collections::HashMap;
use std::sync::Arc;

/// A statement in prenex form: `prefix` binds, outermost first, the variables of the
/// quantifier-free (as far as the predicate goes) `premises ⟹ conclusion`.
#[derive(Clone, Debug)]
pub struct Prenex {
    pub prefix: Vec<(Quant, LocalId)>,
    pub premises: Vec<Term>,
    pub conclusion: Term,
}

/// `premises ⟹ conclusion` in prenex form with respect to the quantifiers `pull` selects
/// (by their variable's type); every other quantifier not containing one stays inside.
/// `Err` names a selected quantifier that cannot be moved to the front. Binders copied
/// (the sides of a `⟷`) get new locals, appended to `locals`.
pub fn prenex(
    locals: &mut Vec<Local>,
    premises: &[Term],
    conclusion: &Term,
    pull: &mut dyn FnMut(&Type) -> bool,
) -> Result<Prenex, String> {
    let mut p = Puller { locals, pull, copied: 0 };
    let mut prefix = Vec::new();
    let mut out = Vec::new();
    for t in premises {
        let (q, m) = p.pull(t, false)?;
        prefix = merge(prefix, q);
        out.push(m);
    }
    let (q, conclusion) = p.pull(conclusion, true)?;
    Ok(Prenex { prefix: merge(prefix, q), premises: out, conclusion })
}

struct Puller<'a, 'f> {
    locals: &'a mut Vec<Local>,
    pull: &'f mut dyn FnMut(&Type) -> bool,
    /// Terms copied so far by splitting `⟷`s (`SPLIT_COPY_MAX`).
    copied: usize,
}

/// At most this many terms are copied splitting `⟷`s in one statement: each split copies
/// both sides, so `⟷`s nested over quantifiers would copy (and quantify) exponentially.
const SPLIT_COPY_MAX: usize = 4096;

type Pulled = (Vec<(Quant, LocalId)>, Term);

impl Puller<'_, '_> {
    /// Whether `t` holds a quantifier to pull.
    fn holds(&mut self, t: &Term) -> bool {
        let mut found = false;
        t.visit(&mut |s: &Term| {
            if let TermKind::Quant(_, l, None, _) = &s.kind {
                found = found || (self.pull)(&self.locals[*l as usize].ty);
            }
        });
        found
    }

    /// `t`'s prefix and matrix, `t` standing in positive position when `positive`.
    fn pull(&mut self, t: &Term, positive: bool) -> Result<Pulled, String> {
        if !self.holds(t) {
            return Ok((Vec::new(), t.clone()));
        }
        if let TermKind::Quant(q, l, None, body) = &t.kind {
            let q = match (q, positive) {
                (Quant::Ex1, _) => return Err(self.stays(t, "under `∃!`")),
                (q, true) => *q,
                (Quant::All, false) => Quant::Ex,
                (_, false) => Quant::All,
            };
            let (mut prefix, m) = self.pull(body, positive)?;
            prefix.insert(0, (q, *l));
            return Ok((prefix, m));
        }
        let (head, args) = t.spine();
        if let (TermKind::Builtin(Builtin::Eq), [a, b]) = (&head.kind, args.as_slice()) {
            if a.ty == Type::bool() {
                self.copied += size(a) + size(b);
                if self.copied > SPLIT_COPY_MAX {
                    return Err(self.stays(t, "under `⟷`s nested too deeply to split"));
                }
                let (a2, b2) = (self.renamed(a), self.renamed(b));
                let there = binary(Builtin::Imp, (*a).clone(), (*b).clone(), t.span);
                let back = binary(Builtin::Imp, b2, a2, t.span);
                return self.pull(&binary(Builtin::And, there, back, t.span), positive);
            }
        }
        let connective = match (&head.kind, args.as_slice()) {
            (TermKind::Builtin(Builtin::Not), [a]) => {
                let (q, m) = self.pull(a, !positive)?;
                return Ok((q, Term { kind: TermKind::App(Box::new(head.clone()), Box::new(m)), ..t.clone() }));
            }
            (TermKind::Builtin(b @ (Builtin::And | Builtin::Or | Builtin::Imp)), [a, b2]) => Some((*b, *a, *b2)),
            _ => None,
        };
        let Some((op, a, b)) = connective else {
            let why = match &head.kind {
                TermKind::If(..) => "under `if`",
                _ => "inside a term that is not `¬`, `∧`, `∨`, `⟶` or `⟷`",
            };
            return Err(self.stays(t, why));
        };
        let (qa, ma) = self.pull(a, if op == Builtin::Imp { !positive } else { positive })?;
        let (qb, mb) = self.pull(b, positive)?;
        // `t` is `App(App(head, a), b)`: the same shape over the matrices.
        let TermKind::App(inner, _) = &t.kind else { unreachable!("a binary connective") };
        let inner = Term { kind: TermKind::App(Box::new(head.clone()), Box::new(ma)), ..(**inner).clone() };
        Ok((merge(qa, qb), Term { kind: TermKind::App(Box::new(inner), Box::new(mb)), ..t.clone() }))
    }

    /// A copy of `t` whose binders are new locals (copies of the old ones), so that it can
    /// stand next to `t` in one formula.
    fn renamed(&mut self, t: &Term) -> Term {
        let mut bound = Vec::new();
        t.visit(&mut |s: &Term| match &s.kind {
            TermKind::Quant(_, l, _, _)
            | TermKind::Lambda(l, _)
            | TermKind::Let(l, _, _)
            | TermKind::SetCompr(l, _, _) => bound.push(*l),
            TermKind::Case(_, arms) => {
                for (p, _) in arms {
                    p.clone().rewrite(&mut |_| {}, &mut |l: &mut LocalId| bound.push(*l));
                }
            }
            _ => {}
        });
        let mut fresh = HashMap::new();
        for l in bound {
            fresh.entry(l).or_insert_with(|| {
                self.locals.push(self.locals[l as usize].clone());
                (self.locals.len() - 1) as LocalId
            });
        }
        let mut copy = t.clone();
        copy.rewrite(&mut |_| {}, &mut |l: &mut LocalId| {
            if let Some(n) = fresh.get(l) {
                *l = *n;
            }
        });
        copy
    }

    /// Why the first selected quantifier of `t` stays inside.
    fn stays(&mut self, t: &Term, why: &str) -> String {
        let mut name = None;
        t.visit(&mut |s: &Term| {
            if let TermKind::Quant(q, l, None, _) = &s.kind {
                if name.is_none() && (self.pull)(&self.locals[*l as usize].ty) {
                    let sym = match q {
                        Quant::All => "∀",
                        Quant::Ex => "∃",
                        Quant::Ex1 => "∃!",
                    };
                    name = Some(format!("{sym}{}", self.locals[*l as usize].name));
                }
            }
        });
        format!(
            "the quantifier `{}` over an infinite type is {why}, so narrowing cannot move it to the front",
            name.unwrap_or_default()
        )
    }
}

/// The number of subterms of `t`, itself included.
fn size(t: &Term) -> usize {
    let mut n = 0;
    t.visit(&mut |_: &Term| n += 1);
    n
}

/// The formula `a op b` for a binary connective `op`.
fn binary(op: Builtin, a: Term, b: Term, span: Span) -> Term {
    let b2b = Type::fun(Type::bool(), Type::bool());
    let head = Term { kind: TermKind::Builtin(op), ty: Type::fun(Type::bool(), b2b.clone()), span };
    let partial = Term { kind: TermKind::App(Box::new(head), Box::new(a)), ty: b2b, span };
    Term { kind: TermKind::App(Box::new(partial), Box::new(b)), ty: Type::bool(), span }
}

/// Two prefixes of independent subformulas as one: each keeps its order; a `∀` goes first
/// where either offers one.
fn merge(a: Vec<(Quant, LocalId)>, b: Vec<(Quant, LocalId)>) -> Vec<(Quant, LocalId)> {
    let (mut a, mut b) = (a.into_iter().peekable(), b.into_iter().peekable());
    let mut out = Vec::new();
    loop {
        let next = match (a.peek(), b.peek()) {
            (Some((Quant::All, _)), _) | (Some(_), None) => a.next(),
            (_, Some((Quant::All, _))) | (None, Some(_)) => b.next(),
            (Some(_), Some(_)) => a.next(),
            (None, None) => return out,
        };
        out.extend(next);
    }
}

/// `t` with a non-recursive definition applied to all its arguments replaced by its body
/// (its own locals appended to `locals`), when the body holds a quantifier that `hides`
/// selects; `None` when `t` is not such an application.
pub fn unfold(env: &Env, locals: &mut Vec<Local>, t: &Term, hides: &mut dyn FnMut(&Type) -> bool) -> Option<Term> {
    let (head, args) = t.spine();
    let TermKind::Const(id, inst) = &head.kind else { return None };
    let def = env.konst(*id);
    let ConstKind::Equations { locals: def_locals, equations, arity } = &def.kind else { return None };
    let [(pats, rhs)] = equations.as_slice() else { return None };
    if *arity != args.len() || !pats.iter().all(|p| matches!(p.kind, PatKind::Var(_))) {
        return None;
    }
    let mut recursive = false;
    rhs.visit(&mut |s: &Term| recursive = recursive || matches!(&s.kind, TermKind::Const(c, _) if c == id));
    if recursive {
        return None;
    }
    let types: HashMap<Arc<str>, Type> =
        def.scheme.params.iter().map(|(n, _)| n.clone()).zip(inst.iter().cloned()).collect();
    let offset = locals.len() as LocalId;
    let new_locals: Vec<Local> =
        def_locals.iter().map(|l| Local { name: l.name.clone(), ty: l.ty.subst_params(&types) }).collect();
    let mut body = rhs.clone();
    body.rewrite(&mut |ty: &mut Type| *ty = ty.subst_params(&types), &mut |l: &mut LocalId| *l += offset);
    let hidden = {
        let mut found = false;
        body.visit(&mut |s: &Term| {
            if let TermKind::Quant(_, l, None, _) = &s.kind {
                found = found || hides(&new_locals[(*l - offset) as usize].ty);
            }
        });
        found
    };
    if !hidden {
        return None;
    }
    locals.extend(new_locals);
    let by_param: HashMap<LocalId, &Term> = pats
        .iter()
        .zip(&args)
        .filter_map(|(p, a)| match p.kind {
            PatKind::Var(l) => Some((l + offset, *a)),
            _ => None,
        })
        .collect();
    Some(replace_locals(body, &by_param, t.span))
}

/// `t`, a definition's body, with every use of a local in `map` replaced by its term, and
/// every span of its own set to `span` (the application it replaces: the body's spans are
/// into the file that defines it, which may be another). The terms' own locals are never
/// bound inside `t` (its binders are fresh), so nothing is captured.
fn replace_locals(mut t: Term, map: &HashMap<LocalId, &Term>, span: crate::span::Span) -> Term {
    if let TermKind::Local(l) = t.kind {
        if let Some(r) = map.get(&l) {
            return (*r).clone();
        }
    }
    t.span = span;
    let go = |b: Box<Term>| Box::new(replace_locals(*b, map, span));
    t.kind = match t.kind {
        TermKind::App(a, b) => TermKind::App(go(a), go(b)),
        TermKind::Let(l, a, b) => TermKind::Let(l, go(a), go(b)),
        TermKind::Lambda(l, b) => TermKind::Lambda(l, go(b)),
        TermKind::If(c, a, b) => TermKind::If(go(c), go(a), go(b)),
        TermKind::Case(s, arms) => {
            TermKind::Case(go(s), arms.into_iter().map(|(p, r)| (p, replace_locals(r, map, span))).collect())
        }
        TermKind::Quant(q, l, bound, body) => {
            let bound = bound.map(|b| match b {
                crate::types::hir::Bound::In(a) => crate::types::hir::Bound::In(go(a)),
                crate::types::hir::Bound::Less(a) => crate::types::hir::Bound::Less(go(a)),
                crate::types::hir::Bound::LessEq(a) => crate::types::hir::Bound::LessEq(go(a)),
            });
            TermKind::Quant(q, l, bound, go(body))
        }
        TermKind::SetCompr(l, dom, body) => TermKind::SetCompr(l, dom.map(go), go(body)),
        k => k,
    };
    t
}

#[cfg(test)]
mod tests {
    //! The prenex form against brute force: closed formulas over finite types, every
    //! quantifier pulled, evaluated by the interpreter (which enumerates finite quantifiers)
    //! before and after.

    use super::*;
    use crate::types::hir::Term;

    /// A formula over `bool` and `t = A | B | C`, closed over `env` (name, is it a `t`).
    fn formula(seed: &mut u64, depth: u32, env: &mut Vec<(String, bool)>) -> String {
        let mut next = |n: u64| {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            *seed % n
        };
        let atom = |k: u64, env: &[(String, bool)]| -> String {
            let bools: Vec<&String> = env.iter().filter(|(_, t)| !t).map(|(n, _)| n).collect();
            let ts: Vec<&String> = env.iter().filter(|(_, t)| *t).map(|(n, _)| n).collect();
            match k % 3 {
                0 if !bools.is_empty() => bools[(k / 3) as usize % bools.len()].clone(),
                1 if !ts.is_empty() => {
                    let x = ts[(k / 3) as usize % ts.len()];
                    let y = ["A", "B", ts[(k / 7) as usize % ts.len()]][(k / 5) as usize % 3];
                    format!("{x} = {y}")
                }
                _ => ["True", "False"][(k / 3) as usize % 2].to_string(),
            }
        };
        if depth == 0 {
            return atom(next(1 << 20), env);
        }
        match next(7) {
            0 => format!("¬ ({})", formula(seed, depth - 1, env)),
            1..=3 => {
                // `⟷` is split in two (each side copied): near the leaves only, so that the
                // copies stay few enough to evaluate every quantifier's values
                // (`SPLIT_COPY_MAX` bounds them far above these formulas).
                let ops = if depth <= 2 { 4 } else { 3 };
                let op = ["∧", "∨", "⟶", "⟷"][next(ops) as usize];
                let a = formula(seed, depth - 1, env);
                let b = formula(seed, depth - 1, env);
                format!("({a}) {op} ({b})")
            }
            _ => {
                let name = format!("v{}", env.len());
                let is_t = next(2) == 0;
                let q = ["∀", "∃"][next(2) as usize];
                env.push((name.clone(), is_t));
                let body = formula(seed, depth - 1, env);
                env.pop();
                format!("{q}{name} :: {}. {body}", if is_t { "t" } else { "bool" })
            }
        }
    }

    /// The prenex form of `term` as one term: its prefix around `premises ⟶ conclusion`.
    fn rebuilt(locals: &mut Vec<Local>, term: &Term) -> Term {
        let p = prenex(locals, &[], term, &mut |_| true).expect("every formula here has a prenex form");
        assert!(p.premises.is_empty());
        p.prefix.iter().rev().fold(p.conclusion, |body, (q, l)| Term {
            ty: body.ty.clone(),
            span: body.span,
            kind: TermKind::Quant(*q, *l, None, Box::new(body)),
        })
    }

    #[test]
    fn prenex_form_agrees_with_brute_force() {
        let mut text = String::from("theory T imports Main begin\ndatatype t = A | B | C\n");
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut formulas = Vec::new();
        for i in 0..400 {
            let f = formula(&mut seed, 2 + i % 4, &mut Vec::new());
            text.push_str(&format!("value \"{f}\"\n"));
            formulas.push(f);
        }
        text.push_str("end\n");
        let mut th = crate::check_theory(&text);
        assert!(th.diagnostics.iter().all(|d| d.severity != crate::Severity::Error), "{:?}", th.diagnostics);
        let (mut quantified, mut checked) = (0, 0);
        for (i, index) in th.value_indices().into_iter().enumerate() {
            let original = th.eval_rewritten_value(index, |_, t| t.clone()).expect("evaluates");
            let mut prefix_len = 0;
            let moved = th
                .eval_rewritten_value(index, |locals, t| {
                    let r = rebuilt(locals, t);
                    let mut body = &r;
                    while let TermKind::Quant(_, _, _, b) = &body.kind {
                        prefix_len += 1;
                        body = b;
                    }
                    let mut inside = 0;
                    body.visit(&mut |s: &Term| inside += usize::from(matches!(s.kind, TermKind::Quant(..))));
                    assert_eq!(inside, 0, "a quantifier stayed inside: {}", formulas[i]);
                    r
                })
                .expect("evaluates");
            assert_eq!(original, moved, "{}", formulas[i]);
            quantified += usize::from(prefix_len > 1);
            checked += 1;
        }
        assert!(checked == 400 && quantified > 100, "{checked} formulas, {quantified} with two quantifiers or more");
    }

    /// The prenex form of the lemma `statement` (every quantifier pulled), with the numbers
    /// of locals before and after.
    fn lemma_prenex(statement: &str) -> (Result<Prenex, String>, usize, usize) {
        let th = crate::check_theory(&format!("theory T imports Main begin\nlemma \"{statement}\" oops\nend\n"));
        let lemma = th.lemma(0);
        let mut locals = lemma.locals.clone();
        let p = prenex(&mut locals, &lemma.premises, &lemma.conclusion, &mut |_| true);
        (p, lemma.locals.len(), locals.len())
    }

    #[test]
    fn a_quantifier_under_if_stays_and_says_why() {
        let err = lemma_prenex("if (∃n :: nat. P n) then Q else R").0.unwrap_err();
        assert!(err.contains("`∃n`") && err.contains("under `if`"), "{err}");
    }

    #[test]
    fn iffs_nested_too_deeply_are_not_split() {
        let mut stmt = String::from("(∃n :: nat. P n)");
        for i in 0..24 {
            stmt = format!("({stmt}) = Q{i}");
        }
        let err = lemma_prenex(&stmt).0.unwrap_err();
        assert!(err.contains("`∃n`") && err.contains("nested too deeply"), "{err}");
    }

    #[test]
    fn a_quantifier_under_iff_moves_out_both_ways() {
        let (p, before, after) = lemma_prenex("(∃n :: nat. P n) = Q");
        let p = p.expect("a prenex form");
        // `((∃n. P n) ⟶ Q) ∧ (Q ⟶ (∃n'. P n'))`: `∀n. ∃n'.`, the copy a new local.
        let quants: Vec<Quant> = p.prefix.iter().map(|(q, _)| *q).collect();
        assert_eq!(quants, [Quant::All, Quant::Ex]);
        assert_eq!(after, before + 1);
        assert_ne!(p.prefix[0].1, p.prefix[1].1);
    }
}
