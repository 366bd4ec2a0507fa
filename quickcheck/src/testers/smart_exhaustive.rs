//! The `smart_exhaustive` tester (issue 16; first version): the premises generate the
//! assignments instead of filtering them. Each premise, in order, is a relation query
//! (`smart::modes`: the premise's function with result `True`, the variables earlier
//! premises produced as inputs), run by `smart::enumerate` up to a derivation depth; the
//! variables no premise produces come from the exhaustive space; the conclusion is checked
//! on each assignment, and a failing one goes to the judge (the interpreter's re-check) as
//! for every tester, so a produced assignment that did not satisfy the premises could never
//! be reported.
//!
//! With `verbose`, the data flow is said once: which premise produces which variables, the
//! plans, and what the exhaustive space gives.
//!
//! Depth and size: at the driver's size `k` of `size` the derivation depth is
//! `⌈k · depth / size⌉`, so the last size reaches the `depth` option (5); variables no
//! premise produces, and those a relation's plan generates, take the exhaustive space at
//! size `k`. "No counterexample" says both bounds and whether every premise-satisfying
//! assignment within them was tested: a goal left undecided (a check cut by the depth
//! bound, an undefined value, a limit) produces nothing and is counted instead.
//!
//! What this version does not do yet (issue 16): run in compiled code (it runs on the
//! reference interpreter), choose the order of the premises (they run as written), and
//! look at cancellation between produced assignments (the deadline is looked at every
//! 1,024 steps, a cancellation only every 256 assignments).

use crate::driver::Turn;
use crate::smart::enumerate::{Enumerator, Flow};
use crate::smart::modes::Mode;
use crate::space::{Space, Spaces};
use crate::testers::{Coverage, End, Search, Setup, SizeResult, Tester};
use lang::core::conjecture::Conjecture;
use lang::core::horn::Rel;
use lang::core::ir::Ty;
use lang::interp::{Limits, Value};
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

/// The `smart_exhaustive` row of the registry.
pub struct SmartExhaustiveTester;

impl Tester for SmartExhaustiveTester {
    fn name(&self) -> &'static str {
        "smart_exhaustive"
    }

    fn about(&self) -> &'static str {
        "Exhaustive over the assignments the premises generate, run backwards as relations"
    }

    fn reads(&self) -> &'static [&'static str] {
        &["depth"]
    }

    fn coverage(&self) -> Coverage {
        Coverage::Complete
    }

    fn search<'c>(&self, conjecture: &'c Conjecture, setup: &Setup) -> Box<dyn Search + 'c> {
        Box::new(Smart::new(conjecture, setup))
    }
}

/// A premise as a query: its enumerator and the variables it produces.
struct Query {
    enumerator: Option<Enumerator>,
    fun: lang::core::ir::FunId,
    mode: Mode,
    /// Variables this premise produces (unknown before it, used by it).
    produces: Vec<usize>,
}

struct Smart<'c> {
    c: &'c Conjecture,
    sched: crate::program::Schedule,
    queries: Vec<Query>,
    depth: u64,
    size: u64,
    limits: Limits,
    /// The data flow, said once in `verbose` output.
    told: bool,
}

impl<'c> Smart<'c> {
    fn new(c: &'c Conjecture, setup: &Setup) -> Smart<'c> {
        let n = c.vars.len();
        let mut known = vec![false; n];
        let mut queries = Vec::new();
        for p in &c.premises {
            // Inputs: what earlier premises produced, and the variables this one does not
            // read (any value serves); outputs: the rest; the result is `True`.
            let mut mode = 1u64 << n;
            let mut produces = Vec::new();
            for (v, k) in known.iter_mut().enumerate() {
                if *k || !p.uses.contains(&v) {
                    mode |= 1 << v;
                } else {
                    produces.push(v);
                    *k = true;
                }
            }
            let mode = Mode(mode);
            let enumerator =
                Enumerator::new(&c.program, Rel::Fun(p.fun), mode).map(|e| e.with_deadline(setup.deadline));
            queries.push(Query { enumerator, fun: p.fun, mode, produces });
        }
        Smart {
            c,
            sched: crate::program::Schedule::of(c),
            queries,
            depth: setup.options.depth,
            size: setup.options.size.max(1),
            limits: Limits { deadline: Some(setup.deadline), ..Limits::default() },
            told: false,
        }
    }

    /// What `verbose` says of the data flow: which premise produces which variables, each
    /// relation's plan, and the variables the exhaustive space gives.
    fn data_flow(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut produced = vec![false; self.c.vars.len()];
        for (i, q) in self.queries.iter().enumerate() {
            let names: Vec<&str> = q.produces.iter().map(|v| self.c.vars[*v].name.as_str()).collect();
            q.produces.iter().for_each(|v| produced[*v] = true);
            match &q.enumerator {
                Some(e) => {
                    out.push(format!(
                        "smart: premise {} produces {}",
                        i + 1,
                        if names.is_empty() { "nothing (a check)".into() } else { names.join(", ") }
                    ));
                    out.extend(e.plans_text().lines().map(|l| format!("smart:   {l}")));
                }
                None => out.push(format!("smart: premise {} has no plan: nothing satisfies it", i + 1)),
            }
        }
        let generated: Vec<&str> = (0..self.c.vars.len())
            .filter(|v| !produced[*v] && self.needed(*v))
            .map(|v| self.c.vars[v].name.as_str())
            .collect();
        if !generated.is_empty() {
            out.push(format!("smart: from the exhaustive space (no premise produces them): {}", generated.join(", ")));
        }
        out
    }

    /// Runs the queries from `i` on, then the generated variables and the conclusion.
    fn query(&self, i: usize, vals: &mut Vec<Option<Value>>, walk: &mut Walk) -> Flow {
        if let Some(q) = self.queries.get(i) {
            let Some(e) = &q.enumerator else { return Flow::Continue };
            let args: Vec<Option<Value>> =
                (0..vals.len())
                    .map(|v| {
                        if q.produces.contains(&v) {
                            None
                        } else {
                            Some(vals[v].clone().unwrap_or(Value::Bool(false)))
                        }
                    })
                    .chain(std::iter::once(Some(Value::Bool(true))))
                    .collect();
            let depth = walk.depth;
            // An inductive predicate may derive a tuple more than once: test it once. (Values
            // are ordered structurally; a closure's cells do not change that order.)
            #[allow(clippy::mutable_key_type)]
            let mut seen: BTreeSet<Vec<Value>> = BTreeSet::new();
            return e.run(Rel::Fun(q.fun), q.mode, &args, depth, &mut |tuple| {
                if e.may_repeat && !seen.insert(q.produces.iter().map(|v| tuple[*v].clone()).collect()) {
                    return Flow::Continue;
                }
                for v in &q.produces {
                    vals[*v] = Some(tuple[*v].clone());
                }
                let flow = self.query(i + 1, vals, walk);
                for v in &q.produces {
                    vals[*v] = None;
                }
                flow
            });
        }
        self.generate(0, vals, walk)
    }

    /// The variables no premise produced, from the exhaustive space; then the conclusion.
    fn generate(&self, v: usize, vals: &mut Vec<Option<Value>>, walk: &mut Walk) -> Flow {
        if v == vals.len() {
            return self.check(vals, walk);
        }
        if vals[v].is_some() || !self.needed(v) {
            return self.generate(v + 1, vals, walk);
        }
        let ty = &self.c.vars[v].ty;
        if !walk.spaces.contains_key(ty) {
            match Spaces::new(&self.c.program).space(ty, walk.gen_size) {
                Ok(space) => walk.spaces.insert(ty.clone(), space),
                Err(_) => {
                    walk.end = Some(End::TooBig);
                    return Flow::Stop;
                }
            };
        }
        let space = walk.spaces[ty].clone();
        for j in 0..space.count() {
            vals[v] = Some(space.value(j));
            let flow = self.generate(v + 1, vals, walk);
            if flow == Flow::Stop {
                vals[v] = None;
                return Flow::Stop;
            }
        }
        vals[v] = None;
        Flow::Continue
    }

    /// Whether variable `v` is read by a premise or the conclusion.
    fn needed(&self, v: usize) -> bool {
        self.c.conclusion.uses.contains(&v) || self.c.premises.iter().any(|p| p.uses.contains(&v))
    }

    /// The conclusion on a whole assignment.
    fn check(&self, vals: &[Option<Value>], walk: &mut Walk) -> Flow {
        walk.res.tests += 1;
        walk.res.passed += 1;
        if walk.res.tests.is_multiple_of(256) {
            if let Some(e) = walk.turn.budget.over() {
                walk.end = Some(e);
                return Flow::Stop;
            }
        }
        let args: Vec<Value> = vals.iter().map(|v| v.clone().unwrap_or(Value::Bool(false))).collect();
        let holds = lang::interp::call(&self.c.program, self.c.conclusion.fun, args, &self.limits);
        if holds == Ok(Value::Bool(true)) {
            return Flow::Continue;
        }
        // False, undefined, or a limit: the judge re-checks the whole case.
        let generated: Vec<Option<Value>> = vals
            .iter()
            .enumerate()
            .map(|(v, x)| x.clone().or_else(|| self.needed(v).then_some(Value::Bool(false))))
            .collect();
        match walk.turn.judge.verdict(self.c, &self.sched, &generated) {
            Some(end) => {
                walk.end = Some(end);
                Flow::Stop
            }
            None => Flow::Continue,
        }
    }
}

/// One size's search: where it reports and what it counts.
struct Walk<'w, 't> {
    turn: &'w mut Turn<'t>,
    res: SizeResult,
    end: Option<End>,
    depth: u32,
    gen_size: u64,
    /// The exhaustive spaces of the generated variables' types at `gen_size`, built once.
    spaces: HashMap<Ty, Rc<Space>>,
}

/// What "no counterexample" covered at derivation depth `depth` and generator size `size`:
/// every premise-satisfying assignment within those bounds, unless `unknown` goals were left
/// undecided.
fn coverage_note(depth: u32, size: u64, unknown: u64) -> String {
    let bounds = format!("derivation depth {depth}, generated values to size {size}");
    match unknown {
        0 => format!("{bounds}: every assignment satisfying the premises within these bounds was tested"),
        n => format!(
            "{bounds}: {n} premise goal{} left undecided (a check cut by the depth bound, an undefined value \
             or a limit), so not every assignment satisfying the premises was tested",
            if n == 1 { " was" } else { "s were" }
        ),
    }
}

/// Why the time ran out: cancelled, or the deadline.
fn turn_over(turn: &Turn) -> Option<End> {
    turn.budget.over()
}

impl Search for Smart<'_> {
    fn run_size(&mut self, turn: &mut Turn) -> SizeResult {
        let k = turn.size + 1;
        let depth = (k * self.depth).div_ceil(self.size).min(u64::from(u32::MAX)) as u32;
        let enumerators = || self.queries.iter().filter_map(|q| q.enumerator.as_ref());
        enumerators().for_each(|e| e.set_generator_size(k));
        let unknown_before: u64 = enumerators().map(|e| e.unknown.get()).sum();
        let mut walk = Walk { turn, res: SizeResult::default(), end: None, depth, gen_size: k, spaces: HashMap::new() };
        let mut vals = vec![None; self.c.vars.len()];
        self.query(0, &mut vals, &mut walk);
        let mut res = walk.res;
        res.end = walk.end;
        let unknown = enumerators().map(|e| e.unknown.get()).sum::<u64>() - unknown_before;
        res.note = Some(coverage_note(depth, k, unknown));
        if !self.told {
            self.told = true;
            res.log = self.data_flow();
        }
        if res.end.is_none() && self.queries.iter().any(|q| q.enumerator.as_ref().is_some_and(|e| e.expired.get())) {
            res.end = turn_over(turn).or(Some(End::Stopped(crate::runner::Stop::Timeout)));
        }
        res
    }
}
