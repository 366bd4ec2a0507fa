//! Horn clauses from the core IR (`lang::core::horn`): their text form on a small theory.
//! (That they compute what the functions compute is tested where they run:
//! `quickcheck/tests/smart_modes.rs`.)

use lang::core::horn::{clauses, print_clauses};
use lang::core::ir::FunId;

/// The clauses of every function the lemma of `theory` reaches, by name.
fn clauses_of(theory: &str, names: &[&str]) -> String {
    let th = lang::check_theory(theory);
    assert!(th.diagnostics.iter().all(|d| d.severity != lang::Severity::Error), "{:?}", th.diagnostics);
    let c = th.lower_conjecture(0, &[]);
    let mut out = String::new();
    for name in names {
        let f = (0..c.program.funs.len())
            .map(|i| FunId(i as u32))
            .find(|f| c.program.fun(*f).name == *name)
            .unwrap_or_else(|| panic!("no function {name}"));
        out.push_str(&print_clauses(&c.program, f, &clauses(&c.program, f)));
    }
    out
}

/// Functions over lists, shared with the smart generators' tests.
const SORTED: &str = include_str!("../../tests/support/relations.thy");

#[test]
fn a_function_is_one_clause_per_path() {
    let text = clauses_of(SORTED, &["sorted'", "app", "len", "hd'"]);
    let expected = "\
sorted'(v0, v5) :- v0 = Nil, v5 = True.
sorted'(v0, v5) :- v0 = Cons(v1, v2), v2 = Nil, v5 = True.
sorted'(v0, v5) :- v0 = Cons(v1, v2), v2 = Cons(v3, v4), True := le[nat](v1, v3), sorted'(Cons(v3, v4), v5).
sorted'(v0, v5) :- v0 = Cons(v1, v2), v2 = Cons(v3, v4), False := le[nat](v1, v3), v5 = False.
app(v0, v1, v4) :- v0 = Nil, v4 = v1.
app(v0, v1, v4) :- v0 = Cons(v2, v3), app(v3, v1, v5), v4 = Cons(v2, v5).
len(v0, v3) :- v0 = Nil, v3 = 0.
len(v0, v3) :- v0 = Cons(v1, v2), len(v2, v4), v3 = Suc(v4).
hd'(v0, v3) :- v0 = Cons(v1, v2), v3 = v1.
";
    assert_eq!(text, expected, "\n{text}");
}

/// A boolean in tail position that decomposes gets a clause per truth value: with the
/// result `True`, an equality of structurally compared values is a unification (so a
/// known list can be split by `@` run backwards), a membership enumerates the set, and a
/// negation flips the truth value it asks of its argument; with `False` they stay checks.
/// An equality of sets compares extensionally: it stays a check either way.
#[test]
fn equalities_and_memberships_decompose_by_truth_value() {
    let theory = "theory T imports Main begin
definition split3 :: \"nat list ⇒ nat list ⇒ nat list ⇒ bool\" where
  \"split3 s a b = (s = a @ [0] @ b)\"
definition inset :: \"nat ⇒ nat set ⇒ bool\" where
  \"inset x A = (Suc x ∈ A)\"
definition notin :: \"nat ⇒ nat list ⇒ bool\" where
  \"notin x xs = (¬ (x ∈ set xs))\"
definition sameset :: \"nat set ⇒ nat set ⇒ bool\" where
  \"sameset A B = (A = B)\"
lemma \"split3 s a b ⟹ inset x A ⟹ notin x s ⟹ sameset A B\"
  oops
end";
    let text = clauses_of(theory, &["split3", "inset", "notin", "sameset"]);
    let expected = "\
split3(v0, v1, v2, v3) :- v3 = True, append[nat](Cons(0, Nil), v2, v5), append[nat](v1, v5, v4), v0 = v4.
split3(v0, v1, v2, v3) :- v3 = False, False := eq[list[nat]](v0, @append[nat](v1, @append[nat](list[nat]::Cons(0, list[nat]::Nil), v2))).
inset(v0, v1, v2) :- v2 = True, Suc(v0) ∈ v1.
inset(v0, v1, v2) :- v2 = False, False := set_member[nat](suc(v0), v1).
notin(v0, v1, v2) :- v2 = True, member[nat](v1, v0, False).
notin(v0, v1, v2) :- v2 = False, member[nat](v1, v0, True).
sameset(v0, v1, v2) :- v2 := eq[set[nat]](v0, v1).
";
    assert_eq!(text, expected, "\n{text}");
}

/// A `let` inside a goal binds its variable by a goal of its own, so the body stays a
/// pattern: `map` specialised to a constructor (`let x' = x in Some x'`, as
/// `lang::core::specialize` writes the applied λ) unifies the element with `Some x'`.
#[test]
fn a_let_inside_a_goal_is_flattened() {
    let theory = "theory T imports Main begin
definition wrap :: \"nat ⇒ nat option list\" where
  \"wrap x = [let y = Suc x in Some y]\"
lemma \"wrap x = [Some 3]\"
  oops
end";
    let text = clauses_of(theory, &["wrap"]);
    let expected = "\
wrap(v0, v2) :- v1 = Suc(v0), v3 = Some(v1), v2 = Cons(v3, Nil).
";
    assert_eq!(text, expected, "\n{text}");
}
