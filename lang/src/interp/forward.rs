//! Inductive predicates in checking mode, bottom up: when no clause can be tried backwards
//! (a clause variable the arguments do not determine ranges over an infinite type, as the
//! old state in `reach s ⟹ reach (s⦇t1 := next s⦈)`, whose overwritten field is lost), the
//! facts the clauses derive are computed forwards, round by round from the clauses without
//! recursive premises, until the asked fact appears (it holds) or a round derives nothing
//! new (the least fixpoint is complete: it does not hold). Every fact is derived by the
//! clauses, so the answer is exact; more facts than `MAX_FACTS` without the asked one is
//! `NotExecutable` (the fixpoint may be infinite), and a clause outside this shape leaves
//! the backward search's error standing.
//!
//! The shape: each recursive premise is a call of the predicate itself on clause variables
//! or constants (`reach s`, `star r y z`), which facts bind; every other premise is a
//! condition evaluated once its variables are bound (or computed, `v = t`, or enumerated
//! over a finite type); the head is built from the bound variables.

use super::compile::{ClauseCode, Goal, Node, Pat, PredCode};
use super::eval::{Run, R};
use super::EvalError;
use crate::core::ir::PredId;
use crate::value::Value;
use std::collections::BTreeSet;

/// The most facts a forward evaluation keeps before it gives up.
const MAX_FACTS: usize = 4_096;

/// A recursive premise's argument: what a fact's value there binds or is compared with.
enum Arg<'c> {
    Var(u32),
    Const(&'c Value),
}

/// A clause split for forward evaluation.
struct Forward<'c> {
    clause: &'c ClauseCode,
    /// The recursive premises' arguments.
    recursive: Vec<Vec<Arg<'c>>>,
    /// The other premises.
    conditions: Vec<&'c Goal>,
}

type Fact = Box<[Value]>;

impl<'c, 'p> Run<'c, 'p> {
    /// Whether `id` holds of `args`, derived forwards: `Ok(None)` when the clauses are not
    /// of the shape above or a condition cannot be evaluated (the caller's error stands),
    /// a `NotExecutable` error when more than `MAX_FACTS` facts do not include it; limits
    /// (fuel, time) are errors as everywhere.
    pub(super) fn pred_forward(&mut self, pc: &'c PredCode, id: PredId, args: &[Value]) -> R<Option<bool>> {
        // Facts are told apart by their representation, which for functions (and values
        // holding them) is not their meaning: such predicates keep the backward error.
        let prog = self.code.prog;
        let Some(def) = prog.inductives.get(id.0 as usize) else { return Ok(None) };
        if def.params.iter().any(|t| self.code.ty(t).has_fun)
            || args.iter().any(|a| matches!(a, Value::Hole(_) | Value::Stuck(_)))
        {
            return Ok(None);
        }
        let Some(clauses) = pc.clauses.iter().map(|cl| split(cl, id)).collect::<Option<Vec<Forward<'c>>>>() else {
            return Ok(None);
        };
        let mut all: BTreeSet<Fact> = BTreeSet::new();
        let mut delta: BTreeSet<Fact> = BTreeSet::new();
        let mut first = true;
        loop {
            let mut derived: Vec<Fact> = Vec::new();
            for f in &clauses {
                // Semi-naive: a clause with recursive premises fires on combinations with at
                // least one fact of the last round; one without fires in the first round only.
                if f.recursive.is_empty() != first {
                    continue;
                }
                match self.fire(f, &all, &delta, &mut derived) {
                    Ok(()) => {}
                    Err(EvalError::NotExecutable(_) | EvalError::Undefined(_)) => return Ok(None),
                    Err(e) => return Err(e),
                }
            }
            first = false;
            delta.clear();
            for fact in derived {
                if *fact == *args {
                    return Ok(Some(true));
                }
                if all.insert(fact.clone()) {
                    delta.insert(fact);
                }
            }
            if delta.is_empty() {
                return Ok(Some(false));
            }
            if all.len() > MAX_FACTS {
                return Err(EvalError::NotExecutable(format!(
                    "checking inductive predicate `{}`: the first {MAX_FACTS} facts its clauses derive do not \
                     include it, and its clauses cannot be run backwards",
                    pc.name
                )));
            }
        }
    }

    /// Every fact clause `f` derives from `all` with at least one premise from `delta`.
    fn fire(&mut self, f: &Forward<'c>, all: &BTreeSet<Fact>, delta: &BTreeSet<Fact>, out: &mut Vec<Fact>) -> R<()> {
        self.in_clause_frame(f.clause, |run, bound| run.premise_facts(f, all, delta, 0, false, bound, out))
    }

    /// Binds recursive premise `k..` to facts, then solves the conditions.
    #[allow(clippy::too_many_arguments)]
    fn premise_facts(
        &mut self,
        f: &Forward<'c>,
        all: &BTreeSet<Fact>,
        delta: &BTreeSet<Fact>,
        k: usize,
        used_delta: bool,
        bound: &mut [bool],
        out: &mut Vec<Fact>,
    ) -> R<()> {
        if k == f.recursive.len() {
            return if used_delta || f.recursive.is_empty() { self.conditions(f, 0, bound, out) } else { Ok(()) };
        }
        // The last premise takes a fact of the last round if none before did.
        let last_needs_delta = k + 1 == f.recursive.len() && !used_delta;
        for fact in if last_needs_delta { delta } else { all } {
            self.tick()?;
            let from_delta = last_needs_delta || delta.contains(fact);
            let mut newly = Vec::new();
            let mut fits = true;
            for (arg, v) in f.recursive[k].iter().zip(fact.iter()) {
                match arg {
                    Arg::Const(c) => fits = *c == v,
                    Arg::Var(x) if bound[*x as usize] => fits = self.var(*x) == *v,
                    Arg::Var(x) => {
                        self.set_var(*x, v.clone());
                        bound[*x as usize] = true;
                        newly.push(*x);
                    }
                }
                if !fits {
                    break;
                }
            }
            let r = if fits {
                self.premise_facts(f, all, delta, k + 1, used_delta || from_delta, bound, out)
            } else {
                Ok(())
            };
            for x in newly {
                bound[x as usize] = false;
            }
            r?;
        }
        Ok(())
    }

    /// Solves condition `k..` of `f` (computing `v = t`, enumerating unbound variables of
    /// finite types), then builds the head.
    fn conditions(&mut self, f: &Forward<'c>, k: usize, bound: &mut [bool], out: &mut Vec<Fact>) -> R<()> {
        let cl = f.clause;
        let Some(g) = f.conditions.get(k) else {
            let mut head_vars = Vec::new();
            for p in cl.head.iter() {
                pat_vars(p, &mut head_vars);
            }
            return self.enumerate(cl, &head_vars, bound, &mut |run, _| {
                let fact: R<Vec<Value>> = cl.head.iter().map(|p| run.pat_value(p)).collect();
                out.push(fact?.into_boxed_slice());
                Ok(())
            });
        };
        if let Some((y, t, tvars)) = &g.bind {
            let yi = *y as usize;
            if !bound[yi] && tvars.iter().all(|v| bound[*v as usize]) {
                let val = self.eval(t)?;
                self.set_var(*y, val);
                bound[yi] = true;
                let r = self.conditions(f, k + 1, bound, out);
                bound[yi] = false;
                return r;
            }
        }
        if self.unbound_infinite(cl, &g.vars, bound) {
            // `step s s'` with `s` known: the successors `step` gives.
            let done = self.through_outputs(g, &g.vars, bound, &mut |run, bound| {
                if run.eval_bool(&g.node)? {
                    run.conditions(f, k + 1, bound, out)?;
                }
                Ok(false)
            })?;
            if done.is_some() {
                return Ok(());
            }
        }
        self.enumerate(cl, &g.vars, bound, &mut |run, bound| {
            if run.eval_bool(&g.node)? {
                run.conditions(f, k + 1, bound, out)
            } else {
                Ok(())
            }
        })
    }

    /// Runs `then` for every value of the unbound ones among `vars` (of finite types).
    pub(super) fn enumerate(
        &mut self,
        cl: &'c ClauseCode,
        vars: &[u32],
        bound: &mut [bool],
        then: &mut dyn FnMut(&mut Self, &mut [bool]) -> R<()>,
    ) -> R<()> {
        let Some(&v) = vars.iter().find(|v| !bound[**v as usize]) else { return then(self, bound) };
        let p = self.code.prog;
        let Some(Some(t)) = cl.var_tys.get(v as usize) else {
            return Err(EvalError::NotExecutable("clause variable without a type".into()));
        };
        let Some(univ) = t.univ(p).cloned() else {
            return Err(EvalError::NotExecutable(t.not_enumerable(p, "a clause variable ranges over")));
        };
        bound[v as usize] = true;
        let mut r = Ok(());
        for x in univ.iter() {
            self.set_var(v, x.clone());
            r = self.tick().and_then(|()| self.enumerate(cl, vars, bound, then));
            if r.is_err() {
                break;
            }
        }
        bound[v as usize] = false;
        r
    }

    /// The value of a head pattern, its variables bound.
    pub(super) fn pat_value(&mut self, p: &'c Pat) -> R<Value> {
        Ok(match p {
            Pat::Var(x, _) => self.var(*x),
            Pat::Const(c) => c.clone(),
            Pat::Ctor(tag, ps) => {
                let fields: R<Vec<Value>> = ps.iter().map(|p| self.pat_value(p)).collect();
                Value::ctor(*tag, fields?)
            }
            Pat::Suc(p) => match self.pat_value(p)? {
                Value::Int(n) => Value::Int(n.add(&1i64.into())),
                _ => return Err(EvalError::NotExecutable("Suc of a value that is not a number".into())),
            },
            Pat::Expr { node, .. } => self.eval(node)?,
        })
    }
}

/// Clause `cl` of predicate `id` split into recursive premises and conditions; `None` when
/// a recursive premise has an argument other than a variable or a constant.
fn split(cl: &ClauseCode, id: PredId) -> Option<Forward<'_>> {
    let mut recursive = Vec::new();
    let mut conditions = Vec::new();
    for g in cl.premises.iter() {
        match &g.node {
            Node::Pred(p, args) if *p == id => {
                let args = args
                    .iter()
                    .map(|a| match a {
                        Node::Var(x) => Some(Arg::Var(*x)),
                        Node::Const(c) => Some(Arg::Const(c)),
                        _ => None,
                    })
                    .collect::<Option<Vec<_>>>()?;
                recursive.push(args);
            }
            _ => conditions.push(g),
        }
    }
    Some(Forward { clause: cl, recursive, conditions })
}

/// The clause variables of a head pattern.
pub(super) fn pat_vars(p: &Pat, out: &mut Vec<u32>) {
    match p {
        Pat::Var(x, _) => out.push(*x),
        Pat::Const(_) => {}
        Pat::Ctor(_, ps) => ps.iter().for_each(|p| pat_vars(p, out)),
        Pat::Suc(p) => pat_vars(p, out),
        Pat::Expr { vars, .. } => out.extend(vars.iter().copied()),
    }
}
