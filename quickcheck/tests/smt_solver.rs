//! The solver process (`quickcheck::smt::solver`): a `check-sat` its time limit or a
//! cancellation cut off leaves the solver answering nothing more (z3 4.8.12 answers a
//! check resumed after an interruption with a wrong `sat`), and a cancelled check ends
//! promptly, its process killed. Needs an SMT solver (`scripts/test` installs z3).

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
