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
