//! Code equations. A lemma declared `[code]` whose statement is `f p1 ... pk = t` gives `f`
//! an implementation that compiled code runs in place of its defining equations, as
//! Isabelle's code generator does (`rev xs = fold Cons xs []` makes `rev` linear). The
//! equations of all of `f`'s code lemmas, in order, replace its definition for compiled
//! code; the reference interpreter keeps the definition, so every counterexample is still
//! checked against it, and the differential tests compare the two.
//!
//! Isabelle proves a code equation before using it; here a lemma is only tested. The
//! lemma itself is tested against the definitions (see `Lemma::code`), and a wrong code
//! equation can at worst hide a counterexample from the compiled tester, never show a false one.

use super::check::Checker;
use super::classes;
use super::elab::R;
use super::hir::*;
use super::ty::Type;
use crate::diagnostic::Diagnostic;
use crate::span::Span;
use crate::syntax::ast;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

impl Checker<'_> {
    /// Checks a lemma and, when it is declared `[code]`, registers each of its propositions
    /// as a code equation (an error there is reported, and the lemma is still tested as a
    /// lemma).
    pub fn lemma_command(&mut self, l: &ast::Lemma, span: Span) -> R<Vec<usize>> {
        let indices = self.lemma(l, span)?;
        if l.code {
            for &index in &indices {
                if let Err(d) = self.code_equation(index) {
                    self.diagnostics.push(d);
                }
            }
        }
        Ok(indices)
    }

    /// Registers lemma `index` (declared `[code]`) as a code equation of the constant its
    /// left-hand side applies, or says why it cannot be one.
    pub fn code_equation(&mut self, index: usize) -> R<()> {
        let lemma = &self.lemmas[index];
        if let Some(p) = lemma.premises.first() {
            return Err(Diagnostic::error(p.span, "a code equation cannot have premises")
                .with_label("a premise of a `[code]` lemma")
                .with_note("a code equation is an unconditional `f p1 ... pn = t`"));
        }
        let (eq, sides) = lemma.conclusion.spine();
        let (lhs, rhs) = match (&eq.kind, &sides[..]) {
            (TermKind::Builtin(super::builtins::Builtin::Eq), [lhs, rhs]) => (*lhs, *rhs),
            _ => {
                return Err(Diagnostic::error(lemma.conclusion.span, "a code equation must be an equation")
                    .with_label("not of the form `f p1 ... pn = t`"))
            }
        };
        let (head, args) = lhs.spine();
        let TermKind::Const(id, inst) = &head.kind else {
            return Err(not_a_function_of_patterns(lhs));
        };
        let def = self.env.konst(*id).clone();
        let ConstKind::Equations { arity, .. } = &def.kind else {
            return Err(Diagnostic::error(head.span, format!("`{}` is not defined by equations", def.name))
                .with_label("an inductive predicate has no code equations"));
        };
        if args.len() > *arity {
            return Err(Diagnostic::error(
                lhs.span,
                format!(
                    "this code equation gives `{}` {}, its definition {arity}",
                    def.name,
                    super::check::plural(args.len(), "argument")
                ),
            )
            .with_label("more arguments than the defining equations take"));
        }
        // The equation must be about `f` at its most general type: the instance at `f` is
        // `f`'s own parameters, renamed, each at a sort its declared sort implies.
        let too_specific = || {
            Diagnostic::error(head.span, format!("this code equation is about an instance of `{}`", def.name))
                .with_label(format!("`{}` here is less general than its declared type", def.name))
                .with_note("a code equation must hold at the constant's most general type")
        };
        let mut rename: HashMap<Arc<str>, Type> = HashMap::new();
        for ((p, sort), t) in def.scheme.params.iter().zip(inst) {
            let Type::Param(q) = t else { return Err(too_specific()) };
            let needs = lemma.params.iter().find(|(n, _)| n == q).map(|(_, s)| s.clone()).unwrap_or_default();
            if rename.contains_key(q) || !needs.iter().all(|c| classes::sort_implies(sort, c)) {
                return Err(too_specific());
            }
            rename.insert(q.clone(), Type::Param(p.clone()));
        }
        if lemma.params.iter().any(|(q, _)| !rename.contains_key(q)) {
            return Err(too_specific());
        }
        let mut seen = HashSet::new();
        let mut pats = args.iter().map(|a| to_pat(a, &mut seen)).collect::<R<Vec<Pat>>>()?;
        let mut locals = lemma.locals.clone();
        let mut rhs = (*rhs).clone();
        // Pad to the definition's arity: `f xs = g` becomes `f xs y = g y`.
        let mut rest = &def.scheme.ty;
        for _ in 0..args.len() {
            rest = rest.as_fun().map_or(rest, |(_, cod)| cod);
        }
        for i in args.len()..*arity {
            let Some((dom, cod)) = rest.as_fun() else { break };
            let l = locals.len() as LocalId;
            locals.push(Local { name: Arc::from(format!("x{i}")), ty: dom.clone() });
            pats.push(Pat { kind: PatKind::Var(l), ty: dom.clone(), span: lhs.span });
            let arg = Term { kind: TermKind::Local(l), ty: dom.clone(), span: lhs.span };
            let span = rhs.span;
            rhs = Term { kind: TermKind::App(Box::new(rhs), Box::new(arg)), ty: cod.clone(), span };
            rest = cod;
        }
        // Over `f`'s parameters, with the locals numbered after the earlier code lemmas'.
        let entry = self.env.code.entry(*id).or_default();
        let entry = Arc::make_mut(entry);
        let offset = entry.locals.len() as LocalId;
        let mut ty = |t: &mut Type| *t = t.subst_params(&rename);
        let mut local = |l: &mut LocalId| *l += offset;
        for p in pats.iter_mut() {
            p.rewrite(&mut ty, &mut local);
        }
        rhs.rewrite(&mut ty, &mut local);
        entry.locals.extend(locals.into_iter().map(|l| Local { name: l.name, ty: l.ty.subst_params(&rename) }));
        entry.equations.push((pats, rhs));
        self.lemmas[index].code = true;
        Ok(())
    }
}

fn not_a_function_of_patterns(lhs: &Term) -> Diagnostic {
    Diagnostic::error(lhs.span, "the left-hand side of a code equation must be a constant applied to patterns")
        .with_label("not of the form `f p1 ... pn`")
}

/// The pattern a left-hand side argument stands for: constructors applied to patterns,
/// variables (each once), numerals, `Suc p`, `True`, `False`.
fn to_pat(t: &Term, seen: &mut HashSet<LocalId>) -> R<Pat> {
    use super::builtins::Builtin;
    let not_a_pattern = || {
        Diagnostic::error(t.span, "this is not a pattern")
            .with_label("patterns are built from constructors, variables, numerals and `_`")
    };
    let kind = match &t.kind {
        TermKind::Local(l) => {
            if !seen.insert(*l) {
                return Err(Diagnostic::error(t.span, "a variable occurs twice in the left-hand side")
                    .with_label("second occurrence")
                    .with_note("the patterns of an equation bind each variable once"));
            }
            PatKind::Var(*l)
        }
        TermKind::Num(n) => PatKind::Num(n.clone()),
        TermKind::Builtin(Builtin::True) => PatKind::Bool(true),
        TermKind::Builtin(Builtin::False) => PatKind::Bool(false),
        _ => {
            let (head, args) = t.spine();
            match (&head.kind, &args[..]) {
                (TermKind::Builtin(Builtin::Suc), [x]) => PatKind::Suc(Box::new(to_pat(x, seen)?)),
                // A constructor short of arguments has a function type: not a pattern.
                (TermKind::Ctor(d, tag, _), _) if t.ty.as_fun().is_none() => {
                    PatKind::Ctor(*d, *tag, args.iter().map(|a| to_pat(a, seen)).collect::<R<_>>()?)
                }
                _ => return Err(not_a_pattern()),
            }
        }
    };
    Ok(Pat { kind, ty: t.ty.clone(), span: t.span })
}
