//! The interpreter API on values: deep data on an ordinary thread's stack, finite maps from
//! generators, enumeration of finite types, printing, deadlines.

use lang::core::ir::{FunId, Program, Ty};
use lang::core::parse::{parse_expr, parse_program, parse_ty};
use lang::core::type_syntax::print_type;
use lang::interp::{call, cardinality, enumerate, print_value, EvalError, Interp, Limits, SetValue, Value};
use std::time::{Duration, Instant};

const PROGRAM: &str = r#"
data list[nat] = Nil | Cons(nat, list[nat])
data tree = Leaf | Node(tree, nat, tree)
data a2 = a1 | a2
data a3 = a1 | a2 | a3
data option[a3] = None | Some(a3)
data prod[a3, bool] = Pair(a3, bool)
data sum[a2, a3] = Inl(a2) | Inr(a3)
data unit = Unity
data prod[nat, bool] = Pair(nat, bool)
data option[(nat => nat)] = None | Some((nat => nat))

; [n - 1, ..., 0] ++ acc, tail-recursively
fun down(v0: nat, v1: list[nat]) -> list[nat] =
  case v0 : nat {
    0 => v1
    Suc(v2) => @down(v2, list[nat]::Cons(v2, v1))
  }
fun len(v0: list[nat], v1: nat) -> nat =
  case v0 : list[nat] {
    Nil => v1
    Cons(v2, v3) => @len(v3, suc(v1))
  }
fun eq_list(v0: list[nat], v1: list[nat]) -> bool = eq[list[nat]](v0, v1)
fun lt_list(v0: list[nat], v1: list[nat]) -> bool = lt[list[nat]](v0, v1)
; a chain of n closures, each adding one to the previous
fun chain(v0: nat, v1: (nat => nat)) -> (nat => nat) =
  case v0 : nat {
    0 => v1
    Suc(v2) => @chain(v2, fn(v3: nat) => suc(apply(v1, v3)))
  }
fun id() -> (nat => nat) = fn(v0: nat) => v0
fun loop(v0: nat) -> nat = @loop(suc(v0))
"#;

fn program() -> Program {
    parse_program(PROGRAM).unwrap()
}

fn ty(p: &Program, s: &str) -> Ty {
    parse_ty(p, s).unwrap()
}

fn fun(p: &Program, name: &str) -> FunId {
    FunId(p.funs.iter().position(|f| f.name == name).unwrap() as u32)
}

/// `[0, 1, ..., n - 1]` built directly as a value (Nil = tag 0, Cons = tag 1).
fn list(n: u64) -> Value {
    let mut v = Value::nullary(0);
    for i in (0..n).rev() {
        v = Value::ctor(1, vec![Value::nat(i), v]);
    }
    v
}

const BIG: u64 = 1_000_000;

#[test]
fn long_lists_on_a_small_stack() {
    // Test threads have small stacks: printing, comparing and dropping a list of a million
    // elements must not recurse on its length.
    let p = program();
    let lt = ty(&p, "list[nat]");
    let (a, b) = (list(BIG), list(BIG));
    assert_eq!(a, b);
    let printed = print_value(&p, &a, &lt);
    assert!(printed.starts_with("[0, 1, 2, "));
    assert!(printed.ends_with(", 999998, 999999]"));
    let c = Value::ctor(1, vec![Value::nat(0), list(BIG - 1)]); // [0, 0, 1, ...]
    assert!(c < a && c != a);
    let mut interp = Interp::new(&p);
    let l = Limits::default();
    assert_eq!(interp.call(fun(&p, "eq_list"), vec![a.clone(), b.clone()], &l), Ok(Value::Bool(true)));
    assert_eq!(interp.call(fun(&p, "lt_list"), vec![c.clone(), a.clone()], &l), Ok(Value::Bool(true)));
    assert_eq!(interp.call(fun(&p, "len"), vec![a.clone(), Value::nat(0)], &l), Ok(Value::nat(BIG)));
    drop((a, b, c));
}

#[test]
fn long_list_built_by_the_interpreter() {
    let p = program();
    let l = Limits::default();
    let v = call(&p, fun(&p, "down"), vec![Value::nat(BIG), Value::nullary(0)], &l).unwrap();
    assert_eq!(v, list(BIG));
}

#[test]
fn deep_tree_on_a_small_stack() {
    let p = program();
    let mut t = Value::nullary(0);
    for i in 0..BIG {
        t = Value::ctor(1, vec![t, Value::nat(i), Value::nullary(0)]);
    }
    let printed = print_value(&p, &t, &ty(&p, "tree"));
    assert!(printed.starts_with("Node (Node (Node "));
    assert!(printed.ends_with(" 999998 Leaf) 999999 Leaf"));
    assert_eq!(t.clone(), t);
}

#[test]
fn deep_closure_chain() {
    let p = program();
    let l = Limits::default();
    let id = call(&p, fun(&p, "id"), vec![], &l).unwrap();
    let mut interp = Interp::new(&p);
    let short = interp.call(fun(&p, "chain"), vec![Value::nat(1000), id.clone()], &l).unwrap();
    assert_eq!(interp.apply(short, vec![Value::nat(5)], &l), Ok(Value::nat(1005)));
    // Applying a chain longer than the depth limit is too deep; dropping it is fine.
    let long = interp.call(fun(&p, "chain"), vec![Value::nat(BIG), id], &l).unwrap();
    assert_eq!(interp.apply(long.clone(), vec![Value::nat(5)], &l), Err(EvalError::TooDeep));
    drop(long);
}

#[test]
fn finite_maps_from_generators() {
    let p = program();
    let f_ty = ty(&p, "(nat => nat)");
    let f = Value::fun_map(Value::nat(0), vec![(Value::nat(3), Value::nat(4)), (Value::nat(1), Value::nat(2))]);
    assert_eq!(print_value(&p, &f, &f_ty), "(λ_. 0)(1 := 2, 3 := 4)");
    let some = Value::ctor(1, vec![f.clone()]);
    assert_eq!(print_value(&p, &some, &ty(&p, "option[(nat => nat)]")), "Some ((λ_. 0)(1 := 2, 3 := 4))");
    let mut interp = Interp::new(&p);
    let l = Limits::default();
    assert_eq!(interp.apply(f.clone(), vec![Value::nat(3)], &l), Ok(Value::nat(4)));
    assert_eq!(interp.apply(f.clone(), vec![Value::nat(7)], &l), Ok(Value::nat(0)));
    // Later updates win, updates to the default disappear: f(3 := 0) = (λ_. 0)(1 := 2).
    let g = Value::fun_map(
        Value::nat(0),
        vec![(Value::nat(1), Value::nat(2)), (Value::nat(3), Value::nat(4)), (Value::nat(3), Value::nat(0))],
    );
    assert_eq!(print_value(&p, &g, &f_ty), "(λ_. 0)(1 := 2)");
    // Finite maps over an infinite domain compare by their entries.
    assert_eq!(interp.equal(&f, &g, &f_ty, &l), Ok(false));
    let f2 = Value::fun_map(Value::nat(0), vec![(Value::nat(1), Value::nat(2)), (Value::nat(3), Value::nat(4))]);
    assert_eq!(interp.equal(&f, &f2, &f_ty, &l), Ok(true));
    // A closure over nat cannot be compared.
    let id = interp.call(fun(&p, "id"), vec![], &l).unwrap();
    assert_eq!(
        interp.equal(&f, &id, &f_ty, &l),
        Err(EvalError::NotExecutable("equality of functions over nat".into()))
    );
    assert_eq!(print_value(&p, &id, &f_ty), "<function>");
}

#[test]
fn enumeration_of_finite_types() {
    let p = program();
    let count = |s: &str| enumerate(&p, &ty(&p, s)).map(|v| v.len());
    assert_eq!(count("bool"), Some(2));
    assert_eq!(count("a3"), Some(3));
    assert_eq!(count("unit"), Some(1));
    assert_eq!(count("option[a3]"), Some(4));
    assert_eq!(count("prod[a3, bool]"), Some(6));
    assert_eq!(count("sum[a2, a3]"), Some(5));
    assert_eq!(count("(a3 => bool)"), Some(8));
    assert_eq!(count("(a2 => a3)"), Some(9));
    assert_eq!(count("(a2 => a2 => bool)"), Some(16));
    assert_eq!(count("set[a3]"), Some(8));
    assert_eq!(count("set[set[a2]]"), Some(16));
    assert_eq!(count("nat"), None);
    assert_eq!(count("int"), None);
    assert_eq!(count("list[nat]"), None);
    assert_eq!(count("tree"), None);
    assert_eq!(count("(a3 => nat)"), None);
    assert_eq!(count("prod[nat, bool]"), None);
    // 2^27 values: finite, but refused.
    assert_eq!(cardinality(&p, &ty(&p, "set[(a3 => a3)]")), Some(1 << 27));
    assert_eq!(count("set[(a3 => a3)]"), None);
    // Ascending and distinct, and printed as Isabelle would.
    for s in ["a3", "option[a3]", "(a2 => a3)", "set[a3]", "prod[a3, bool]", "sum[a2, a3]"] {
        let vals = enumerate(&p, &ty(&p, s)).unwrap();
        assert!(vals.windows(2).all(|w| w[0] < w[1]), "{s} not ascending");
    }
    let show = |s: &str| {
        let t = ty(&p, s);
        enumerate(&p, &t).unwrap().iter().map(|v| print_value(&p, v, &t)).collect::<Vec<_>>().join("; ")
    };
    assert_eq!(show("option[a3]"), "None; Some a1; Some a2; Some a3");
    assert_eq!(show("set[a2]"), "{}; {a1}; {a1, a2}; {a2}");
    assert_eq!(show("prod[a3, bool]"), "(a1, False); (a1, True); (a2, False); (a2, True); (a3, False); (a3, True)");
    assert_eq!(show("(a2 => bool)"), "(λ_. False); (λ_. False)(a1 := True); (λ_. False)(a2 := True); (λ_. True)");
}

#[test]
fn quantifier_over_enumerated_functions() {
    // ∀f :: a2 ⇒ a2. f ∘ f ∘ f = f  (true of all four functions)
    let p = program();
    let e =
        parse_expr(&p, "all v0: (a2 => a2). all v1: a2. eq[a2](apply(v0, apply(v0, apply(v0, v1))), apply(v0, v1))")
            .unwrap();
    assert_eq!(Interp::new(&p).eval(&e, 2, &Limits::default()), Ok(Value::Bool(true)));
}

#[test]
fn deadline() {
    let p = program();
    let l = Limits { deadline: Some(Instant::now() + Duration::from_millis(30)), ..Limits::default() };
    let start = Instant::now();
    assert_eq!(call(&p, fun(&p, "loop"), vec![Value::nat(0)], &l), Err(EvalError::Timeout));
    assert!(start.elapsed() < Duration::from_secs(5));
    let small = Limits { fuel: 10, ..Limits::default() };
    assert_eq!(call(&p, fun(&p, "loop"), vec![Value::nat(0)], &small), Err(EvalError::OutOfFuel));
}

#[test]
fn sets_built_from_outside() {
    let p = program();
    let s = Value::set(SetValue::finite(vec![Value::nat(3), Value::nat(1), Value::nat(3)]));
    assert_eq!(print_value(&p, &s, &ty(&p, "set[nat]")), "{1, 3}");
    let c = Value::set(SetValue::cofinite(vec![Value::nat(2)]));
    assert_eq!(print_value(&p, &c, &ty(&p, "set[nat]")), "- {2}");
}

#[test]
fn types_in_theory_syntax() {
    let p = program();
    let show = |s: &str| print_type(&p, &ty(&p, s));
    assert_eq!(show("list[nat]"), "nat list");
    assert_eq!(show("prod[nat, bool]"), "nat × bool");
    assert_eq!(show("(nat => nat => bool)"), "nat ⇒ nat ⇒ bool");
    assert_eq!(show("((nat => nat) => bool)"), "(nat ⇒ nat) ⇒ bool");
    assert_eq!(show("set[(a3 => bool)]"), "(a3 ⇒ bool) set");
    assert_eq!(show("option[(nat => nat)]"), "(nat ⇒ nat) option");
    assert_eq!(show("sum[a2, a3]"), "a2 + a3");
}

#[test]
fn one_interpreter_many_deep_calls() {
    // A recursion deeper than the calling thread's share of stack, again and again, with
    // failures in between: every call starts from a clean machine.
    let p = parse_program(
        "fun count_up(v0: nat) -> nat =\n  case v0 : nat {\n    0 => 0\n    Suc(v1) => suc(@count_up(v1))\n  }\n",
    )
    .unwrap();
    let mut interp = Interp::new(&p);
    let l = Limits::default();
    let shallow = Limits { max_depth: 1000, ..Limits::default() };
    for i in 0..50u64 {
        let n = 20_000 + i;
        assert_eq!(interp.call(FunId(0), vec![Value::nat(n)], &l), Ok(Value::nat(n)));
        assert_eq!(interp.call(FunId(0), vec![Value::nat(n)], &shallow), Err(EvalError::TooDeep));
    }
}
