//! The SMT encoding of arithmetic (`quickcheck::smt::encode`) against the reference
//! interpreter, where Isabelle's arithmetic and SMT-LIB's differ: `int` division rounding
//! toward −∞ and `mod` taking the divisor's sign, division and `mod` by zero, truncated
//! `nat` subtraction. Each operation on every pair of operands in −9..9 (`nat`: 0..9) is
//! encoded with numerals for its arguments and its value read from the solver, which must
//! equal the interpreter's. Likewise functions over lists, options and pairs (recursion
//! unrolled, sets as guarded elements, `λ`s applied where called, underspecified values,
//! an inductive predicate unfolded, under negation),
//! on every small value. Needs an SMT solver (`scripts/test` installs z3).

use easy_smt::SExpr;
use lang::core::ir::FunId;
use lang::interp::{Int, Limits, Value};
use quickcheck::smt::{encode, solver};
use std::time::{Duration, Instant};

const THEORY: &str = r#"theory T imports Main begin
definition idiv :: "int ⇒ int ⇒ int" where "idiv a b = a div b"
definition imod :: "int ⇒ int ⇒ int" where "imod a b = a mod b"
definition ndiv :: "nat ⇒ nat ⇒ nat" where "ndiv a b = a div b"
definition nmod :: "nat ⇒ nat ⇒ nat" where "nmod a b = a mod b"
definition nsub :: "nat ⇒ nat ⇒ nat" where "nsub a b = a - b"
definition idvd :: "int ⇒ int ⇒ bool" where "idvd a b = (a dvd b)"
lemma "idiv a b + imod a b + int (ndiv m n + nmod m n + nsub m n) = 0 ∧ idvd a b"
  oops
end"#;

/// A numeral's term (negative ones as `(- n)`).
fn numeral(ctx: &easy_smt::Context, n: i64) -> SExpr {
    if n < 0 {
        ctx.negate(ctx.numeral(-n))
    } else {
        ctx.numeral(n)
    }
}

/// The solver's value of a term: a number or a truth value.
fn read(ctx: &easy_smt::Context, e: SExpr) -> Value {
    if let Some(n) = ctx.get_i64(e) {
        return Value::Int(Int::from(n));
    }
    match ctx.get_atom(e) {
        Some("true") => return Value::Bool(true),
        Some("false") => return Value::Bool(false),
        _ => {}
    }
    let list = ctx.get_list(e).unwrap_or_else(|| panic!("not a value: {}", ctx.display(e)));
    assert_eq!(ctx.get_atom(list[0]), Some("-"), "{}", ctx.display(e));
    Value::Int(Int::from(-ctx.get_i64(list[1]).expect("a numeral")))
}

/// The first lemma of `theory` lowered, and a solver started for it.
fn lemma_and_solver(theory: &str) -> (lang::core::conjecture::Conjecture, solver::Solver) {
    let binary = solver::find().expect("an SMT solver (scripts/test installs z3, or set HOL_SMT_SOLVER)");
    let th = lang::check_theory(theory);
    assert!(th.diagnostics.iter().all(|d| d.severity != lang::Severity::Error), "{:?}", th.diagnostics);
    let s = solver::Solver::start(&binary, Instant::now() + Duration::from_secs(120)).expect("the solver starts");
    (th.lower_conjecture(0, &[]), s)
}

#[test]
fn arithmetic_encodes_as_the_interpreter_computes() {
    let (c, mut s) = lemma_and_solver(THEORY);
    let fun = |name: &str| {
        (0..c.program.funs.len())
            .map(|i| FunId(i as u32))
            .find(|f| c.program.fun(*f).name == name)
            .unwrap_or_else(|| panic!("no function {name}"))
    };
    let check = s.check(Instant::now() + Duration::from_secs(60), &|| false).expect("check-sat");
    assert_eq!(check, solver::Answer::Sat);
    let (mut compared, mut wrong) = (0, Vec::new());
    for (name, lo) in [("idiv", -9), ("imod", -9), ("idvd", -9), ("ndiv", 0), ("nmod", 0), ("nsub", 0)] {
        let f = fun(name);
        for a in lo..=9i64 {
            for b in lo..=9i64 {
                let args = [encode::Arg::Term(numeral(&s.ctx, a)), encode::Arg::Term(numeral(&s.ctx, b))];
                let sorts = encode::Sorts::of(&c.program);
                let term = encode::call(&s.ctx, &c.program, &sorts, f, &args, &[], &[], 1, "t").expect("encodes").term;
                let got = s.ctx.get_value(vec![term]).expect("get-value")[0].1;
                let got = read(&s.ctx, got);
                let want = lang::interp::call(
                    &c.program,
                    f,
                    vec![Value::Int(Int::from(a)), Value::Int(Int::from(b))],
                    &Limits::default(),
                )
                .expect("the interpreter evaluates it");
                compared += 1;
                if got != want {
                    wrong.push(format!("{name} {a} {b}: solver {got:?}, interpreter {want:?}"));
                }
            }
        }
    }
    assert_eq!(compared, 3 * 19 * 19 + 3 * 10 * 10);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

const LISTS: &str = r#"theory L imports Main begin
definition t_rev_sum :: "nat list ⇒ nat" where "t_rev_sum xs = sum_list (rev xs)"
definition t_sorted :: "nat list ⇒ bool" where "t_sorted xs = sorted xs"
definition t_distinct :: "nat list ⇒ bool" where "t_distinct xs = distinct xs"
definition t_mem :: "nat list ⇒ bool" where "t_mem xs = (1 ∈ set xs)"
definition t_last :: "nat list ⇒ nat" where "t_last xs = last xs"
definition t_map :: "nat list ⇒ nat list" where "t_map xs = map (λx. x + 1) (filter (λx. x ≠ 1) xs)"
definition t_app :: "nat list ⇒ nat list" where "t_app xs = xs @ rev xs"
definition t_zip :: "nat list ⇒ (nat × nat) list" where "t_zip xs = zip xs (tl xs)"
definition t_find :: "nat list ⇒ nat option" where "t_find xs = find (λx. 0 < x) xs"
definition t_all :: "nat list ⇒ bool" where "t_all xs = (∀x∈set xs. ∃y∈set xs. x ≤ y ∧ y ≠ x) "
definition t_set_eq :: "nat list ⇒ bool" where "t_set_eq xs = (set xs = set (rev (remdups xs)))"
definition t_card :: "nat list ⇒ bool" where "t_card xs = ({x. x ∈ set xs ∧ x < 2} ⊆ {0, 1})"
inductive sorted_ind :: "nat list ⇒ bool" where
  "sorted_ind []"
| "sorted_ind [x]"
| "x ≤ y ⟹ sorted_ind (y # ys) ⟹ sorted_ind (x # y # ys)"
definition t_sorted_ind :: "nat list ⇒ bool" where "t_sorted_ind xs = (¬ sorted_ind (1 # xs))"
lemma "t_rev_sum xs = 0 ∧ t_sorted xs ∧ t_distinct xs ∧ t_mem xs ∧ t_last xs = 0 ∧ t_map xs = []
  ∧ t_app xs = [] ∧ t_zip xs = [] ∧ t_find xs = None ∧ t_all xs ∧ t_set_eq xs ∧ t_card xs ∧ t_sorted_ind xs"
  oops
end"#;

#[test]
fn list_functions_encode_as_the_interpreter_computes() {
    let (c, mut s) = lemma_and_solver(LISTS);
    let prog = &c.program;
    let sorts = encode::Sorts::of(prog);
    sorts.declare(&mut s.ctx, prog).expect("declares the datatypes");
    // Every list of at most 3 elements from 0..=2.
    let list_ty = c.vars[0].ty.clone();
    let mut lists = vec![Vec::new()];
    for len in 1..=3usize {
        for code in 0..3usize.pow(len as u32) {
            lists.push((0..len).map(|i| (code / 3usize.pow(i as u32)) % 3).collect::<Vec<_>>());
        }
    }
    let as_value = |xs: &[usize]| {
        xs.iter().rev().fold(Value::ctor(0, vec![]), |tl, x| Value::ctor(1, vec![Value::nat(*x as u64), tl]))
    };
    let (mut compared, mut undefined, mut wrong) = (0, 0, Vec::new());
    for f in (0..prog.funs.len()).map(|i| FunId(i as u32)) {
        let def = prog.fun(f);
        if !def.name.starts_with("t_") || def.name.contains('.') {
            continue;
        }
        for xs in &lists {
            let v = as_value(xs);
            let arg = encode::value_term(&s.ctx, prog, &sorts, &v, &list_ty).expect("a list has a term");
            let e = encode::call(&s.ctx, prog, &sorts, f, &[encode::Arg::Term(arg)], &[], &[], 5, "t")
                .unwrap_or_else(|why| panic!("{} does not encode: {why}", def.name));
            s.ctx.push().unwrap();
            for (name, sort) in e.fresh {
                s.ctx.declare_const(name, sort).unwrap();
            }
            for fact in e.side {
                s.ctx.assert(fact).unwrap();
            }
            for reached in e.cuts {
                let not = s.ctx.not(reached);
                s.ctx.assert(not).unwrap();
            }
            assert_eq!(s.check(Instant::now() + Duration::from_secs(60), &|| false).unwrap(), solver::Answer::Sat);
            let got = s.ctx.get_value(vec![e.term]).expect("get-value")[0].1;
            let got = encode::decode(&s.ctx, prog, got, &def.ret);
            s.ctx.pop().unwrap();
            match lang::interp::call(prog, f, vec![v.clone()], &Limits::default()) {
                Ok(want) => {
                    compared += 1;
                    if got.as_ref() != Some(&want) {
                        wrong.push(format!("{} {xs:?}: solver {got:?}, interpreter {want:?}", def.name));
                    }
                }
                // `last []`: the solver's value is any value of the type.
                Err(lang::interp::EvalError::Undefined(_)) => undefined += 1,
                Err(e) => panic!("{} {xs:?}: {e:?}", def.name),
            }
        }
    }
    assert_eq!((compared, undefined), (13 * 40 - 1, 1));
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
