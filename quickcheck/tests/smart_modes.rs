//! Mode analysis (`quickcheck::smart::modes`) on small relations: the data flow chosen for
//! `sorted` run backwards (lists built from a sorted tail, the head generated and checked),
//! `append` splitting a known list, and `length` building lists of a known length.

use lang::core::ir::FunId;
use quickcheck::smart::modes::{print_plans, Mode, Modes};

const THEORY: &str = r#"theory T imports Main begin
fun sorted' :: "nat list ⇒ bool" where
  "sorted' [] = True"
| "sorted' [x] = True"
| "sorted' (x # y # zs) = (x ≤ y ∧ sorted' (y # zs))"
fun app :: "nat list ⇒ nat list ⇒ nat list" where
  "app [] ys = ys"
| "app (x # xs) ys = x # app xs ys"
fun len :: "nat list ⇒ nat" where
  "len [] = 0"
| "len (x # xs) = Suc (len xs)"
lemma "sorted' (app xs ys) ⟹ len xs = 0"
  oops
end
"#;

fn plans_of(name: &str, mode: Mode) -> String {
    let th = lang::check_theory(THEORY);
    let c = th.lower_conjecture(0, &[]);
    let f = (0..c.program.funs.len()).map(|i| FunId(i as u32)).find(|f| c.program.fun(*f).name == name).unwrap();
    let mut modes = Modes::new(&c.program);
    let plans = modes.plans(f, mode).expect("a plan").to_vec();
    print_plans(&c.program, f, mode, &plans)
}

#[test]
fn sorted_backwards_builds_from_a_sorted_tail() {
    let text = plans_of("sorted'", Mode(0b10));
    assert_eq!(text, "\
sorted'[o, i]:
  clause 1: match v5 = True; build v0 = Nil
  clause 2: match v5 = True; build v2 = Nil; generate v1; build v0 = Cons(v1, v2)
  clause 3: sorted'[o, i](Cons(v3, v4), v5); build v2 = Cons(v3, v4); generate v1; True := le[nat](v1, v3); build v0 = Cons(v1, v2)
  clause 4: match v5 = False; generate v1; generate v3; False := le[nat](v1, v3); generate v2; match v2 = Cons(v3, v4); build v0 = Cons(v1, v2)
");
}

#[test]
fn append_backwards_splits_a_known_list() {
    let text = plans_of("app", Mode(0b100));
    assert_eq!(
        text,
        "\
app[o, o, i]:
  clause 1: match v4 = v1; build v0 = Nil
  clause 2: match v4 = Cons(v2, v5); app[o, o, i](v3, v1, v5); build v0 = Cons(v2, v3)
"
    );
}

#[test]
fn length_backwards_builds_lists_of_that_length() {
    let text = plans_of("len", Mode(0b10));
    assert_eq!(
        text,
        "\
len[o, i]:
  clause 1: match v3 = 0; build v0 = Nil
  clause 2: match v3 = Suc(v4); len[o, i](v2, v4); generate v1; build v0 = Cons(v1, v2)
"
    );
}
