//! The `smt` tester: inputs from an SMT solver (`smt::solver`, z3 by default) instead of
//! enumeration, so that `x * x ≠ 1849` or `7 dvd n ⟹ 11 dvd n ⟹ n = 0` are refuted
//! where enumeration only reaches small numbers (Target, `shared/papers/
//! type-targeted-testing-seidel.txt`). The premises are asserted; when the conclusion has
//! an encoding its negation is asserted too and the solver searches for the counterexample
//! itself (mode b), otherwise each model is decoded and the conclusion run on it (mode a,
//! Target's loop), numbers bounded by the size. Datatype values are bounded by the size in
//! both modes, as the exhaustive tester bounds them (`encode::within`). Each decoded model
//! is blocked so the next query gives another. A premise without an encoding is checked on
//! each decoded model.
//!
//! Found counterexamples are made small (the least sum of the numbers' magnitudes, those
//! in datatype values included, bisected within a share of the time), then judged like
//! every tester's: the schedule's steps run on the model as in every tester, then the
//! interpreter re-checks it, so a model the interpreter does not confirm is an error,
//! never a counterexample. `unsat` in mode b with every premise encoded and no bound
//! involved decides the lemma for every value ("the solver showed there is none");
//! `unknown` is never "no counterexample".
//!
//! Recursive functions are unrolled to the size (`size` calls deep); a model never rests
//! on a call past the unrolling (`encode`'s cuts), and "no counterexample" then says the
//! bound. A variable of a function type from a sort into `bool` or a number is an
//! uninterpreted function, decoded as the finite map of its values where the parts apply
//! it (`(λ_. 0)(0 := 10, 10 := 20)`); a premise `f = t` binding one (an equation of
//! functions has no encoding) is substituted: the parts read `t` where they read `f`. What
//! this version does not encode yet (issue 25): variables of set types and other function
//! types (the lemma is not executable), inductive clauses with a variable only in their
//! premises (checked on each model). A query runs in time slices that double,
//! cancellation looked at between them (`solver::Solver::check`).

use crate::case::{run_step, Flow};
use crate::driver::Turn;
use crate::outcome::SolverStats;
use crate::program::{PartRef, Schedule, Step};
use crate::runner::{Runner, Stop};
use crate::smt::{encode, solver};
use crate::testers::{Coverage, End, Search, Setup, SizeResult, Tester};
use easy_smt::{ContextBuilder, SExpr};
use lang::core::conjecture::{Conjecture, Part};
use lang::core::ir::{FunId, Ty};
use lang::interp::Value;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The `smt` row of the registry.
///
/// `SmtTester::STANDARD` is the registry's row; `SmtTester::ENUMERATING` always runs Target's
/// loop (mode a, the conclusion run on each model, never asserted), for tests that compare
/// it with the exhaustive tester over the same bounded space.
pub struct SmtTester {
    enumerating: bool,
}

impl SmtTester {
    pub const STANDARD: SmtTester = SmtTester { enumerating: false };
    pub const ENUMERATING: SmtTester = SmtTester { enumerating: true };
}

/// The most nodes of the condition bounding one variable by the size (mode a).
const WITHIN_BUDGET: usize = 20_000;

/// The most points (argument tuples) of a function variable over finite domains whose
/// every value a model gives in mode a.
const FUN_DOMAIN_CAP: usize = 64;

/// Rounds of making a counterexample smaller, at most.
const SHRINK_ROUNDS: usize = 32;

impl Tester for SmtTester {
    fn name(&self) -> &'static str {
        if self.enumerating {
            "smt_enumerating"
        } else {
            "smt"
        }
    }

    fn about(&self) -> &'static str {
        if self.enumerating {
            "Inputs from an SMT solver meeting the premises, the conclusion run on each (Target's loop)"
        } else {
            "Inputs from an SMT solver (z3, or HOL_SMT_SOLVER): premises and the negated conclusion as a query"
        }
    }

    /// Also a lemma with a variable the tester has no encoding for: it cannot be tested
    /// (not executable, with the reason), which is no error.
    fn not_executable(&self, conjecture: &Conjecture) -> Option<String> {
        conjecture.not_executable.clone().or_else(|| self.unavailable()).or_else(|| unencodable(conjecture))
    }

    fn unavailable(&self) -> Option<String> {
        solver::find().is_none().then(|| solver::NO_SOLVER.to_owned())
    }

    /// In the portfolio where numbers are involved and every part has an encoding: there
    /// the solver reaches what enumeration does not.
    fn in_portfolio(&self) -> bool {
        !self.enumerating
    }

    fn suits(&self, c: &Conjecture) -> bool {
        if unencodable(c).is_some() {
            return false;
        }
        let Ok(probe) = ContextBuilder::new().without_solver().build() else { return false };
        let sorts = encode::Sorts::of(&c.program);
        let (args, funs) = arguments(&probe, &sorts, c, |v| probe.atom(format!("x{v}")));
        let subst = substituted(c, &Schedule::of(c), &args);
        let vars = used(c);
        let numeric = vars.iter().any(|v| matches!(c.vars[*v].ty, Ty::Nat | Ty::Int | Ty::Fun(..)));
        let numbers_inside =
            vars.iter().any(|v| c.program.type_contains(&c.vars[*v].ty, &|t| matches!(t, Ty::Nat | Ty::Int)));
        let encodes = |p: &Part| {
            encode::call(&probe, &c.program, &sorts, p.fun, &args, &funs, &bound(c, &subst, p), 1, "p").is_ok()
        };
        (numeric || (!c.premises.is_empty() && numbers_inside))
            && c.premises.iter().enumerate().all(|(i, p)| subst.iter().any(|(j, _, _)| *j == i) || encodes(p))
            && encodes(&c.conclusion)
    }

    fn coverage(&self) -> Coverage {
        Coverage::Complete
    }

    fn search<'c>(&self, conjecture: &'c Conjecture, setup: &Setup) -> Box<dyn Search + 'c> {
        Box::new(Smt {
            enumerating: self.enumerating,
            c: conjecture,
            sched: Schedule::of(conjecture),
            r: Runner::one_at_a_time(conjecture, setup.engine, setup.deadline),
            binary: solver::find(),
            query: None,
            decided: false,
        })
    }
}

/// The parts' arguments, each variable some part reads as `term(v)` or, for a function
/// variable, the function symbol `term(v)` names; and the function variables.
fn arguments(
    ctx: &easy_smt::Context,
    sorts: &encode::Sorts,
    c: &Conjecture,
    term: impl Fn(usize) -> SExpr,
) -> (Vec<encode::Arg>, Vec<encode::FunVar>) {
    let mut args = vec![encode::Arg::Term(ctx.false_()); c.vars.len()];
    let mut funs = Vec::new();
    for v in used(c) {
        match encode::FunVar::of(ctx, &c.program, sorts, term(v), &c.vars[v].ty) {
            Some(f) => {
                args[v] = encode::Arg::Fun(funs.len());
                funs.push(f);
            }
            None => args[v] = encode::Arg::Term(term(v)),
        }
    }
    (args, funs)
}

/// Why the tester cannot test `c`, if so: a variable some part reads without an encoding.
fn unencodable(c: &Conjecture) -> Option<String> {
    let probe = match ContextBuilder::new().without_solver().build() {
        Ok(p) => p,
        Err(e) => return Some(e.to_string()),
    };
    let sorts = encode::Sorts::of(&c.program);
    let v = used(c).into_iter().find(|v| !encode::encodable(&probe, &c.program, &sorts, &c.vars[*v].ty))?;
    Some(format!(
        "the smt tester encodes variables of type bool, nat, int, datatypes of these, and curried functions from them into them (no nat inside a datatype result) only (so far): `{}` is not one",
        c.vars[v].name
    ))
}

/// The premises `f = t` the schedule binds a function variable `f` by, in its order: each
/// premise, `f`, and `t`. An equation of functions has no encoding, so `t` stands for `f` in
/// the parts (`bound`) and the premise holds by construction.
fn substituted(c: &Conjecture, sched: &Schedule, args: &[encode::Arg]) -> Vec<(usize, usize, FunId)> {
    sched
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Bind { var, premise } if matches!(args[*var], encode::Arg::Fun(_)) => {
                Some((*premise, *var, c.premises[*premise].binding.as_ref()?.fun))
            }
            _ => None,
        })
        .collect()
}

/// The substitutions `part` needs (those of the variables it reads, and of those their
/// right sides read), in order, as `encode::call` takes them.
fn bound(c: &Conjecture, subst: &[(usize, usize, FunId)], part: &Part) -> Vec<(usize, FunId)> {
    let mut needed = part.uses.clone();
    let mut out = Vec::new();
    for (p, v, t) in subst.iter().rev() {
        if needed.contains(v) {
            needed.extend(c.premises[*p].binding.iter().flat_map(|b| b.uses.iter().copied()));
            out.push((*v, *t));
        }
    }
    out.reverse();
    out
}

/// The variables some part reads.
fn used(c: &Conjecture) -> Vec<usize> {
    let mut vs: Vec<usize> = c.premises.iter().chain([&c.conclusion]).flat_map(|p| p.uses.iter().copied()).collect();
    vs.sort_unstable();
    vs.dedup();
    vs
}

struct Smt<'c> {
    /// Mode a only (`SmtTester::ENUMERATING`).
    enumerating: bool,
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
    solver: solver::Lease,
    sorts: encode::Sorts,
    /// The constant of each variable of a sort some part reads.
    consts: Vec<(usize, SExpr)>,
    /// Whether each variable is generated (not bound by a premise from others): the model
    /// gives the generated ones; a bound one is computed from them, as in every tester.
    generated: Vec<bool>,
    /// The function variables some part reads, and the variable each is.
    funs: Vec<encode::FunVar>,
    fun_vars: Vec<usize>,
    /// Where the size's encoding applies a function variable: symbol and argument terms.
    apps: Vec<(SExpr, Vec<SExpr>)>,
    /// The parts' arguments, at the variables they stand for.
    args: Vec<encode::Arg>,
    /// The premises binding a function variable, substituted (`substituted`).
    subst: Vec<(usize, usize, FunId)>,
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
    fn new(c: &Conjecture, sched: &Schedule, binary: &std::path::Path) -> std::io::Result<Query> {
        let mut solver = solver::Lease::acquire(binary)?;
        let sorts = encode::Sorts::of(&c.program);
        if sorts.any() {
            solver.not_reusable();
        }
        sorts.declare(&mut solver.ctx, &c.program)?;
        let (args, funs) = arguments(&solver.ctx, &sorts, c, |v| solver.ctx.atom(format!("x{v}")));
        let (mut consts, mut fun_vars) = (Vec::new(), Vec::new());
        for v in used(c) {
            let (arg, ty) = (&args[v], &c.vars[v].ty);
            let ctx = &mut solver.ctx;
            match arg {
                encode::Arg::Fun(i) => {
                    let f = &funs[*i];
                    let (Some(a), Some(r)) = (
                        f.args.iter().map(|a| sorts.sort(ctx, a)).collect::<Option<Vec<_>>>(),
                        sorts.sort(ctx, &f.ret),
                    ) else {
                        continue;
                    };
                    ctx.declare_fun(format!("x{v}"), a, r)?;
                    fun_vars.push(v);
                }
                encode::Arg::Term(x) => {
                    let Some(sort) = sorts.sort(ctx, ty) else { continue };
                    ctx.declare_const(format!("x{v}"), sort)?;
                    if *ty == Ty::Nat {
                        let nonneg = ctx.gte(*x, ctx.numeral(0));
                        ctx.assert(nonneg)?;
                    }
                    consts.push((v, *x));
                }
            }
        }
        let mut generated = vec![false; c.vars.len()];
        for v in sched.generated() {
            generated[v] = true;
        }
        let subst = substituted(c, sched, &args);
        Ok(Query {
            solver,
            sorts,
            consts,
            generated,
            funs,
            fun_vars,
            apps: Vec::new(),
            args,
            subst,
            refutes: false,
            unencoded: Vec::new(),
            cut: false,
            models: 0,
        })
    }

    fn encode(&self, c: &Conjecture, part: &Part, unroll: usize, prefix: &str) -> Result<encode::Encoded, String> {
        let bound = bound(c, &self.subst, part);
        encode::call(
            &self.solver.ctx,
            &c.program,
            &self.sorts,
            part.fun,
            &self.args,
            &self.funs,
            &bound,
            unroll,
            prefix,
        )
    }

    /// Asserts the parts, recursion unrolled `unroll` calls deep (in the solver's current
    /// scope): the premises with an encoding, and the negated conclusion if it has one.
    /// `Ok(false)` when the deadline or `stop` came first (see `Solver::send_all`).
    fn assert_parts(
        &mut self,
        c: &Conjecture,
        unroll: usize,
        enumerating: bool,
        deadline: Instant,
        stop: &dyn Fn() -> bool,
    ) -> std::io::Result<bool> {
        self.unencoded.clear();
        self.apps.clear();
        self.cut = false;
        let mut commands = Vec::new();
        for (i, p) in c.premises.iter().enumerate() {
            if self.subst.iter().any(|(j, _, _)| *j == i) {
                // Holds by construction: its right side stands for its variable.
                continue;
            }
            match self.encode(c, p, unroll, &format!("p{i}_")) {
                Ok(e) => {
                    let term = e.term;
                    self.add_encoded(e, term, &mut commands);
                }
                Err(why) => self.unencoded.push((i, why)),
            }
        }
        self.refutes = match self.encode(c, &c.conclusion, unroll, "c_") {
            Ok(_) if enumerating => false,
            Ok(e) => {
                let not = self.solver.ctx.not(e.term);
                self.add_encoded(e, not, &mut commands);
                true
            }
            Err(_) => false,
        };
        if !self.refutes {
            // Mode a runs the conclusion on each model, and it may apply a function variable
            // anywhere: over a finite domain the model gives the whole function (so blocking
            // it enumerates every function, as the exhaustive tester does).
            let mut whole = Vec::new();
            for (f, v) in self.funs.iter().zip(&self.fun_vars) {
                if self.subst.iter().any(|(_, x, _)| x == v) {
                    // Evaluation computes it.
                    continue;
                }
                let ctx = &self.solver.ctx;
                let mut points: Vec<Vec<SExpr>> = vec![Vec::new()];
                for a in &f.args {
                    let domain = lang::interp::enumerate(&c.program, a).filter(|vs| vs.len() <= FUN_DOMAIN_CAP);
                    let terms: Option<Vec<SExpr>> = domain.and_then(|vs| {
                        vs.iter().map(|v| encode::value_term(ctx, &c.program, &self.sorts, v, a)).collect()
                    });
                    let Some(terms) = terms.filter(|t| points.len() * t.len() <= FUN_DOMAIN_CAP) else {
                        points.clear();
                        break;
                    };
                    points =
                        points.iter().flat_map(|p| terms.iter().map(move |t| [p.clone(), vec![*t]].concat())).collect();
                }
                for p in points.into_iter().filter(|p| p.len() == f.args.len()) {
                    if f.ret == Ty::Nat {
                        let app = ctx.list(std::iter::once(f.sym).chain(p.iter().copied()).collect());
                        commands.push(command(ctx, "assert", vec![ctx.gte(app, ctx.numeral(0))]));
                    }
                    whole.push((f.sym, p));
                }
            }
            self.apps.extend(whole);
        }
        self.solver.send_all(&commands, deadline, stop)
    }

    /// The commands that declare an encoding's fresh constants, assert its side facts and
    /// that none of its cuts is reached, then assert `term`.
    fn add_encoded(&mut self, e: encode::Encoded, term: SExpr, commands: &mut Vec<SExpr>) {
        let ctx = &self.solver.ctx;
        for (name, sort) in e.fresh {
            commands.push(command(ctx, "declare-const", vec![ctx.atom(name), sort]));
        }
        self.apps.extend(e.apps);
        for fact in e.side {
            commands.push(command(ctx, "assert", vec![fact]));
        }
        self.cut |= !e.cuts.is_empty();
        for reached in e.cuts {
            commands.push(command(ctx, "assert", vec![ctx.not(reached)]));
        }
        commands.push(command(ctx, "assert", vec![term]));
    }

    /// The model's values of the variables, as an assignment (a function variable as the
    /// finite map of its values where the parts apply it, 0 or `False` elsewhere), and the
    /// applications' terms with their values, for blocking the model.
    fn model(&mut self, c: &Conjecture) -> std::io::Result<Option<Model>> {
        let ctx = &self.solver.ctx;
        let app_terms: Vec<SExpr> =
            self.apps.iter().map(|(f, a)| ctx.list(std::iter::once(*f).chain(a.iter().copied()).collect())).collect();
        let terms: Vec<SExpr> = self
            .consts
            .iter()
            .map(|(_, x)| *x)
            .chain(self.apps.iter().flat_map(|(_, a)| a.iter().copied()))
            .chain(app_terms.iter().copied())
            .collect();
        let got: Vec<SExpr> = if terms.is_empty() { Vec::new() } else { self.solver.values(terms)? };
        let ctx = &self.solver.ctx;
        let (consts, rest) = got.split_at(self.consts.len());
        let (args, results) = rest.split_at(rest.len() - self.apps.len());
        let mut vals = vec![None; c.vars.len()];
        for ((v, _), value) in self.consts.iter().zip(consts) {
            if !self.generated[*v] {
                continue;
            }
            match encode::decode(ctx, &c.program, *value, &c.vars[*v].ty) {
                Some(x) => vals[*v] = Some(x),
                None => return Ok(None),
            }
        }
        // Each application's arguments, in order.
        let mut arg_values = args.iter();
        let mut points: Vec<Vec<SExpr>> = Vec::with_capacity(self.apps.len());
        for (_, a) in &self.apps {
            points.push(arg_values.by_ref().take(a.len()).copied().collect());
        }
        for (f, v) in self.funs.iter().zip(&self.fun_vars) {
            let Some(default) = encode::default_value(&c.program, &f.ret) else { return Ok(None) };
            let mut entries = Vec::new();
            for (((g, _), point), result) in self.apps.iter().zip(&points).zip(results) {
                if *g != f.sym {
                    continue;
                }
                let keys: Option<Vec<Value>> =
                    point.iter().zip(&f.args).map(|(k, ty)| encode::decode(ctx, &c.program, *k, ty)).collect();
                let (Some(keys), Some(x)) = (keys, encode::decode(ctx, &c.program, *result, &f.ret)) else {
                    return Ok(None);
                };
                entries.push((keys, x));
            }
            vals[*v] = Some(curried(f.args.len(), &default, entries));
        }
        self.models += 1;
        let apps = app_terms.into_iter().zip(results.iter().copied()).collect();
        Ok(Some(Model { vals, apps }))
    }

    /// Asserts that the next model differs from `m` in some variable or some value of a
    /// function variable where it is applied.
    fn block(&mut self, c: &Conjecture, m: &Model) -> std::io::Result<()> {
        let ctx = &self.solver.ctx;
        let differs: Vec<SExpr> = self
            .consts
            .iter()
            .filter_map(|(v, x)| {
                let t = encode::value_term(ctx, &c.program, &self.sorts, m.vals[*v].as_ref()?, &c.vars[*v].ty)?;
                Some(ctx.not(ctx.eq(*x, t)))
            })
            .chain(m.apps.iter().map(|(app, value)| ctx.not(ctx.eq(*app, *value))))
            .collect();
        // Without variables there is no other model.
        let clause = encode::any(ctx, differs);
        self.solver.ctx.assert(clause)
    }

    /// The sum of the magnitudes of the generated variables' numbers, those inside
    /// datatype values down to generator size `size` included.
    fn magnitude(&self, c: &Conjecture, size: u64) -> SExpr {
        let ctx = &self.solver.ctx;
        let mut budget = WITHIN_BUDGET;
        let mut terms: Vec<SExpr> = self
            .consts
            .iter()
            .filter(|(v, _)| self.generated[*v])
            .flat_map(|(v, x)| {
                encode::magnitudes(ctx, &c.program, &c.vars[*v].ty, size, *x, &mut budget).unwrap_or_default()
            })
            .collect();
        // A function variable's numbers where the parts apply it.
        for (g, args) in &self.apps {
            if let Some(f) = self.funs.iter().find(|f| f.sym == *g && matches!(f.ret, Ty::Nat | Ty::Int)) {
                let app = ctx.list(std::iter::once(f.sym).chain(args.iter().copied()).collect());
                terms.extend(encode::magnitudes(ctx, &c.program, &f.ret, 0, app, &mut budget).unwrap_or_default());
            }
        }
        ctx.plus_many(std::iter::once(ctx.numeral(0)).chain(terms))
    }

    /// The current model's value of `magnitude`.
    fn measure(&mut self, c: &Conjecture, size: u64) -> Option<num_bigint::BigInt> {
        let m = self.magnitude(c, size);
        let got = self.solver.values(vec![m]).ok()?;
        match encode::decode(&self.solver.ctx, &c.program, *got.first()?, &Ty::Int)? {
            Value::Int(i) => Some(i.to_bigint()),
            _ => None,
        }
    }
}

/// A function's arguments at a point and its value there.
type Point = (Vec<Value>, Value);

/// The curried function of `arity` arguments with the values `entries` at their points
/// and `default` elsewhere, as finite maps: `(λ_. (λ_. 0)(1 := 2))(0 := (λ_. 0))`-style
/// for two arguments, the inner maps for each first argument.
fn curried(arity: usize, default: &Value, entries: Vec<Point>) -> Value {
    if arity == 0 {
        return entries.into_iter().next().map_or_else(|| default.clone(), |(_, x)| x);
    }
    let inner_default = curried(arity - 1, default, Vec::new());
    let mut groups: Vec<(Value, Vec<Point>)> = Vec::new();
    for (mut keys, x) in entries {
        let first = keys.remove(0);
        match groups.iter_mut().find(|(k, _)| *k == first) {
            Some((_, g)) => g.push((keys, x)),
            None => groups.push((first, vec![(keys, x)])),
        }
    }
    let entries = groups.into_iter().map(|(k, g)| (k, curried(arity - 1, default, g))).collect();
    Value::fun_map(inner_default, entries)
}

/// A decoded model: the assignment, and each application of a function variable with its
/// value's term.
struct Model {
    vals: Vec<Option<Value>>,
    apps: Vec<(SExpr, SExpr)>,
}

impl Smt<'_> {
    /// What evaluation says of `vals` (`Flow::Failed`: a candidate counterexample, every premise holds of it and the
    /// conclusion fails, as evaluation (the run's engine) says. Every part is evaluated,
    /// the encoded ones too: a model that does not satisfy what the solver was told (an
    /// encoded premise, the negated conclusion) is an encoding error, reported loudly as a
    /// disagreement, never tested on as if it were a model.
    fn fails(&mut self, q: &Query, vals: &[Option<Value>]) -> Result<Flow, Box<End>> {
        let mark = self.r.arena().mark();
        for (v, x) in vals.iter().enumerate() {
            if let Some(x) = x {
                self.r.set(v, x.clone(), None);
            }
        }
        let verdicts = self.verdicts(q);
        self.r.arena().release(mark);
        let (verdict, wrong) = verdicts.map_err(|s| Box::new(End::Stopped(s)))?;
        match wrong {
            None => Ok(verdict),
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
    /// which encoded part it contradicts, if one. The schedule's steps run as in every
    /// tester and in the re-check (`case::run_step`): a premise that binds a variable binds
    /// it, an underspecified premise goes on (the re-check marks the result potentially
    /// spurious), an underspecified binding rejects.
    fn verdicts(&mut self, q: &Query) -> Result<(Flow, Option<String>), Stop> {
        let mut taint = None;
        let unencoded = |i: usize| q.unencoded.iter().any(|(j, _)| *j == i);
        // Whether every value evaluation has read so far is what the solver was told of: a
        // variable bound by a premise without an encoding is evaluation's value, not the
        // model's, and the encoded parts said nothing of it.
        let mut as_told = true;
        for step in self.sched.steps.clone() {
            match (step, run_step(&mut self.r, step, &mut taint)?) {
                (Step::Bind { premise, .. }, Flow::Next) if unencoded(premise) => as_told = false,
                (_, Flow::Next) => {}
                (Step::Check(PartRef::Premise(i)), Flow::Rejected) if as_told && !unencoded(i) => {
                    return Ok((Flow::Rejected, Some(format!("premise {}", i + 1))));
                }
                (_, Flow::Rejected) => return Ok((Flow::Rejected, None)),
                (_, Flow::Passed) if q.refutes && as_told => {
                    return Ok((Flow::Passed, Some("the negated conclusion".into())));
                }
                (_, Flow::Passed) => return Ok((Flow::Passed, None)),
                (_, failed @ Flow::Failed(_)) => return Ok((failed, None)),
            }
        }
        Ok((Flow::Passed, None))
    }

    /// A smaller counterexample than `vals`, if the solver finds one within `until`: the
    /// least sum of the numbers' magnitudes, bisected (is there one of at most half the
    /// last one's, ...), each probe in a scope of its own.
    fn smaller(
        &mut self,
        q: &mut Query,
        mut vals: Vec<Option<Value>>,
        size: u64,
        until: Instant,
    ) -> Vec<Option<Value>> {
        use num_bigint::BigInt;
        let Some(first) = q.measure(self.c, size) else { return vals };
        let (mut lo, mut hi) = (BigInt::from(0), first);
        for _ in 0..SHRINK_ROUNDS {
            if lo >= hi || Instant::now() >= until {
                break;
            }
            let mid: BigInt = (&lo + &hi - 1) / 2;
            if q.solver.ctx.push().is_err() {
                break;
            }
            let at_most = q.solver.ctx.lte(q.magnitude(self.c, size), q.solver.ctx.atom(mid.to_string()));
            let answer = q.solver.ctx.assert(at_most).and_then(|()| q.solver.check(until, &|| false));
            let next = match answer {
                Ok(solver::Answer::Sat) => q.model(self.c).ok().flatten().zip(q.measure(self.c, size)),
                _ => None,
            };
            if q.solver.ctx.pop().is_err() {
                break;
            }
            match (answer, next) {
                (Ok(solver::Answer::Unsat), _) => lo = mid + 1,
                (Ok(solver::Answer::Sat), Some((next, measured)))
                    if matches!(self.fails(q, &next.vals), Ok(Flow::Failed(_))) =>
                {
                    hi = measured;
                    vals = next.vals;
                }
                _ => break,
            }
        }
        vals
    }
}

impl Search for Smt<'_> {
    fn run_size(&mut self, turn: &mut Turn) -> SizeResult {
        let mut res = SizeResult::default();
        let Some(binary) = self.binary.clone() else {
            res.end = Some(End::Stopped(Stop::NotExecutable(solver::NO_SOLVER.into())));
            return res;
        };
        let mut q = match self.query.take() {
            Some(q) => q,
            None => match Query::new(self.c, &self.sched, &binary) {
                Ok(q) => {
                    // The binary's name, not its path: the same on every machine.
                    res.log = vec![format!("smt: solver {}", q.solver.name)];
                    q
                }
                Err(e) => {
                    res.end = Some(End::Stopped(Stop::NotExecutable(format!("the SMT solver did not run: {e}"))));
                    return res;
                }
            },
        };
        let (models, spent) = (q.models, q.solver.spent);
        res.end = self.search(&mut q, turn, &mut res);
        res.solver = Some(SolverStats {
            name: q.solver.name.clone(),
            models: q.models - models,
            seconds: (q.solver.spent - spent).as_secs_f64(),
        });
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
        let (deadline, budget) = (turn.budget.deadline, turn.budget);
        // Each size in a scope of its own: its unrolling, its bounds, its blocked models.
        let unroll = turn.size as usize + 1;
        match q
            .solver
            .ctx
            .push()
            .and_then(|()| q.assert_parts(self.c, unroll, self.enumerating, deadline, &|| budget.cancelled()))
        {
            Err(e) => return io(e),
            Ok(false) => {
                // Past the deadline before the query was whole.
                let _ = q.solver.ctx.pop();
                return Some(if turn.budget.cancelled() { End::Cancelled } else { End::Stopped(Stop::Timeout) });
            }
            Ok(true) => {}
        }
        if res.log.len() == 1 {
            res.log.extend(describe(self.c, q));
        }
        // Datatype values bounded by the size, as the exhaustive tester's, their `nat`s not
        // negative; in mode a numbers too.
        // Whether the bound leaves values out (a datatype with infinitely many).
        let mut bounded = false;
        for (v, x) in q.consts.clone() {
            let ty = &self.c.vars[v].ty;
            if !q.generated[v] || (q.refutes && !matches!(ty, Ty::Data(_))) {
                continue;
            }
            bounded |= lang::core::cardinality::cardinality(&self.c.program, ty).is_none();
            let mut budget = WITHIN_BUDGET;
            let Some(within) =
                encode::within(&q.solver.ctx, &self.c.program, ty, turn.size, !q.refutes, x, &mut budget)
            else {
                res.log
                    .push(format!("smt: `{}` is not bounded by the size (too large a condition)", self.c.vars[v].name));
                continue;
            };
            if let Err(e) = q.solver.ctx.assert(within) {
                return io(e);
            }
        }
        let end = loop {
            if let Some(e) = turn.budget.over_at(res.passed) {
                break Some(e);
            }
            match q.solver.check(deadline, &|| budget.cancelled()) {
                Err(e) => break io(e),
                // Cancelled: the check was cut off.
                Ok(solver::Answer::Unknown) if turn.budget.cancelled() => break Some(End::Cancelled),
                Ok(solver::Answer::Unknown) if Instant::now() >= deadline => {
                    break Some(End::Stopped(Stop::Timeout));
                }
                Ok(solver::Answer::Unknown) => {
                    break Some(End::Stopped(Stop::NotExecutable(
                        "the SMT solver could not decide the query (it answered unknown)".into(),
                    )));
                }
                Ok(solver::Answer::Unsat) => {
                    let shown = q.refutes && q.unencoded.is_empty();
                    self.decided = shown && !q.cut && !bounded;
                    let tested = match q.models {
                        0 => String::new(),
                        1 => " (1 model tested)".into(),
                        n => format!(" ({n} models tested)"),
                    };
                    let within = if bounded { " within the size" } else { "" };
                    res.note = Some(if self.decided {
                        format!("the SMT solver showed that no value is a counterexample{tested}")
                    } else if shown && q.cut {
                        format!("the SMT solver showed that no value{within} is a counterexample whose recursion unrolls within {unroll} calls{tested}")
                    } else if shown {
                        format!("the SMT solver showed that no value{within} is a counterexample{tested}")
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
                    break Some(End::Stopped(Stop::NotExecutable(
                        "a model the tester cannot read (a negative `nat` in a value the size does not bound)".into(),
                    )));
                }
                Err(e) => break io(e),
            };
            let vals = &model.vals;
            res.tests += 1;
            let flow = match self.fails(q, vals) {
                Ok(v) => v,
                Err(end) => break Some(*end),
            };
            if !matches!(flow, Flow::Rejected) {
                res.passed += 1;
            }
            if matches!(flow, Flow::Failed(_)) {
                // A share of the time left goes to making it small.
                let share = deadline.saturating_duration_since(Instant::now()) / 4;
                let until = Instant::now() + share.min(Duration::from_secs(2));
                let small = if q.refutes { self.smaller(q, vals.clone(), turn.size, until) } else { vals.clone() };
                if let Some(end) = turn.judge.verdict(self.c, &self.sched, &small) {
                    break Some(end);
                }
            }
            if let Err(e) = q.block(self.c, &model) {
                break io(e);
            }
        };
        let _ = q.solver.ctx.pop();
        end
    }
}

/// The command `(name args...)`.
fn command(ctx: &easy_smt::Context, name: &str, args: Vec<SExpr>) -> SExpr {
    ctx.list(std::iter::once(ctx.atom(name)).chain(args).collect())
}

/// What `verbose` says of the query once (after the solver's name): which parts were
/// encoded and which are checked on each model, and the mode.
fn describe(c: &Conjecture, q: &Query) -> Vec<String> {
    let mut out = Vec::new();
    let encoded: Vec<String> = (0..c.premises.len())
        .filter(|i| !q.unencoded.iter().any(|(j, _)| j == i) && !q.subst.iter().any(|(j, _, _)| j == i))
        .map(|i| format!("premise {}", i + 1))
        .collect();
    if !encoded.is_empty() {
        out.push(format!("smt: encoded: {}", encoded.join(", ")));
    }
    for (i, v, _) in &q.subst {
        out.push(format!("smt: premise {} substituted: its right side stands for `{}`", i + 1, c.vars[*v].name));
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
