//! The `smart_exhaustive` tester: the premises generate the assignments instead of
//! filtering them (`smart::premises`: each premise a relation query, run backwards by
//! `smart::enumerate` up to a derivation depth, in an order chosen by probing; the
//! variables no premise produces from the exhaustive space); the conclusion is checked on
//! each assignment, and a failing one goes to the judge (the interpreter's re-check) as for
//! every tester, so a produced assignment that did not satisfy the premises could never be
//! reported.
//!
//! With `verbose`, the data flow is said once: which premise produces which variables (in
//! the order they run), the plans, and what the exhaustive space gives.
//!
//! Depth and size: at the driver's size `k` of `size` the derivation depth is
//! `⌈k · depth / size⌉`, so the last size reaches the `depth` option; where it is not given,
//! the larger of 5 and `size` (so `size = 8` searches deeper than the default, as a user
//! raising the size expects, and `size = 3` keeps small values without shallow
//! derivations). Variables no premise produces, and those a relation's plan generates,
//! take the exhaustive space at size `k`. "No counterexample" says both bounds and whether every premise-satisfying
//! assignment within them was tested: a goal left undecided (a check cut by the depth
//! bound, an undefined value, a limit) produces nothing and is counted instead.
//!
//! Cancellation (another tester of the portfolio answered, or the user) and the deadline
//! are looked at every 1,024 enumeration steps and every 256 assignments.
//!
//! The conclusion runs on the engine of the run (`runner::Runner`: compiled once enough
//! cases ran); the premises' enumerators run on the reference interpreter.

use crate::driver::Turn;
use crate::runner::{Runner, Verdict};
use crate::smart::enumerate::Flow;
use crate::smart::premises::PremiseSearch;
use crate::testers::{Coverage, End, Search, Setup, SizeResult, Tester};
use lang::core::conjecture::Conjecture;
use lang::interp::Value;

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

    /// In the default portfolio, for lemmas with premises: the premises are what it
    /// generates from.
    fn in_portfolio(&self) -> bool {
        true
    }

    fn suits(&self, conjecture: &Conjecture) -> bool {
        !conjecture.premises.is_empty()
    }

    fn coverage(&self) -> Coverage {
        Coverage::Complete
    }

    fn search<'c>(&self, conjecture: &'c Conjecture, setup: &Setup) -> Box<dyn Search + 'c> {
        Box::new(Smart::new(conjecture, setup))
    }
}

struct Smart<'c> {
    premises: PremiseSearch<'c>,
    conclusion: Conclusion<'c>,
    /// The `depth` option, if given.
    depth: Option<u64>,
    size: u64,
    /// The data flow, said once in `verbose` output.
    told: bool,
}

/// The conclusion, checked on each assignment the premises produce.
struct Conclusion<'c> {
    c: &'c Conjecture,
    sched: crate::program::Schedule,
    r: Runner<'c>,
}

impl<'c> Smart<'c> {
    fn new(c: &'c Conjecture, setup: &Setup) -> Smart<'c> {
        Smart {
            premises: PremiseSearch::new(c, setup.engine, Some(setup.deadline)),
            conclusion: Conclusion {
                c,
                sched: crate::program::Schedule::of(c),
                r: Runner::one_at_a_time(c, setup.engine, setup.deadline),
            },
            depth: setup.options.depth,
            size: setup.options.size.max(1),
            told: false,
        }
    }
}

impl Conclusion<'_> {
    /// The conclusion on a whole assignment (`holds`: whether the premises not run as
    /// queries hold too); the end of the search, if it ends here.
    fn check(
        &mut self,
        premises: &PremiseSearch,
        vals: &[Option<Value>],
        holds: bool,
        turn: &mut Turn,
        res: &mut SizeResult,
    ) -> Option<End> {
        res.tests += 1;
        if res.tests.is_multiple_of(256) {
            if let Some(e) = turn.budget.over_at(res.passed) {
                return Some(e);
            }
        }
        if !holds {
            return None;
        }
        res.passed += 1;
        // The conclusion runs where the engine says (compiled once enough cases ran): its
        // variables become words in the arena, kept for the next cases (the premises
        // produce the same values again with other values of the rest), and what the check
        // builds is freed when the next case starts.
        let r = &mut self.r;
        r.tier_up(0);
        r.start_kept_case();
        for &v in &self.c.conclusion.uses {
            r.set_kept(v, vals[v].clone().unwrap_or(Value::Bool(false)));
        }
        let verdict = r.check(self.c.conclusion.fun);
        if verdict == Ok(Verdict::Holds) {
            return None;
        }
        // False, undefined, or a limit: the judge re-checks the whole case.
        let generated: Vec<Option<Value>> = vals
            .iter()
            .enumerate()
            .map(|(v, x)| x.clone().or_else(|| premises.needed(v).then_some(Value::Bool(false))))
            .collect();
        turn.judge.verdict(self.c, &self.sched, &generated)
    }
}

/// The derivation depth the last size reaches when the `depth` option is not given, unless
/// the size is larger.
const DEFAULT_DEPTH: u64 = 5;

/// The derivation depth at the driver's size `k` of `size`: the share `⌈k · depth / size⌉`
/// of the `depth` option, or, without one, of the larger of `DEFAULT_DEPTH` and `size`.
fn derivation_depth(k: u64, depth: Option<u64>, size: u64) -> u32 {
    let depth = depth.unwrap_or(DEFAULT_DEPTH.max(size));
    k.saturating_mul(depth).div_ceil(size.max(1)).min(u64::from(u32::MAX)) as u32
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

impl Search for Smart<'_> {
    fn run_size(&mut self, turn: &mut Turn) -> SizeResult {
        let k = turn.size + 1;
        let depth = derivation_depth(k, self.depth, self.size);
        let mut res = SizeResult::default();
        let mut end = None;
        let budget = turn.budget;
        // The turn's deadline as well as the search's: a size may be given less time than
        // the whole run (the benches' per-size limit).
        let stop = move || budget.exceeded();
        let (premises, conclusion) = (&self.premises, &mut self.conclusion);
        let stats = premises.run(depth, k, &stop, &mut |vals, holds| match conclusion
            .check(premises, vals, holds, turn, &mut res)
        {
            None => Flow::Continue,
            Some(e) => {
                end = Some(e);
                Flow::Stop
            }
        });
        res.end = end;
        res.note = Some(coverage_note(depth, k, stats.undecided));
        if !self.told {
            self.told = true;
            res.log = self.premises.data_flow();
        }
        // A premise that is not executable leaves out assignments no bound would bring in:
        // the lemma is not executable for this tester, as for the exhaustive one.
        if let (None, Some(why)) = (&res.end, stats.not_executable) {
            res.end = Some(End::Stopped(crate::runner::Stop::NotExecutable(why)));
        }
        if res.end.is_none() && stats.too_big {
            res.end = Some(End::TooBig);
        }
        if res.end.is_none() && stats.expired {
            res.end = turn.budget.over().or(Some(End::Stopped(crate::runner::Stop::Timeout)));
        }
        res
    }
}

#[cfg(test)]
mod tests {
    use super::derivation_depth;

    /// Without a `depth` option the last size reaches the larger of 5 and the size; with
    /// one, that depth.
    #[test]
    fn depth_follows_the_size_unless_given() {
        assert_eq!((1..=8).map(|k| derivation_depth(k, None, 8)).collect::<Vec<_>>(), [1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!((1..=5).map(|k| derivation_depth(k, None, 5)).collect::<Vec<_>>(), [1, 2, 3, 4, 5]);
        assert_eq!((1..=3).map(|k| derivation_depth(k, None, 3)).collect::<Vec<_>>(), [2, 4, 5]);
        assert_eq!((1..=5).map(|k| derivation_depth(k, Some(10), 5)).collect::<Vec<_>>(), [2, 4, 6, 8, 10]);
        assert_eq!((1..=8).map(|k| derivation_depth(k, Some(5), 8)).collect::<Vec<_>>(), [1, 2, 2, 3, 4, 4, 5, 5]);
        assert_eq!(derivation_depth(u64::MAX, Some(u64::MAX), 1), u32::MAX);
    }
}
