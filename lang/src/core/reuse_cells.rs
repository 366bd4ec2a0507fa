//! Rebuilt constructor cells as the matched value, for compiled code.
//!
//! `sorted (x # y # zs) = (x ≤ y ∧ sorted (y # zs))` matches the tail `t = y # zs` and then
//! builds `y # zs` again for the recursive call: one allocation per step of a walk that
//! otherwise allocates nothing. Inside the alternative that matched `t` against `C b1 .. bn`,
//! the expression `C b1 .. bn` (the same constructor, the binders in order) is `t` itself,
//! because values are immutable. This pass replaces it by `t`.
//!
//! The values are the same, so the interpreter, which runs the program as lowered, needs
//! no such pass; compiled code (`codegen`) applies it and is differentially tested.

use super::ir::*;

/// Replaces, in every function of `p`, each rebuilt constructor cell by the variable it was
/// matched from. Whether any was replaced.
pub fn apply(p: &mut Program) -> bool {
    let mut any = false;
    for f in &mut p.funs {
        any |= reuse(&mut f.body, &mut Vec::new());
    }
    any
}

/// A match in scope: inside the alternative, `Ctor(ctor, binders)` is `scrut`.
struct Matched {
    ctor: CtorRef,
    binders: Vec<VarId>,
    scrut: VarId,
}

impl Matched {
    fn mentions(&self, v: VarId) -> bool {
        self.scrut == v || self.binders.contains(&v)
    }
}

/// `scope` holds the matches whose variables are not rebound on the way down to `e`.
fn reuse(e: &mut Expr, scope: &mut Vec<Matched>) -> bool {
    match e {
        Expr::Ctor(c, args) if !args.is_empty() => {
            let mut any = false;
            for a in args.iter_mut() {
                any |= reuse(a, scope);
            }
            let same = |m: &&Matched| {
                m.ctor == *c
                    && m.binders.len() == args.len()
                    && m.binders.iter().zip(args.iter()).all(|(b, a)| *a == Expr::Var(*b))
            };
            if let Some(m) = scope.iter().rev().find(same) {
                *e = Expr::Var(m.scrut);
                return true;
            }
            any
        }
        Expr::Case { scrut, data, alts, default } => {
            let mut any = reuse(scrut, scope);
            let s = match **scrut {
                Expr::Var(s) => Some(s),
                _ => None,
            };
            for a in alts.iter_mut() {
                let mut inner = shadowed(scope, &a.binders);
                if let Some(s) = s.filter(|s| !a.binders.contains(s)) {
                    inner.push(Matched {
                        ctor: CtorRef { data: *data, tag: a.tag },
                        binders: a.binders.clone(),
                        scrut: s,
                    });
                }
                any |= reuse(&mut a.body, &mut inner);
            }
            if let Some(d) = default {
                any |= reuse(d, scope);
            }
            any
        }
        Expr::Let(v, _, rhs, body) => reuse(rhs, scope) | reuse(body, &mut shadowed(scope, &[*v])),
        Expr::Lambda(ps, body) => {
            let vs: Vec<VarId> = ps.iter().map(|(v, _)| *v).collect();
            reuse(body, &mut shadowed(scope, &vs))
        }
        Expr::NatCase { scrut, zero, pred, succ } => {
            reuse(scrut, scope) | reuse(zero, scope) | reuse(succ, &mut shadowed(scope, &[*pred]))
        }
        Expr::Quant { var, domain, body, .. } | Expr::SetCompr { var, domain, body, .. } => {
            let mut any = false;
            if let Some(d) = domain {
                any |= reuse(d, scope);
            }
            any | reuse(body, &mut shadowed(scope, &[*var]))
        }
        _ => {
            let mut any = false;
            e.for_each_child_mut(&mut |c| any |= reuse(c, scope));
            any
        }
    }
}

/// The matches of `scope` that survive binding `vs`.
fn shadowed(scope: &[Matched], vs: &[VarId]) -> Vec<Matched> {
    scope
        .iter()
        .filter(|m| !vs.iter().any(|v| m.mentions(*v)))
        .map(|m| Matched { ctor: m.ctor, binders: m.binders.clone(), scrut: m.scrut })
        .collect()
}
