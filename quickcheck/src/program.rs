//! The test program of a conjecture: in which order its variables are generated, computed
//! and its premises checked. Each variable is generated as late as possible, once the
//! premises that do not mention it have been checked; a variable that an equation premise
//! `x = t` defines is computed from `t` instead of enumerated. Every tester runs this same
//! schedule; they differ only in where values come from.

use lang::core::conjecture::{Conjecture, Part};

/// Which part of the conjecture a step checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartRef {
    Premise(usize),
    Conclusion,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Generate variable `v` (every value of its space, or a random one).
    Gen(usize),
    /// Compute variable `v` from the binding of premise `p`.
    Bind { var: usize, premise: usize },
    /// Evaluate a premise (stop this branch when false) or the conclusion.
    Check(PartRef),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    pub steps: Vec<Step>,
}

impl Schedule {
    pub fn of(c: &Conjecture) -> Schedule {
        let mut b = Builder {
            c,
            avail: vec![false; c.vars.len()],
            visiting: vec![false; c.vars.len()],
            pending: (0..c.premises.len()).collect(),
            steps: Vec::new(),
        };
        for (i, p) in c.premises.iter().enumerate() {
            if !b.pending.contains(&i) {
                continue;
            }
            for v in needed(p) {
                b.ensure(v);
            }
        }
        for v in c.conclusion.uses.clone() {
            b.ensure(v);
        }
        // Premises whose variables never all became available cannot happen (every used
        // variable was ensured); flush once more for premises without variables.
        b.flush();
        b.steps.push(Step::Check(PartRef::Conclusion));
        Schedule { steps: b.steps }
    }

    /// The variables the schedule generates (not computed), in order.
    pub fn generated(&self) -> impl Iterator<Item = usize> + '_ {
        self.steps.iter().filter_map(|s| match s {
            Step::Gen(v) => Some(*v),
            _ => None,
        })
    }

    /// Whether variable `v` gets a value (generated or computed) before the conclusion.
    pub fn assigns(&self, v: usize) -> bool {
        self.steps.iter().any(|s| matches!(s, Step::Gen(x) | Step::Bind { var: x, .. } if *x == v))
    }
}

/// The variables a premise needs before it can be checked or used as a binding.
fn needed(p: &Part) -> Vec<usize> {
    match &p.binding {
        Some(b) => b.uses.iter().copied().chain(std::iter::once(b.var)).collect(),
        None => p.uses.clone(),
    }
}

struct Builder<'c> {
    c: &'c Conjecture,
    avail: Vec<bool>,
    visiting: Vec<bool>,
    /// Premises not yet checked or used as a binding, in order.
    pending: Vec<usize>,
    steps: Vec<Step>,
}

impl Builder<'_> {
    fn ensure(&mut self, v: usize) {
        if self.avail[v] {
            return;
        }
        let binder =
            self.pending.iter().copied().find(|p| self.c.premises[*p].binding.as_ref().is_some_and(|b| b.var == v));
        if let (Some(p), false) = (binder, self.visiting[v]) {
            self.visiting[v] = true;
            let uses = self.c.premises[p].binding.as_ref().map(|b| b.uses.clone()).unwrap_or_default();
            for u in uses {
                self.ensure(u);
            }
            // A cycle of bindings may have made `v` available meanwhile: then the premise is
            // an ordinary check.
            if !self.avail[v] && self.pending.contains(&p) {
                self.pending.retain(|q| *q != p);
                self.steps.push(Step::Bind { var: v, premise: p });
                self.avail[v] = true;
                self.flush();
            }
            if self.avail[v] {
                return;
            }
        }
        self.steps.push(Step::Gen(v));
        self.avail[v] = true;
        self.flush();
    }

    /// Checks every pending premise whose variables are all available.
    fn flush(&mut self) {
        let ready: Vec<usize> =
            self.pending.iter().copied().filter(|p| self.c.premises[*p].uses.iter().all(|v| self.avail[*v])).collect();
        for p in ready {
            self.pending.retain(|q| *q != p);
            self.steps.push(Step::Check(PartRef::Premise(p)));
        }
    }
}
