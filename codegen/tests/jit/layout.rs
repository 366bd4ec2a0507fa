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

/// A program with the prelude's `rev` at `elem list`, and that list type.
fn list_program(elem: &str) -> (lang::core::ir::Program, Ty) {
    let text = format!("theory W imports Main begin\nvalue \"(rev :: {elem} list ⇒ {elem} list)\"\nend");
    let mut th = lang::check_theory(&text);
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    let p = th.lower_value(0).0.clone();
    let ty = p.funs.iter().flat_map(|f| f.params.iter()).find(|(_, t)| matches!(t, Ty::Data(_))).unwrap().1.clone();
    (p, ty)
}
