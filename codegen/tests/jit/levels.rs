//! `Jit::run_level`: one level of a search run in a loop in compiled code. Each case is
//! also run with `Jit::run`, which must say the same about it.

use codegen::{Jit, JitOutcome, LevelCounts, LevelEnd, Word};
use lang::core::ir::{FunId, Program};
use lang::interp::Limits;

const THEORY: &str = r#"theory L imports Main begin
definition prem :: "nat ⇒ nat ⇒ bool" where "prem x y = (x ≤ y)"
definition concl :: "nat ⇒ nat ⇒ bool" where "concl x y = (x + y ≠ 7)"
definition undef_at :: "nat ⇒ nat ⇒ bool" where "undef_at x y = (if y = x + 1 then hd [] else True)"
definition big_at :: "nat ⇒ nat ⇒ bool" where "big_at x y = (if y = x then 2 ^ (64 + x) > y else True)"
definition near :: "nat ⇒ nat ⇒ bool" where "near x y = (y < x + 100)"
value "prem 0 0 ∧ concl 0 0 ∧ undef_at 0 0 ∧ big_at 0 0 ∧ near 0 0"
end"#;

fn setup() -> (Jit, impl Fn(&str) -> FunId) {
    let mut th = lang::check_theory(THEORY);
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    let idx = th.value_indices();
    let (p, _, _) = th.lower_value(idx[0]);
    let p: Program = p.clone();
    let jit = Jit::compile(&p).unwrap();
    let find = move |name: &str| {
        FunId(p.funs.iter().position(|f| f.name == name).unwrap_or_else(|| panic!("no function {name}")) as u32)
    };
    (jit, find)
}

/// `run_level` with `x = 2` over `y` in `0..10`.
fn level(jit: &mut Jit, checks: &[FunId], descend: bool) -> (LevelEnd, LevelCounts) {
    let ys: Vec<Word> = (0..10).collect();
    let mut args = [2, 0];
    let m = jit.mark();
    let (end, counts) = jit.run_level(checks, descend, &mut args, 1, &ys, &Limits::default());
    // The arena is back where it was; the stopping case's word is in place.
    assert_eq!(format!("{:?}", jit.mark()), format!("{m:?}"));
    if let LevelEnd::Descend(i) | LevelEnd::Failed(i) | LevelEnd::Handover(i) = end {
        assert_eq!(args[1], ys[i]);
    }
    (end, counts)
}

#[test]
fn a_premise_rejects_and_the_conclusion_stops_at_a_candidate() {
    let (mut jit, f) = setup();
    let (prem, concl) = (f("prem"), f("concl"));
    // y = 0, 1 fail the premise; 2, 3, 4 pass both; 2 + 5 = 7.
    let r = level(&mut jit, &[prem, concl], false);
    assert_eq!(r, (LevelEnd::Failed(5), LevelCounts { rejected: 2, passed: 3 }));
    assert_eq!(jit.run(concl, &[2, 5], &Limits::default()), Ok(0));
    // As premises, both reject (y = 0, 1 and 5); the last check holds everywhere: every case
    // runs.
    let r = level(&mut jit, &[concl, prem, f("near")], false);
    assert_eq!(r, (LevelEnd::Done, LevelCounts { rejected: 3, passed: 7 }));
}

#[test]
fn a_level_that_descends_stops_at_each_case_passing_its_checks() {
    let (mut jit, f) = setup();
    let r = level(&mut jit, &[f("prem")], true);
    assert_eq!(r, (LevelEnd::Descend(2), LevelCounts { rejected: 2, passed: 0 }));
    // Its last check is a premise: False rejects.
    let r = level(&mut jit, &[f("concl"), f("prem")], true);
    assert_eq!(r, (LevelEnd::Descend(2), LevelCounts { rejected: 2, passed: 0 }));
    // No checks: the first case.
    assert_eq!(level(&mut jit, &[], true), (LevelEnd::Descend(0), LevelCounts::default()));
    assert_eq!(level(&mut jit, &[], false), (LevelEnd::Done, LevelCounts { rejected: 0, passed: 10 }));
}

#[test]
fn a_case_without_a_truth_value_is_handed_back_and_the_jit_runs_on() {
    let (mut jit, f) = setup();
    let l = Limits::default();
    let (undef, big) = (f("undef_at"), f("big_at"));
    assert_eq!(level(&mut jit, &[undef], false), (LevelEnd::Handover(3), LevelCounts { rejected: 0, passed: 3 }));
    assert!(matches!(jit.run(undef, &[2, 3], &l), Err(JitOutcome::Undefined(_))));
    assert_eq!(level(&mut jit, &[big], false), (LevelEnd::Handover(2), LevelCounts { rejected: 0, passed: 2 }));
    assert_eq!(jit.run(big, &[2, 2], &l), Err(JitOutcome::Overflow));
    // The status was cleared: the next runs are plain.
    assert_eq!(jit.run(big, &[2, 3], &l), Ok(1));
    let plain = level(&mut jit, &[f("concl"), f("prem"), f("near")], false);
    assert_eq!(plain, (LevelEnd::Done, LevelCounts { rejected: 3, passed: 7 }));
}
