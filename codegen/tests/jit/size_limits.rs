//! Compile cost stays bounded (issue 21): large functions compile unoptimised, functions
//! too large go to the interpreter, so does a body nested deeper than the compiling
//! thread's stack allows, and a compilation stops at its deadline. Whatever happens, a
//! case the JIT answers agrees with the interpreter. Deep bodies are compiled on a thread
//! with the testers' 64 MiB stack (`quickcheck::portfolio`), as `hol` does.

use codegen::{Jit, JitOutcome, COMPILE_MAX_NODES, OPTIMISE_MAX_NODES};
use lang::core::ir::{FunId, Program};
use lang::interp::{Interp, Limits, Value};
use std::time::{Duration, Instant};

/// `fun f` with `n` numeral equations `f i = i * 7 mod 1000` and `f _ = 1`, and `f` itself.
fn equations(n: usize) -> (Program, FunId) {
    let eqs: Vec<String> = (0..n).map(|i| format!("\"f {i} = {}\"", (i * 7) % 1000)).collect();
    let text = format!(
        "theory E imports Main begin\nfun f :: \"nat ⇒ nat\" where {} | \"f _ = 1\"\nvalue \"f 0\"\nend",
        eqs.join(" | ")
    );
    let mut th = lang::check_theory(&text);
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    let (p, _) = th.lower_values();
    let f = p.funs.iter().position(|d| d.name.starts_with("f")).expect("f");
    (p.clone(), FunId(f as u32))
}

fn nodes(p: &Program, f: FunId) -> usize {
    p.fun(f).body.count(&|_| true)
}

/// Runs `f` on a thread with a stack of `bytes` bytes.
fn on_stack(bytes: usize, f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new().stack_size(bytes).spawn(f).expect("spawn").join().expect("no overflow, no panic");
}

const TESTER_STACK: usize = 64 << 20;

/// `f x` in the JIT and in the interpreter: the same value, or a hand-over when `may_hand_over`.
fn agree(jit: &mut Jit, p: &Program, f: FunId, xs: &[u64], may_hand_over: bool) {
    let limits = Limits::default();
    let mut it = Interp::new(p);
    for &x in xs {
        let want = it.call(f, vec![Value::nat(x)], &limits).expect("the interpreter evaluates f");
        match jit.call(f, &[Value::nat(x)], &limits) {
            Ok(v) => assert_eq!(v, want, "f {x}"),
            Err(JitOutcome::NotSupported) if may_hand_over => {}
            Err(e) => panic!("f {x}: {e:?}"),
        }
    }
}

#[test]
fn a_large_function_compiles_unoptimised_and_agrees() {
    on_stack(TESTER_STACK, move || {
        let (p, f) = equations(4000);
        let n = nodes(&p, f);
        assert!(n > OPTIMISE_MAX_NODES && n <= COMPILE_MAX_NODES, "{n} nodes");
        let mut jit = Jit::compile(&p).expect("compiles");
        assert!(jit.interpreted().is_empty(), "{:?}", jit.interpreted());
        agree(&mut jit, &p, f, &[0, 1, 2, 999, 1000, 3999, 4000, 4001, 1 << 40], false);
    });
}

#[test]
fn a_function_too_large_to_compile_is_handed_to_the_interpreter() {
    on_stack(TESTER_STACK, move || {
        let (p, f) = equations(COMPILE_MAX_NODES / 5 + 100);
        assert!(nodes(&p, f) > COMPILE_MAX_NODES);
        let mut jit = Jit::compile(&p).expect("compiles the rest");
        let left: Vec<&str> = jit.interpreted().iter().map(|i| i.name.as_str()).collect();
        assert_eq!(left, [p.fun(f).name.as_str()]);
        assert!(jit.interpreted()[0].why.contains("IR nodes"), "{:?}", jit.interpreted());
        assert_eq!(codegen::too_large_to_compile(&p), jit.interpreted());
        let limits = Limits::default();
        assert_eq!(jit.call(f, &[Value::nat(3)], &limits), Err(JitOutcome::NotSupported));
        agree(&mut jit, &p, f, &[0, 3, 10_099], true);
    });
}

#[test]
fn a_body_too_deep_for_the_stack_is_left_to_the_interpreter() {
    // 9,000 equations nest 9,000 tests deep, too deep for the passes and the translation
    // in 512 KiB: the JIT leaves the function to the interpreter, without overflowing.
    // (The program is built and dropped on a large stack: lowering, cloning and dropping a
    // body recurse as deep as it is nested.)
    on_stack(TESTER_STACK, || {
        let (p, f) = equations(9000);
        assert!(nodes(&p, f) <= COMPILE_MAX_NODES);
        let p = std::sync::Arc::new(p);
        let q = p.clone();
        on_stack(512 << 10, move || {
            let mut jit = Jit::compile(&q).expect("compiles");
            let left: Vec<&str> = jit.interpreted().iter().map(|i| i.name.as_str()).collect();
            assert_eq!(left, [q.fun(f).name.as_str()]);
            assert!(jit.interpreted()[0].why.contains("nested"), "{:?}", jit.interpreted());
            assert_eq!(jit.call(f, &[Value::nat(3)], &Limits::default()), Err(JitOutcome::NotSupported));
        });
        // On the testers' stack it compiles.
        let mut jit = Jit::compile(&p).expect("compiles");
        assert!(jit.interpreted().is_empty(), "{:?}", jit.interpreted());
        agree(&mut jit, &p, f, &[0, 5, 100, 8999, 9000], false);
    });
}

#[test]
fn compiling_stops_at_its_deadline() {
    let (p, _) = equations(50);
    let err = Jit::with_deadline(&p, 1 << 16, &[], Some(Instant::now())).err().expect("past its deadline");
    assert!(err.timed_out, "{err}");
    let jit = Jit::with_deadline(&p, 1 << 16, &[], Some(Instant::now() + Duration::from_secs(60)));
    assert!(jit.is_ok());
}

/// An arena that cannot be had is an error the caller survives (it runs the interpreter),
/// not an abort of the process.
#[test]
fn an_arena_too_large_is_an_error_not_an_abort() {
    let (p, _) = equations(3);
    let err = Jit::with_arena(&p, usize::MAX / 4).err().expect("no arena of that size");
    assert!(err.message.contains("no memory for an arena"), "{}", err.message);
}
