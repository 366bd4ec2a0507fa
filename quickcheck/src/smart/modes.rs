//! Mode analysis of Horn clauses (`lang::core::horn`), as Isabelle's predicate compiler
//! does it (§4.2 of Bulwahn's paper): for a relation and a *mode* (which of its arguments
//! are known when it runs), a *plan* per clause: its goals in an order in which each runs
//! with what is known by then, and the variables no goal can produce, which are generated
//! instead (the exhaustive tester's fallback). A relation has a mode when every clause has
//! a plan in it; recursive relations are analysed as a greatest fixpoint (a mode is assumed
//! until one of its clauses has no plan).
//!
//! Goals are chosen greedily, in Isabelle's order of preference: what only checks or
//! matches known values first (it prunes), then constructions from known parts, calls
//! whose arguments are all known (functional mode), calls that produce values (fewest
//! outputs first), and a generated variable only when nothing else can run: one that the
//! goal needing the fewest would be run with (a list's element before the list).
//!
//! What it does not know: how a plan runs (the enumerators), depths and sizes.

use lang::core::horn::{self, Goal, HornClause, Pattern, Rel};
use lang::core::ir::{Expr, Lit, Prim, Program, VarId};
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

/// Which arguments of a relation are known when it runs: bit `i` for argument `i` (the
/// result of a function is its last argument).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Mode(pub u64);

impl Mode {
    pub fn is_input(self, i: usize) -> bool {
        self.0 >> i & 1 == 1
    }

    /// `[i, o, i]`.
    pub fn show(self, arity: usize) -> String {
        let io: Vec<&str> = (0..arity).map(|i| if self.is_input(i) { "i" } else { "o" }).collect();
        format!("[{}]", io.join(", "))
    }
}

/// How one goal of a clause runs in a plan.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// `var` is known: match it against the pattern, binding the pattern's new variables.
    Match(VarId, Pattern),
    /// The pattern's variables are known: `var` is built from them.
    Build(VarId, Pattern),
    /// The relation `rel` in `mode` (a function with all but the result known: a call).
    Call { rel: Rel, mode: Mode, args: Vec<Pattern> },
    /// The expression's free variables are known: its value is matched against `target`.
    Compute(Pattern, Expr),
    /// No goal produces `var`: it is enumerated from its type's values.
    Generate(VarId),
    /// The set `var` is known: the pattern is matched against each of its elements.
    Member(Pattern, VarId),
}

/// The order in which one clause runs in a mode.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub clause: HornClause,
    pub steps: Vec<Step>,
}

/// The modes analysed so far and their plans.
pub struct Modes<'p> {
    prog: &'p Program,
    clauses: HashMap<Rel, Vec<HornClause>>,
    /// `None`: the relation has no plan in that mode.
    table: HashMap<(Rel, Mode), Option<Vec<Plan>>>,
    /// Variables to generate first, if something must be: the unknown parts of an argument
    /// a call would otherwise produce blindly (`blind`).
    hints: Vec<VarId>,
    /// For the clause being planned: the variables a pending goal computes (a `Compute`'s
    /// target, a call's result) and the unknown variables it needs first.
    producers: Vec<(VarId, Vec<VarId>)>,
}

impl<'p> Modes<'p> {
    pub fn new(prog: &'p Program) -> Modes<'p> {
        Modes { prog, clauses: HashMap::new(), table: HashMap::new(), hints: Vec::new(), producers: Vec::new() }
    }

    /// The plans of relation `rel` in `mode`, or `None` when it cannot run that way.
    pub fn plans(&mut self, rel: Rel, mode: Mode) -> Option<&[Plan]> {
        self.table.entry((rel, mode)).or_insert_with(|| Some(Vec::new()));
        // Greatest fixpoint: every mode met is assumed until one of its clauses has no
        // plan under the assumptions; then the modes that relied on it are planned again.
        let mut rounds = 0;
        loop {
            let mut keys: Vec<(Rel, Mode)> = self.table.iter().filter(|(_, v)| v.is_some()).map(|(k, _)| *k).collect();
            keys.sort();
            let before = self.table.len();
            let mut changed = false;
            rounds += 1;
            for (f, m) in keys {
                let planned = self.plan_relation(f, m);
                // A plan may also change once the plans it looked at are known (a call's
                // output found blind is generated first): planned again until none does.
                changed |= planned.is_none() || (rounds <= MAX_REPLANS && self.table.get(&(f, m)) != Some(&planned));
                self.table.insert((f, m), planned);
            }
            // Modes met for the first time were only assumed: plan them too.
            if !changed && self.table.len() == before {
                break;
            }
        }
        self.table.get(&(rel, mode)).and_then(|p| p.as_deref())
    }

    /// The relations and modes with a plan that `root`'s plans run, directly or not, after
    /// `plans(root)` (modes assumed on the way and not used are left out).
    pub fn planned(&self, root: (Rel, Mode)) -> Vec<((Rel, Mode), Vec<Plan>)> {
        let mut seen = vec![root];
        let mut out = Vec::new();
        while let Some(key) = seen.get(out.len()).copied() {
            let plans = self.table.get(&key).and_then(|p| p.clone()).unwrap_or_default();
            for step in plans.iter().flat_map(|p| &p.steps) {
                if let Step::Call { rel, mode, .. } = step {
                    let k = (*rel, *mode);
                    if !seen.contains(&k) && matches!(self.table.get(&k), Some(Some(_))) {
                        seen.push(k);
                    }
                }
            }
            out.push((key, plans));
        }
        out.sort_by_key(|(k, _)| *k);
        out
    }

    fn plan_relation(&mut self, r: Rel, m: Mode) -> Option<Vec<Plan>> {
        let cls = self.clauses.entry(r).or_insert_with(|| r.clauses(self.prog)).clone();
        cls.into_iter().map(|c| self.plan_clause(c, m)).collect()
    }

    /// Whether `(r, m)` may be used: assumed when first met.
    fn usable(&mut self, r: Rel, m: Mode) -> bool {
        self.table.entry((r, m)).or_insert_with(|| Some(Vec::new())).is_some()
    }

    fn plan_clause(&mut self, c: HornClause, m: Mode) -> Option<Plan> {
        let mut known: HashSet<VarId> = HashSet::new();
        let mut steps = Vec::new();
        // The head's inputs are known (`horn` keeps parameters and result as variables).
        for (i, p) in c.head.iter().enumerate() {
            if m.is_input(i) {
                pattern_vars(p, &mut known);
            }
        }
        let mut pending: Vec<Goal> = Vec::new();
        pending.extend(c.body.iter().cloned());
        while !pending.is_empty() {
            self.hints.clear();
            self.producers = producers(&pending, &known);
            let choice = (0..pending.len())
                .filter_map(|i| self.runnable(&pending[i], &known).map(|(rank, step)| (rank, i, step)))
                .min_by_key(|(rank, i, _)| (*rank, *i));
            match choice {
                Some((_, i, step)) => {
                    bind_step(&step, &mut known);
                    // A goal that asked for a variable to be generated first stays.
                    if !matches!(step, Step::Generate(_)) {
                        pending.remove(i);
                    }
                    steps.push(step);
                }
                None => {
                    // Nothing runs: generate an unknown variable of the goal that needs the
                    // fewest. A variable that a pending unification can build from parts is
                    // not generated while a part can be (an event's guest, not the event:
                    // the other parts may come from goals).
                    let composite: HashSet<VarId> = pending
                        .iter()
                        .filter_map(|g| match g {
                            Goal::Unify(v, Pattern::Ctor(..) | Pattern::Suc(_)) if !known.contains(v) => Some(*v),
                            _ => None,
                        })
                        .collect();
                    let hinted = self.hints.iter().find(|v| !known.contains(v)).copied();
                    let v = hinted.or_else(|| {
                        pending
                            .iter()
                            .filter_map(|g| {
                                let mut vs = Vec::new();
                                goal_inputs(g, &mut vs);
                                let unknown: Vec<VarId> = vs.into_iter().filter(|v| !known.contains(v)).collect();
                                let leaf = unknown.iter().find(|v| !composite.contains(v));
                                let v = leaf.or(unknown.first())?;
                                Some(((leaf.is_none(), unknown.len()), *v))
                            })
                            .min_by_key(|(rank, _)| *rank)
                            .map(|(_, v)| v)
                    })?;
                    known.insert(v);
                    steps.push(Step::Generate(v));
                }
            }
        }
        // Outputs of the head no goal produced are generated.
        for (i, p) in c.head.iter().enumerate() {
            if !m.is_input(i) {
                let mut vs = HashSet::new();
                pattern_vars(p, &mut vs);
                let mut vs: Vec<VarId> = vs.into_iter().filter(|v| !known.contains(v)).collect();
                vs.sort();
                for v in vs {
                    known.insert(v);
                    steps.push(Step::Generate(v));
                }
            }
        }
        Some(Plan { clause: c, steps })
    }

    /// How `g` can run now, and its rank (lower runs first): `None` when it cannot.
    fn runnable(&mut self, g: &Goal, known: &HashSet<VarId>) -> Option<(u8, Step)> {
        let all_known = |p: &Pattern| {
            let mut vs = HashSet::new();
            pattern_vars(p, &mut vs);
            vs.iter().all(|v| known.contains(v))
        };
        match g {
            Goal::Unify(v, p) if known.contains(v) => Some((0, Step::Match(*v, p.clone()))),
            Goal::Unify(v, p) if all_known(p) => Some((1, Step::Build(*v, p.clone()))),
            Goal::Unify(..) => None,
            Goal::Compute(target, e) => {
                free_vars(e).iter().all(|v| known.contains(v)).then(|| (0, Step::Compute(target.clone(), e.clone())))
            }
            Goal::Call { fun, args, result } => {
                let positions: Vec<Pattern> = args.iter().chain(std::iter::once(result)).cloned().collect();
                let mode = known_positions_in(&positions, known);
                let n = positions.len();
                if (0..n).all(|i| mode.is_input(i)) {
                    let ret = &self.prog.fun(*fun).ret;
                    if !horn::structural(self.prog, ret) {
                        // The result is known too and compares extensionally (a function,
                        // a set): the interpreter's equality checks it.
                        let call = Expr::Call(*fun, args.iter().map(pattern_expr).collect());
                        let check = Expr::Prim(Prim::Eq(ret.clone()), vec![call, pattern_expr(result)]);
                        return Some((0, Step::Compute(Pattern::Lit(Lit::Bool(true)), check)));
                    }
                }
                if (0..n - 1).all(|i| mode.is_input(i)) {
                    // All arguments known: the function is called.
                    return Some((2, Step::Call { rel: Rel::Fun(*fun), mode, args: positions }));
                }
                self.relation(Rel::Fun(*fun), mode, positions)
            }
            Goal::Pred(p, args) => {
                let mode = known_positions_in(args, known);
                self.relation(Rel::Pred(*p), mode, args.clone())
            }
            Goal::Member(p, set) if known.contains(set) => {
                Some((if all_known(p) { 0 } else { 3 }, Step::Member(p.clone(), *set)))
            }
            Goal::Member(..) => None,
        }
    }

    /// A relation run in `mode` when it has a plan there: a check when every argument is
    /// known, otherwise ranked by how many it produces.
    fn relation(&mut self, rel: Rel, mode: Mode, args: Vec<Pattern>) -> Option<(u8, Step)> {
        // Run backwards, a relation compares what it computes with its inputs; a function
        // or a set compares extensionally, not by its representation, so it is no input
        // of a relation that produces something.
        let outputs = (0..args.len()).any(|i| !mode.is_input(i));
        let compared_by_value = |i: usize| rel.arg_type(self.prog, i).is_none_or(|t| !horn::structural(self.prog, t));
        if outputs && (0..args.len()).any(|i| mode.is_input(i) && compared_by_value(i)) {
            return None;
        }
        if !self.usable(rel, mode) {
            return None;
        }
        // An output the relation only generates from its type's values, where the caller
        // has a constructor pattern (`xs @ [a]` with `a` unknown): generating the pattern's
        // unknown parts and passing the argument in is smaller.
        // So is an output another goal computes once its own inputs are known (`b * c`
        // for `a dvd b * c`: `c` is generated, not the product).
        for (i, p) in args.iter().enumerate() {
            if mode.is_input(i) || !self.blind(rel, mode, i) {
                continue;
            }
            let parts = match p {
                Pattern::Var(x) => match self.producers.iter().find(|(y, inputs)| y == x && !inputs.contains(x)) {
                    Some((_, inputs)) => inputs.clone(),
                    // Generated here and passed in, the value prunes what the relation
                    // builds with it (a key bounding a subtree's keys), where generated
                    // inside it is only checked once the rest is built: generated now,
                    // ranked just after the calls that produce as many values as this one
                    // (which may derive them from what is known: a list split, not made up).
                    None if !compared_by_value(i) => {
                        let outputs = args.len() - mode.0.count_ones() as usize;
                        return Some((4 + outputs.min(90) as u8, Step::Generate(*x)));
                    }
                    None => continue,
                },
                p => {
                    let mut vs = HashSet::new();
                    pattern_vars(p, &mut vs);
                    let mut vs: Vec<VarId> = vs.into_iter().collect();
                    vs.sort();
                    vs
                }
            };
            self.hints.extend(parts);
            return None;
        }
        // A call with no input whose argument has a known part (`(X ::= N 5, s) ⇒ t`: the
        // command) would enumerate every derivation to keep the few with that part: the
        // rest of the argument is generated first, so the call runs from it, or checks.
        let outputs = args.len() - mode.0.count_ones() as usize;
        if outputs == args.len() {
            let parts: Vec<VarId> = args
                .iter()
                .filter(|p| has_ground_part(p))
                .flat_map(|p| {
                    let mut vs = Vec::new();
                    horn::pattern_vars(p, &mut |v| vs.push(v));
                    vs
                })
                .collect();
            if !parts.is_empty() {
                self.hints.extend(parts);
                return None;
            }
        }
        let rank = match outputs {
            0 => 2,
            n if n == args.len() => 100 + n.min(150) as u8,
            n => 3 + n.min(90) as u8,
        };
        // A mode that makes its outputs up from generated parts alone (a record's selector
        // run backwards, `pc1 s = Idle`: every other field generated) is generate-and-test;
        // a relation that derives them (`reach s`) goes first even without inputs.
        let rank = rank.saturating_add(GENERATED_WEIGHT.saturating_mul(self.generated(rel, mode)));
        Some((rank, Step::Call { rel, mode, args }))
    }

    /// For `rel` in `mode` as planned so far, when no clause derives anything (no call that
    /// produces a value: a selector or a projection run backwards), the most variables one
    /// clause generates; 0 for a relation with a derivation, whose generated variables are
    /// the leaves it needs anyway (a tree's keys).
    fn generated(&self, rel: Rel, mode: Mode) -> u8 {
        let Some(Some(plans)) = self.table.get(&(rel, mode)) else { return 0 };
        let derives = plans.iter().flat_map(|p| &p.steps).any(|s| match s {
            Step::Call { mode, args, .. } => (0..args.len()).any(|i| !mode.is_input(i)),
            _ => false,
        });
        if derives {
            return 0;
        }
        let most = plans.iter().map(|p| p.steps.iter().filter(|s| matches!(s, Step::Generate(_))).count()).max();
        most.unwrap_or(0).min(usize::from(u8::MAX)) as u8
    }

    /// Whether `rel` in `mode`, as planned so far, gets its output `i` only by generating it:
    /// in every clause the head's variable there is generated or comes from a relation
    /// that gets it blindly in turn (the same relation at the same place included), and
    /// some clause generates it.
    fn blind(&self, rel: Rel, mode: Mode, i: usize) -> bool {
        let mut generated = false;
        self.blind_in(rel, mode, i, &mut vec![(rel, mode, i)], &mut generated) && generated
    }

    /// `blind` with the places on the way there (`seen`, assumed blind: a relation that
    /// passes the value on to itself) and whether some clause generated the value
    /// (`generated`).
    fn blind_in(
        &self,
        rel: Rel,
        mode: Mode,
        i: usize,
        seen: &mut Vec<(Rel, Mode, usize)>,
        generated: &mut bool,
    ) -> bool {
        let Some(Some(plans)) = self.table.get(&(rel, mode)) else { return false };
        !plans.is_empty()
            && plans.iter().all(|plan| {
                let Some(Pattern::Var(v)) = plan.clause.head.get(i) else { return false };
                plan.steps.iter().any(|s| match s {
                    Step::Generate(w) if w == v => {
                        *generated = true;
                        true
                    }
                    Step::Call { rel: r, mode: m, args } => {
                        let Some(j) = args.iter().position(|a| *a == Pattern::Var(*v)) else { return false };
                        if m.is_input(j) {
                            return false;
                        }
                        if seen.contains(&(*r, *m, j)) {
                            return true;
                        }
                        seen.push((*r, *m, j));
                        let blind = self.blind_in(*r, *m, j, seen, generated);
                        seen.pop();
                        blind
                    }
                    _ => false,
                })
            })
    }
}

/// Rounds of planning in which a changed plan makes another round: enough for the
/// choices that depend on other plans to settle, a bound so that choices that keep changing
/// each other cannot loop.
const MAX_REPLANS: u32 = 16;

/// How much a variable a call's plan generates weighs against a call's outputs when goals
/// are ranked: more than a call with no input at all (whose rank is 100 and up) is worth,
/// from about five generated variables on.
const GENERATED_WEIGHT: u8 = 20;

/// What the pending goals compute and from what: for each variable of a `Compute`'s
/// target or a function call's result, the goal's unknown inputs.
fn producers(pending: &[Goal], known: &HashSet<VarId>) -> Vec<(VarId, Vec<VarId>)> {
    let mut out = Vec::new();
    for g in pending {
        let (target, mut inputs) = match g {
            Goal::Compute(target, e) => (target, free_vars(e)),
            Goal::Call { args, result, .. } => {
                let mut vs = Vec::new();
                args.iter().for_each(|p| horn::pattern_vars(p, &mut |v| vs.push(v)));
                (result, vs)
            }
            _ => continue,
        };
        inputs.retain(|v| !known.contains(v));
        inputs.sort();
        inputs.dedup();
        horn::pattern_vars(target, &mut |x| out.push((x, inputs.clone())));
    }
    out
}

/// Whether `p` has a part that is a known value and says more than which constructor a
/// value has: a literal, or a constructor with fields none of which is a variable
/// (`Assign(X, N(5))`; not `Nil`, nor `Node(l, x, r)`).
fn has_ground_part(p: &Pattern) -> bool {
    fn ground(p: &Pattern) -> bool {
        match p {
            Pattern::Var(_) => false,
            Pattern::Lit(_) => true,
            Pattern::Suc(p) => ground(p),
            Pattern::Ctor(_, ps) => ps.iter().all(ground),
        }
    }
    match p {
        Pattern::Var(_) => false,
        Pattern::Lit(_) => true,
        Pattern::Ctor(_, ps) if !ps.is_empty() && ground(p) => true,
        Pattern::Suc(q) => has_ground_part(q),
        Pattern::Ctor(_, ps) => ps.iter().any(has_ground_part),
    }
}

/// `p` as an expression.
fn pattern_expr(p: &Pattern) -> Expr {
    match p {
        Pattern::Var(v) => Expr::Var(*v),
        Pattern::Lit(l) => Expr::Lit(l.clone()),
        Pattern::Ctor(c, ps) => Expr::Ctor(*c, ps.iter().map(pattern_expr).collect()),
        Pattern::Suc(p) => Expr::Prim(Prim::Suc, vec![pattern_expr(p)]),
    }
}

/// The mode in which the positions whose variables are all known are inputs.
fn known_positions_in(positions: &[Pattern], known: &HashSet<VarId>) -> Mode {
    let mut mode = 0u64;
    for (i, p) in positions.iter().enumerate() {
        let mut vs = HashSet::new();
        pattern_vars(p, &mut vs);
        if vs.iter().all(|v| known.contains(v)) {
            mode |= 1 << i;
        }
    }
    Mode(mode)
}

fn bind_step(s: &Step, known: &mut HashSet<VarId>) {
    match s {
        Step::Match(_, p) | Step::Compute(p, _) | Step::Member(p, _) => pattern_vars(p, known),
        Step::Build(v, _) | Step::Generate(v) => {
            known.insert(*v);
        }
        Step::Call { args, .. } => args.iter().for_each(|p| pattern_vars(p, known)),
    }
}

fn pattern_vars(p: &Pattern, out: &mut HashSet<VarId>) {
    horn::pattern_vars(p, &mut |v| {
        out.insert(v);
    });
}

/// The variables a goal needs known before it can run in some way.
fn goal_inputs(g: &Goal, out: &mut Vec<VarId>) {
    fn add(p: &Pattern, out: &mut Vec<VarId>) {
        let mut vs = HashSet::new();
        pattern_vars(p, &mut vs);
        let mut vs: Vec<VarId> = vs.into_iter().collect();
        vs.sort();
        out.extend(vs);
    }
    match g {
        // The pattern's variables first: generating them builds `v` (a list's elements,
        // not the whole list).
        Goal::Unify(v, p) => {
            add(p, out);
            out.push(*v);
        }
        Goal::Compute(_, e) => out.extend(free_vars(e)),
        Goal::Member(p, set) => {
            out.push(*set);
            add(p, out);
        }
        Goal::Call { args, .. } | Goal::Pred(_, args) => args.iter().for_each(|p| add(p, out)),
    }
}

/// The free variables of `e`, in ascending order (`lang::core::ir::free_vars`).
pub(crate) fn free_vars(e: &Expr) -> Vec<VarId> {
    let mut free = std::collections::BTreeSet::new();
    lang::core::ir::free_vars(e, &mut Vec::new(), &mut free);
    free.into_iter().map(VarId).collect()
}

/// The plans of `fun` in `mode` in text form, one clause per line (`verbose` shows this: why a
/// generator is or is not smart).
pub fn print_plans(prog: &Program, rel: Rel, mode: Mode, plans: &[Plan]) -> String {
    let mut out = format!("{}{}:\n", rel.name(prog), mode.show(rel.arity(prog)));
    for (i, p) in plans.iter().enumerate() {
        let steps: Vec<String> = p.steps.iter().map(|s| print_step(prog, s)).collect();
        // A fact (an introduction rule without premises, its head all inputs) has no steps.
        let steps = if steps.is_empty() { "holds".to_owned() } else { steps.join("; ") };
        let _ = writeln!(out, "  clause {}: {}", i + 1, steps);
    }
    out
}

fn print_step(prog: &Program, s: &Step) -> String {
    let pat = |p: &Pattern| lang::core::horn::print_pattern(prog, p);
    match s {
        Step::Match(v, p) => format!("match v{} = {}", v.0, pat(p)),
        Step::Build(v, p) => format!("build v{} = {}", v.0, pat(p)),
        Step::Call { rel, mode, args } => {
            let a: Vec<String> = args.iter().map(pat).collect();
            format!("{}{}({})", rel.name(prog), mode.show(args.len()), a.join(", "))
        }
        Step::Compute(p, e) => format!("{} := {}", pat(p), lang::core::print::print_expr(prog, e)),
        Step::Generate(v) => format!("generate v{}", v.0),
        Step::Member(p, set) => format!("{} ∈ v{}", pat(p), set.0),
    }
}
