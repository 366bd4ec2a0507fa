//! The value layout round-trips: `value_of(word_of(v)) == v` for generated values of every
//! first-order parameter type of the prelude's instances (numbers past 64 bits excepted:
//! they are handed over as `Overflow`).

use crate::gen::{value, Rng};
use codegen::{Jit, JitOutcome};
use lang::core::ir::Ty;

#[test]
fn words_round_trip() {
    let text = "theory W imports Main begin
value \"(zip :: (nat × int) list ⇒ bool option list ⇒ ((nat × int) × bool option) list)\"
value \"(map_sum :: (nat ⇒ nat) ⇒ (int list ⇒ int list) ⇒ nat + int list ⇒ nat + int list)\"
end";
    let mut th = lang::check_theory(text);
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    th.lower_value(0);
    let p = th.lower_value(1).0.clone();
    let mut jit = Jit::compile(&p).unwrap();
    let tys: Vec<Ty> = p.funs.iter().flat_map(|f| f.params.iter().map(|(_, t)| t.clone())).collect();
    let mut rng = Rng::new(7);
    let (mut round_trips, mut overflows) = (0, 0);
    for t in tys.iter().filter(|t| !matches!(t, Ty::Fun(..) | Ty::Set(_))) {
        for size in 0..30 {
            let v = value(&p, t, size / 3, &mut rng).unwrap();
            jit.reset();
            match jit.word_of(&v, t) {
                Ok(w) => {
                    assert_eq!(jit.value_of(w, t).unwrap(), v);
                    round_trips += 1;
                }
                Err(JitOutcome::Overflow) => overflows += 1,
                Err(e) => panic!("{v:?}: {e:?}"),
            }
        }
    }
    assert!(round_trips > 50 && overflows > 0, "{round_trips} {overflows}");
}

#[test]
fn number_lists_built_at_once_read_back_as_lists() {
    let (p, ty) = list_program("int");
    let mut jit = Jit::compile(&p).unwrap();
    for xs in [vec![], vec![7], vec![3, -1, 0, i64::from(i32::MIN), 5]] {
        let w = jit.int_list_word(&xs).unwrap();
        let mut v = lang::interp::Value::nullary(0);
        for x in xs.iter().rev() {
            v = lang::interp::Value::ctor(1, vec![lang::interp::Value::int(*x), v]);
        }
        assert_eq!(jit.value_of(w, &ty).unwrap(), v, "{xs:?}");
    }
    // Out of room: an outcome, and the arena is as before.
    let mut small = Jit::with_arena(&p, 16).unwrap();
    assert_eq!(small.int_list_word(&[1; 100]), Err(JitOutcome::OutOfMemory));
    assert_eq!(small.int_list_word(&[1, 2]).map(|_| ()), Ok(()));
}

#[test]
fn shared_fields_share_their_cells() {
    use lang::interp::Value;
    let (p, ty) = list_program("nat");
    let mut jit = Jit::compile(&p).unwrap();
    let tail = Value::ctor(1, vec![Value::nat(1), Value::ctor(1, vec![Value::nat(2), Value::nullary(0)])]);
    let longer = Value::ctor(1, vec![Value::nat(0), tail.clone()]);
    let mut shared = codegen::SharedCells::default();
    let room = jit.arena_room();
    let t = jit.word_of_shared(&tail, &ty, &mut shared).unwrap();
    assert_eq!(room - jit.arena_room(), 6, "two cells of three words");
    let room = jit.arena_room();
    let l = jit.word_of_shared(&longer, &ty, &mut shared).unwrap();
    assert_eq!(room - jit.arena_room(), 3, "one new cell, the tail's reused");
    assert_eq!((jit.value_of(t, &ty).unwrap(), jit.value_of(l, &ty).unwrap()), (tail, longer.clone()));
    // Without sharing, every cell is built.
    let room = jit.arena_room();
    jit.word_of(&longer, &ty).unwrap();
    assert_eq!(room - jit.arena_room(), 9);
}

#[test]
fn kept_cells_are_built_once_and_forgotten_when_the_arena_is_freed_below_them() {
    use lang::core::ir::FunId;
    use lang::interp::{Limits, Value};
    let (p, ty) = list_program("nat");
    let rev = FunId(p.funs.iter().position(|f| f.name == "rev[nat]").expect("rev[nat]") as u32);
    let list = |xs: &[u64]| xs.iter().rev().fold(Value::nullary(0), |t, x| Value::ctor(1, vec![Value::nat(*x), t]));
    let (xs, rev_xs, other) = (list(&[1, 2]), list(&[2, 1]), list(&[7, 8, 9]));
    let mut jit = Jit::compile(&p).unwrap();
    jit.free_to_kept();
    let room = jit.arena_room();
    let w = jit.word_of_kept(&xs, &ty).unwrap();
    assert_eq!(room - jit.arena_room(), 6, "two cells of three words");
    jit.free_to_kept();
    let room = jit.arena_room();
    assert_eq!(jit.word_of_kept(&xs, &ty), Ok(w), "the same cells again");
    assert_eq!(room, jit.arena_room(), "nothing built");
    for _ in 0..3 {
        assert_eq!(jit.call(rev, std::slice::from_ref(&xs), &Limits::default()), Ok(rev_xs.clone()));
    }
    // Freed below the kept cells (a reset, a release to an earlier mark) and built over:
    // the kept cells are forgotten, not read back overwritten.
    jit.reset();
    jit.word_of(&other, &ty).unwrap();
    assert_eq!(jit.call(rev, std::slice::from_ref(&xs), &Limits::default()), Ok(rev_xs.clone()));
    jit.reset();
    let start = jit.mark();
    assert_eq!(jit.call(rev, std::slice::from_ref(&other), &Limits::default()), Ok(list(&[9, 8, 7])));
    jit.release(start);
    jit.word_of(&xs, &ty).unwrap();
    assert_eq!(jit.call(rev, std::slice::from_ref(&other), &Limits::default()), Ok(list(&[9, 8, 7])));
    // A value that cannot be converted (a number past the word) leaves the words built
    // before it in the same run valid: another variable of the case still reads its own.
    jit.free_to_kept();
    let w = jit.word_of_kept(&other, &ty).unwrap();
    let big = Value::Int(lang::interp::Int::from(num_bigint::BigInt::from(u64::MAX) * 4));
    let too_big = Value::ctor(1, vec![big, Value::nullary(0)]);
    assert_eq!(jit.word_of_kept(&too_big, &ty), Err(JitOutcome::Overflow));
    jit.word_of_kept(&list(&[4, 5, 6]), &ty).unwrap();
    assert_eq!(jit.value_of(w, &ty), Ok(other.clone()), "not built over");
    // A value dropped after its call: its cells stay keyed by its fields' address, which
    // the kept value keeps from being reused by another list.
    for n in 0..50u64 {
        let fresh = list(&[n, n + 1]);
        assert_eq!(jit.call(rev, &[fresh], &Limits::default()), Ok(list(&[n + 1, n])));
    }
}

/// A program with the prelude's `rev` at `elem list`, and that list type.
fn list_program(elem: &str) -> (lang::core::ir::Program, Ty) {
    let text = format!("theory W imports Main begin\nvalue \"(rev :: {elem} list ⇒ {elem} list)\"\nend");
    let mut th = lang::check_theory(&text);
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    let p = th.lower_value(0).0.clone();
    let ty = p.funs.iter().flat_map(|f| f.params.iter()).find(|(_, t)| matches!(t, Ty::Data(_))).unwrap().1.clone();
    (p, ty)
}
