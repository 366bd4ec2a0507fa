//! The solver process (`quickcheck::smt::solver`): a `check-sat` its time limit or a
//! cancellation cut off leaves the solver answering nothing more (z3 4.8.12 answers a
//! check resumed after an interruption with a wrong `sat`), and a cancelled check ends
//! promptly, its process killed; a query is sent pipelined, and its sending ends at the
//! deadline or a cancellation. Needs an SMT solver (`scripts/test` installs z3).

use quickcheck::smt::solver::{self, Answer, Solver};
use std::time::{Duration, Instant};

/// A solver holding a query it cannot decide quickly: positive cubes with x³ + y³ = z³
/// (no solution, and no proof that z3 finds by its arithmetic).
fn hard() -> Solver {
    let binary = solver::find().expect("an SMT solver (scripts/test installs z3, or set HOL_SMT_SOLVER)");
    let mut s = Solver::start(&binary, Instant::now() + Duration::from_secs(120)).expect("the solver starts");
    let ctx = &mut s.ctx;
    let int = ctx.int_sort();
    for v in ["x", "y", "z"] {
        ctx.declare_const(v, int).expect("declare");
        let gt = ctx.gt(ctx.atom(v), ctx.numeral(0));
        ctx.assert(gt).expect("assert");
    }
    let cube = |ctx: &easy_smt::Context, v: &str| ctx.times_many([ctx.atom(v), ctx.atom(v), ctx.atom(v)]);
    let sum = ctx.plus(cube(ctx, "x"), cube(ctx, "y"));
    let eq = ctx.eq(sum, cube(ctx, "z"));
    ctx.assert(eq).expect("assert");
    s
}

#[test]
fn an_interrupted_check_is_never_resumed() {
    let mut s = hard();
    let first = s.check(Instant::now() + Duration::from_millis(30), &|| false).expect("check-sat");
    assert_eq!(first, Answer::Unknown, "the query should not be decided in 30 ms");
    // Even with time to spare, the solver does not answer again.
    let t0 = Instant::now();
    let again = s.check(Instant::now() + Duration::from_secs(10), &|| false).expect("check-sat");
    assert_eq!(again, Answer::Unknown);
    assert!(t0.elapsed() < Duration::from_millis(100), "a tainted solver answers at once: {:?}", t0.elapsed());
}

#[test]
fn a_cancelled_check_ends_promptly() {
    let mut s = hard();
    let t0 = Instant::now();
    let stop = move || t0.elapsed() > Duration::from_millis(100);
    let answer = s.check(Instant::now() + Duration::from_secs(30), &stop).expect("a cancelled check is no error");
    assert_eq!(answer, Answer::Unknown);
    assert!(t0.elapsed() < Duration::from_secs(2), "the check ran {:?} after its cancellation", t0.elapsed());
}

/// `n` commands: `(declare-const k<i> Int)` and `(assert (= k<i> i))` for each `i < n / 2`.
fn numbered(s: &Solver, n: usize) -> Vec<easy_smt::SExpr> {
    let ctx = &s.ctx;
    let cmd = |name: &str, args: Vec<easy_smt::SExpr>| ctx.list([vec![ctx.atom(name)], args].concat());
    (0..n / 2)
        .flat_map(|i| {
            let k = ctx.atom(format!("k{i}"));
            [cmd("declare-const", vec![k, ctx.int_sort()]), cmd("assert", vec![ctx.eq(k, ctx.numeral(i))])]
        })
        .collect()
}

#[test]
fn a_pipelined_query_is_the_query_sent_one_by_one() {
    let binary = solver::find().expect("an SMT solver (scripts/test installs z3, or set HOL_SMT_SOLVER)");
    let mut s = Solver::start(&binary, Instant::now() + Duration::from_secs(120)).expect("the solver starts");
    // More commands than one chunk, so answers are read while commands are still sent.
    let commands = numbered(&s, 6_000);
    assert!(s.send_all(&commands, Instant::now() + Duration::from_secs(60), &|| false).expect("sent"));
    assert_eq!(s.check(Instant::now() + Duration::from_secs(60), &|| false).expect("check-sat"), Answer::Sat);
    let probe: Vec<_> = [0u64, 1_234, 2_999].iter().map(|i| s.ctx.atom(format!("k{i}"))).collect();
    let got = s.values(probe).expect("get-value");
    let got: Vec<Option<u64>> = got.iter().map(|v| s.ctx.get_u64(*v)).collect();
    assert_eq!(got, [Some(0), Some(1_234), Some(2_999)]);
}

#[test]
fn sending_a_query_stops_at_the_deadline() {
    let binary = solver::find().expect("an SMT solver (scripts/test installs z3, or set HOL_SMT_SOLVER)");
    let mut s = Solver::start(&binary, Instant::now() + Duration::from_secs(120)).expect("the solver starts");
    // Far more than 50 ms of sending (each command is a round trip through z3).
    let commands = numbered(&s, 1_000_000);
    let t0 = Instant::now();
    let whole = s.send_all(&commands, t0 + Duration::from_millis(50), &|| false).expect("no error");
    assert!(!whole, "a million commands sent within 50 ms");
    assert!(t0.elapsed() < Duration::from_secs(2), "sending went on {:?} past its deadline", t0.elapsed());
    // Cancelled the same way (a new solver: the first holds part of the query; terms belong
    // to their solver's context).
    let mut s = Solver::start(&binary, Instant::now() + Duration::from_secs(120)).expect("the solver starts");
    let commands = numbered(&s, 1_000_000);
    let t0 = Instant::now();
    let stop = move || t0.elapsed() > Duration::from_millis(50);
    assert!(!s.send_all(&commands, t0 + Duration::from_secs(60), &stop).expect("no error"));
    assert!(t0.elapsed() < Duration::from_secs(2), "sending went on {:?} past its cancellation", t0.elapsed());
}
