//! Testing a generalization: its instances (values for its holes: every one up to a size,
//! then random ones at larger sizes, as Extrapolate tests 500), and the lemma run on each
//! with the run's engine (compiled code where it pays), through the same steps as every
//! tester (`program::Schedule`, `case::run_step`).

use super::pattern::Pattern;
use crate::case::{run_step, Flow};
use crate::outcome::Evidence;
use crate::program::{Schedule, Step};
use crate::runner::{Engine, Runner, Stop};
use crate::space::Spaces;
use crate::types::words_ok;
use lang::core::conjecture::Conjecture;
use lang::core::ir::Ty;
use lang::interp::Value;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::BTreeSet;
use std::time::Instant;

/// How many instances of a pattern are tested.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Instances enumerated exhaustively at most: the largest size whose every instance fits.
    pub exhaustive: u64,
    /// Instances tested in all.
    pub total: u64,
    /// The largest size enumerated exhaustively.
    pub max_size: u64,
    /// Random instances are drawn up to this many sizes beyond the exhaustive one.
    pub random_sizes: u64,
}

impl Bounds {
    /// The search's: Extrapolate's 500 tests.
    pub const SEARCH: Bounds = Bounds { exhaustive: 200, total: 500, max_size: 8, random_sizes: 4 };
    /// A pattern's first few instances, tried before its sample is built: most patterns
    /// are rejected by one of them (a premise false there, a conclusion true), and building
    /// 500 instances to run one was most of the time of generalizing.
    pub const PROBE: Bounds = Bounds { exhaustive: 4, total: 8, max_size: 8, random_sizes: 4 };
}
/// The largest size of a set or function: their spaces are built as tables, whose size
/// grows as a power of the size (a function `nat ⇒ nat ⇒ nat` at size 8 is past a million).
const MAX_TABLE_SIZE: u64 = 3;

/// The instances of a pattern to test, and how they were chosen.
pub struct Sample {
    /// Per instance, a value per hole (in `holes` order).
    pub rows: Vec<Vec<Value>>,
    /// The holes the rows assign, with their types.
    pub holes: Vec<(u32, Ty)>,
    /// Every instance up to this size is among the rows (0: none was enumerated).
    pub size: u64,
    /// Rows drawn at random beyond `size`, up to `random_size`.
    pub random: u64,
    pub random_size: u64,
    /// The rows are every instance there is (the holes range over finite types).
    pub every: bool,
}

/// The lemma on instances of generalizations, for one counterexample.
pub struct Trial<'c> {
    c: &'c Conjecture,
    sched: Schedule,
    /// The conjecture variable of each pattern part.
    gens: Vec<usize>,
    runner: Runner<'c>,
    spaces: Spaces<'c>,
    rng: Xoshiro256PlusPlus,
    deadline: Instant,
    /// Cases run.
    pub cases: u64,
}

impl<'c> Trial<'c> {
    pub fn new(c: &'c Conjecture, sched: Schedule, engine: Engine, deadline: Instant) -> Trial<'c> {
        let gens = sched.generated().collect();
        Trial {
            c,
            sched,
            gens,
            runner: Runner::one_at_a_time(c, engine, deadline),
            spaces: Spaces::new(&c.program),
            // A fixed seed: the same counterexample generalizes the same way on every run.
            rng: Xoshiro256PlusPlus::seed_from_u64(0x9e37_79b9_7f4a_7c15),
            deadline,
            cases: 0,
        }
    }

    /// The conjecture variable of each pattern part.
    pub fn gens(&self) -> &[usize] {
        &self.gens
    }

    /// Whether the lemma is false (genuinely: no underspecified function reached) at the
    /// generated variables' values `values` (one per pattern part).
    pub fn fails(&mut self, values: &[Value]) -> Result<bool, Stop> {
        self.cases += 1;
        self.runner.clear();
        let mut taint = None;
        for step in &self.sched.steps {
            if let Step::Gen(v) = step {
                let k = self.gens.iter().position(|g| g == v).expect("a generated variable");
                self.runner.set(*v, values[k].clone(), None);
                continue;
            }
            match run_step(&mut self.runner, *step, &mut taint)? {
                Flow::Next => {}
                Flow::Failed(None) => return Ok(true),
                Flow::Passed | Flow::Rejected | Flow::Failed(Some(_)) => return Ok(false),
            }
        }
        Ok(false)
    }

    /// Whether the lemma is false at every row of `sample` (`Ok(false)` at the first row
    /// where it is not).
    pub fn fails_everywhere(&mut self, p: &Pattern, sample: &Sample) -> Result<bool, Stop> {
        self.runner.tier_up(sample.rows.len() as u64);
        for row in &sample.rows {
            if !self.fails(&instance(p, sample, row))? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Per row of `sample` from `from` on, whether the lemma failed there (a row that did not
    /// finish did not fail); `Err` only at the deadline.
    pub fn verdicts(&mut self, p: &Pattern, sample: &Sample, rows: std::ops::Range<usize>) -> Result<Vec<bool>, Stop> {
        let rows = &sample.rows[rows.start.min(sample.rows.len())..rows.end.min(sample.rows.len())];
        self.runner.tier_up(rows.len() as u64);
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            out.push(match self.fails(&instance(p, sample, row)) {
                Ok(f) => f,
                Err(Stop::Timeout) => return Err(Stop::Timeout),
                Err(_) => false,
            });
        }
        Ok(out)
    }

    /// The instances of `p` to test: every one up to the largest size with at most
    /// `bounds.exhaustive` of them, then random ones at larger sizes up to `bounds.total`. `None` when a
    /// hole's type has no values to enumerate at any size tried.
    pub fn sample(&mut self, p: &Pattern, hole_ty: &dyn Fn(u32) -> Ty, bounds: Bounds) -> Option<Sample> {
        let holes: Vec<(u32, Ty)> = p.holes().into_iter().map(|(h, _)| (h, hole_ty(h))).collect();
        if holes.is_empty() {
            return Some(Sample { rows: vec![Vec::new()], holes, size: 0, random: 0, random_size: 0, every: true });
        }
        let prog = &self.c.program;
        // The size each hole's values are drawn at when the sample's size is `s`.
        let caps: Vec<u64> =
            holes.iter().map(|(_, ty)| if words_ok(prog, ty) { u64::MAX } else { MAX_TABLE_SIZE }).collect();
        let count = |spaces: &mut Spaces, s: u64| -> Option<u64> {
            holes
                .iter()
                .zip(&caps)
                .try_fold(1u64, |n, ((_, ty), cap)| Some(n.saturating_mul(spaces.space(ty, s.min(*cap)).ok()?.count())))
        };
        let mut size = 0;
        // Not beyond a set's or function's cap: "every one up to size k" holds for every hole.
        let most = caps.iter().copied().min().unwrap_or(u64::MAX).min(bounds.max_size);
        for s in 1..=most {
            match count(&mut self.spaces, s) {
                Some(n) if n <= bounds.exhaustive => size = s,
                _ => break,
            }
        }
        let mut rows = Vec::new();
        if size > 0 {
            let spaces: Vec<_> = holes
                .iter()
                .zip(&caps)
                .map(|((_, ty), cap)| self.spaces.space(ty, size.min(*cap)).ok())
                .collect::<Option<_>>()?;
            let n = spaces.iter().map(|s| s.count()).product::<u64>();
            for mut i in 0..n {
                let mut row = Vec::with_capacity(spaces.len());
                for s in spaces.iter().rev() {
                    row.push(s.value(i % s.count()));
                    i /= s.count();
                }
                row.reverse();
                rows.push(row);
            }
        }
        let finite =
            holes.iter().try_fold(1u128, |n, (_, ty)| n.checked_mul(lang::interp::cardinality(&self.c.program, ty)?));
        let every = finite.is_some_and(|n| n == rows.len() as u128);
        let (mut random, mut random_size) = (0, 0);
        if !every {
            let top = size + bounds.random_sizes.max(1);
            // Rows already there are not counted twice: random draws of small spaces repeat.
            #[allow(clippy::mutable_key_type)] // values order structurally
            let mut distinct: BTreeSet<Vec<Value>> = rows.iter().cloned().collect();
            'rows: for _ in 0..bounds.total.saturating_sub(rows.len() as u64) {
                if Instant::now() >= self.deadline {
                    break;
                }
                let mut row = Vec::with_capacity(holes.len());
                for ((_, ty), cap) in holes.iter().zip(&caps) {
                    // Each hole at a size of its own, small ones as likely as large ones:
                    // a large list beside a small number, equal small values by chance.
                    let s = self.rng.random_range(1..=top).min(*cap);
                    // A type too big to enumerate at `s` is drawn smaller; one without
                    // values there (`datatype t = T "nat list"` at size 1), larger.
                    let sizes = (1..=s).rev().chain(s + 1..=top.min(*cap));
                    let Some(space) =
                        sizes.map(|s| self.spaces.space(ty, s)).find_map(|sp| sp.ok().filter(|x| x.count() > 0))
                    else {
                        continue 'rows;
                    };
                    row.push(space.value(self.rng.random_range(0..space.count())));
                }
                if distinct.insert(row.clone()) {
                    rows.push(row);
                    random += 1;
                    random_size = top;
                }
            }
        }
        if rows.is_empty() {
            return None;
        }
        Some(Sample { rows, holes, size, random, random_size, every })
    }
}

impl Sample {
    /// How `instances` of its rows were tested, in Isabelle's sizes (generator size `k` is
    /// Isabelle's `k + 1`), as the run's report counts them.
    pub fn evidence(&self, instances: u64) -> Evidence {
        let isabelle = |k: u64| if k == 0 { 0 } else { k + 1 };
        Evidence::Tested {
            instances,
            size: isabelle(self.size),
            random: self.random,
            random_size: isabelle(self.random_size),
            every: self.every,
        }
    }
}

/// The generated variables' values at one row of a sample.
pub fn instance(p: &Pattern, sample: &Sample, row: &[Value]) -> Vec<Value> {
    p.instance(&|h| sample.holes.iter().position(|(x, _)| *x == h).map(|i| row[i].clone()))
}
