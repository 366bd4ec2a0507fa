//! The SMT encoding of arithmetic (`quickcheck::smt::encode`) against the reference
//! interpreter, where Isabelle's arithmetic and SMT-LIB's differ: `int` division rounding
//! toward −∞ and `mod` taking the divisor's sign, division and `mod` by zero, truncated
//! `nat` subtraction. Each operation on every pair of operands in −9..9 (`nat`: 0..9) is
//! encoded with numerals for its arguments and its value read from the solver, which must
//! equal the interpreter's. Needs an SMT solver (`scripts/test` installs z3).

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

#[test]
fn arithmetic_encodes_as_the_interpreter_computes() {
    let binary = solver::find().expect("an SMT solver (scripts/test installs z3, or set HOL_SMT_SOLVER)");
    let th = lang::check_theory(THEORY);
    assert!(th.diagnostics.iter().all(|d| d.severity != lang::Severity::Error), "{:?}", th.diagnostics);
    let c = th.lower_conjecture(0, &[]);
    let fun = |name: &str| {
        (0..c.program.funs.len())
            .map(|i| FunId(i as u32))
            .find(|f| c.program.fun(*f).name == name)
            .unwrap_or_else(|| panic!("no function {name}"))
    };
    let mut s = solver::Solver::start(&binary, Instant::now() + Duration::from_secs(120)).expect("the solver starts");
    let check = s.check(Instant::now() + Duration::from_secs(60), &|| false).expect("check-sat");
    assert_eq!(check, solver::Answer::Sat);
    let (mut compared, mut wrong) = (0, Vec::new());
    for (name, lo) in [("idiv", -9), ("imod", -9), ("idvd", -9), ("ndiv", 0), ("nmod", 0), ("nsub", 0)] {
        let f = fun(name);
        for a in lo..=9i64 {
            for b in lo..=9i64 {
                let args = [numeral(&s.ctx, a), numeral(&s.ctx, b)];
                let term = encode::call(&s.ctx, &c.program, f, &args, &[], 1, "t").expect("encodes").term;
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
