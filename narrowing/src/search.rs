//! The narrowing search of one type instance at one size: every generated variable starts
//! as a hole; each *partial case* evaluates the conjecture's steps on the partial
//! assignment; a case that cannot be decided names the hole it needs, which is refined into
//! its alternatives, depth first, smallest first (Lazy SmallCheck's and Isabelle's plain
//! engine, for conjectures whose quantifiers are all universal).
//!
//! Parts are combined in parallel: every premise and the conclusion are evaluated; a false
//! premise or a true conclusion decides the case whatever the holes stand for, even when
//! an earlier part needed a hole; only when nothing decides is the first demand (in the
//! schedule's order, premises first) refined. A counterexample found with holes still open
//! is one for every value of those holes: its smallest completion is re-checked by the
//! reference interpreter like every tester's.

use crate::arena_words::ArenaWords;
use crate::assignment::{Alternative, Assignment, RefineError};
use crate::evaluator::PartialEvaluator;
use codegen::Word;
use lang::core::conjecture::Conjecture;
use lang::core::ir::{FunId, Undef};
use lang::interp::{first_hole, Demand, EvalError, Hole, Limits, Value};
use quickcheck::driver::Turn;
use quickcheck::program::{PartRef, Schedule, Step};
use quickcheck::runner::Stop;
use quickcheck::testers::{End, Search, Setup, SizeResult};
use quickcheck::Engine;
use std::rc::Rc;
use std::time::Instant;

/// Fuel and depth for one part on one partial case (as the other testers' cases).
const CASE_FUEL: u64 = 50_000_000;
const CASE_DEPTH: u32 = 100_000;

/// Partial cases between two looks at the budget.
pub(crate) const BUDGET_INTERVAL: u64 = 256;

/// What one partial case says.
#[derive(Debug)]
pub(crate) enum Case {
    /// The conclusion holds for every value of the holes.
    Passed,
    /// A premise is false (or a binding undefined) for every value of the holes.
    Rejected,
    /// Every premise holds and the conclusion does not, for every value of the holes;
    /// `Some` when an underspecified function was met (potentially spurious).
    Failed(Option<Undef>),
    /// Undecided until this hole is known.
    Need(Demand),
}

/// A step of the schedule that runs a function on a partial case, prepared once.
pub(crate) struct CaseStep {
    /// Its index in the schedule (`held` is by schedule step).
    index: usize,
    fun: FunId,
    /// The premise or conclusion it checks, or the variable it binds.
    part: Result<PartRef, usize>,
    /// The variables other steps bind that it reads: it waits while one is unknown.
    bound_uses: Vec<usize>,
}

/// The steps of `sched` that run a function, in order.
fn prepared_steps(c: &Conjecture, sched: &Schedule) -> Vec<CaseStep> {
    let bound: Vec<usize> = sched
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Bind { var, .. } => Some(*var),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    for (index, step) in sched.steps.iter().enumerate() {
        let (fun, uses, part) = match *step {
            Step::Gen(_) => continue,
            Step::Bind { var, premise } => {
                let Some(b) = &c.premises[premise].binding else { continue };
                (b.fun, &b.uses, Err(var))
            }
            Step::Check(p) => {
                let part = quickcheck::case::part(c, p);
                (part.fun, &part.uses, Ok(p))
            }
        };
        let bound_uses = uses.iter().copied().filter(|v| bound.contains(v)).collect();
        out.push(CaseStep { index, fun, part, bound_uses });
    }
    out
}

/// One refined hole on the search path: its alternatives and the next to try.
struct Frame {
    slot: u32,
    alts: Rc<[Alternative]>,
    next: usize,
    /// The number of slots before the hole was filled (its fields' slots come after).
    len: usize,
}

pub struct Narrowing<'c> {
    pub(crate) c: &'c Conjecture,
    pub(crate) sched: Schedule,
    /// The schedule's steps that run a function.
    steps: Vec<CaseStep>,
    /// The interpreter, or compiled code for partial words, as the run's engine says.
    pub(crate) eval: PartialEvaluator<'c>,
    pub(crate) slots: Assignment<'c>,
    /// The slots' partial values as words in compiled code's arena.
    words: ArenaWords,
    /// The variables' words during a case (bindings add theirs).
    case_words: Vec<Word>,
    /// Which variables are known during a case (a buffer kept between cases).
    known: Vec<bool>,
    /// The root slot of each generated variable, by variable.
    pub(crate) roots: Vec<Option<u32>>,
    pub(crate) limits: Limits,
    pub(crate) exhausted: bool,
    /// Per step of the schedule: for a premise found true, the length of the search path
    /// then. It stays true below that path (what was decided without a hole's value holds
    /// for every value), so it is not evaluated again until a refinement on that path
    /// changes.
    pub(crate) held: Vec<Option<usize>>,
    /// The run's last size (Isabelle's): `quantified` reports a potentially spurious
    /// counterexample only there, as a larger size may find the witness.
    pub(crate) last_size: u64,
}

impl<'c> Narrowing<'c> {
    /// The search of `c`, or of its prenex form when a quantifier over an infinite type
    /// is left inside it (`Conjecture::prenex`, searched by `quantified`).
    pub fn new(c: &'c Conjecture, setup: &Setup) -> Narrowing<'c> {
        let c = match &c.prenex {
            Some(Ok(p)) if c.not_executable.is_some() => &**p,
            _ => c,
        };
        let mut n = Narrowing::with_engine(c, setup.engine, setup.deadline);
        n.last_size = setup.options.size.max(1);
        n
    }

    pub(crate) fn with_engine(c: &'c Conjecture, engine: Engine, deadline: Instant) -> Narrowing<'c> {
        let sched = Schedule::of(c);
        Narrowing {
            c,
            steps: prepared_steps(c, &sched),
            sched,
            eval: PartialEvaluator::new(c.lazy_program(), engine),
            slots: Assignment::new(c.lazy_program()),
            words: ArenaWords::default(),
            case_words: Vec::new(),
            known: Vec::new(),
            roots: vec![None; c.vars.len()],
            limits: Limits { fuel: CASE_FUEL, max_depth: CASE_DEPTH, deadline: Some(deadline) },
            exhausted: false,
            held: Vec::new(),
            last_size: 1,
        }
    }

    /// Evaluates the schedule's steps on the current partial assignment, `depth` holes deep
    /// in the search.
    pub(crate) fn case(&mut self, depth: usize) -> Result<Case, EvalError> {
        // On compiled code every part runs on the variables' words kept in the arena
        // (`ArenaWords`); what the parts allocate is freed after the case, leaving the
        // kept words. Interpreter values are built only for a part compiled code hands over.
        let (jit, epoch) = self.eval.begin_case(&self.limits);
        let mut mark = None;
        let mut on_words = false;
        if let Some(jit) = jit {
            if let Some(ws) = self.words.words(&self.slots, &self.roots, jit, epoch) {
                self.case_words.clear();
                self.case_words.extend_from_slice(ws);
                on_words = true;
                mark = Some(jit.mark());
            }
        }
        // Which variables are known: generated ones, and those a binding computed.
        self.known.clear();
        self.known.extend(self.roots.iter().map(Option::is_some));
        let r = self.case_steps(depth, on_words);
        if let (Some(m), (Some(jit), e)) = (mark, self.eval.jit()) {
            if e == epoch {
                jit.release(m);
            }
        }
        r
    }

    /// The case's steps, on words while `on_words` (until a binding has no word), else on
    /// values (built only when a part needs them).
    fn case_steps(&mut self, depth: usize, mut on_words: bool) -> Result<Case, EvalError> {
        let mut vals: Vec<Option<Value>> = Vec::new();
        if !on_words {
            vals = self.roots.iter().map(|r| r.map(|s| self.slots.value(s))).collect();
        }
        let mut demand: Option<Demand> = None;
        let mut taint: Option<Undef> = None;
        for k in 0..self.steps.len() {
            let CaseStep { index: i, fun, part, ref bound_uses } = self.steps[k];
            if self.held[i].is_some() {
                continue;
            }
            // A part reading a variable whose binding needed a hole waits for that hole.
            if bound_uses.iter().any(|v| !self.known[*v]) {
                continue;
            }
            let on_compiled = if on_words { self.eval.call_words(fun, &self.case_words, &self.limits) } else { None };
            let r = match on_compiled {
                Some(r) => r.map(|(w, v)| {
                    if let Err(var) = part {
                        self.case_words[var] = w;
                    }
                    v
                }),
                None => {
                    vals.resize(self.roots.len(), None);
                    for (v, r) in self.roots.iter().enumerate() {
                        if let (Some(s), None) = (r, &vals[v]) {
                            vals[v] = Some(self.slots.value(*s));
                        }
                    }
                    let args = vals.iter().map(|v| v.clone().unwrap_or(Value::Bool(false))).collect();
                    if on_words {
                        if part.is_err() {
                            // A binding computed here has no word: the rest of the case
                            // runs on values.
                            on_words = false;
                        }
                        self.eval.interpret(fun, args, &self.limits)
                    } else {
                        self.eval.call(fun, args, &self.limits)
                    }
                }
            };
            match (part, r) {
                (_, Err(EvalError::Need(d))) | (Ok(_), Ok(Value::Stuck(d))) => {
                    demand.get_or_insert(d);
                }
                // A part that is a variable's hole itself (a premise or conclusion `b`) is
                // neither true nor false until the hole is known.
                (Ok(_), Ok(Value::Hole(h))) => {
                    demand.get_or_insert(Demand { hole: Hole::new(h.id), whole: true });
                }
                (Err(var), Ok(v)) => {
                    vals.resize(self.roots.len(), None);
                    vals[var] = Some(v);
                    self.known[var] = true;
                }
                (Err(_), Err(EvalError::Undefined(_))) => return Ok(Case::Rejected),
                (Ok(PartRef::Premise(_)), Ok(Value::Bool(false))) => return Ok(Case::Rejected),
                (Ok(PartRef::Premise(_)), Ok(_)) => self.held[i] = Some(depth),
                (Ok(PartRef::Premise(_)), Err(EvalError::Undefined(u))) => {
                    taint.get_or_insert(u);
                }
                (Ok(PartRef::Conclusion), Ok(Value::Bool(true))) => return Ok(Case::Passed),
                (Ok(PartRef::Conclusion), Ok(_)) => {
                    return Ok(match demand {
                        Some(d) => Case::Need(d),
                        None => Case::Failed(taint),
                    })
                }
                (Ok(PartRef::Conclusion), Err(EvalError::Undefined(u))) => {
                    return Ok(match demand {
                        Some(d) => Case::Need(d),
                        None => Case::Failed(Some(taint.unwrap_or(u))),
                    })
                }
                (_, Err(e)) => return Err(e),
            }
        }
        // The conclusion waits for a binding's hole.
        Ok(match demand {
            Some(d) => Case::Need(d),
            None => Case::Rejected,
        })
    }

    /// Fills open `slot` with `alt`, in the slots and in the words kept for compiled code.
    pub(crate) fn fill(&mut self, slot: u32, alt: &Alternative) {
        self.slots.fill(slot, alt);
        let (jit, epoch) = self.eval.jit();
        self.words.filled(&self.slots, slot, jit, epoch);
    }

    /// Opens `slot` again, dropping the slots from `len` on (`Assignment::reopen`), in the
    /// slots and in the words kept for compiled code.
    pub(crate) fn reopen(&mut self, slot: u32, len: usize) {
        self.slots.reopen(slot, len);
        let (jit, epoch) = self.eval.jit();
        self.words.reopened(slot, jit, epoch);
    }

    /// Opens a hole of budget `budget` for every generated variable; `false` when one has
    /// no value at this budget.
    pub(crate) fn open_roots(&mut self, budget: u64) -> bool {
        self.slots.clear();
        self.words.clear();
        self.roots = vec![None; self.c.vars.len()];
        for v in self.sched.generated() {
            let ty = self.c.vars[v].ty.clone();
            if !self.slots.inhabited(&ty, budget) {
                return false;
            }
            self.roots[v] = Some(self.slots.open(ty, budget));
        }
        true
    }

    /// The generated variables whose values still hold holes, printed with `_` for them.
    pub(crate) fn partial_assignment(&mut self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for (v, root) in self.roots.iter().enumerate() {
            let Some(root) = root else { continue };
            let value = self.slots.value(*root);
            if first_hole(&value).is_some() {
                let var = &self.c.vars[v];
                out.push((var.name.clone(), self.eval.interp.print(&value, &var.ty)));
            }
        }
        out
    }

    /// The smallest completion of the generated variables, for the re-check.
    pub(crate) fn completion(&mut self) -> Option<Vec<Option<Value>>> {
        let roots = self.roots.clone();
        roots.iter().map(|r| r.map(|s| self.slots.smallest(s).ok_or(())).transpose()).collect::<Result<_, _>>().ok()
    }

    fn run(&mut self, turn: &mut Turn) -> SizeResult {
        if !self.c.prefix.is_empty() {
            return self.run_quantified(turn);
        }
        let mut res = SizeResult { refinements: Some(0), ..SizeResult::default() };
        // Isabelle's narrowing counts depth from 0 and runs depths 0 to `size`, one level
        // more than the exhaustive tester's generator size `size - 1`: at size `s` the
        // variables range over the exhaustive tester's values at size `s + 1` (lists of up
        // to `s` elements, `nat` up to `s`), the depth of Lazy SmallCheck.
        if !self.open_roots(turn.size + 1) {
            // No value at this size (a datatype at size 0): no case, as for exhaustive.
            return res;
        }
        let mut path: Vec<Frame> = Vec::new();
        self.held = vec![None; self.sched.steps.len()];
        loop {
            if res.tests % BUDGET_INTERVAL == BUDGET_INTERVAL - 1 {
                if let Some(e) = turn.budget.over_at(res.passed) {
                    res.end = Some(e);
                    return res;
                }
            }
            res.tests += 1;
            let case = match self.case(path.len()) {
                Ok(c) => c,
                Err(e) => {
                    res.end = Some(End::Stopped(stop_of(e)));
                    return res;
                }
            };
            match case {
                Case::Passed => res.passed += 1,
                Case::Rejected => {}
                Case::Failed(taint) => {
                    res.passed += 1;
                    if turn.judge.keeps(taint.is_some()) {
                        let Some(generated) = self.completion() else {
                            res.end =
                                Some(End::Disagreement("narrowing: no value completes the counterexample".into()));
                            return res;
                        };
                        if let Some(mut end) = turn.judge.verdict(self.c, &self.sched, &generated) {
                            // Only a genuine one is proved false at every value of its holes.
                            if let End::Genuine(cx, _) = &mut end {
                                cx.partial = self.partial_assignment();
                            }
                            res.end = Some(end);
                            return res;
                        }
                    }
                }
                Case::Need(d) => {
                    let slot = d.hole.id;
                    let alts = match self.slots.alternatives(slot, d.whole) {
                        Ok(a) => a,
                        Err(RefineError::TooBig) => {
                            res.end = Some(End::TooBig);
                            return res;
                        }
                        Err(RefineError::UnknownHole(h)) => {
                            res.end = Some(End::Disagreement(format!(
                                "narrowing: evaluation needed hole {h}, which is not open"
                            )));
                            return res;
                        }
                    };
                    if let Some(first) = alts.first() {
                        res.refinements = res.refinements.map(|r| r + 1);
                        let len = self.slots.len();
                        self.fill(slot, first);
                        path.push(Frame { slot, alts, next: 1, len });
                        continue;
                    }
                    // No value at all: nothing to test below.
                }
            }
            // Backtrack to the deepest hole with an alternative left.
            loop {
                let Some(f) = path.last_mut() else {
                    self.exhausted = !self.slots.truncated;
                    return res;
                };
                self.reopen(f.slot, f.len);
                if f.next < f.alts.len() {
                    let (alts, next) = (f.alts.clone(), f.next);
                    f.next += 1;
                    self.fill(f.slot, &alts[next]);
                    // What was decided with this hole's previous alternative is undone.
                    let changed = path.len() - 1;
                    self.held.iter_mut().filter(|h| h.is_some_and(|d| d > changed)).for_each(|h| *h = None);
                    break;
                }
                path.pop();
            }
        }
    }
}

impl Search for Narrowing<'_> {
    fn run_size(&mut self, turn: &mut Turn) -> SizeResult {
        let mut res = self.run(turn);
        res.peak_slots = Some(self.slots.peak as u64);
        res
    }

    fn exhausted(&self) -> bool {
        self.exhausted
    }
}

/// An evaluation's failure as the end of the search.
pub(crate) fn stop_of(e: EvalError) -> Stop {
    match e {
        EvalError::Timeout => Stop::Timeout,
        EvalError::NotExecutable(why) => Stop::NotExecutable(why),
        e => Stop::Diverged(e.to_string()),
    }
}
