//! Generalizing a counterexample, after any tester found it (Extrapolate, Braquehais and
//! Runciman §3.2): the patterns of it from most to least general (`pattern`), each tested on
//! its instances (`instances`: every one up to a size, then random ones, in compiled code
//! where it pays), and the most general ones on which the lemma failed every time reported
//! in theory syntax, `xs = x # x # _`, with how they were tested; then one more under a side
//! condition (`conditions`, §3.3) where a pattern failed only on some instances: `xs = x # ys
//! when x ∈ set ys`. A partial counterexample of narrowing is a generalization proved, not
//! tested (`proved`). The claims also tell which failing cases are their instances
//! (`Claims::covers`), so that `counterexamples = k` passes over them.
//!
//! The search goes from the least specific pattern to the most (parts fixed plus variables
//! repeated), so every reported pattern is one of the most general that passed: a pattern
//! that passed is not refined further, one that is an instance of a reported one is not
//! tested, and one reported gives way to a more general one found later. It is tested at the largest instance of the
//! type variables (three elements by default), so that `x # y # _` is not reported because a
//! type of one element has `y = x`. Its cost is bounded three ways: patterns tested,
//! instances per pattern, and its own time share (`share`), a tenth of the lemma's time
//! limit after the counterexample was found.
//!
//! What it does not do: change the counterexample, which is reported first and was re-checked
//! by the interpreter before this runs; a generalization never replaces it.

mod conditions;
mod instances;
mod pattern;

use crate::outcome::{Counterexample, Evidence, Generalization};
use crate::program::Schedule;
use crate::runner::{Engine, Stop};
use conditions::Atom;
pub use instances::Bounds;
use instances::{Sample, Trial};
use lang::core::conjecture::Conjecture;
use lang::core::ir::{FunId, Program, Ty};
use lang::interp::{Interp, Limits, Value};
use pattern::{Holes, Pattern};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Patterns tested at most per counterexample.
const MAX_PATTERNS: usize = 200;
/// Generalizations reported at most.
const MAX_FOUND: usize = 2;
/// Patterns rejected unconditionally that are searched for a side condition, at most,
/// besides the immediate generalizations of the reported ones.
const MAX_CONDITIONED: usize = 30;
/// Instances of a rejected pattern run before the rest of its sample, for a side condition:
/// when none of them fails, the pattern is not searched for one.
const CONDITION_PROBE: usize = 100;
/// A counterexample with more constructors and atoms than this is not generalized (the
/// patterns between it and the most general grow exponentially with it).
const MAX_NODES: usize = 40;

/// The time a run may spend generalizing its counterexample, after finding it: a tenth of
/// its time limit.
pub fn share(timeout: Duration) -> Duration {
    timeout / 10
}

/// The generalizations of counterexample `cx`, found at instance `at` of `conjectures` with
/// the generated variables' values `generated`: narrowing's proved one first, then the
/// tested ones, whose claims come back too (to tell their instances). Stops at `deadline` or
/// when `cancel` is set, with what it found by then.
pub fn generalize<'c>(
    conjectures: &'c [Conjecture],
    at: usize,
    cx: &Counterexample,
    generated: &[Option<Value>],
    engine: Engine,
    deadline: Instant,
    cancel: &AtomicBool,
) -> (Vec<Generalization>, Option<Claims<'c>>) {
    let mut out: Vec<Generalization> = proved(cx).into_iter().collect();
    let claims = claims(conjectures, at, generated, engine, deadline, cancel);
    for claim in claims.iter().flat_map(|c| &c.claims) {
        if !out.iter().any(|o| o.words() == claim.shown.words()) {
            out.push(claim.shown.clone());
        }
    }
    (out, claims)
}

/// Narrowing's partial counterexample as a generalization: the lemma evaluated to false with
/// its `_` parts unknown, so it is false whatever they are.
fn proved(cx: &Counterexample) -> Option<Generalization> {
    if cx.partial.is_empty() {
        return None;
    }
    let pattern = cx
        .assignment
        .iter()
        .map(|(n, v)| {
            let partial = cx.partial.iter().find(|(m, _)| m == n).map(|(_, p)| p.clone());
            (n.clone(), partial.unwrap_or_else(|| v.clone()))
        })
        .collect();
    Some(Generalization { pattern, condition: None, evidence: Evidence::Proved })
}

/// A tested generalization as found: its pattern, its side condition, and how it reads.
pub struct Claim {
    pattern: Pattern,
    condition: Option<Atom>,
    pub shown: Generalization,
}

/// The tested generalizations of one counterexample, at the conjecture instance they were
/// tested at, with what is needed to test them again or to tell their instances.
pub struct Claims<'c> {
    c: &'c Conjecture,
    /// The conjecture variable of each pattern part.
    gens: Vec<usize>,
    holes: Holes,
    pub claims: Vec<Claim>,
    /// Patterns tested.
    pub tested: usize,
    /// Cases of the lemma run, in testing them and their side conditions.
    pub cases: u64,
}

/// The tested generalizations of the counterexample `generated` (the generated variables'
/// values) found at instance `at` of `conjectures`: at the largest instance where the values
/// carry over and are a counterexample, else at `at`. `None` when they are a counterexample
/// at neither (a caller that bypassed the re-check).
pub fn claims<'c>(
    conjectures: &'c [Conjecture],
    at: usize,
    generated: &[Option<Value>],
    engine: Engine,
    deadline: Instant,
    cancel: &AtomicBool,
) -> Option<Claims<'c>> {
    let last = conjectures.len().saturating_sub(1);
    [last, at].into_iter().find_map(|i| search(conjectures.get(i)?, generated, engine, deadline, cancel))
}

/// The tested generalizations at conjecture `c`, or `None` when the values are not a
/// counterexample there.
fn search<'c>(
    c: &'c Conjecture,
    generated: &[Option<Value>],
    engine: Engine,
    deadline: Instant,
    cancel: &AtomicBool,
) -> Option<Claims<'c>> {
    let mut trial = Trial::new(c, Schedule::of(c), engine, deadline);
    let gens = trial.gens().to_vec();
    let vars: Vec<(Ty, Value)> =
        gens.iter().map(|&v| Some((c.vars[v].ty.clone(), generated.get(v)?.clone()?))).collect::<Option<_>>()?;
    if vars.iter().any(|(ty, w)| !w.conforms(&c.program, ty)) {
        return None;
    }
    let witness: Vec<Value> = vars.iter().map(|(_, w)| w.clone()).collect();
    if !trial.fails(&witness).ok()? {
        return None;
    }
    let mut out = Claims { c, gens, holes: Holes::default(), claims: Vec::new(), tested: 0, cases: 0 };
    if vars.is_empty() || !pattern::fits(vars.iter().map(|(_, w)| w), MAX_NODES) {
        return Some(out);
    }
    let holes = &mut out.holes;
    let top = Pattern::top(holes, &vars);
    // Values order structurally; the cells inside closures never change that order.
    #[allow(clippy::mutable_key_type)]
    let mut seen = BTreeSet::from([top.clone()]);
    // Least specific first, then in the order reached: refinement steps alone do not order
    // by generality (`[x, x]` refined is two steps from the top, the more general
    // `[x # zs, x # ws]` three).
    let mut queue: BTreeMap<(usize, usize), Pattern> = BTreeMap::from([((top.specificity(), 0), top)]);
    let mut reached = 1;
    let mut found: Vec<(Pattern, Sample)> = Vec::new();
    // Patterns some instance of which is no counterexample, most general first: where a
    // side condition may still make them one.
    let mut rejected: Vec<Pattern> = Vec::new();
    let mut tested = 0;
    while let Some((_, p)) = queue.pop_first() {
        if found.len() >= MAX_FOUND
            || tested >= MAX_PATTERNS
            || Instant::now() >= deadline
            || cancel.load(Ordering::Relaxed)
        {
            break;
        }
        // The counterexample itself is no generalization; an instance of a reported one is
        // less general than it.
        if p.holes().is_empty() || found.iter().any(|(g, _)| g.generalizes(&p)) {
            continue;
        }
        tested += 1;
        let hole_ty = |h| holes.get(h).ty.clone();
        // Its first few instances, then, when they all fail, its whole sample.
        let mut verdict =
            trial.sample(&p, &hole_ty, Bounds::PROBE).map(|probe| (trial.fails_everywhere(&p, &probe), None));
        if let Some((Ok(true), _)) = verdict {
            verdict = trial.sample(&p, &hole_ty, Bounds::SEARCH).map(|s| (trial.fails_everywhere(&p, &s), Some(s)));
        }
        match verdict {
            Some((Ok(true), Some(sample))) => {
                // One found before that this one generalizes gives way to it.
                found.retain(|(g, _)| !p.generalizes(g));
                found.push((p, sample));
                continue;
            }
            Some((Ok(false), _)) => rejected.push(p.clone()),
            Some((Err(Stop::Timeout), _)) => break,
            // An instance that does not finish is no evidence that the pattern fails.
            _ => {}
        }
        for q in p.refinements(holes, &c.program) {
            if seen.insert(q.clone()) {
                queue.insert((q.specificity(), reached), q);
                reached += 1;
            }
        }
    }
    for (p, s) in found {
        let shown = out.describe(&p, &s, None, s.rows.len() as u64);
        out.claims.push(Claim { pattern: p, condition: None, shown });
    }
    // Side conditions are looked for on the most general patterns rejected and on the
    // immediate generalizations of the reported ones (`Div x (Add (C 0) (C 0)) when noDiv0 x`
    // beside `Div (C _) (Add (C 0) (C 0))`), most general first.
    let mut far = 0;
    let candidates: Vec<Pattern> = rejected
        .into_iter()
        .filter(|p| {
            let near = p.refinements(&mut out.holes, &c.program).iter().any(|q| out.found(q));
            far += usize::from(!near);
            near || far <= MAX_CONDITIONED
        })
        .collect();
    if let Some(claim) = out.conditional(&mut trial, &candidates, deadline, cancel) {
        out.claims.push(claim);
    }
    out.tested = tested;
    out.cases = trial.cases;
    Some(out)
}

impl Claims<'_> {
    /// Whether `p` is the pattern of an unconditional claim.
    fn found(&self, p: &Pattern) -> bool {
        self.claims.iter().any(|c| c.condition.is_none() && c.pattern == *p)
    }

    /// The first of the `candidates` patterns that fails on every instance meeting a side
    /// condition (`conditions`), with the condition that held on the most instances; not one
    /// that only restates a claim already made.
    fn conditional(
        &self,
        trial: &mut Trial,
        candidates: &[Pattern],
        deadline: Instant,
        cancel: &AtomicBool,
    ) -> Option<Claim> {
        let c = self.c;
        let parts: HashSet<FunId> = c
            .premises
            .iter()
            .chain([&c.conclusion])
            .flat_map(|p| {
                let sides = p.sides.as_ref().map(|s| [s.lhs, s.rhs]);
                [p.fun].into_iter().chain(p.binding.as_ref().map(|b| b.fun)).chain(sides.into_iter().flatten())
            })
            .collect();
        let limits = condition_limits(deadline);
        for p in candidates {
            if Instant::now() >= deadline || cancel.load(Ordering::Relaxed) {
                return None;
            }
            let Some(sample) = &trial.sample(p, &|h| self.holes.get(h).ty.clone(), Bounds::SEARCH) else { continue };
            // A condition must hold on failing instances: one whose first instances all pass
            // (a premise rarely met) is not run on the rest.
            let mut fails = trial.verdicts(p, sample, 0..CONDITION_PROBE).ok()?;
            if !fails.contains(&true) {
                continue;
            }
            fails.extend(trial.verdicts(p, sample, CONDITION_PROBE..usize::MAX).ok()?);
            if fails.iter().filter(|f| **f).count() < 2 {
                continue;
            }
            let known = |r: usize| {
                let values = Pattern { parts: instances::instance(p, sample, &sample.rows[r]) };
                self.claims.iter().any(|g| g.pattern.generalizes(&values))
            };
            let witness = |h: u32| Some(&self.holes.get(h).witness);
            if let Some((atom, met)) = conditions::choose(&c.program, sample, &fails, &witness, &known, &parts, &limits)
            {
                let shown = self.describe(p, sample, Some(&atom), met);
                return Some(Claim { pattern: p.clone(), condition: Some(atom), shown });
            }
        }
        None
    }

    /// Whether the generated variables' values `generated` (a failing case, at any instance
    /// of the same lemma) are an instance of a claim, meeting its condition.
    pub fn covers(&self, generated: &[Option<Value>]) -> bool {
        let Some(parts) = self.gens.iter().map(|v| generated.get(*v).cloned().flatten()).collect::<Option<Vec<_>>>()
        else {
            return false;
        };
        let case = Pattern { parts };
        let mut interp = Interp::new(&self.c.program);
        let limits = condition_limits(Instant::now() + Duration::from_secs(1));
        self.claims.iter().any(|claim| match (claim.pattern.bind(&case), &claim.condition) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some(bound), Some(atom)) => {
                conditions::holds(atom, &|h| bound.get(&h), &mut interp, &limits) == Some(true)
            }
        })
    }

    /// Tests claim `i` again, on the instances `bounds` asks for: the number of instances
    /// tested (those meeting its condition), and how it was tested; `Err` names an instance
    /// on which the lemma does not fail.
    pub fn recheck(&self, i: usize, bounds: Bounds, engine: Engine, deadline: Instant) -> Result<Evidence, String> {
        let claim = &self.claims[i];
        let mut trial = Trial::new(self.c, Schedule::of(self.c), engine, deadline);
        let sample =
            trial.sample(&claim.pattern, &|h| self.holes.get(h).ty.clone(), bounds).ok_or("no instance to test")?;
        let fails = trial.verdicts(&claim.pattern, &sample, 0..usize::MAX).map_err(|s| format!("{s:?}"))?;
        let mut interp = Interp::new(&self.c.program);
        let limits = condition_limits(deadline);
        let mut met = 0;
        for (row, failed) in sample.rows.iter().zip(fails) {
            let value = |h: u32| sample.holes.iter().position(|(x, _)| *x == h).map(|k| &row[k]);
            let meets = match &claim.condition {
                None => true,
                Some(atom) => conditions::holds(atom, &value, &mut interp, &limits) == Some(true),
            };
            if meets && !failed {
                let values = instances::instance(&claim.pattern, &sample, row);
                let shown: Vec<String> = values
                    .iter()
                    .zip(&self.gens)
                    .map(|(v, g)| format!("{} = {}", self.c.vars[*g].name, interp.print(v, &self.c.vars[*g].ty)))
                    .collect();
                return Err(format!("the lemma holds at {}", shown.join(", ")));
            }
            met += u64::from(meets);
        }
        Ok(sample.evidence(met))
    }

    /// A found pattern in theory syntax. A lemma variable that stays a variable keeps its name;
    /// another variable used more than once gets a fresh name by its type (`x`, `xs`), and
    /// one used once is `_`. A lemma variable whose pattern is itself, named elsewhere, is not
    /// listed.
    fn describe(&self, p: &Pattern, s: &Sample, condition: Option<&Atom>, instances: u64) -> Generalization {
        let (c, gens, holes) = (self.c, &self.gens, &self.holes);
        let mut uses: HashMap<u32, usize> = p.holes().into_iter().collect();
        // A variable of the condition is named, even if the pattern uses it once.
        for h in condition.map(|a| a.holes()).unwrap_or_default() {
            *uses.entry(h).or_default() += 1;
        }
        let own = |i: usize| match &p.parts[i] {
            Value::Hole(h) if holes.get(h.id).path == [i as u32] => Some(h.id),
            _ => None,
        };
        let mut names: HashMap<u32, String> = HashMap::new();
        for (i, v) in gens.iter().enumerate() {
            if let Some(h) = own(i) {
                names.insert(h, c.vars[*v].name.clone());
            }
        }
        let mut taken: Vec<String> = c.vars.iter().map(|v| v.name.clone()).collect();
        for (h, _) in p.holes() {
            if uses[&h] > 1 && !names.contains_key(&h) {
                let name = fresh_name(&c.program, &holes.get(h).ty, &taken);
                taken.push(name.clone());
                names.insert(h, name);
            }
        }
        let mut interp = Interp::new(&c.program);
        let mut pattern: Vec<(usize, String, String)> = Vec::new();
        for (i, part) in p.parts.iter().enumerate() {
            if own(i).is_some_and(|h| uses[&h] > 1) {
                continue;
            }
            let v = gens[i];
            let text = interp.print_named(part, &c.vars[v].ty, &|h| {
                names.get(&h.id).filter(|_| uses.get(&h.id).is_some_and(|n| *n > 1)).cloned()
            });
            pattern.push((v, c.vars[v].name.clone(), text));
        }
        pattern.sort_by_key(|(v, _, _)| *v);
        Generalization {
            pattern: pattern.into_iter().map(|(_, n, t)| (n, t)).collect(),
            condition: condition
                .map(|a| a.words(&c.program, &|h| names.get(&h).cloned().unwrap_or_else(|| "_".into()))),
            evidence: s.evidence(instances),
        }
    }
}

/// Limits for evaluating a side condition on one instance.
fn condition_limits(deadline: Instant) -> Limits {
    Limits { fuel: 1_000_000, max_depth: 10_000, deadline: Some(deadline) }
}

/// A name for a variable of type `ty` that is not in `taken`: `xs`, `ys`, ... for lists,
/// `x`, `y`, ... otherwise.
fn fresh_name(prog: &Program, ty: &Ty, taken: &[String]) -> String {
    let list = conditions::list_elem(prog, ty).is_some();
    let base: &[&str] = if list { &["xs", "ys", "zs", "ws", "vs"] } else { &["x", "y", "z", "w", "v", "u"] };
    let free = |n: &String| !taken.contains(n);
    base.iter().map(|b| b.to_string()).chain((1..).map(|k| format!("{}{k}", base[0]))).find(free).unwrap_or_default()
}
