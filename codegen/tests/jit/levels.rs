//! `Jit::run_rows`: one level of a search run in a loop, in Rust over compiled entries or,
//! for a function compiled with a level loop (`Jit::with_levels`), entirely in compiled
//! code. Both must say the same, and `Jit::run` the same about each case they stop at.

use codegen::{Jit, JitOutcome, LevelCounts, LevelEnd, Word, DEFAULT_ARENA_WORDS};
use lang::core::ir::{FunId, Program};
use lang::interp::Limits;

const THEORY: &str = r#"theory L imports Main begin
definition prem :: "nat ⇒ nat ⇒ bool" where "prem x y = (x ≤ y)"
definition concl :: "nat ⇒ nat ⇒ bool" where "concl x y = (x + y ≠ 7)"
definition undef_at :: "nat ⇒ nat ⇒ bool" where "undef_at x y = (if y = x + 1 then hd [] else True)"
definition big_at :: "nat ⇒ nat ⇒ bool" where "big_at x y = (if y = x then 2 ^ (64 + x) > y else True)"
definition near :: "nat ⇒ nat ⇒ bool" where "near x y = (y < x + 100)"
definition longer :: "nat ⇒ nat ⇒ bool" where "longer x y = (length (replicate y x) ≠ 6 ∧ sorted [x..<y])"
value "prem 0 0 ∧ concl 0 0 ∧ undef_at 0 0 ∧ big_at 0 0 ∧ near 0 0 ∧ longer 0 0"
end"#;

/// The same program twice: without level loops, and with one for every function named.
struct Jits {
    plain: Jit,
    looped: Jit,
    prog: Program,
}

fn setup() -> Jits {
    let mut th = lang::check_theory(THEORY);
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    let idx = th.value_indices();
    let (p, _, _) = th.lower_value(idx[0]);
    let prog: Program = p.clone();
    let all: Vec<FunId> = (0..prog.funs.len() as u32).map(FunId).collect();
    let plain = Jit::compile(&prog).unwrap();
    let looped = Jit::with_levels(&prog, DEFAULT_ARENA_WORDS, &all).unwrap();
    for name in ["prem", "concl", "undef_at", "big_at", "near", "longer"] {
        let f = FunId(prog.funs.iter().position(|f| f.name == name).unwrap() as u32);
        assert!(looped.has_level(f) && !plain.has_level(f), "{name} has a level loop in `looped` only");
    }
    Jits { plain, looped, prog }
}

impl Jits {
    fn f(&self, name: &str) -> FunId {
        let i = self.prog.funs.iter().position(|f| f.name == name);
        FunId(i.unwrap_or_else(|| panic!("no function {name}")) as u32)
    }

    /// `run_rows` with `x = 2` and `y` in `0..10`, on both JITs.
    fn level(&mut self, checks: &[FunId], descend: bool) -> (LevelEnd, LevelCounts) {
        let rows: Vec<Word> = (0..10).flat_map(|y| [2, y]).collect();
        let mut results = Vec::new();
        for jit in [&mut self.plain, &mut self.looped] {
            let m = jit.mark();
            let r = jit.run_rows(checks, descend, &rows, 2, &Limits::default());
            // The arena is back where it was.
            assert_eq!(format!("{:?}", jit.mark()), format!("{m:?}"));
            results.push(r);
        }
        assert_eq!(results[0], results[1], "the Rust loop and the compiled loop disagree");
        results[0]
    }
}

#[test]
fn a_premise_rejects_and_the_conclusion_stops_at_a_candidate() {
    let mut j = setup();
    let (prem, concl) = (j.f("prem"), j.f("concl"));
    // y = 0, 1 fail the premise; 2, 3, 4 pass both; 2 + 5 = 7.
    let r = j.level(&[prem, concl], false);
    assert_eq!(r, (LevelEnd::Failed(5), LevelCounts { rejected: 2, passed: 3 }));
    assert_eq!(j.plain.run(concl, &[2, 5], &Limits::default()), Ok(0));
    // The conclusion alone.
    assert_eq!(j.level(&[concl], false), (LevelEnd::Failed(5), LevelCounts { rejected: 0, passed: 5 }));
    // As premises, both reject (y = 0, 1 and 5); the last check holds everywhere: every case
    // runs.
    let r = j.level(&[concl, prem, j.f("near")], false);
    assert_eq!(r, (LevelEnd::Done, LevelCounts { rejected: 3, passed: 7 }));
    assert_eq!(j.level(&[j.f("near")], false), (LevelEnd::Done, LevelCounts { rejected: 0, passed: 10 }));
}

#[test]
fn a_level_that_descends_stops_at_each_case_passing_its_checks() {
    let mut j = setup();
    let r = j.level(&[j.f("prem")], true);
    assert_eq!(r, (LevelEnd::Descend(2), LevelCounts { rejected: 2, passed: 0 }));
    // Its last check is a premise: False rejects.
    let r = j.level(&[j.f("concl"), j.f("prem")], true);
    assert_eq!(r, (LevelEnd::Descend(2), LevelCounts { rejected: 2, passed: 0 }));
    // No checks: the first case.
    assert_eq!(j.level(&[], true), (LevelEnd::Descend(0), LevelCounts::default()));
    assert_eq!(j.level(&[], false), (LevelEnd::Done, LevelCounts { rejected: 0, passed: 10 }));
}

#[test]
fn a_case_without_a_truth_value_is_handed_back_and_the_jit_runs_on() {
    let mut j = setup();
    let l = Limits::default();
    let (undef, big) = (j.f("undef_at"), j.f("big_at"));
    assert_eq!(j.level(&[undef], false), (LevelEnd::Handover(3), LevelCounts { rejected: 0, passed: 3 }));
    assert!(matches!(j.plain.run(undef, &[2, 3], &l), Err(JitOutcome::Undefined(_))));
    assert_eq!(j.level(&[big], false), (LevelEnd::Handover(2), LevelCounts { rejected: 0, passed: 2 }));
    assert_eq!(j.plain.run(big, &[2, 2], &l), Err(JitOutcome::Overflow));
    // The status was cleared: the next runs are plain.
    assert_eq!(j.plain.run(big, &[2, 3], &l), Ok(1));
    let plain = j.level(&[j.f("concl"), j.f("prem"), j.f("near")], false);
    assert_eq!(plain, (LevelEnd::Done, LevelCounts { rejected: 3, passed: 7 }));
}

/// Cases that allocate and loop start afresh: the arena fill level and the fuel each case
/// starts from are the loop's.
#[test]
fn cases_that_allocate_and_loop_start_from_the_same_state() {
    let mut j = setup();
    // `replicate y 2` has 6 elements at y = 6.
    let longer = j.f("longer");
    assert_eq!(j.level(&[longer], false), (LevelEnd::Failed(6), LevelCounts { rejected: 0, passed: 6 }));
    // Fuel per case: a limit that each case fits in, but not all ten together.
    let rows: Vec<Word> = (7..1000).flat_map(|y| [2, y]).collect();
    let limits = Limits { fuel: 10_000, ..Limits::default() };
    for jit in [&mut j.plain, &mut j.looped] {
        let (end, counts) = jit.run_rows(&[longer], false, &rows, 2, &limits);
        assert_eq!((end, counts), (LevelEnd::Done, LevelCounts { rejected: 0, passed: 993 }));
    }
}
