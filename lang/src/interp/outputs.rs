//! A goal's unknown variables found by running a relation forwards: when checking an
//! inductive predicate meets a premise `step s s'` (or `r x y`, `r` a λ calling one) whose
//! unknown variable ranges over an infinite type, the relation's clauses are run with the
//! known arguments matched against their heads, and each clause that holds gives the
//! unknown arguments from its head, instead of enumerating the type: the successors of a
//! state in a small-step relation, the final state of a big-step one. A clause's own
//! premises with unknown variables of such types are run forwards the same way (`Seq`:
//! the intermediate state from the first command), recursive calls included, at most
//! `MAX_OUTPUTS_DEPTH` deep; a relation that cannot be run so (a clause needing a value
//! no premise gives, a derivation deeper than that) keeps the error of the enumeration.

use super::compile::{ClauseCode, Goal, LambdaCode, Node};
use super::eval::{Run, R};
use super::pred::Check;
use super::EvalError;
use crate::core::ir::PredId;
use crate::value::{Closure, Value};

/// How deep calls run forwards for their outputs may nest (a derivation of a big-step
/// semantics as deep as its program, not a loop's unbounded unfolding).
const MAX_OUTPUTS_DEPTH: u32 = 64;

/// A goal of a clause run forwards: a head argument's deferred comparison, or a premise.
enum Cond<'c> {
    Head(Check<'c>),
    Premise(&'c Goal),
}

/// An argument of the goal's relation: a clause variable or a known value.
enum Arg {
    Var(u32),
    Known(Value),
}

impl<'c, 'p> Run<'c, 'p> {
    /// The values of the unbound variables among the goal's arguments, one vector per way
    /// the relation holds (in the order of `unknown`, duplicates removed); `None` when the
    /// goal is not a relation call with plain arguments, the relation calls itself, or an
    /// unbound variable is not one of its arguments.
    pub(super) fn goal_outputs(
        &mut self,
        goal: &'c Goal,
        bound: &[bool],
        unknown: &[u32],
    ) -> R<Option<Vec<Vec<Value>>>> {
        let Some((id, args)) = self.relation_call(goal, bound)? else { return Ok(None) };
        let known: Vec<Option<Value>> = args
            .iter()
            .map(|a| match a {
                Arg::Known(v) => Some(v.clone()),
                Arg::Var(x) if bound[*x as usize] => Some(self.var(*x)),
                Arg::Var(_) => None,
            })
            .collect();
        let positions: Option<Vec<usize>> =
            unknown.iter().map(|u| args.iter().position(|a| matches!(a, Arg::Var(x) if x == u))).collect();
        let Some(positions) = positions else { return Ok(None) };
        let Some(facts) = self.pred_outputs(id, &known)? else { return Ok(None) };
        let mut outs: Vec<Vec<Value>> = Vec::new();
        for fact in facts {
            // A variable twice among the arguments takes one value.
            let consistent = args.iter().enumerate().all(|(i, a)| match a {
                Arg::Var(x) => {
                    args.iter().enumerate().all(|(j, b)| !matches!(b, Arg::Var(y) if y == x) || fact[i] == fact[j])
                }
                Arg::Known(_) => true,
            });
            let out: Vec<Value> = positions.iter().map(|&i| fact[i].clone()).collect();
            if consistent && !outs.contains(&out) {
                outs.push(out);
            }
        }
        Ok(Some(outs))
    }

    /// Whether one of `vars` is unbound and of a type too large to enumerate.
    pub(super) fn unbound_infinite(&self, cl: &ClauseCode, vars: &[u32], bound: &[bool]) -> bool {
        let p = self.code.prog;
        vars.iter().any(|v| {
            !bound[*v as usize]
                && cl.var_tys.get(*v as usize).is_none_or(|t| t.as_ref().is_none_or(|t| t.univ(p).is_none()))
        })
    }

    /// Runs `then` with the goal's unbound variables bound to each of the ways its relation
    /// holds (`goal_outputs`) until `then` answers true; `None` when the goal's relation
    /// cannot be run so.
    pub(super) fn through_outputs(
        &mut self,
        goal: &'c Goal,
        vars: &[u32],
        bound: &mut [bool],
        then: &mut dyn FnMut(&mut Self, &mut [bool]) -> R<bool>,
    ) -> R<Option<bool>> {
        let unbound: Vec<u32> = vars.iter().copied().filter(|v| !bound[*v as usize]).collect();
        let Some(outs) = self.goal_outputs(goal, bound, &unbound)? else { return Ok(None) };
        for v in &unbound {
            bound[*v as usize] = true;
        }
        let mut r = Ok(false);
        for out in outs {
            for (v, x) in unbound.iter().zip(out) {
                self.set_var(*v, x);
            }
            r = self.tick().and_then(|()| then(self, bound));
            if !matches!(r, Ok(false)) {
                break;
            }
        }
        for v in &unbound {
            bound[*v as usize] = false;
        }
        r.map(Some)
    }

    /// The relation a goal calls and its arguments: `p a b` directly (an argument built from
    /// known variables is known), or `r a b` with `r` a λ whose body is `p` on its
    /// parameters.
    fn relation_call(&mut self, goal: &'c Goal, bound: &[bool]) -> R<Option<(PredId, Vec<Arg>)>> {
        let plain = |n: &Node| match n {
            Node::Var(x) => Some(Arg::Var(*x)),
            Node::Const(v) => Some(Arg::Known(v.clone())),
            _ => None,
        };
        match &goal.node {
            Node::Pred(p, args) => {
                let mut out = Vec::with_capacity(args.len());
                for (i, a) in args.iter().enumerate() {
                    let arg = match plain(a) {
                        Some(arg) => arg,
                        None => match goal.arg_vars.get(i) {
                            Some(vs) if vs.iter().all(|v| bound[*v as usize]) => Arg::Known(self.eval(a)?),
                            _ => return Ok(None),
                        },
                    };
                    out.push(arg);
                }
                Ok(Some((*p, out)))
            }
            Node::Apply(f, args) => {
                let Some(args) = args.iter().map(plain).collect::<Option<Vec<_>>>() else { return Ok(None) };
                let Value::Fun(c) = self.eval(f)? else { return Ok(None) };
                let Closure::Lambda { code, args: applied, .. } = &*c else { return Ok(None) };
                let Some(code) = code.downcast_ref::<LambdaCode>() else { return Ok(None) };
                if !applied.is_empty() || code.params.len() != args.len() {
                    return Ok(None);
                }
                let Node::Pred(p, body_args) = &code.body else { return Ok(None) };
                // The body's arguments are the λ's parameters, in some order.
                let mut mapped = Vec::with_capacity(body_args.len());
                for b in body_args.iter() {
                    let Node::Var(v) = b else { return Ok(None) };
                    let Some(i) = code.params.iter().position(|p| p == v) else { return Ok(None) };
                    mapped.push(match &args[i] {
                        Arg::Var(x) => Arg::Var(*x),
                        Arg::Known(v) => Arg::Known(v.clone()),
                    });
                }
                Ok(Some((*p, mapped)))
            }
            _ => Ok(None),
        }
    }

    /// Every argument tuple of `id` that agrees with `known` and that one of its clauses
    /// derives, the known arguments matched against the clause heads; `None` when a clause
    /// cannot run so, or the calls run forwards nest deeper than `MAX_OUTPUTS_DEPTH`.
    fn pred_outputs(&mut self, id: PredId, known: &[Option<Value>]) -> R<Option<Vec<Box<[Value]>>>> {
        if self.outputs_depth >= MAX_OUTPUTS_DEPTH {
            return Ok(None);
        }
        self.outputs_depth += 1;
        let r = self.clauses_outputs(id, known);
        self.outputs_depth -= 1;
        r
    }

    /// `pred_outputs` without its depth count: every clause run with `known`.
    fn clauses_outputs(&mut self, id: PredId, known: &[Option<Value>]) -> R<Option<Vec<Box<[Value]>>>> {
        let code = self.code;
        let Some(pc) = code.pred(id) else { return Ok(None) };
        let mut out = Vec::new();
        for cl in pc.clauses.iter() {
            self.tick()?;
            match self.in_clause_frame(cl, |run, bound| run.clause_outputs(cl, known, bound, &mut out)) {
                Ok(()) => {}
                // A clause that cannot run this way gives nothing to go on: the caller's
                // error stands.
                Err(EvalError::NotExecutable(_) | EvalError::Undefined(_)) => return Ok(None),
                Err(e) => return Err(e),
            }
        }
        Ok(Some(out))
    }

    fn clause_outputs(
        &mut self,
        cl: &'c ClauseCode,
        known: &[Option<Value>],
        bound: &mut [bool],
        out: &mut Vec<Box<[Value]>>,
    ) -> R<()> {
        let mut checks = Vec::new();
        for (pat, v) in cl.head.iter().zip(known) {
            if let Some(v) = v {
                if !self.match_pat(pat, v, bound, &mut checks)? {
                    return Ok(());
                }
            }
        }
        // The deferred head comparisons, then the premises.
        let goals: Vec<Cond<'c>> =
            checks.into_iter().map(Cond::Head).chain(cl.premises.iter().map(Cond::Premise)).collect();
        self.solve_all(cl, &goals, 0, bound, &mut |run, _| {
            let fact: R<Vec<Value>> = cl.head.iter().map(|p| run.pat_value(p)).collect();
            out.push(fact?.into_boxed_slice());
            Ok(())
        })
    }

    /// Every way goals `k..` hold (`v = t` computing `v`, other unbound variables
    /// enumerated over finite types), then `then`; the clause's head variables still
    /// unbound at the end are enumerated too.
    fn solve_all(
        &mut self,
        cl: &'c ClauseCode,
        goals: &[Cond<'c>],
        k: usize,
        bound: &mut [bool],
        then: &mut dyn FnMut(&mut Self, &mut [bool]) -> R<()>,
    ) -> R<()> {
        let Some(goal) = goals.get(k) else {
            let mut head_vars = Vec::new();
            for p in cl.head.iter() {
                super::forward::pat_vars(p, &mut head_vars);
            }
            return self.enumerate(cl, &head_vars, bound, then);
        };
        if let Cond::Premise(Goal { bind: Some((y, t, tvars)), .. }) = goal {
            let yi = *y as usize;
            if !bound[yi] && tvars.iter().all(|v| bound[*v as usize]) {
                let val = self.eval(t)?;
                self.set_var(*y, val);
                bound[yi] = true;
                let r = self.solve_all(cl, goals, k + 1, bound, then);
                bound[yi] = false;
                return r;
            }
        }
        let vars = match goal {
            Cond::Head(c) => c.vars,
            Cond::Premise(g) => &g.vars[..],
        };
        if let Cond::Premise(g) = goal {
            if self.unbound_infinite(cl, vars, bound) {
                // A premise `r a b` with `b` unknown: what `r` derives forwards.
                let found = self.through_outputs(g, vars, bound, &mut |run, bound| {
                    run.solve_all(cl, goals, k + 1, bound, then).map(|()| false)
                })?;
                if found.is_some() {
                    return Ok(());
                }
            }
        }
        self.enumerate(cl, vars, bound, &mut |run, bound| {
            let holds = match goal {
                Cond::Head(c) => {
                    let v = run.eval(c.node)?;
                    run.eq_at(&v, &c.value, c.ty)?
                }
                Cond::Premise(g) => run.eval_bool(&g.node)?,
            };
            if holds {
                run.solve_all(cl, goals, k + 1, bound, then)
            } else {
                Ok(())
            }
        })
    }
}
