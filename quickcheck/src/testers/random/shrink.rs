//! Shrinking a random counterexample (integrated shrinking): the failing case's recorded
//! choice sequence is made smaller, and every candidate is replayed through the generators
//! themselves, so it respects whatever they guarantee. Deleting choices drops list elements
//! and subtrees; lowering a choice lowers a number or picks an earlier, non-recursive
//! constructor. The outer arguments' choices come first, so they are shrunk first.

use super::generators::{Choices, Generators};
use super::{run_case, Case};
use crate::budget::Budget;
use crate::case::Flow;
use crate::driver::PassOver;
use crate::program::Schedule;
use crate::runner::Runner;
use codegen::Word;

/// The most candidates shrinking tries for one counterexample.
const SHRINK_ATTEMPTS: u64 = 20_000;

/// Shrinks a failing choice sequence: repeatedly deletes blocks of choices and lowers single
/// choices, keeping a candidate when it still fails (genuinely, if `genuine` is set; not as
/// an instance of a counterexample reported before, `known`) and is smaller in shortlex
/// order. Returns the smallest sequence and the candidates tried.
#[allow(clippy::too_many_arguments)]
pub(super) fn shrink(
    r: &mut Runner,
    sched: &Schedule,
    gens: &mut Generators,
    scratch: &mut Vec<Word>,
    size: u64,
    start: Vec<u64>,
    genuine: bool,
    known: Option<PassOver>,
    budget: &Budget,
) -> (Vec<u64>, u64) {
    let mut best = start;
    let mut attempts = 0u64;
    let mut fails = |cand: &[u64], attempts: &mut u64| -> Option<Vec<u64>> {
        *attempts += 1;
        let mut ch = Choices::replay(cand);
        match run_case(r, sched, gens, size, &mut ch, scratch) {
            Ok(Some(Case { flow: Flow::Failed(t), generated }))
                if (!genuine || t.is_none()) && !known.is_some_and(|k| k(&generated)) =>
            {
                Some(ch.record)
            }
            _ => None,
        }
    };
    let smaller = |a: &[u64], b: &[u64]| a.len() < b.len() || (a.len() == b.len() && a < b);
    loop {
        let mut improved = false;
        for block in [8usize, 4, 2, 1] {
            let mut i = 0;
            while i + block <= best.len() {
                if attempts >= SHRINK_ATTEMPTS || budget.exceeded() {
                    return (best, attempts);
                }
                let mut cand = best.clone();
                cand.drain(i..i + block);
                match fails(&cand, &mut attempts) {
                    Some(rec) if smaller(&rec, &best) => {
                        best = rec;
                        improved = true;
                    }
                    _ => i += 1,
                }
            }
        }
        let mut i = 0;
        while i < best.len() {
            i += 1;
            let i = i - 1;
            if best[i] == 0 {
                continue;
            }
            if attempts >= SHRINK_ATTEMPTS || budget.exceeded() {
                return (best, attempts);
            }
            // Binary search for the smallest value of this choice that still fails.
            let (mut lo, mut hi) = (0u64, best[i]);
            let mut found: Option<Vec<u64>> = None;
            let mut cand = best.clone();
            cand[i] = 0;
            if let Some(rec) = fails(&cand, &mut attempts) {
                found = Some(rec);
                hi = 0;
            }
            while lo + 1 < hi {
                let mid = lo + (hi - lo) / 2;
                let mut cand = best.clone();
                cand[i] = mid;
                match fails(&cand, &mut attempts) {
                    Some(rec) => {
                        hi = mid;
                        found = Some(rec);
                    }
                    None => lo = mid,
                }
            }
            if let Some(rec) = found {
                if smaller(&rec, &best) {
                    best = rec;
                    improved = true;
                }
            }
        }
        if !improved {
            return (best, attempts);
        }
    }
}
