//! The IR text form on programs the fixtures cannot express: clashing names, names that
//! need quoting, unused variable slots, and errors with positions.

use lang::core::ir::*;
use lang::core::parse::{parse_expr, parse_program};
use lang::core::print::{print_expr, print_program};
use num_bigint::{BigInt, BigUint};

fn nat(n: u32) -> Expr {
    Expr::Lit(Lit::Nat(BigUint::from(n)))
}

fn v(i: u32) -> Expr {
    Expr::Var(VarId(i))
}

/// Two datatypes `list[nat]`, two functions `f`, two predicates `p`, odd names.
fn tricky() -> Program {
    let list = |name: &str| DataDef {
        name: name.into(),
        args: vec![Ty::Nat],
        ctors: vec![
            CtorDef { name: "Nil".into(), fields: vec![] },
            CtorDef { name: "Cons".into(), fields: vec![Ty::Nat, Ty::Data(DataId(0))] },
        ],
    };
    let weird = DataDef {
        name: "case".into(),
        args: vec![],
        ctors: vec![
            CtorDef { name: "x\\<^sub>1".into(), fields: vec![] },
            CtorDef { name: "has space".into(), fields: vec![Ty::fun(Ty::Nat, Ty::set(Ty::Int))] },
            CtorDef { name: "_".into(), fields: vec![] },
        ],
    };
    let body = Expr::Case {
        scrut: Box::new(v(0)),
        data: DataId(2),
        alts: vec![
            Alt { tag: 1, binders: vec![VarId(3)], body: Expr::Apply(Box::new(v(3)), vec![nat(1)]) },
            Alt { tag: 2, binders: vec![], body: Expr::Undefined(Undef::Match("f \"quoted\"\n".into())) },
        ],
        default: Some(Box::new(Expr::Prim(Prim::SetEmpty(Ty::Int), vec![]))),
    };
    let f0 = FunDef {
        name: "f".into(),
        params: vec![(VarId(0), Ty::Data(DataId(2)))],
        ret: Ty::set(Ty::Int),
        body,
        num_vars: 9, // more slots than used
    };
    let f1 = FunDef {
        name: "f".into(),
        params: vec![(VarId(1), Ty::Nat), (VarId(0), Ty::Data(DataId(1)))],
        ret: Ty::Data(DataId(1)),
        body: Expr::Ctor(
            CtorRef { data: DataId(1), tag: 1 },
            vec![Expr::Call(FunId(2), vec![v(1)]), Expr::Ctor(CtorRef { data: DataId(1), tag: 0 }, vec![])],
        ),
        num_vars: 2,
    };
    let f2 = FunDef {
        name: "rev[nat list, 'a ⇒ b]".into(),
        params: vec![(VarId(0), Ty::Nat)],
        ret: Ty::Nat,
        body: Expr::Let(
            VarId(1),
            Ty::Int,
            Box::new(Expr::Lit(Lit::Int(BigInt::from(-5)))),
            Box::new(Expr::If(
                Box::new(Expr::Pred(PredId(1), vec![v(0)])),
                Box::new(Expr::Prim(Prim::NatOfInt, vec![v(1)])),
                Box::new(Expr::Apply(Box::new(Expr::FunRef(FunId(0))), vec![v(0)])),
            )),
        ),
        num_vars: 2,
    };
    let f3 = FunDef {
        name: "g".into(),
        params: vec![(VarId(0), Ty::Nat)],
        ret: Ty::Nat,
        body: Expr::NatCase { scrut: Box::new(v(0)), zero: Box::new(nat(0)), pred: VarId(1), succ: Box::new(v(1)) },
        num_vars: 2,
    };
    let pred = |name: &str| InductiveDef {
        name: name.into(),
        params: vec![Ty::Nat],
        clauses: vec![
            Clause { vars: vec![], head: vec![nat(0)], premises: vec![], num_vars: 0 },
            Clause {
                vars: vec![(VarId(0), Ty::Nat)],
                head: vec![Expr::Prim(Prim::Suc, vec![v(0)])],
                premises: vec![Expr::Pred(PredId(0), vec![v(0)]), Expr::Lit(Lit::Bool(true))],
                num_vars: 4,
            },
        ],
    };
    Program {
        datas: vec![list("list"), list("list"), weird],
        funs: vec![f0, f1, f2, f3],
        inductives: vec![pred("p"), pred("p")],
        code: vec![],
    }
}

#[test]
fn tricky_program_round_trips() {
    let p = tricky();
    let text = print_program(&p);
    let q = parse_program(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(q, p, "\n{text}");
    assert!(text.contains("list#1[nat]::Cons(@rev[nat list, 'a ⇒ b](v1), list#1[nat]::Nil)"), "{text}");
    assert!(text.contains("fun rev[nat list, 'a ⇒ b](v0: nat)"), "{text}");
    assert!(text.contains("apply(@#0, v0)"), "{text}");
    assert!(text.contains("<== pred #0(v0), True vars 4"), "{text}");
    assert!(text.contains("vars 9"), "{text}");
    assert!(text.contains("data \"case\" = \"x\\\\<^sub>1\""), "{text}");
}

#[test]
fn expressions_round_trip() {
    let p = tricky();
    for src in [
        "all v0: nat in set_insert[nat](1, set_empty[nat]()). ex1 v1: bool. eq[bool](v1, True)",
        "{v0: (nat => nat). True}",
        "fn(v0: nat, v1: (nat => bool)) => apply(v1, v0)",
        "let v0: int = -18446744073709551616i in neg(v0)",
        "case @g(3) : nat { 0 => 1  Suc(v0) => v0 }",
        "pred #1(5)",
        "undefined",
    ] {
        let e = parse_expr(&p, src).unwrap_or_else(|err| panic!("{src}: {err}"));
        let printed = print_expr(&p, &e);
        assert_eq!(parse_expr(&p, &printed).unwrap(), e, "{src} printed as {printed}");
    }
}

#[test]
fn errors_have_positions() {
    let err = parse_program("data t = A\n\nfun f(v0: nat) -> t =\n  t::B\n").unwrap_err();
    assert_eq!((err.line, err.column), (4, 6), "{err}");
    assert!(err.message.contains("not a constructor"), "{err}");
    let err = parse_program("fun f(v0: nat) -> nat =\n  @g(v0)\n").unwrap_err();
    assert_eq!((err.line, err.column), (2, 4), "{err}");
    let err = parse_program("fun f(v0: nat) -> list[nat] = v0").unwrap_err();
    assert!(err.message.contains("unknown datatype `list`"), "{err}");
    let err = parse_program("fun f(v0: nat) -> nat = add_nat(v0, ").unwrap_err();
    assert!(err.message.contains("end of input"), "{err}");
}

#[test]
fn parser_never_panics_on_truncated_or_mangled_input() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ir");
    let files = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path());
    for path in files.filter(|p| p.extension().is_some_and(|e| e == "ir")) {
        let text = std::fs::read_to_string(path).unwrap();
        let text = text.get(..3000.min(text.len())).unwrap_or(&text);
        for (i, _) in text.char_indices().step_by(7) {
            let _ = parse_program(&text[..i]);
            let mangled = format!("{}\"{}", &text[..i], &text[i..]);
            let _ = parse_program(&mangled);
            let swapped = format!("{}#99{}", &text[..i], &text[i..]);
            let _ = parse_program(&swapped);
        }
    }
}
