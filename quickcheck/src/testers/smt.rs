//! The `smt` tester: inputs from an SMT solver (`smt::solver`, z3 by default) instead of
//! enumeration, so that `x * x ≠ 1849` or `7 dvd n ⟹ 11 dvd n ⟹ n = 0` are refuted
//! where enumeration only reaches small numbers (Target, `shared/papers/
//! type-targeted-testing-seidel.txt`). The premises are asserted; when the conclusion has
//! an encoding its negation is asserted too and the solver searches for the counterexample
//! itself (mode b), otherwise each model is decoded and the conclusion run on it (mode a,
//! Target's loop), numbers bounded by the size. Each decoded model is blocked so the next
//! query gives another. A premise without an encoding is checked on each decoded model.
//!
//! Found counterexamples are made small (the sum of the numbers' magnitudes bounded below
//! the last one's, round by round, within a share of the time), then judged like every
//! tester's: re-checked by the interpreter, so a model the interpreter does not confirm is
//! an error, never a counterexample. `unsat` in mode b with every premise encoded decides
//! the lemma for every value ("the solver showed there is none"); `unknown` is never "no
//! counterexample".
//!
//! Recursive functions are unrolled to the size (`size` calls deep); a model never rests
//! on a call past the unrolling (`encode`'s cuts), and "no counterexample" then says the
//! bound. A variable of a function type between `bool`, `nat` and `int` is an
//! uninterpreted function, decoded as the finite map of its values where the parts apply
//! it (`(λ_. 0)(0 := 10, 10 := 20)`). What this version does not encode yet (issue 25):
//! datatypes and sets; variables of other types make it not apply. A query runs in time
//! slices that double, cancellation looked at between them (`solver::Solver::check`).

use crate::driver::Turn;
use crate::program::Schedule;
use crate::runner::{Runner, Stop, Verdict};
use crate::smt::{encode, solver};
use crate::testers::{Coverage, End, Search, Setup, SizeResult, Tester};
use easy_smt::{ContextBuilder, SExpr, SExprData};
use lang::core::conjecture::Conjecture;
use lang::core::ir::Ty;
use lang::interp::{Int, Value};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The `smt` row of the registry.
pub struct SmtTester;

/// Rounds of making a counterexample smaller, at most.
const SHRINK_ROUNDS: usize = 32;

impl Tester for SmtTester {
    fn name(&self) -> &'static str {
        "smt"
    }

    fn about(&self) -> &'static str {
        "Inputs from an SMT solver (z3, or HOL_SMT_SOLVER): premises and the negated conclusion as a query"
    }

    fn not_executable(&self, conjecture: &Conjecture) -> Option<String> {
        conjecture.not_executable.clone().or_else(|| solver::find().is_none().then(|| solver::NO_SOLVER.to_owned()))
    }

    fn applies(&self, c: &Conjecture) -> Result<(), String> {
        let probe = ContextBuilder::new().without_solver().build().map_err(|e| e.to_string())?;
        match used(c).into_iter().find(|v| !encode::encodable(&probe, &c.vars[*v].ty)) {
            None => Ok(()),
            Some(v) => Err(format!(
                "the smt tester encodes variables of type bool, nat and int and functions between them only (so far): `{}` is not one",
                c.vars[v].name
            )),
        }
    }

    /// In the portfolio where numbers are involved and every part has an encoding: there
    /// the solver reaches what enumeration does not.
    fn in_portfolio(&self) -> bool {
        true
    }

    fn suits(&self, c: &Conjecture) -> bool {
        let Ok(probe) = ContextBuilder::new().without_solver().build() else { return false };
        let vars: Vec<usize> = used(c);
        let consts: Vec<SExpr> = (0..c.vars.len()).map(|v| probe.atom(format!("x{v}"))).collect();
        let syms: Vec<(SExpr, bool)> = vars
            .iter()
            .filter_map(|v| match &c.vars[*v].ty {
                Ty::Fun(_, r) => Some((consts[*v], **r == Ty::Nat)),
                _ => None,
            })
            .collect();
        vars.iter().any(|v| matches!(c.vars[*v].ty, Ty::Nat | Ty::Int | Ty::Fun(..)))
            && c.premises
                .iter()
                .chain([&c.conclusion])
                .all(|p| encode::call(&probe, &c.program, p.fun, &consts, &syms, 1, "p").is_ok())
            && solver::find().is_some()
    }

    fn coverage(&self) -> Coverage {
        Coverage::Complete
    }

    fn search<'c>(&self, conjecture: &'c Conjecture, setup: &Setup) -> Box<dyn Search + 'c> {
        Box::new(Smt {
            c: conjecture,
            sched: Schedule::of(conjecture),
            r: Runner::new(conjecture, setup.engine, setup.deadline),
            binary: solver::find(),
            query: None,
            decided: false,
        })
    }
}

/// The variables some part reads.
fn used(c: &Conjecture) -> Vec<usize> {
    let mut vs: Vec<usize> = c.premises.iter().chain([&c.conclusion]).flat_map(|p| p.uses.iter().copied()).collect();
    vs.sort_unstable();
    vs.dedup();
    vs
}

struct Smt<'c> {
    c: &'c Conjecture,
    sched: Schedule,
    /// Runs the parts without an encoding on decoded models.
    r: Runner<'c>,
    binary: Option<PathBuf>,
    query: Option<Query>,
    /// The solver showed that no assignment at all is a counterexample.
    decided: bool,
}

/// The solver with the conjecture asserted.
struct Query {
    solver: solver::Solver,
    /// The constant of each variable of a sort some part reads.
    consts: Vec<(usize, SExpr)>,
    /// The constants of sort `Int`, whose magnitudes a smaller counterexample bounds.
    ints: Vec<SExpr>,
    /// The function symbol of each function variable some part reads.
    funs: Vec<(usize, SExpr)>,
    /// Their symbols, with whether each gives `nat`s.
    syms: Vec<(SExpr, bool)>,
    /// Where the size's encoding applies a function variable: symbol and argument term.
    apps: Vec<(SExpr, SExpr)>,
    /// The parts' arguments: the constants, at the variables they stand for.
    args: Vec<SExpr>,
    /// Whether the negated conclusion is asserted (mode b).
    refutes: bool,
    /// Premises checked after decoding (no encoding), with why.
    unencoded: Vec<(usize, String)>,
    /// Whether a recursive call was cut at the size's unrolling.
    cut: bool,
    /// Models decoded so far.
    models: u64,
}

impl Query {
    fn new(c: &Conjecture, binary: &std::path::Path, deadline: Instant) -> std::io::Result<Query> {
        let mut solver = solver::Solver::start(binary, deadline)?;
        let (mut consts, mut ints, mut funs) = (Vec::new(), Vec::new(), Vec::new());
        let mut args: Vec<SExpr> = (0..c.vars.len()).map(|_| solver.ctx.false_()).collect();
        for v in used(c) {
            let ty = &c.vars[v].ty;
            if let Some((arg, ret)) = encode::fun_sort(&solver.ctx, ty) {
                let f = solver.ctx.declare_fun(format!("f{v}"), vec![arg], ret)?;
                args[v] = f;
                funs.push((v, f));
                continue;
            }
            let sort = encode::sort(&solver.ctx, ty).unwrap_or_else(|| solver.ctx.int_sort());
            let x = solver.ctx.declare_const(format!("x{v}"), sort)?;
            if *ty == Ty::Nat {
                let nonneg = solver.ctx.gte(x, solver.ctx.numeral(0));
                solver.ctx.assert(nonneg)?;
            }
            if *ty != Ty::Bool {
                ints.push(x);
            }
            args[v] = x;
            consts.push((v, x));
        }
        let syms = funs.iter().map(|(v, f)| (*f, matches!(&c.vars[*v].ty, Ty::Fun(_, r) if **r == Ty::Nat))).collect();
        Ok(Query {
            solver,
            consts,
            ints,
            funs,
            syms,
            apps: Vec::new(),
            args,
            refutes: false,
            unencoded: Vec::new(),
            cut: false,
            models: 0,
        })
    }

    /// Asserts the parts, recursion unrolled `unroll` calls deep (in the solver's current
    /// scope): the premises with an encoding, and the negated conclusion if it has one.
    fn assert_parts(&mut self, c: &Conjecture, unroll: usize) -> std::io::Result<()> {
        self.unencoded.clear();
        self.apps.clear();
        self.cut = false;
        let syms = self.syms.clone();
        for (i, p) in c.premises.iter().enumerate() {
            match encode::call(&self.solver.ctx, &c.program, p.fun, &self.args, &syms, unroll, &format!("p{i}_")) {
                Ok(e) => {
                    let term = e.term;
                    self.assert_encoded(e, term)?;
                }
                Err(why) => self.unencoded.push((i, why)),
            }
        }
        self.refutes =
            match encode::call(&self.solver.ctx, &c.program, c.conclusion.fun, &self.args, &syms, unroll, "c_") {
                Ok(e) => {
                    let not = self.solver.ctx.not(e.term);
                    self.assert_encoded(e, not)?;
                    true
                }
                Err(_) => false,
            };
        Ok(())
    }

    /// Declares an encoding's fresh constants, asserts that none of its cuts is reached,
    /// then asserts `term`.
    fn assert_encoded(&mut self, e: encode::Encoded, term: SExpr) -> std::io::Result<()> {
        for (name, sort) in e.fresh {
            self.solver.ctx.declare_const(name, sort)?;
        }
        self.apps.extend(e.apps);
        for fact in e.side {
            self.solver.ctx.assert(fact)?;
        }
        self.cut |= !e.cuts.is_empty();
        for reached in e.cuts {
            let not = self.solver.ctx.not(reached);
            self.solver.ctx.assert(not)?;
        }
        self.solver.ctx.assert(term)
    }

    /// The model's values of the variables, as an assignment (a function variable as the
    /// finite map of its values where the parts apply it, 0 or `False` elsewhere), and the
    /// applications' terms with their values, for blocking the model.
    fn model(&mut self, c: &Conjecture) -> std::io::Result<Option<Model>> {
        let app_terms: Vec<SExpr> = self.apps.iter().map(|(f, a)| self.solver.ctx.list(vec![*f, *a])).collect();
        let terms: Vec<SExpr> = self
            .consts
            .iter()
            .map(|(_, x)| *x)
            .chain(self.apps.iter().map(|(_, a)| *a))
            .chain(app_terms.iter().copied())
            .collect();
        let got: Vec<SExpr> = if terms.is_empty() {
            Vec::new()
        } else {
            self.solver.ctx.get_value(terms)?.into_iter().map(|(_, v)| v).collect()
        };
        let (consts, rest) = got.split_at(self.consts.len());
        let (args, results) = rest.split_at(self.apps.len());
        let mut vals = vec![None; c.vars.len()];
        for ((v, _), value) in self.consts.iter().zip(consts) {
            match decode(&self.solver.ctx, *value) {
                Some(x) => vals[*v] = Some(x),
                None => return Ok(None),
            }
        }
        for (v, f) in &self.funs {
            let default = match &c.vars[*v].ty {
                Ty::Fun(_, r) if **r == Ty::Bool => Value::Bool(false),
                _ => Value::Int(Int::from(0i64)),
            };
            let mut entries = Vec::new();
            for (((g, _), arg), result) in self.apps.iter().zip(args).zip(results) {
                if g != f {
                    continue;
                }
                let (Some(k), Some(x)) = (decode(&self.solver.ctx, *arg), decode(&self.solver.ctx, *result)) else {
                    return Ok(None);
                };
                if x != default {
                    entries.push((k, x));
                }
            }
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            entries.dedup_by(|a, b| a.0 == b.0);
            vals[*v] = Some(Value::Fun(std::rc::Rc::new(lang::interp::Closure::Map { default, entries })));
        }
        self.models += 1;
        let apps = app_terms.into_iter().zip(results.iter().copied()).collect();
        Ok(Some(Model { vals, apps }))
    }

    /// Asserts that the next model differs from `m` in some variable or some value of a
    /// function variable where it is applied.
    fn block(&mut self, m: &Model) -> std::io::Result<()> {
        let ctx = &self.solver.ctx;
        let differs: Vec<SExpr> = self
            .consts
            .iter()
            .filter_map(|(v, x)| m.vals[*v].as_ref().and_then(|val| term(ctx, val)).map(|t| ctx.not(ctx.eq(*x, t))))
            .chain(m.apps.iter().map(|(app, value)| ctx.not(ctx.eq(*app, *value))))
            .collect();
        // Without variables there is no other model.
        let clause = if differs.is_empty() { ctx.false_() } else { ctx.or_many(differs) };
        self.solver.ctx.assert(clause)
    }

    /// The sum of the magnitudes of the numbers.
    fn magnitude(&self) -> SExpr {
        let ctx = &self.solver.ctx;
        let zero = ctx.numeral(0);
        let abs = |x: SExpr| ctx.ite(ctx.lt(x, zero), ctx.negate(x), x);
        ctx.plus_many(std::iter::once(zero).chain(self.ints.iter().copied().map(abs)))
    }
}

/// A decoded model: the assignment, and each application of a function variable with its
/// value's term.
struct Model {
    vals: Vec<Option<Value>>,
    apps: Vec<(SExpr, SExpr)>,
}

/// A model's value: a truth value or an integer (`(- n)` when negative).
fn decode(ctx: &easy_smt::Context, e: SExpr) -> Option<Value> {
    match ctx.get(e) {
        SExprData::Atom("true") => Some(Value::Bool(true)),
        SExprData::Atom("false") => Some(Value::Bool(false)),
        SExprData::Atom(a) => a.parse::<num_bigint::BigInt>().ok().map(|n| Value::Int(Int::from(n))),
        SExprData::List([minus, n]) if ctx.get_atom(*minus) == Some("-") => match decode(ctx, *n)? {
            Value::Int(i) => Some(Value::Int(Int::from(-i.to_bigint()))),
            _ => None,
        },
        _ => None,
    }
}

/// The term of a truth value or number.
fn term(ctx: &easy_smt::Context, v: &Value) -> Option<SExpr> {
    Some(match v {
        Value::Bool(true) => ctx.true_(),
        Value::Bool(false) => ctx.false_(),
        Value::Int(i) => encode::int(ctx, &i.to_bigint()),
        _ => return None,
    })
}

/// The sum of the magnitudes of an assignment's numbers.
fn magnitude_of(vals: &[Option<Value>]) -> num_bigint::BigInt {
    vals.iter()
        .filter_map(|v| match v {
            Some(Value::Int(i)) => Some(num_bigint::BigInt::from(i.to_bigint().magnitude().clone())),
            _ => None,
        })
        .sum()
}

impl Smt<'_> {
    /// Whether `vals` is a candidate counterexample: every premise holds of it and the
    /// conclusion fails, as evaluation (the run's engine) says. Every part is evaluated,
    /// the encoded ones too: a model that does not satisfy what the solver was told (an
    /// encoded premise, the negated conclusion) is an encoding error, reported loudly as a
    /// disagreement, never tested on as if it were a model.
    fn fails(&mut self, q: &Query, vals: &[Option<Value>]) -> Result<bool, Box<End>> {
        let mark = self.r.arena().mark();
        for (v, x) in vals.iter().enumerate() {
            if let Some(x) = x {
                self.r.set(v, x.clone(), None);
            }
        }
        let verdicts = self.verdicts(q);
        self.r.arena().release(mark);
        let (fails, wrong) = verdicts.map_err(|s| Box::new(End::Stopped(s)))?;
        match wrong {
            None => Ok(fails),
            Some(what) => {
                let shown: Vec<String> = vals
                    .iter()
                    .enumerate()
                    .filter_map(|(v, x)| {
                        let x = x.as_ref()?;
                        let var = &self.c.vars[v];
                        Some(format!("{} = {}", var.name, lang::interp::print_value(&self.c.program, x, &var.ty)))
                    })
                    .collect();
                Err(Box::new(End::Disagreement(format!(
                    "internal error: the SMT solver's model {} does not satisfy {what} as evaluation says (an encoding error)",
                    shown.join(", ")
                ))))
            }
        }
    }

    /// On the assignment set in the runner: whether it is a candidate counterexample, and
    /// which encoded part it contradicts, if one.
    fn verdicts(&mut self, q: &Query) -> Result<(bool, Option<String>), Stop> {
        for (i, p) in self.c.premises.iter().enumerate() {
            let encoded = !q.unencoded.iter().any(|(j, _)| *j == i);
            match self.r.check(p.fun)? {
                Verdict::Holds => {}
                Verdict::Fails if encoded => return Ok((false, Some(format!("premise {}", i + 1)))),
                _ => return Ok((false, None)),
            }
        }
        Ok(match self.r.check(self.c.conclusion.fun)? {
            Verdict::Holds if q.refutes => (false, Some("the negated conclusion".into())),
            Verdict::Holds => (false, None),
            _ => (true, None),
        })
    }

    /// A smaller counterexample than `vals`, if the solver finds one within `until`: the
    /// sum of the numbers' magnitudes bounded below the last one's, round by round.
    fn smaller(&mut self, q: &mut Query, mut vals: Vec<Option<Value>>, until: Instant) -> Vec<Option<Value>> {
        if q.solver.ctx.push().is_err() {
            return vals;
        }
        for _ in 0..SHRINK_ROUNDS {
            if Instant::now() >= until {
                break;
            }
            let bound = q.solver.ctx.atom(magnitude_of(&vals).to_string());
            let smaller = q.solver.ctx.lt(q.magnitude(), bound);
            if q.solver.ctx.assert(smaller).is_err()
                || q.solver.check(until, &|| false).ok() != Some(solver::Answer::Sat)
            {
                break;
            }
            match q.model(self.c) {
                Ok(Some(next)) if matches!(self.fails(q, &next.vals), Ok(true)) => vals = next.vals,
                _ => break,
            }
        }
        let _ = q.solver.ctx.pop();
        vals
    }
}

impl Search for Smt<'_> {
    fn run_size(&mut self, turn: &mut Turn) -> SizeResult {
        let mut res = SizeResult::default();
        let deadline = turn.budget.deadline;
        let Some(binary) = self.binary.clone() else {
            res.end = Some(End::Stopped(Stop::NotExecutable(solver::NO_SOLVER.into())));
            return res;
        };
        let mut q = match self.query.take() {
            Some(q) => q,
            None => match Query::new(self.c, &binary, deadline) {
                Ok(q) => {
                    // The binary's name, not its path: the same on every machine.
                    let name = binary
                        .file_name()
                        .map_or_else(|| binary.display().to_string(), |n| n.to_string_lossy().into_owned());
                    res.log = vec![format!("smt: solver {name}")];
                    q
                }
                Err(e) => {
                    res.end = Some(End::Stopped(Stop::NotExecutable(format!("the SMT solver did not run: {e}"))));
                    return res;
                }
            },
        };
        res.end = self.search(&mut q, turn, &mut res);
        self.query = Some(q);
        res
    }

    fn exhausted(&self) -> bool {
        self.decided
    }
}

impl Smt<'_> {
    fn search(&mut self, q: &mut Query, turn: &mut Turn, res: &mut SizeResult) -> Option<End> {
        let io = |e: std::io::Error| Some(End::Stopped(Stop::NotExecutable(format!("the SMT solver failed: {e}"))));
        let deadline = turn.budget.deadline;
        // Each size in a scope of its own: its unrolling, its bounds, its blocked models.
        let unroll = turn.size as usize + 1;
        if let Err(e) = q.solver.ctx.push().and_then(|()| q.assert_parts(self.c, unroll)) {
            return io(e);
        }
        if res.log.len() == 1 {
            res.log.extend(describe(self.c, q));
        }
        // Mode a: numbers bounded by the size, as the exhaustive tester's.
        if !q.refutes {
            let k = unroll as i64;
            for (v, x) in q.consts.clone() {
                if matches!(self.c.vars[v].ty, Ty::Nat | Ty::Int) {
                    let ctx = &q.solver.ctx;
                    let within = ctx.and(ctx.lte(ctx.negate(ctx.numeral(k)), x), ctx.lte(x, ctx.numeral(k)));
                    if let Err(e) = q.solver.ctx.assert(within) {
                        return io(e);
                    }
                }
            }
        }
        let end = loop {
            if let Some(e) = turn.budget.over() {
                break Some(e);
            }
            let budget = turn.budget;
            match q.solver.check(deadline, &|| budget.cancelled()) {
                Err(e) => break io(e),
                Ok(solver::Answer::Unknown) if Instant::now() >= deadline => {
                    break Some(End::Stopped(Stop::Timeout));
                }
                Ok(solver::Answer::Unknown) => {
                    break Some(End::Stopped(Stop::NotExecutable(
                        "the SMT solver could not decide the query (it answered unknown)".into(),
                    )));
                }
                Ok(solver::Answer::Unsat) => {
                    self.decided = q.refutes && q.unencoded.is_empty() && !q.cut;
                    res.note = Some(if self.decided {
                        let tested = match q.models {
                            0 => String::new(),
                            1 => " (1 model tested)".into(),
                            n => format!(" ({n} models tested)"),
                        };
                        format!("the SMT solver showed that no value is a counterexample{tested}")
                    } else if q.cut && q.refutes && q.unencoded.is_empty() {
                        format!("the SMT solver showed that no value is a counterexample whose recursion unrolls within {unroll} calls")
                    } else {
                        format!("every assignment the solver found within the bounds was tested ({} models)", q.models)
                    });
                    break None;
                }
                Ok(solver::Answer::Sat) => {}
            }
            let model = match q.model(self.c) {
                Ok(Some(m)) => m,
                Ok(None) => {
                    break Some(End::Stopped(Stop::NotExecutable("a model the tester cannot read".into())));
                }
                Err(e) => break io(e),
            };
            let vals = &model.vals;
            res.tests += 1;
            let fails = match self.fails(q, vals) {
                Ok(f) => f,
                Err(end) => break Some(*end),
            };
            if fails {
                res.passed += 1;
                // A share of the time left goes to making it small.
                let share = deadline.saturating_duration_since(Instant::now()) / 4;
                let until = Instant::now() + share.min(Duration::from_secs(2));
                let small = if q.refutes { self.smaller(q, vals.clone(), until) } else { vals.clone() };
                if let Some(end) = turn.judge.verdict(self.c, &self.sched, &small) {
                    break Some(end);
                }
            }
            if let Err(e) = q.block(&model) {
                break io(e);
            }
        };
        let _ = q.solver.ctx.pop();
        end
    }
}

/// What `verbose` says of the query once (after the solver's name): which parts were
/// encoded and which are checked on each model, and the mode.
fn describe(c: &Conjecture, q: &Query) -> Vec<String> {
    let mut out = Vec::new();
    let encoded: Vec<String> = (0..c.premises.len())
        .filter(|i| !q.unencoded.iter().any(|(j, _)| j == i))
        .map(|i| format!("premise {}", i + 1))
        .collect();
    if !encoded.is_empty() {
        out.push(format!("smt: encoded: {}", encoded.join(", ")));
    }
    for (i, why) in &q.unencoded {
        out.push(format!("smt: premise {} checked on each model (no encoding: {why})", i + 1));
    }
    if q.cut {
        out.push("smt: recursion unrolled to the size (a model never rests on a call past it)".into());
    }
    out.push(if q.refutes {
        "smt: the negated conclusion is encoded: the solver searches for the counterexample".into()
    } else {
        "smt: the conclusion is run on each model (no encoding), numbers bounded by the size".into()
    });
    out
}
