//! Running the plans of `modes`: a relation in a mode enumerates, depth first, the tuples
//! of its outputs for known inputs, on interpreter values: a goal in functional mode and
//! every `Compute` (lifted into a function of its free variables) run on the search's
//! engine (`crate::engine::Evaluator`: the interpreter, compiled code once it pays, the
//! compiled program kept by the enumerator across its runs); a generated variable takes every value of the
//! exhaustive space at the generator size. The depth bounds the derivation: each call of a
//! recursive relation (one that calls itself, directly or not) costs one, so no mode runs
//! forever; a call of a relation that is not recursive (a premise, a definition such as
//! `rbt t = (invc t ∧ invh t ∧ …)`) costs nothing, so wrapping a relation in another does
//! not make the values it builds smaller. A relation call that
//! ran to the end is remembered with what it produced (`MemoTable`) and not run again at
//! the same depth: searches repeat the same calls many times.
//!
//! What it does not know: which premises a lemma's query is made of, the conclusion.

use super::modes::{free_vars, Mode, Modes, Plan, Step};
use crate::engine::{Engine, Evaluator, JitTier};
use crate::space::Spaces;
use lang::core::horn::{Pattern, Rel};
use lang::core::ir::{FunDef, FunId, Lit, Program, Ty, VarId};
use lang::interp::{EvalError, Int, Limits, Value};
use rustc_hash::FxHashMap as HashMap;
use std::cell::{Cell, RefCell};
use std::hash::{Hash, Hasher};
use std::rc::Rc;
use std::time::Instant;

/// Whether to go on after a produced tuple.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Stop,
}

/// The most values a generated variable takes (the values are built once and kept).
const GENERATED_MAX: u64 = 1 << 18;

/// The values of a generated variable's type, shared.
type Values = Rc<Vec<Value>>;

/// The arguments of a functional goal (on the stack: one per goal run).
type Args = smallvec::SmallVec<[Value; 4]>;

/// A step of a plan: relation, mode, clause, step.
type StepRef = (Rel, Mode, usize, usize);

/// The plans of one query, ready to run.
pub struct Enumerator {
    prog: Program,
    plans: HashMap<(Rel, Mode), Vec<Plan>>,
    /// The function each `Compute` step was lifted into, its parameters, and whether their
    /// types and its result's are known (else it runs in the interpreter only).
    lifted: HashMap<StepRef, (FunId, Vec<VarId>, bool)>,
    limits: Limits,
    /// Generated variables take the exhaustive space's values at this size.
    generator_size: Cell<u64>,
    /// The values of generated variables, by type (`generated`).
    generated: RefCell<HashMap<Ty, Values>>,
    /// Steps run, towards the next look at the deadline.
    steps_run: Cell<u64>,
    /// Steps a run may take (`reset`) before it stops as expired.
    step_limit: Cell<u64>,
    /// The deadline passed: every run stops at once (`Flow::Stop`) and says so here.
    pub expired: Cell<bool>,
    /// Calls not made because the depth bound was reached.
    cuts: Cell<u64>,
    /// Goals whose truth was not decided: a check (a relation with every argument known)
    /// that failed after a cut below it, a computation or call that ended in an error
    /// (undefined, a limit), a generated type too big to enumerate. What they would have
    /// produced is missing: a search with any is not complete to its depth.
    pub unknown: Cell<u64>,
    /// Why a goal's evaluation was not executable, the first time one was not: kept across
    /// runs (a remembered call does not evaluate again), as it is the lemma's, not a bound's.
    pub not_executable: RefCell<Option<String>>,
    /// Environments, produced tuples and call inputs of finished relation calls, for the
    /// next call to reuse (the search allocates none of them per step).
    envs: RefCell<Vec<Env>>,
    tuples: RefCell<Vec<Vec<Value>>>,
    inputs: RefCell<Vec<Vec<Option<Value>>>>,
    /// Relation calls made before at the same generator size, with what they produced.
    memo: RefCell<MemoTable>,
    /// Where functional goals run, and the compiled side of their evaluator between
    /// sessions (`None` while a session has it).
    engine: Engine,
    tier: RefCell<Option<JitTier>>,
    /// Whether some relation run is an inductive predicate, whose rules may derive a tuple
    /// more than once.
    pub may_repeat: bool,
    /// The relations whose calls cost depth: those that call themselves, directly or not.
    recursive: rustc_hash::FxHashSet<Rel>,
}

impl Enumerator {
    /// The enumerator of relation `rel` in `mode`, or `None` when it has no plan.
    pub fn new(prog: &Program, rel: Rel, mode: Mode) -> Option<Enumerator> {
        // A call passing a known function on unchanged (`map Suc xs`) runs as a copy with
        // the function put in (`lang::core::specialize`), whose clauses see what the
        // function does: `Suc x` and `W x` are patterns, so `map W xs = ys` runs backwards.
        let mut prog = prog.clone();
        // `∀y ∈ keys l. y < x` as a walk over `l` (`lang::core::set_quantifiers`), made
        // first-order by the specialisation below: a structural predicate of `l` with the
        // input `x`, which fusion puts into the predicate that builds `l`, so a subtree is
        // built with its keys below `x` instead of every subtree built and then checked.
        lang::core::set_quantifiers::apply(&mut prog);
        lang::core::specialize::apply(&mut prog);
        // `ordered t ∧ balanced t` builds balanced subtrees, not every ordered one.
        lang::core::fuse::apply(&mut prog);
        let planned = {
            let mut modes = Modes::new(&prog);
            modes.plans(rel, mode)?;
            modes.planned((rel, mode))
        };
        let mut lifted = HashMap::default();
        for ((f, m), plans) in &planned {
            for (ci, plan) in plans.iter().enumerate() {
                for (si, step) in plan.steps.iter().enumerate() {
                    let Step::Compute(target, e) = step else { continue };
                    let fv = free_vars(e);
                    let ty_of = |v: &VarId| plan.clause.vars.iter().find(|(w, _)| w == v).map(|(_, t)| t.clone());
                    // Compiled code reads its words by these types: a computation whose
                    // types are not all known runs in the interpreter only.
                    let ret = pattern_ty(target, &ty_of);
                    let typed = ret.is_some() && fv.iter().all(|v| ty_of(v).is_some());
                    let params: Vec<(VarId, Ty)> = fv.iter().map(|v| (*v, ty_of(v).unwrap_or(Ty::Bool))).collect();
                    let num_vars = lang::core::print::num_vars_of(e)
                        .max(plan.clause.vars.iter().map(|(v, _)| v.0 + 1).max().unwrap_or(0));
                    let id = FunId(prog.funs.len() as u32);
                    prog.funs.push(FunDef {
                        name: "computed".into(),
                        params,
                        ret: ret.unwrap_or(Ty::Bool),
                        body: e.clone(),
                        num_vars,
                    });
                    lifted.insert((*f, *m, ci, si), (id, fv, typed));
                }
            }
        }
        let plans_of: HashMap<(Rel, Mode), Vec<Plan>> = planned.into_iter().collect();
        let recursive = recursive_relations(&plans_of);
        Some(Enumerator {
            recursive,
            prog,
            lifted,
            limits: Limits::default(),
            may_repeat: plans_of.keys().any(|(r, _)| matches!(r, Rel::Pred(_))),
            plans: plans_of,
            generator_size: Cell::new(3),
            generated: RefCell::new(HashMap::default()),
            envs: RefCell::new(Vec::new()),
            tuples: RefCell::new(Vec::new()),
            inputs: RefCell::new(Vec::new()),
            memo: RefCell::new(MemoTable::default()),
            engine: Engine::Interpreter,
            tier: RefCell::new(None),
            steps_run: Cell::new(0),
            step_limit: Cell::new(u64::MAX),
            expired: Cell::new(false),
            cuts: Cell::new(0),
            unknown: Cell::new(0),
            not_executable: RefCell::new(None),
        })
    }

    /// Generated variables take the exhaustive space's values at `size` from now on.
    pub fn set_generator_size(&self, size: u64) {
        if self.generator_size.replace(size) != size {
            self.generated.borrow_mut().clear();
            // What a call produces depends on the generated values.
            *self.memo.borrow_mut() = MemoTable::default();
        }
    }

    /// Stops every run at `deadline` (`expired` says it did); evaluation stops there too.
    pub fn with_deadline(mut self, deadline: Instant) -> Enumerator {
        self.limits.deadline = Some(deadline);
        self
    }

    /// Starts a new run: counts back to zero, at most `step_limit` steps.
    pub fn reset(&self, step_limit: u64) {
        self.steps_run.set(0);
        self.step_limit.set(step_limit);
        self.expired.set(false);
        self.cuts.set(0);
        self.unknown.set(0);
    }

    /// Steps taken since `reset`.
    pub fn steps_taken(&self) -> u64 {
        self.steps_run.get()
    }

    /// Whether the deadline has passed or `stop` says so (looked at every 1,024 steps), or
    /// the step limit is reached.
    fn out_of_time(&self, stop: &dyn Fn() -> bool) -> bool {
        let n = self.steps_run.get() + 1;
        self.steps_run.set(n);
        if n > self.step_limit.get()
            || n.is_multiple_of(1024) && (self.limits.deadline.is_some_and(|d| Instant::now() >= d) || stop())
        {
            self.expired.set(true);
        }
        self.expired.get()
    }

    /// The values a generated variable of type `ty` takes (the exhaustive space at
    /// `generator_size`), built once per type while the size stays (a lookup by reference:
    /// this runs at every generating step); `None` when there are too many.
    fn generated(&self, ty: &Ty) -> Option<Rc<Vec<Value>>> {
        if let Some(v) = self.generated.borrow().get(ty) {
            return Some(v.clone());
        }
        // A space of more values than `GENERATED_MAX` is too big to run through at each
        // step (and to hold): undecided, like a type too big to enumerate.
        let size = self.generator_size.get();
        let space = Spaces::new(&self.prog).space(ty, size).ok().filter(|s| s.count() <= GENERATED_MAX);
        let Some(space) = space else {
            self.unknown.set(self.unknown.get() + 1);
            return None;
        };
        let values = Rc::new((0..space.count()).map(|j| space.value(j)).collect::<Vec<_>>());
        self.generated.borrow_mut().insert(ty.clone(), values.clone());
        Some(values)
    }

    /// A goal whose truth was not decided: counted, and nothing is produced from it.
    fn undecided(&self) -> Flow {
        self.unknown.set(self.unknown.get() + 1);
        Flow::Continue
    }

    /// A goal whose evaluation failed: undecided, and when no bound would change that (not
    /// executable), said why (`not_executable`).
    fn failed(&self, e: EvalError) -> Flow {
        if let EvalError::NotExecutable(why) = e {
            self.not_executable.borrow_mut().get_or_insert(why);
        }
        self.undecided()
    }

    /// How many outputs of `rel` in `mode` (run with result `True`) some clause takes
    /// blindly, from its type's values, instead of from a goal: the premise search runs a
    /// premise that does so after those that do not.
    pub fn blind_outputs(&self, rel: Rel, mode: Mode) -> usize {
        let Some(plans) = self.plans.get(&(rel, mode)) else { return 0 };
        let result = |p: &Plan| match p.clause.head.last() {
            Some(Pattern::Var(r)) => Some(*r),
            _ => None,
        };
        plans
            .iter()
            // A clause for the result `False` does not run.
            .filter(|p| {
                !p.steps
                    .iter()
                    .any(|s| matches!(s, Step::Match(v, Pattern::Lit(Lit::Bool(false))) if Some(*v) == result(p)))
            })
            .map(|p| {
                (0..p.clause.head.len())
                    .filter(|i| !mode.is_input(*i))
                    .filter(|i| match (&p.clause.head[*i], result(p)) {
                        (Pattern::Var(v), Some(r)) => {
                            self.blind(p, *v, &[(r, Lit::Bool(true))], &mut vec![(rel, mode)])
                        }
                        _ => false,
                    })
                    .count()
            })
            .max()
            .unwrap_or(0)
    }

    /// Whether plan `p` takes `v` from its type's values: generates it, builds it around
    /// generated values of its own type (`color t = Black` builds `Node l (a, Black) r`
    /// from any trees `l` and `r`: every tree again), or gets it from a relation that does
    /// so at that place (`seen`: the relations on the way, not looked into again). `known`:
    /// the head's variables that the call passes literals for.
    fn blind(&self, p: &Plan, v: VarId, known: &[(VarId, Lit)], seen: &mut Vec<(Rel, Mode)>) -> bool {
        let ty = |w: VarId| p.clause.vars.iter().find(|(x, _)| *x == w).map(|(_, t)| t);
        p.steps.iter().any(|s| match s {
            Step::Generate(w) => *w == v,
            Step::Build(w, pattern) if *w == v => {
                let mut parts = Vec::new();
                lang::core::horn::pattern_vars(pattern, &mut |x| parts.push(x));
                parts.into_iter().any(|x| ty(x) == ty(v) && p.steps.contains(&Step::Generate(x)))
            }
            Step::Call { rel, mode, args } if !seen.contains(&(*rel, *mode)) => {
                let Some(j) = args.iter().position(|a| *a == Pattern::Var(v)) else { return false };
                if mode.is_input(j) {
                    return false;
                }
                let Some(plans) = self.plans.get(&(*rel, *mode)) else { return false };
                seen.push((*rel, *mode));
                // A clause that needs another literal than the call passes does not run
                // (`ordered(t, True)` runs no clause for `False`).
                let passed: Vec<(usize, &Lit)> = (0..args.len())
                    .filter(|i| mode.is_input(*i))
                    .filter_map(|i| literal_of(p, &args[i], known).map(|l| (i, l)))
                    .collect();
                plans.iter().any(|q| {
                    let mut theirs = Vec::new();
                    for (i, l) in &passed {
                        match q.clause.head.get(*i) {
                            Some(Pattern::Var(w)) => {
                                if q.steps
                                    .iter()
                                    .any(|s| matches!(s, Step::Match(x, Pattern::Lit(m)) if x == w && m != *l))
                                {
                                    return false;
                                }
                                theirs.push((*w, (*l).clone()));
                            }
                            Some(Pattern::Lit(m)) if m != *l => return false,
                            _ => {}
                        }
                    }
                    match q.clause.head.get(j) {
                        Some(Pattern::Var(w)) => self.blind(q, *w, &theirs, seen),
                        _ => false,
                    }
                })
            }
            _ => false,
        })
    }

    /// The plans of every relation this enumerator runs, in text form (`print_plans`).
    pub fn plans_text(&self) -> String {
        let mut keys: Vec<&(Rel, Mode)> = self.plans.keys().collect();
        keys.sort();
        keys.into_iter().map(|k| super::modes::print_plans(&self.prog, k.0, k.1, &self.plans[k])).collect()
    }

    /// Functional goals run on `engine` (the interpreter unless set).
    pub fn with_engine(mut self, engine: Engine) -> Enumerator {
        self.engine = engine;
        *self.tier.get_mut() = None;
        self
    }

    /// A session running the plans, its evaluator kept across the runs it makes: make one
    /// per search, not per run. Compiled code, once there, outlives it (`Session`'s drop).
    pub fn session(&self) -> Session<'_> {
        let tier = self.tier.borrow_mut().take().unwrap_or_else(|| JitTier::new(self.engine, &[]));
        Session { e: self, eval: RefCell::new(Some(Evaluator::with_tier(&self.prog, tier))) }
    }
}

/// The relations of `plans` that call themselves, directly or through others (calls in
/// functional mode are function calls, not relation calls, and do not count).
fn recursive_relations(plans: &HashMap<(Rel, Mode), Vec<Plan>>) -> rustc_hash::FxHashSet<Rel> {
    let mut calls: HashMap<Rel, Vec<Rel>> = HashMap::default();
    for ((r, _), ps) in plans {
        for step in ps.iter().flat_map(|p| &p.steps) {
            let Step::Call { rel, mode, args } = step else { continue };
            let functional = matches!(rel, Rel::Fun(_)) && (0..args.len() - 1).all(|j| mode.is_input(j));
            if !functional {
                calls.entry(*r).or_default().push(*rel);
            }
        }
    }
    let reaches_itself = |start: Rel| {
        let mut seen: Vec<Rel> = Vec::new();
        let mut todo: Vec<Rel> = calls.get(&start).cloned().unwrap_or_default();
        while let Some(r) = todo.pop() {
            if r == start {
                return true;
            }
            if !seen.contains(&r) {
                seen.push(r);
                todo.extend(calls.get(&r).into_iter().flatten().copied());
            }
        }
        false
    };
    calls.keys().copied().filter(|r| reaches_itself(*r)).collect()
}

/// The literal pattern `a` of plan `p` stands for: itself, or a variable the plan builds or
/// matches as one.
fn literal_of<'p>(p: &'p Plan, a: &'p Pattern, known: &'p [(VarId, Lit)]) -> Option<&'p Lit> {
    match a {
        Pattern::Lit(l) => Some(l),
        Pattern::Var(v) => known.iter().find(|(w, _)| w == v).map(|(_, l)| l).or_else(|| {
            p.steps.iter().find_map(|s| match s {
                Step::Build(w, Pattern::Lit(l)) | Step::Match(w, Pattern::Lit(l)) if w == v => Some(l),
                _ => None,
            })
        }),
        _ => None,
    }
}

/// The most tuples a call may produce to be remembered, and the most remembered in all.
const MEMO_TUPLES_MAX: usize = 4_096;
const MEMO_TOTAL_MAX: usize = 1 << 20;

/// A relation call: relation, mode, the depth it runs at.
type Call = (Rel, Mode, u32);

/// A remembered call and its inputs (`None` at outputs).
type CallKey = (Call, Box<[Option<Value>]>);

/// What a finished relation call produced: its tuples in order, and the cuts and undecided
/// goals within it (a call made again counts them again, so what the search reports of
/// its completeness does not depend on which calls were remembered).
struct Memo {
    tuples: Vec<Vec<Value>>,
    cuts: u64,
    unknown: u64,
}

/// The relation calls remembered (tabling): the same call, at the same depth, is made many
/// times in a search (`inorder` on the same part of a list, a trace's same suffix), and
/// runs once. Only calls that ran to the end are remembered, and only while the table is
/// small (`MEMO_TUPLES_MAX`, `MEMO_TOTAL_MAX`). Calls are found by their hash
/// (`call_hash`), then compared: ordering them in a tree compared long equal inputs (a
/// trace) at every level, half the time of a search.
#[derive(Default)]
struct MemoTable {
    table: HashMap<u64, Vec<(CallKey, Rc<Memo>)>>,
    /// Tuples remembered in all.
    total: usize,
}

impl MemoTable {
    fn get(&self, call: Call, inputs: &[Option<Value>], hash: u64) -> Option<Rc<Memo>> {
        let found = self.table.get(&hash)?.iter().find(|((c, i), _)| *c == call && **i == *inputs);
        found.map(|(_, m)| m.clone())
    }

    fn insert(&mut self, key: CallKey, hash: u64, memo: Memo) {
        if self.total + memo.tuples.len() <= MEMO_TOTAL_MAX {
            self.total += memo.tuples.len().max(1);
            self.table.entry(hash).or_default().push((key, Rc::new(memo)));
        }
    }
}

/// Nodes of a call's inputs that its hash looks at: equal calls hash equal, and a long input
/// is not walked to its end for it.
const HASH_NODES: usize = 64;

/// The hash of a call: its relation, mode, depth, and the first `HASH_NODES` nodes of its
/// inputs.
fn call_hash(call: Call, inputs: &[Option<Value>]) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    call.hash(&mut h);
    let mut budget = HASH_NODES;
    for input in inputs {
        match input {
            None => h.write_u8(0),
            Some(v) => hash_value(v, &mut h, &mut budget),
        }
    }
    h.finish()
}

/// Hashes `v` structurally, as it compares (a function or a partial value by its kind
/// alone), while `budget` nodes remain.
fn hash_value(v: &Value, h: &mut rustc_hash::FxHasher, budget: &mut usize) {
    if *budget == 0 {
        return;
    }
    *budget -= 1;
    match v {
        Value::Bool(b) => h.write_u8(1 + *b as u8),
        Value::Int(i) => i.hash(h),
        Value::Ctor(tag, fields) => {
            h.write_u32(*tag);
            fields.iter().for_each(|f| hash_value(f, h, budget));
        }
        Value::Set(s) => {
            h.write_u8(3 + s.is_complement() as u8);
            s.elems().iter().for_each(|x| hash_value(x, h, budget));
        }
        Value::Fun(_) | Value::Hole(_) | Value::Stuck(_) => h.write_u8(5),
    }
}

/// Runs an enumerator's plans, with the evaluator of their functional goals (always there
/// until dropped).
pub struct Session<'e> {
    e: &'e Enumerator,
    eval: RefCell<Option<Evaluator<'e>>>,
}

impl Drop for Session<'_> {
    /// Gives the compiled side back to the enumerator, for its next session.
    fn drop(&mut self) {
        if let Some(eval) = self.eval.get_mut().take() {
            *self.e.tier.borrow_mut() = Some(eval.into_tier());
        }
    }
}

impl Session<'_> {
    /// Calls function `f` of the enumerator's program on `args`.
    fn call(&self, f: FunId, args: &[Value]) -> Result<Value, EvalError> {
        let mut eval = self.eval.borrow_mut();
        eval.as_mut().expect("a session's evaluator").call(f, args, &self.e.limits)
    }

    /// Calls function `f` in the interpreter only.
    fn interpret(&self, f: FunId, args: Vec<Value>) -> Result<Value, EvalError> {
        let mut eval = self.eval.borrow_mut();
        eval.as_mut().expect("a session's evaluator").interpret(f, args, &self.e.limits)
    }

    /// Every output tuple of `rel` in `mode` on the inputs `args` (`None` at the outputs)
    /// with derivations of depth at most `depth`, each given to `k` as the whole argument
    /// list. Stops when `k` says so, and as expired at the deadline, the step limit, or when
    /// `stop` says so (looked at every 1,024 steps: a cancellation).
    pub fn run(
        &self,
        rel: Rel,
        mode: Mode,
        args: &[Option<Value>],
        depth: u32,
        stop: &dyn Fn() -> bool,
        k: &mut dyn FnMut(&[Value]) -> Flow,
    ) -> Flow {
        let Some(plans) = self.e.plans.get(&(rel, mode)) else { return Flow::Continue };
        // One environment per relation call, from the pool: a step binds into it and
        // unbinds on the way back, so the search allocates no environment per step.
        let mut env = self.e.envs.borrow_mut().pop().unwrap_or_default();
        let mut tuple = self.e.tuples.borrow_mut().pop().unwrap_or_default();
        let mut flow = Flow::Continue;
        for (ci, plan) in plans.iter().enumerate() {
            env.undo(0);
            let ok = plan.clause.head.iter().zip(args).all(|(p, a)| a.as_ref().is_none_or(|a| matches(p, a, &mut env)));
            if !ok {
                continue;
            }
            flow = self.steps(rel, mode, ci, plan, 0, &mut env, depth, stop, &mut |env| {
                if !plan.clause.head.iter().all(|p| bound(p, env)) {
                    return Flow::Continue;
                }
                tuple.clear();
                tuple.extend(plan.clause.head.iter().map(|p| build_bound(p, env)));
                k(&tuple)
            });
            if flow == Flow::Stop {
                break;
            }
        }
        env.undo(0);
        self.e.envs.borrow_mut().push(env);
        tuple.clear();
        self.e.tuples.borrow_mut().push(tuple);
        flow
    }

    #[allow(clippy::too_many_arguments)]
    fn steps(
        &self,
        rel: Rel,
        mode: Mode,
        ci: usize,
        plan: &Plan,
        i: usize,
        env: &mut Env,
        depth: u32,
        stop: &dyn Fn() -> bool,
        k: &mut dyn FnMut(&Env) -> Flow,
    ) -> Flow {
        if self.e.out_of_time(stop) {
            return Flow::Stop;
        }
        let Some(step) = plan.steps.get(i) else { return k(env) };
        let mut next = |env: &mut Env| self.steps(rel, mode, ci, plan, i + 1, env, depth, stop, k);
        // Binds `x` to `p` and goes on; undoes the bindings either way.
        let mut next_with = |p: &Pattern, x: &Value, env: &mut Env| {
            let mark = env.mark();
            let flow = if matches(p, x, env) { next(env) } else { Flow::Continue };
            env.undo(mark);
            flow
        };
        match step {
            Step::Match(v, p) => {
                let Some(x) = env.get(*v).cloned() else { return Flow::Continue };
                next_with(p, &x, env)
            }
            Step::Build(v, p) => match build(p, env) {
                Some(x) => next_with(&Pattern::Var(*v), &x, env),
                None => Flow::Continue,
            },
            Step::Compute(target, _) => {
                let Some((f, fv, typed)) = self.e.lifted.get(&(rel, mode, ci, i)) else { return Flow::Continue };
                let Some(args) = fv.iter().map(|v| env.get(*v).cloned()).collect::<Option<Args>>() else {
                    return Flow::Continue;
                };
                let value = if *typed { self.call(*f, &args) } else { self.interpret(*f, args.to_vec()) };
                match value {
                    Ok(x) => next_with(target, &x, env),
                    Err(e) => self.e.failed(e),
                }
            }
            Step::Call { rel: g, mode: m, args } => {
                let n = args.len();
                if let (Rel::Fun(g), true) = (g, (0..n - 1).all(|j| m.is_input(j))) {
                    let Some(xs) = args[..n - 1].iter().map(|p| build(p, env)).collect::<Option<Args>>() else {
                        return Flow::Continue;
                    };
                    let value = self.call(*g, &xs);
                    return match value {
                        Ok(r) => next_with(&args[n - 1], &r, env),
                        Err(e) => self.e.failed(e),
                    };
                }
                let check = (0..n).all(|j| m.is_input(j));
                let costs = self.e.recursive.contains(g);
                if costs && depth == 0 {
                    self.e.cuts.set(self.e.cuts.get() + 1);
                    return if check { self.e.undecided() } else { Flow::Continue };
                }
                let below = if costs { depth - 1 } else { depth };
                let mut inputs = self.e.inputs.borrow_mut().pop().unwrap_or_default();
                inputs.extend(args.iter().enumerate().map(|(j, p)| if m.is_input(j) { build(p, env) } else { None }));
                let cuts = self.e.cuts.get();
                let mut held = false;
                // The rest of this clause, on each tuple the call produces.
                let mut on_tuple = |tuple: &[Value], env: &mut Env| {
                    let mark = env.mark();
                    let flow = if args.iter().zip(tuple).all(|(p, x)| matches(p, x, env)) {
                        held = true;
                        next(env)
                    } else {
                        Flow::Continue
                    };
                    env.undo(mark);
                    flow
                };
                let call = (*g, *m, below);
                let hash = call_hash(call, &inputs);
                let memo = self.e.memo.borrow().get(call, &inputs, hash);
                let flow = match memo {
                    Some(memo) => {
                        // The call made before: its tuples again, and what it cut and left
                        // undecided counted again, as if it ran.
                        self.e.cuts.set(self.e.cuts.get() + memo.cuts);
                        self.e.unknown.set(self.e.unknown.get() + memo.unknown);
                        let mut flow = Flow::Continue;
                        for tuple in &memo.tuples {
                            if self.e.out_of_time(stop) || on_tuple(tuple, env) == Flow::Stop {
                                flow = Flow::Stop;
                                break;
                            }
                        }
                        flow
                    }
                    None => {
                        let (unknown, mut outside) = (self.e.unknown.get(), (0, 0));
                        // Nothing is recorded once the table is full.
                        let mut recorded = (self.e.memo.borrow().total < MEMO_TOTAL_MAX).then(Vec::new);
                        let flow = self.run(*g, *m, &inputs, below, stop, &mut |tuple| {
                            match &mut recorded {
                                Some(r) if r.len() < MEMO_TUPLES_MAX => r.push(tuple.to_vec()),
                                _ => recorded = None,
                            }
                            // What the rest of this clause cuts and leaves undecided is not
                            // the call's.
                            let before = (self.e.cuts.get(), self.e.unknown.get());
                            let flow = on_tuple(tuple, env);
                            outside.0 += self.e.cuts.get() - before.0;
                            outside.1 += self.e.unknown.get() - before.1;
                            flow
                        });
                        if let (Flow::Continue, false, Some(tuples)) = (flow, self.e.expired.get(), recorded) {
                            let memo = Memo {
                                cuts: self.e.cuts.get() - cuts - outside.0,
                                unknown: self.e.unknown.get() - unknown - outside.1,
                                tuples,
                            };
                            self.e.memo.borrow_mut().insert((call, inputs.as_slice().into()), hash, memo);
                        }
                        flow
                    }
                };
                inputs.clear();
                self.e.inputs.borrow_mut().push(inputs);
                // A check that failed only after the depth bound cut its search is unknown,
                // not false (`¬ reach s` must not pass because the search was cut).
                if check && !held && self.e.cuts.get() > cuts {
                    self.e.unknown.set(self.e.unknown.get() + 1);
                }
                flow
            }
            Step::Generate(v) => {
                let Some((_, ty)) = plan.clause.vars.iter().find(|(w, _)| w == v) else { return Flow::Continue };
                let Some(values) = self.e.generated(ty) else { return Flow::Continue };
                for x in values.iter() {
                    if next_with(&Pattern::Var(*v), x, env) == Flow::Stop {
                        return Flow::Stop;
                    }
                }
                Flow::Continue
            }
            Step::Member(p, set) => {
                let Some(Value::Set(s)) = env.get(*set).cloned() else { return Flow::Continue };
                // A finite set's elements; a complement's are the generated values it does
                // not exclude.
                let generated;
                let candidates: &[Value] = if s.is_complement() {
                    let elem = plan.clause.vars.iter().find(|(w, _)| w == set).and_then(|(_, t)| match t {
                        Ty::Set(e) => Some((**e).clone()),
                        _ => None,
                    });
                    let Some(values) = elem.and_then(|t| self.e.generated(&t)) else { return Flow::Continue };
                    generated = values;
                    &generated
                } else {
                    s.elems()
                };
                for x in candidates {
                    if s.contains(x) && next_with(p, x, env) == Flow::Stop {
                        return Flow::Stop;
                    }
                }
                Flow::Continue
            }
        }
    }
}

/// A clause's variables while it runs: a slot per variable, and the variables bound in
/// order (the trail), so a step undoes its bindings when it returns instead of working on
/// a copy.
#[derive(Default)]
struct Env {
    slots: Vec<Option<Value>>,
    trail: Vec<VarId>,
}

impl Env {
    fn get(&self, v: VarId) -> Option<&Value> {
        self.slots.get(v.0 as usize).and_then(|x| x.as_ref())
    }

    fn bind(&mut self, v: VarId, x: Value) {
        let i = v.0 as usize;
        if i >= self.slots.len() {
            self.slots.resize(i + 1, None);
        }
        self.slots[i] = Some(x);
        self.trail.push(v);
    }

    fn mark(&self) -> usize {
        self.trail.len()
    }

    /// Unbinds every variable bound since `mark`.
    fn undo(&mut self, mark: usize) {
        for v in self.trail.drain(mark..) {
            self.slots[v.0 as usize] = None;
        }
    }
}

/// The type of the values pattern `p` matches, its variables' types given by `var_ty`.
fn pattern_ty(p: &Pattern, var_ty: &dyn Fn(&VarId) -> Option<Ty>) -> Option<Ty> {
    match p {
        Pattern::Var(v) => var_ty(v),
        Pattern::Ctor(c, _) => Some(Ty::Data(c.data)),
        Pattern::Lit(Lit::Bool(_)) => Some(Ty::Bool),
        Pattern::Lit(Lit::Nat(_)) | Pattern::Suc(_) => Some(Ty::Nat),
        Pattern::Lit(Lit::Int(_)) => Some(Ty::Int),
    }
}

/// Matches `v` against `p`, binding `p`'s new variables in `env` (a bound one must equal).
fn matches(p: &Pattern, v: &Value, env: &mut Env) -> bool {
    match (p, v) {
        (Pattern::Var(x), v) => match env.get(*x) {
            Some(w) => w == v,
            None => {
                env.bind(*x, v.clone());
                true
            }
        },
        (Pattern::Lit(Lit::Bool(b)), Value::Bool(c)) => b == c,
        (Pattern::Lit(Lit::Nat(n)), Value::Int(i)) => Int::from(n) == *i,
        (Pattern::Lit(Lit::Int(n)), Value::Int(i)) => Int::from(n) == *i,
        (Pattern::Suc(p), Value::Int(i)) => !i.is_zero() && matches(p, &Value::Int(i.sub(&Int::from(1i64))), env),
        (Pattern::Ctor(c, ps), Value::Ctor(tag, fields)) => {
            c.tag == *tag && ps.len() == fields.len() && ps.iter().zip(fields.iter()).all(|(p, f)| matches(p, f, env))
        }
        _ => false,
    }
}

/// The value of `p` from `env`, `None` when a variable of it is unknown.
fn build(p: &Pattern, env: &Env) -> Option<Value> {
    bound(p, env).then(|| build_bound(p, env))
}

/// Whether every variable of `p` is bound in `env`.
fn bound(p: &Pattern, env: &Env) -> bool {
    match p {
        Pattern::Var(x) => env.get(*x).is_some(),
        Pattern::Lit(_) => true,
        Pattern::Suc(p) => bound(p, env),
        Pattern::Ctor(_, ps) => ps.iter().all(|p| bound(p, env)),
    }
}

/// The value of `p`, every variable of which is bound in `env` (a constructor's fields
/// allocated once: this runs for every value the enumerators produce).
fn build_bound(p: &Pattern, env: &Env) -> Value {
    match p {
        Pattern::Var(x) => env.get(*x).cloned().unwrap_or(Value::Bool(false)),
        Pattern::Lit(Lit::Bool(b)) => Value::Bool(*b),
        Pattern::Lit(Lit::Nat(n)) => Value::Int(Int::from(n)),
        Pattern::Lit(Lit::Int(n)) => Value::Int(Int::from(n)),
        Pattern::Suc(p) => match build_bound(p, env) {
            Value::Int(i) => Value::Int(i.suc()),
            // Typed: the argument of `Suc` is a number.
            v => v,
        },
        Pattern::Ctor(c, ps) => Value::ctor_from(c.tag, ps.iter().map(|p| build_bound(p, env))),
    }
}
