//! The assignments that satisfy a lemma's premises: each premise a relation query (its
//! function with result `True`; inputs the variables earlier premises produced and those
//! it does not read, outputs the rest) run by `enumerate`; premises that are invariants of
//! one variable (`invc t`, `invh t`: structural predicates, `lang::core::fuse`) one query
//! of their conjunction, fused, so the variable is built satisfying all of them; the
//! variables no premise produces from the exhaustive space, and a premise without a plan
//! checked on the whole assignment instead. Every assignment found is given to a sink, with whether the
//! unplanned premises hold.
//!
//! The order of the premises is chosen greedily: next goes the premise whose plan takes the
//! fewest of the variables it produces blindly from their type's values (`ordered t`
//! before `nodes t ≤ 5`, whose `t` would be every tree), and among those the one with which
//! the whole search at a small bound takes the fewest steps, close ones compared again at a
//! larger bound (`PROBE_SMALL`, `PROBE_LARGE`; `hotel s` before `g ∈ isin s r`, which
//! enumerates traces through `isin`). The probes count steps, not time, so the order is the
//! same on every machine and run: where the run's deadline passes while they choose (a
//! probe it cuts would count as the worst order), the search runs nothing and its runs end
//! as expired, never on another order (a search of fewer than 1,024 steps never looks at
//! the deadline, so it would still have found its counterexample, after other tests).
//!
//! What it does not know: the conclusion, sizes and outcomes of the driver (the
//! `smart_exhaustive` tester's).

use super::enumerate::{Enumerator, Flow, Session};
use super::modes::Mode;
use crate::engine::Engine;
use crate::space::{Space, Spaces};
use lang::core::conjecture::Conjecture;
use lang::core::horn::Rel;
use lang::core::ir::{Expr, FunDef, FunId, Program, Ty};
use lang::interp::{EvalError, Interp, Limits, Value};
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;
use std::time::Instant;

/// The bounds (depth, generator size) of the probes that choose the order of the premises:
/// every candidate at the small one; those within `PROBE_CLOSE` times the best's steps
/// there again at the large one. At the small bound alone, building every AVL tree with
/// every key of `finite_3` and building the sorted key lists to split them took 105 and
/// 106 steps, and the first was chosen (a search of 5 s against 0.09 s); at the large one
/// the second is far cheaper. Probing every order at the large bound made Hotel's attack
/// take 118 ms (74 ms with the small bound alone, 79 ms in two stages).
const PROBE_SMALL: (u32, u64) = (3, 2);
const PROBE_LARGE: (u32, u64) = (4, 3);
const PROBE_CLOSE: u64 = 4;
/// Steps a probe may take before it counts as the worst order.
const PROBE_STEPS: u64 = 50_000;

/// A premise (or premises run as one) as a query: its enumerator and the variables it
/// produces.
pub struct Query {
    /// The premises' places as written.
    pub premises: Vec<usize>,
    enumerator: Option<Enumerator>,
    /// The relation the enumerator runs (in its program: the conjunction of the premises).
    fun: FunId,
    /// The premises' functions, checked on whole assignments when there is no plan.
    checks: Vec<FunId>,
    mode: Mode,
    /// Variables this premise produces (unknown before it, used by it).
    pub produces: Vec<usize>,
}

/// What one run left undecided or could not do.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunStats {
    /// Goals whose truth was not decided (`Enumerator::unknown`) and unplanned premises
    /// whose check ended in an error: their assignments are missing.
    pub undecided: u64,
    /// A variable's type was too big to enumerate at the size.
    pub too_big: bool,
    /// The deadline (or a probe's step limit) stopped the run.
    pub expired: bool,
    /// Steps the enumerators and the exhaustive spaces took.
    pub steps: u64,
    /// Why a premise's evaluation was not executable, if one was not: the search cannot
    /// tell whether the assignments it left out satisfy the premises, as no bound can.
    pub not_executable: Option<String>,
}

/// The premises of a conjecture as queries, in the order they run.
pub struct PremiseSearch<'c> {
    c: &'c Conjecture,
    queries: Vec<Rc<Query>>,
    limits: Limits,
    /// By variable: read by a premise or the conclusion (looked up for every value the
    /// exhaustive space gives).
    needed: Vec<bool>,
    /// The deadline passed while the probes chose the order: a probe it cut may have chosen
    /// another order than on an idle machine, so nothing runs (every run is expired).
    order_cut: bool,
}

impl Query {
    /// How many of the variables it produces its plan takes blindly from their type's
    /// values (`Enumerator::blind_outputs`); a query without a plan produces none.
    fn blind_outputs(&self) -> usize {
        self.enumerator.as_ref().map_or(0, |e| e.blind_outputs(Rel::Fun(self.fun), self.mode))
    }
}

/// One run's bounds and counts.
struct Walk<'s> {
    depth: u32,
    gen_size: u64,
    stats: RunStats,
    /// Steps allowed to the whole run (probes), beyond which it stops as expired.
    step_limit: u64,
    spaces: HashMap<Ty, Rc<Space>>,
    stop: &'s dyn Fn() -> bool,
    sink: &'s mut dyn FnMut(&[Option<Value>], bool) -> Flow,
    /// By query: its enumerator's session, kept for the whole run.
    runners: Vec<Option<Session<'s>>>,
    /// The interpreter checking the unplanned premises.
    interp: Interp<'s>,
}

impl<'c> PremiseSearch<'c> {
    /// The premises of `c` in the order the probes choose; their functional goals run on
    /// `engine`; evaluation stops at `deadline`.
    pub fn new(c: &'c Conjecture, engine: Engine, deadline: Option<Instant>) -> PremiseSearch<'c> {
        let mut cache = HashMap::new();
        let units = units(c);
        let mut order: Vec<usize> = Vec::new();
        let mut remaining: Vec<usize> = (0..units.len()).collect();
        let past = || deadline.is_some_and(|d| Instant::now() >= d);
        let probed = remaining.len() > 1;
        while remaining.len() > 1 && !past() {
            let trial = |at: usize| {
                let mut trial = order.clone();
                trial.push(remaining[at]);
                trial.extend(remaining.iter().enumerate().filter(|(i, _)| *i != at).map(|(_, j)| *j));
                trial
            };
            // Each candidate next at the small bound: how many outputs it makes blindly, and
            // the steps (counted up to `PROBE_CLOSE` times the best so far, to tell the close
            // ones).
            let mut small: Vec<(usize, u64)> = Vec::new();
            for at in 0..remaining.len() {
                let search = PremiseSearch::ordered(c, &units, &trial(at), engine, deadline, &mut cache);
                let blind = search.queries[order.len()].blind_outputs();
                let steps = match small.iter().min().copied() {
                    // More blind outputs than the best so far: it cannot be chosen.
                    Some((b, _)) if blind > b => u64::MAX,
                    Some((b, steps)) if blind == b => {
                        search.probe(PROBE_SMALL, steps.saturating_mul(PROBE_CLOSE).min(PROBE_STEPS))
                    }
                    _ => search.probe(PROBE_SMALL, PROBE_STEPS),
                };
                small.push((blind, steps));
            }
            let (best_blind, best_steps) = small.iter().min().copied().unwrap_or_default();
            let close: Vec<usize> = (0..remaining.len())
                .filter(|&at| small[at].0 == best_blind && small[at].1 <= best_steps.saturating_mul(PROBE_CLOSE))
                .collect();
            let mut at = small.iter().enumerate().min_by_key(|(_, k)| **k).map_or(0, |(at, _)| at);
            if close.len() > 1 {
                let mut best: Option<(u64, usize)> = None;
                for &candidate in &close {
                    let budget = best.map_or(PROBE_STEPS, |(steps, _)| steps.min(PROBE_STEPS));
                    let search = PremiseSearch::ordered(c, &units, &trial(candidate), engine, deadline, &mut cache);
                    let steps = search.probe(PROBE_LARGE, budget);
                    if best.is_none_or(|(b, _)| steps < b) {
                        best = Some((steps, candidate));
                    }
                }
                at = best.map_or(at, |(_, candidate)| candidate);
            }
            order.push(remaining.remove(at));
        }
        order.extend(remaining);
        let mut search = PremiseSearch::ordered(c, &units, &order, engine, deadline, &mut cache);
        // Any probe the deadline cut (its steps, or a goal's evaluation) ended past it.
        search.order_cut = probed && past();
        search
    }

    /// The premise units of `c` in `order`, their queries taken from `cache` when made
    /// before.
    fn ordered(
        c: &'c Conjecture,
        units: &[Vec<usize>],
        order: &[usize],
        engine: Engine,
        deadline: Option<Instant>,
        cache: &mut HashMap<(usize, Vec<bool>), Rc<Query>>,
    ) -> PremiseSearch<'c> {
        let mut known = vec![false; c.vars.len()];
        let mut queries = Vec::new();
        for &j in order {
            let q = cache
                .entry((j, known.clone()))
                .or_insert_with(|| Rc::new(query_of(c, &units[j], &known, engine, deadline)))
                .clone();
            q.produces.iter().for_each(|v| known[*v] = true);
            queries.push(q);
        }
        let needed = (0..c.vars.len())
            .map(|v| c.conclusion.uses.contains(&v) || c.premises.iter().any(|p| p.uses.contains(&v)))
            .collect();
        PremiseSearch { c, queries, limits: Limits { deadline, ..Limits::default() }, needed, order_cut: false }
    }

    /// The steps the whole search takes at `(depth, generator size)`, `budget` at most
    /// (`u64::MAX` past it).
    fn probe(&self, (depth, size): (u32, u64), budget: u64) -> u64 {
        let stats = self.run_with_limit(depth, size, budget, &|| false, &mut |_, _| Flow::Continue);
        if stats.expired {
            u64::MAX
        } else {
            stats.steps
        }
    }

    /// The queries in the order they run.
    pub fn queries(&self) -> &[Rc<Query>] {
        &self.queries
    }

    /// Every assignment the premises produce within derivation depth `depth`, generated
    /// values at `gen_size`, given to `sink` with whether the unplanned premises hold (a
    /// variable no premise reads and the conclusion does not either stays `None`).
    /// `stop` is looked at every 1,024 steps (a cancellation): the run ends as expired.
    pub fn run(
        &self,
        depth: u32,
        gen_size: u64,
        stop: &dyn Fn() -> bool,
        sink: &mut dyn FnMut(&[Option<Value>], bool) -> Flow,
    ) -> RunStats {
        self.run_with_limit(depth, gen_size, u64::MAX, stop, sink)
    }

    fn run_with_limit(
        &self,
        depth: u32,
        gen_size: u64,
        step_limit: u64,
        stop: &dyn Fn() -> bool,
        sink: &mut dyn FnMut(&[Option<Value>], bool) -> Flow,
    ) -> RunStats {
        if self.order_cut {
            return RunStats { expired: true, ..RunStats::default() };
        }
        let enumerators = || self.queries.iter().filter_map(|q| q.enumerator.as_ref());
        for e in enumerators() {
            e.set_generator_size(gen_size);
            e.reset(step_limit);
        }
        let mut walk = Walk {
            depth,
            gen_size,
            stats: RunStats::default(),
            step_limit,
            spaces: HashMap::new(),
            stop,
            sink,
            runners: self.queries.iter().map(|q| q.enumerator.as_ref().map(|e| e.session())).collect(),
            interp: Interp::new(&self.c.program),
        };
        let mut vals = vec![None; self.c.vars.len()];
        self.query(0, &mut vals, &mut walk);
        let mut stats = walk.stats;
        for e in enumerators() {
            stats.undecided += e.unknown.get();
            stats.expired |= e.expired.get();
            stats.steps += e.steps_taken();
            if stats.not_executable.is_none() {
                stats.not_executable = e.not_executable.borrow().clone();
            }
        }
        stats
    }

    /// What `verbose` says of the data flow: which premise produces which variables, each
    /// relation's plan, and the variables the exhaustive space gives.
    pub fn data_flow(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut produced = vec![false; self.c.vars.len()];
        for q in &self.queries {
            let names: Vec<&str> = q.produces.iter().map(|v| self.c.vars[*v].name.as_str()).collect();
            q.produces.iter().for_each(|v| produced[*v] = true);
            let n = q.premises.iter().map(|j| (j + 1).to_string()).collect::<Vec<_>>().join(" and ");
            let n = if q.premises.len() > 1 { format!("s {n}, fused,") } else { format!(" {n}") };
            match &q.enumerator {
                Some(e) => {
                    out.push(format!(
                        "smart: premise{n} produce{} {}",
                        if q.premises.len() > 1 { "" } else { "s" },
                        if names.is_empty() { "nothing (a check)".into() } else { names.join(", ") }
                    ));
                    out.extend(e.plans_text().lines().map(|l| format!("smart:   {l}")));
                }
                None => out.push(format!(
                    "smart: premise{n} {} no plan: checked on each assignment (its variables from elsewhere)",
                    if q.premises.len() > 1 { "have" } else { "has" }
                )),
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

    /// Whether variable `v` is read by a premise or the conclusion.
    pub fn needed(&self, v: usize) -> bool {
        self.needed[v]
    }

    /// Runs the queries from `i` on, then the generated variables and the sink.
    fn query(&self, i: usize, vals: &mut Vec<Option<Value>>, walk: &mut Walk) -> Flow {
        let Some(q) = self.queries.get(i) else { return self.generate(0, vals, walk) };
        // A premise without a plan is checked on the whole assignment (`finish`).
        let Some(e) = &q.enumerator else { return self.query(i + 1, vals, walk) };
        // Taken out of the walk while it runs (the rest of the walk goes on inside it).
        let Some(runner) = walk.runners[i].take() else { return Flow::Continue };
        let args: Vec<Option<Value>> = (0..vals.len())
            .map(|v| (!q.produces.contains(&v)).then(|| vals[v].clone().unwrap_or(Value::Bool(false))))
            .chain(std::iter::once(Some(Value::Bool(true))))
            .collect();
        // An inductive predicate may derive a tuple more than once: test it once. (Values
        // are ordered structurally; a closure's cells do not change that order.)
        #[allow(clippy::mutable_key_type)]
        let mut seen: BTreeSet<Vec<Value>> = BTreeSet::new();
        let stop = walk.stop;
        let depth = walk.depth;
        let flow = runner.run(Rel::Fun(q.fun), q.mode, &args, depth, stop, &mut |tuple| {
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
        walk.runners[i] = Some(runner);
        flow
    }

    /// The variables no premise produced, from the exhaustive space; then the sink.
    fn generate(&self, v: usize, vals: &mut Vec<Option<Value>>, walk: &mut Walk) -> Flow {
        if v == vals.len() {
            return self.finish(vals, walk);
        }
        if vals[v].is_some() || !self.needed(v) {
            return self.generate(v + 1, vals, walk);
        }
        let ty = &self.c.vars[v].ty;
        if !walk.spaces.contains_key(ty) {
            match Spaces::new(&self.c.program).space(ty, walk.gen_size) {
                Ok(space) => walk.spaces.insert(ty.clone(), space),
                Err(_) => {
                    walk.stats.too_big = true;
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

    /// A whole assignment: the unplanned premises checked, then the sink.
    fn finish(&self, vals: &[Option<Value>], walk: &mut Walk) -> Flow {
        walk.stats.steps += 1;
        if walk.stats.steps > walk.step_limit {
            walk.stats.expired = true;
            return Flow::Stop;
        }
        let mut holds = true;
        let mut unplanned = self.queries.iter().filter(|q| q.enumerator.is_none()).peekable();
        // The whole assignment once, for every unplanned premise (usually none).
        let args: Vec<Value> = match unplanned.peek() {
            Some(_) => vals.iter().map(|v| v.clone().unwrap_or(Value::Bool(false))).collect(),
            None => Vec::new(),
        };
        for f in unplanned.flat_map(|q| &q.checks) {
            match walk.interp.call(*f, args.clone(), &self.limits) {
                Ok(Value::Bool(true)) => {}
                Ok(_) => holds = false,
                Err(e) => {
                    walk.stats.undecided += 1;
                    if let (EvalError::NotExecutable(why), None) = (e, &walk.stats.not_executable) {
                        walk.stats.not_executable = Some(why);
                    }
                    holds = false;
                }
            }
            if !holds {
                break;
            }
        }
        (walk.sink)(vals, holds)
    }
}

/// The premises that run as one query, in the order written: the invariants of one
/// variable (each a call of a structural predicate on it, `lang::core::fuse`) together,
/// where the first of them is, so that their conjunction is fused; every other premise
/// alone.
fn units(c: &Conjecture) -> Vec<Vec<usize>> {
    let mut units: Vec<Vec<usize>> = Vec::new();
    // By variable: the unit of its invariants.
    let mut invariants: Vec<(usize, usize)> = Vec::new();
    for (j, p) in c.premises.iter().enumerate() {
        let def = c.program.fun(p.fun);
        let on = match &def.body {
            Expr::Call(f, args) if lang::core::fuse::structural(&c.program, *f).is_some() => match args.as_slice() {
                [Expr::Var(x)] => def.params.iter().position(|(v, _)| v == x),
                _ => None,
            },
            _ => None,
        };
        match on.map(|v| (v, invariants.iter().find(|(w, _)| *w == v))) {
            Some((_, Some((_, u)))) => units[*u].push(j),
            Some((v, None)) => {
                invariants.push((v, units.len()));
                units.push(vec![j]);
            }
            None => units.push(vec![j]),
        }
    }
    units
}

/// The conjunction of premises `unit` (invariants of one variable) as a function of a
/// copy of `c`'s program, over the variables as each premise is.
fn conjunction_of(c: &Conjecture, unit: &[usize]) -> (Program, FunId) {
    let mut prog = c.program.clone();
    let first = c.program.fun(c.premises[unit[0]].fun);
    let conjuncts = unit
        .iter()
        .map(|j| {
            // Each premise is `f x` (`units`): the same call over the first one's parameters.
            let def = c.program.fun(c.premises[*j].fun);
            let mut body = def.body.clone();
            if let Expr::Call(_, args) = &mut body {
                for a in args {
                    if let Expr::Var(x) = a {
                        let at = def.params.iter().position(|(v, _)| v == x).unwrap_or(0);
                        *x = first.params[at].0;
                    }
                }
            }
            body
        })
        .collect();
    let names: Vec<&str> = unit.iter().map(|j| c.program.fun(c.premises[*j].fun).name.as_str()).collect();
    let id = FunId(prog.funs.len() as u32);
    prog.funs.push(FunDef {
        name: names.join(" ∧ "),
        params: first.params.clone(),
        ret: first.ret.clone(),
        body: lang::core::fuse::conjunction(conjuncts),
        num_vars: first.num_vars,
    });
    (prog, id)
}

/// Premises `unit` as one query when the variables `known` are: inputs are those and the
/// variables it does not read (any value serves), outputs the rest, the result `True`.
fn query_of(c: &Conjecture, unit: &[usize], known: &[bool], engine: Engine, deadline: Option<Instant>) -> Query {
    let uses: BTreeSet<usize> = unit.iter().flat_map(|j| c.premises[*j].uses.iter().copied()).collect();
    let mut mode = 1u64 << c.vars.len();
    let mut produces = Vec::new();
    for (v, k) in known.iter().enumerate() {
        if *k || !uses.contains(&v) {
            mode |= 1 << v;
        } else {
            produces.push(v);
        }
    }
    let mode = Mode(mode);
    let checks: Vec<FunId> = unit.iter().map(|j| c.premises[*j].fun).collect();
    let conjunction;
    let (prog, fun) = match unit {
        [_] => (&c.program, checks[0]),
        _ => {
            conjunction = conjunction_of(c, unit);
            (&conjunction.0, conjunction.1)
        }
    };
    let enumerator = Enumerator::new(prog, Rel::Fun(fun), mode).map(|e| match deadline {
        Some(d) => e.with_deadline(d).with_engine(engine),
        None => e.with_engine(engine),
    });
    if enumerator.is_none() {
        // Its variables come from the exhaustive space (or a later premise).
        produces.clear();
    }
    Query { premises: unit.to_vec(), enumerator, fun, checks, mode, produces }
}
