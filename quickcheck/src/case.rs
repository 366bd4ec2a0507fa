//! One test case: the steps of the schedule that do not generate (computing a bound
//! variable, checking a premise or the conclusion), and the reference interpreter's re-check
//! of a counterexample before anyone sees it. A counterexample the interpreter does not
//! confirm is never shown: it becomes an error naming the disagreement.

use crate::outcome::{Counterexample, Evaluated};
use crate::program::{PartRef, Schedule, Step};
use crate::runner::{Engine, Runner, Stop, Verdict};
use lang::core::conjecture::{Conjecture, Part};
use lang::core::ir::Undef;
use lang::interp::Value;
use std::time::Instant;

/// What a non-generating step says about the current assignment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Go on to the next step.
    Next,
    /// A premise is false (or a binding undefined): not a test of the conclusion.
    Rejected,
    /// The conclusion holds.
    Passed,
    /// Every premise held (or was undefined) and the conclusion did not: a candidate,
    /// spurious when an underspecified function was reached (`taint`).
    Failed(Option<Undef>),
}

pub fn part(c: &Conjecture, p: PartRef) -> &Part {
    match p {
        PartRef::Premise(i) => &c.premises[i],
        PartRef::Conclusion => &c.conclusion,
    }
}

/// Runs a step other than `Gen`. `taint` collects the first underspecified function met by
/// a premise of this assignment.
pub fn run_step(r: &mut Runner, step: Step, taint: &mut Option<Undef>) -> Result<Flow, Stop> {
    match step {
        Step::Gen(_) => Ok(Flow::Next),
        Step::Bind { var, premise } => {
            let f = r.conj.premises[premise].binding.as_ref().map(|b| b.fun).expect("a binding premise");
            Ok(match r.bind(var, f)? {
                Ok(()) => Flow::Next,
                Err(_) => Flow::Rejected,
            })
        }
        Step::Check(p) => {
            let f = part(r.conj, p).fun;
            let v = r.check(f)?;
            Ok(match (p, v) {
                (PartRef::Premise(_), Verdict::Holds) => Flow::Next,
                (PartRef::Premise(_), Verdict::Fails) => Flow::Rejected,
                (PartRef::Premise(_), Verdict::Undefined(u)) => {
                    taint.get_or_insert(u);
                    Flow::Next
                }
                (PartRef::Conclusion, Verdict::Holds) => Flow::Passed,
                (PartRef::Conclusion, Verdict::Fails) => Flow::Failed(taint.clone()),
                (PartRef::Conclusion, Verdict::Undefined(u)) => Flow::Failed(Some(taint.clone().unwrap_or(u))),
            })
        }
    }
}

/// The interpreter's verdict on a candidate.
#[derive(Clone, Debug, PartialEq)]
pub enum Recheck {
    Genuine(Counterexample),
    Spurious(Counterexample),
    /// The interpreter does not find the conjecture false here: the fast path was wrong.
    Disagrees(String),
    Stopped(Stop),
}

/// Re-evaluates the conjecture in the reference interpreter on the generated variables'
/// values (`generated[v]` for each `Gen` step's variable) and builds the report: the same
/// steps a tester runs, on a runner whose engine never compiles.
pub fn recheck(c: &Conjecture, sched: &Schedule, generated: &[Option<Value>], deadline: Instant) -> Recheck {
    let mut r = Runner::one_at_a_time(c, Engine::Interpreter, deadline);
    let mut taint = None;
    let mut flow = Flow::Next;
    for step in &sched.steps {
        if let Step::Gen(v) = step {
            match &generated[*v] {
                // A value from outside the interpreter (an SMT model) that is not of its
                // variable's type (a negative `nat`) would make a true lemma look false.
                Some(val) if !val.conforms(&c.program, &c.vars[*v].ty) => {
                    let shown = lang::interp::print_value(&c.program, val, &c.vars[*v].ty);
                    return Recheck::Disagrees(format!(
                        "internal error: `{}` = {shown} is not a value of its type",
                        c.vars[*v].name
                    ));
                }
                Some(val) => r.set(*v, val.clone(), None),
                None => return Recheck::Disagrees(format!("no value for `{}`", c.vars[*v].name)),
            }
            continue;
        }
        flow = match run_step(&mut r, *step, &mut taint) {
            Ok(f) => f,
            Err(s) => return Recheck::Stopped(s),
        };
        if flow != Flow::Next {
            break;
        }
    }
    let spurious = match flow {
        Flow::Failed(t) => t,
        other => {
            let assignment = assignment(&mut r, sched);
            let shown: Vec<String> = assignment.iter().map(|(n, v)| format!("{n} = {v}")).collect();
            let mut code: Vec<&str> =
                c.program.code.iter().map(|(f, _)| c.program.fun(*f).name.split('[').next().unwrap_or("")).collect();
            code.sort_unstable();
            code.dedup();
            let blame = if code.is_empty() {
                "internal error".to_string()
            } else {
                // A `[code]` lemma is only tested, not proved: a false one makes compiled code
                // compute something else than the definitions.
                let names: Vec<String> = code.iter().map(|n| format!("`{n}`")).collect();
                format!("a `[code]` equation of {} does not hold, or an internal error", names.join(", "))
            };
            return Recheck::Disagrees(format!(
                "compiled code and interpreter disagree ({blame}): the interpreter finds no counterexample at {} ({other:?})",
                shown.join(", ")
            ));
        }
    };
    let mut evaluated = Vec::new();
    for p in &c.premises {
        // A source premise unfolded into several (`feels_safe s r`, whose definition is an
        // existential with a conjunction inside) is shown once.
        let e = Evaluated { span: p.span, value: r.show(p.fun) };
        if !evaluated.contains(&e) {
            evaluated.push(e);
        }
    }
    match &c.conclusion.sides {
        Some(s) => {
            evaluated.push(Evaluated { span: s.lhs_span, value: r.show(s.lhs) });
            evaluated.push(Evaluated { span: s.rhs_span, value: r.show(s.rhs) });
        }
        None => evaluated.push(Evaluated { span: c.conclusion.span, value: r.show(c.conclusion.fun) }),
    }
    let cx = Counterexample {
        assignment: assignment(&mut r, sched),
        evaluated,
        instance: c.instance.clone(),
        spurious_because: spurious.as_ref().map(describe_undef),
        partial: Vec::new(),
        refutation: Vec::new(),
        generalizations: Vec::new(),
    };
    match spurious {
        None => Recheck::Genuine(cx),
        Some(_) => Recheck::Spurious(cx),
    }
}

/// The assigned variables in the lemma's order, printed.
fn assignment(r: &mut Runner, sched: &Schedule) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for v in 0..r.conj.vars.len() {
        if sched.assigns(v) {
            if let Some(s) = r.show_var(v) {
                out.push((r.conj.vars[v].name.clone(), s));
            }
        }
    }
    out
}

pub fn describe_undef(u: &Undef) -> String {
    match u {
        Undef::Match(f) => format!("`{}` is applied outside its equations", base_name(f)),
        Undef::Undefined => "`undefined` is evaluated".into(),
        Undef::Case(f) => format!("no arm of a `case` in `{}` matches", base_name(f)),
    }
}

/// `hd[nat]` → `hd`.
fn base_name(f: &str) -> &str {
    f.split('[').next().unwrap_or(f)
}
