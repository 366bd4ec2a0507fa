//! Inductive predicates in checking mode: all arguments are known, and the predicate holds
//! when some clause does. A clause is tried by matching its head against the arguments
//! (variables bind, constructors and `Suc` match structurally, other terms are evaluated
//! once their variables are bound and compared), then proving its premises in order. A
//! premise `v = t` with `v` unbound binds `v`; any other clause variable still unbound when a
//! goal needs it is enumerated over its type if that is finite (`NotExecutable` otherwise).
//! Recursion through premises counts towards the depth limit, and a check deepens
//! iteratively (`Run::pred`), so an infinite chain of goals does not hide a derivation.
//! An unknown variable of an infinite type in a premise `step s s'` takes the values
//! `step`'s clauses give (`outputs`). A goal met again while it is
//! being proved (a cycle: `star r x z` through `r x y`, `r y x`) is false there: a proof
//! through itself has a shorter one without the cycle, which the goal further up finds, and
//! no result found under such a cut is remembered, so the answer is exact.
//!
//! A clause that fails with `Undefined` or `NotExecutable` does not stop the search: another
//! clause may still prove the predicate, and the error is reported only if none does, and,
//! for `NotExecutable`, only if the facts derived forwards (`forward`) do not decide it.

use super::compile::{ClauseCode, Node, Pat, PredCode};
use super::eval::{ill, PredScope, Run, R};
use super::types::TyInfo;
use super::EvalError;
use crate::core::ir::PredId;
use crate::value::Value;

/// The first depth bound of a predicate check's iterative deepening (`Run::pred`).
const FIRST_DEPTH_BOUND: usize = 8;

/// A head term to compare once its variables are bound.
pub(super) struct Check<'a> {
    pub node: &'a Node,
    pub vars: &'a [u32],
    pub value: Value,
    pub ty: &'a TyInfo,
}

impl<'c, 'p> Run<'c, 'p> {
    /// Whether inductive predicate `id` holds of `args`. A check that is not itself a
    /// recursive goal of `id` deepens iteratively: its recursive goals are searched to a
    /// depth bound, doubled while a false answer met the bound, so a search along an
    /// infinite chain of goals (`star step x z` over an unbounded state space) still finds
    /// a derivation on another branch, and a false answer is final.
    pub fn pred(&mut self, id: PredId, args: &[Value]) -> R<bool> {
        let code = self.code;
        let Some(pc) = code.pred(id) else { return Err(ill("unknown inductive predicate")) };
        // One pass over the goals under way: this goal again (a cycle), or `id` recursing.
        let mut recursive = false;
        for (g, a) in &self.pred_goals {
            if *g == id {
                if a[..] == args[..] {
                    return Ok(false);
                }
                recursive = true;
            }
        }
        if recursive {
            if let Some(scope) = self.pred_scopes.last_mut() {
                if self.pred_goals.len() - scope.base >= scope.bound {
                    scope.cut = true;
                    return Ok(false);
                }
            }
            return self.pred_goal(pc, id, args);
        }
        let mut bound = FIRST_DEPTH_BOUND;
        loop {
            self.pred_scopes.push(PredScope { base: self.pred_goals.len(), bound, cut: false });
            let r = self.pred_goal(pc, id, args);
            let cut = self.pred_scopes.pop().is_some_and(|s| s.cut);
            match r {
                Ok(false) if cut => bound = bound.saturating_mul(2),
                r => return r,
            }
        }
    }

    /// `pred`'s goal itself: its clauses tried, the goal on `pred_goals` meanwhile.
    fn pred_goal(&mut self, pc: &'c PredCode, id: PredId, args: &[Value]) -> R<bool> {
        self.tick()?;
        self.enter()?;
        self.pred_goals.push((id, args.into()));
        let r = self.pred_holds(pc, id, args);
        self.pred_goals.pop();
        self.depth -= 1;
        r
    }

    fn pred_holds(&mut self, pc: &'c PredCode, id: PredId, args: &[Value]) -> R<bool> {
        // Whether a goal was cut before this one: a forward derivation decides this goal
        // exactly, whatever was cut under its backward attempts.
        let cut_before = self.pred_scopes.last().map(|s| s.cut);
        let mut deferred: Option<EvalError> = None;
        for cl in pc.clauses.iter() {
            self.tick()?;
            match self.in_clause_frame(cl, |run, bound| run.try_clause(pc, cl, args, bound)) {
                Ok(true) => return Ok(true),
                Ok(false) => {}
                Err(e @ (EvalError::Undefined(_) | EvalError::NotExecutable(_))) => {
                    deferred.get_or_insert(e);
                }
                Err(e) => return Err(e),
            }
        }
        match deferred {
            // Backwards a clause cannot be tried: forwards, the facts may still decide it.
            Some(e @ EvalError::NotExecutable(_)) => {
                // Cuts under the backward attempts no longer count; one under the forward
                // derivation (a condition calling the predicate) does.
                let cut_backwards = self.pred_scopes.last_mut().map(|s| std::mem::take(&mut s.cut));
                let decided = self.pred_forward(pc, id, args);
                if let Some(scope) = self.pred_scopes.last_mut() {
                    scope.cut |= match decided {
                        Ok(Some(_)) => cut_before.unwrap_or(false),
                        _ => cut_backwards.unwrap_or(false),
                    };
                }
                decided?.ok_or(e)
            }
            Some(e) => Err(e),
            None => Ok(false),
        }
    }

    /// Runs `f` in a new frame for clause `cl`'s variables, none of them bound yet.
    pub(super) fn in_clause_frame<T>(
        &mut self,
        cl: &ClauseCode,
        f: impl FnOnce(&mut Self, &mut [bool]) -> R<T>,
    ) -> R<T> {
        let saved_base = self.base;
        let new_base = self.stack.len();
        self.stack.resize(new_base + cl.num_vars, Value::FILLER);
        self.base = new_base;
        let mut bound = vec![false; cl.num_vars];
        let r = f(self, &mut bound);
        self.stack.truncate(new_base);
        self.base = saved_base;
        r
    }

    fn try_clause(&mut self, pc: &'c PredCode, cl: &'c ClauseCode, args: &[Value], bound: &mut [bool]) -> R<bool> {
        let mut checks = Vec::new();
        for (pat, v) in cl.head.iter().zip(args) {
            if !self.match_pat(pat, v, bound, &mut checks)? {
                return Ok(false);
            }
        }
        self.solve(pc, cl, &checks, 0, bound)
    }

    pub(super) fn eq_at(&mut self, a: &Value, b: &Value, ty: &TyInfo) -> R<bool> {
        if ty.has_fun {
            self.eq_typed(a, b, &ty.ty)
        } else {
            Ok(a == b)
        }
    }

    pub(super) fn match_pat(
        &mut self,
        pat: &'c Pat,
        v: &Value,
        bound: &mut [bool],
        checks: &mut Vec<Check<'c>>,
    ) -> R<bool> {
        match pat {
            Pat::Var(x, ty) => {
                let i = *x as usize;
                if bound[i] {
                    let cur = self.var(*x);
                    self.eq_at(&cur, v, ty)
                } else {
                    self.set_var(*x, v.clone());
                    bound[i] = true;
                    Ok(true)
                }
            }
            Pat::Const(c) => Ok(c == v),
            Pat::Ctor(tag, pats) => match v {
                Value::Ctor(t, fields) if t == tag => {
                    for (p, x) in pats.iter().zip(fields.iter()) {
                        if !self.match_pat(p, x, bound, checks)? {
                            return Ok(false);
                        }
                    }
                    Ok(true)
                }
                Value::Ctor(..) => Ok(false),
                _ => Err(ill("constructor pattern against a value that is not a datatype value")),
            },
            Pat::Suc(p) => match v {
                Value::Int(n) if n.is_zero() || n.is_negative() => Ok(false),
                Value::Int(n) => self.match_pat(p, &Value::Int(n.sub(&1i64.into())), bound, checks),
                _ => Err(ill("Suc pattern against a value that is not a number")),
            },
            Pat::Expr { node, vars, ty } => {
                checks.push(Check { node, vars, value: v.clone(), ty });
                Ok(true)
            }
        }
    }

    fn goal_holds(&mut self, cl: &'c ClauseCode, checks: &[Check<'c>], k: usize) -> R<bool> {
        match checks.get(k) {
            Some(c) => {
                let v = self.eval(c.node)?;
                self.eq_at(&v, &c.value, c.ty)
            }
            None => self.eval_bool(&cl.premises[k - checks.len()].node),
        }
    }

    /// Proves goals `k..` (deferred head checks, then premises) with backtracking over the
    /// enumerated values of unbound variables.
    fn solve(
        &mut self,
        pc: &'c PredCode,
        cl: &'c ClauseCode,
        checks: &[Check<'c>],
        k: usize,
        bound: &mut [bool],
    ) -> R<bool> {
        let nc = checks.len();
        if k == nc + cl.premises.len() {
            return Ok(true);
        }
        let (vars, bind) = match checks.get(k) {
            Some(c) => (c.vars, None),
            None => {
                let g = &cl.premises[k - nc];
                (&g.vars[..], g.bind.as_ref())
            }
        };
        if let Some((y, t, tvars)) = bind {
            let yi = *y as usize;
            if !bound[yi] && tvars.iter().all(|v| bound[*v as usize]) {
                let val = self.eval(t)?;
                self.set_var(*y, val);
                bound[yi] = true;
                let r = self.solve(pc, cl, checks, k + 1, bound);
                bound[yi] = false;
                return r;
            }
        }
        let unbound: Vec<u32> = vars.iter().copied().filter(|v| !bound[*v as usize]).collect();
        if unbound.is_empty() {
            return if self.goal_holds(cl, checks, k)? { self.solve(pc, cl, checks, k + 1, bound) } else { Ok(false) };
        }
        if k >= nc && self.unbound_infinite(cl, vars, bound) {
            // A premise `step s s'` with `s` known: the successors `step` gives.
            let g = &cl.premises[k - nc];
            let found = self.through_outputs(g, vars, bound, &mut |run, bound| {
                Ok(run.goal_holds(cl, checks, k)? && run.solve(pc, cl, checks, k + 1, bound)?)
            })?;
            if let Some(found) = found {
                return Ok(found);
            }
        }
        let p = self.code.prog;
        let mut univs = Vec::with_capacity(unbound.len());
        for v in &unbound {
            let Some(Some(t)) = cl.var_tys.get(*v as usize) else {
                return Err(ill("clause variable without a type"));
            };
            match t.univ(p) {
                Some(u) => univs.push(u.clone()),
                None => {
                    let what = format!(
                        "checking inductive predicate `{}`: a variable not determined by the arguments ranges over",
                        pc.name
                    );
                    return Err(EvalError::NotExecutable(t.not_enumerable(p, &what)));
                }
            }
        }
        if univs.iter().any(|u| u.is_empty()) {
            return Ok(false);
        }
        for v in &unbound {
            bound[*v as usize] = true;
        }
        let mut idx = vec![0usize; unbound.len()];
        let result = loop {
            self.tick()?;
            for (j, v) in unbound.iter().enumerate() {
                self.set_var(*v, univs[j][idx[j]].clone());
            }
            if self.goal_holds(cl, checks, k)? && self.solve(pc, cl, checks, k + 1, bound)? {
                break true;
            }
            let mut j = unbound.len();
            let mut done = true;
            while j > 0 {
                j -= 1;
                idx[j] += 1;
                if idx[j] < univs[j].len() {
                    done = false;
                    break;
                }
                idx[j] = 0;
            }
            if done {
                break false;
            }
        };
        for v in &unbound {
            bound[*v as usize] = false;
        }
        Ok(result)
    }
}
