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
