//! Runaway cases end as outcomes, never as a crash or a hang.

use codegen::{Jit, JitOutcome};
use lang::core::ir::{FunId, Program, Ty};
use lang::interp::{Limits, Value};
use std::time::{Duration, Instant};

/// The program and function of the theory's `value` number `n`.
fn value_fn(text: &str, n: usize) -> (Program, FunId, Ty) {
    let mut th = lang::check_theory(text);
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    let idx: Vec<usize> = th.value_indices();
    let (p, f, t) = th.lower_value(idx[n]);
    (p.clone(), f, t)
}

fn example(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/acceptance/errors").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

const LOOP: &str = "theory L imports Main begin
fun loop :: \"nat ⇒ nat\" where \"loop n = loop (Suc n)\"
value \"loop 0\"
end";

const COUNT_UP: &str = "theory C imports Main begin
fun count_up :: \"nat ⇒ nat\" where
  \"count_up 0 = 0\"
| \"count_up (Suc n) = Suc (count_up n)\"
value \"count_up 10000000\"
end";

#[test]
fn nontermination_ends_within_its_limits() {
    let text = example("nontermination.thy");
    let (p, f, _) = value_fn(&text, 0);
    let mut jit = Jit::compile(&p).unwrap();
    let limits = Limits { deadline: Some(Instant::now() + Duration::from_secs(2)), ..Limits::default() };
    let r = jit.call(f, &[], &limits);
    assert!(matches!(r, Err(JitOutcome::OutOfFuel | JitOutcome::Timeout)), "{r:?}");
    // A deadline alone stops it too.
    let limits =
        Limits { fuel: u64::MAX, max_depth: 100_000, deadline: Some(Instant::now() + Duration::from_millis(50)) };
    assert_eq!(jit.call(f, &[], &limits), Err(JitOutcome::Timeout));
}

#[test]
fn deep_recursion_is_too_deep_or_exact() {
    let text = example("deep_recursion.thy");
    let (p, f, _) = value_fn(&text, 0);
    let mut jit = Jit::compile(&p).unwrap();
    let r = jit.call(f, &[], &Limits::default());
    assert_eq!(r, Err(JitOutcome::TooDeep));
    // Without a depth limit, the machine stack is the limit: the case moves to a big stack
    // and either finishes or ends as TooDeep there.
    let limits = Limits { fuel: u64::MAX, max_depth: u32::MAX, deadline: None };
    let r = jit.call(f, &[], &limits);
    assert!(matches!(&r, Ok(v) if *v == Value::nat(10_000_000)) || r == Err(JitOutcome::TooDeep), "{r:?}");
}

#[test]
fn deep_recursion_on_a_small_thread_stack() {
    let (p, f, _) = value_fn(COUNT_UP, 0);
    let r = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            let mut jit = Jit::compile(&p).unwrap();
            let limits = Limits { fuel: u64::MAX, max_depth: 1_000_000, deadline: None };
            jit.call(f, &[], &limits).map(|v| format!("{v:?}"))
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(r, Err(JitOutcome::TooDeep));
}

#[test]
fn allocation_loop_runs_out_of_memory() {
    let text = "theory A imports Main begin
fun grow :: \"nat ⇒ nat list ⇒ nat list\" where \"grow n xs = grow (Suc n) (n # xs)\"
value \"grow 0 []\"
end";
    let (p, f, _) = value_fn(text, 0);
    let mut jit = Jit::with_arena(&p, 1 << 16).unwrap();
    assert_eq!(jit.call(f, &[], &Limits::default()), Err(JitOutcome::OutOfMemory));
    // The arena is reset between cases: the next case runs normally.
    let (q, g, _) = value_fn(COUNT_UP.replace("10000000", "100").as_str(), 0);
    let mut jit = Jit::with_arena(&q, 1 << 16).unwrap();
    assert_eq!(jit.call(g, &[], &Limits::default()), Ok(Value::nat(100)));
}

/// Recursion that only closes through a closure value: `spin` calls `app`, which is not
/// recursive itself and calls `spin` back through the function value.
const THROUGH_CLOSURE: &str = "theory T imports Main begin
definition app :: \"(nat ⇒ nat) ⇒ nat ⇒ nat\" where \"app f n = f n + 1\"
fun spin :: \"nat ⇒ nat\" where \"spin n = app spin (Suc n)\"
value \"spin 0\"
end";

/// Mutual recursion in tail position: neither function calls itself.
const PING_PONG: &str = "theory P imports Main begin
fun ping :: \"nat ⇒ bool\" and pong :: \"nat ⇒ bool\" where
  \"ping n = pong (Suc n)\"
| \"pong n = ping (Suc n)\"
value \"ping 0\"
end";

#[test]
fn recursion_through_closures_and_mutual_tail_calls_is_guarded() {
    let (p, f, _) = value_fn(THROUGH_CLOSURE, 0);
    let mut jit = Jit::compile(&p).unwrap();
    assert_eq!(jit.call(f, &[], &Limits::default()), Err(JitOutcome::TooDeep));
    let (p, f, _) = value_fn(PING_PONG, 0);
    let mut jit = Jit::compile(&p).unwrap();
    assert_eq!(jit.call(f, &[], &Limits { fuel: 1_000_000, ..Limits::default() }), Err(JitOutcome::OutOfFuel));
    let limits = Limits { fuel: u64::MAX, max_depth: 100, deadline: Some(Instant::now() + Duration::from_millis(50)) };
    assert_eq!(jit.call(f, &[], &limits), Err(JitOutcome::Timeout));
    // A self call in tail position is a loop that spends fuel at every turn.
    let (p, f, _) = value_fn(LOOP, 0);
    let mut jit = Jit::compile(&p).unwrap();
    assert_eq!(jit.call(f, &[], &Limits { fuel: 1_000_000, ..Limits::default() }), Err(JitOutcome::OutOfFuel));
}

#[test]
fn long_chains_of_calls_keep_their_values() {
    // 60 functions, each calling the next: no recursion, but more frames than
    // `call_graph::MAX_UNGUARDED_CHAIN`; every step adds one.
    let mut text =
        String::from("theory Chain imports Main begin\ndefinition c60 :: \"nat ⇒ nat\" where \"c60 n = n\"\n");
    for i in (0..60).rev() {
        text += &format!("definition c{i} :: \"nat ⇒ nat\" where \"c{i} n = Suc (c{} n)\"\n", i + 1);
    }
    text += "value \"c0 7\"\nend";
    let (p, f, _) = value_fn(&text, 0);
    let mut jit = Jit::compile(&p).unwrap();
    assert_eq!(jit.call(f, &[], &Limits::default()), Ok(Value::nat(67)));
    assert_eq!(jit.call(f, &[], &Limits { max_depth: 2, ..Limits::default() }), Err(JitOutcome::TooDeep));
}

#[test]
fn cells_built_around_self_calls_take_no_stack() {
    // `replicate` and `@` build a cell around their self call: compiled code runs them as
    // loops, so 200,000 elements need no depth at all.
    let text = "theory R imports Main begin
value \"last (replicate 200000 (0 :: nat) @ [1]) = 1\"
end";
    let (p, f, _) = value_fn(text, 0);
    let mut jit = Jit::compile(&p).unwrap();
    assert_eq!(jit.call(f, &[], &Limits { max_depth: 10, ..Limits::default() }), Ok(Value::Bool(true)));
}

#[test]
fn a_lambda_calling_its_own_function_compiles_once() {
    // `g` is small and recursive only through the λ in its body: were it inlined into the
    // λ, each copy would hold a new λ, and compiling would not end.
    let text = "theory G imports Main begin
fun g :: \"nat ⇒ nat ⇒ nat\" where
  \"g k n = (if n = 0 then k else (λx. g (x + 1) (n - 1)) k)\"
value \"g 0 5\"
end";
    let (p, f, _) = value_fn(text, 0);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let r = Jit::compile(&p).map(|mut jit| jit.call(f, &[], &Limits::default()));
        let _ = tx.send(format!("{r:?}"));
    });
    let r = rx.recv_timeout(Duration::from_secs(30)).expect("compiles and runs within 30 s");
    assert_eq!(r, format!("{:?}", Ok::<_, ()>(Ok::<_, ()>(Value::nat(5)))));
}

/// A loop keeps its fuel in a register: the fuel its callees spend must still count, and a
/// long loop must still run out. (The non-tail self calls, never taken, keep the loops from
/// being inlined into the `value`s: only a function's own body keeps fuel in a register.)
#[test]
fn fuel_of_a_loop_and_of_its_callees_counts() {
    let text = "theory F imports Main begin
fun depth :: \"nat ⇒ nat\" where \"depth 0 = 0\" | \"depth (Suc n) = Suc (depth n)\"
fun spin :: \"nat ⇒ nat ⇒ nat\" where
  \"spin 0 acc = acc\"
| \"spin (Suc n) acc = (if acc = 7 then spin (spin n acc) acc else spin n (acc + depth 1000))\"
fun count :: \"nat ⇒ nat\" where
  \"count 0 = 0\"
| \"count (Suc n) = (if n = 200000 then count (count n) else count n)\"
value \"spin 1000 0\"
value \"count 100000\"
end";
    let limits = |fuel| Limits { fuel, ..Limits::default() };
    // `spin` loops 1,000 times; each turn's call of `depth` spends 1,001 units.
    let (p, f, _) = value_fn(text, 0);
    let mut jit = Jit::compile(&p).unwrap();
    assert_eq!(jit.call(f, &[], &limits(2_000_000)), Ok(Value::nat(1_000_000)));
    assert_eq!(jit.call(f, &[], &limits(500_000)), Err(JitOutcome::OutOfFuel));
    // `count` is a loop of 100,000 turns.
    let (p, f, _) = value_fn(text, 1);
    let mut jit = Jit::compile(&p).unwrap();
    assert_eq!(jit.call(f, &[], &limits(200_000)), Ok(Value::nat(0)));
    assert_eq!(jit.call(f, &[], &limits(50_000)), Err(JitOutcome::OutOfFuel));
}
