//! Horn clauses from the core IR (`lang::core::horn`): their text form on a small theory,
//! and a differential test: run in checking mode (every parameter known, goals in order,
//! `Compute` goals as functions lifted into the program), exactly one clause of each
//! function gives a result on each argument, and it is the interpreter's value; none where
//! the function is undefined.

use lang::core::horn::{clauses, print_clauses, Goal, HornClause, Pattern};
use lang::core::ir::{Expr, FunDef, FunId, Lit, Program, Ty, VarId};
use lang::interp::{Int, Limits, Value};
use std::collections::HashMap;

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

const SORTED: &str = r#"theory T imports Main begin
fun sorted' :: "nat list ⇒ bool" where
  "sorted' [] = True"
| "sorted' [x] = True"
| "sorted' (x # y # zs) = (x ≤ y ∧ sorted' (y # zs))"
fun app :: "nat list ⇒ nat list ⇒ nat list" where
  "app [] ys = ys"
| "app (x # xs) ys = x # app xs ys"
fun len :: "nat list ⇒ nat" where
  "len [] = 0"
| "len (x # xs) = Suc (len xs)"
fun hd' :: "nat list ⇒ nat" where
  "hd' (x # xs) = x"
lemma "sorted' (app xs ys) ⟹ len xs = hd' ys"
  oops
end
"#;

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

/// The free variables of `e`, in order of first use.
fn free_vars(e: &Expr, bound: &mut Vec<VarId>, out: &mut Vec<VarId>) {
    if let Expr::Var(v) = e {
        if !bound.contains(v) && !out.contains(v) {
            out.push(*v);
        }
    }
    e.for_each_child(&mut |c, binders| {
        let n = bound.len();
        bound.extend_from_slice(binders);
        free_vars(c, bound, out);
        bound.truncate(n);
    });
}

/// Runs `c` with its parameters known (checking mode), every goal in order: the result
/// its head gives, or `None` when a goal fails. `Compute` goals run as functions of
/// their free variables, lifted into `prog`.
fn run_clause(prog: &mut Program, c: &HornClause, args: &[Value]) -> Option<Value> {
    let mut env: HashMap<VarId, Value> = HashMap::new();
    for (p, a) in c.head.iter().zip(args) {
        if !matches_pattern(p, a, &mut env) {
            return None;
        }
    }
    let limits = Limits::default();
    for g in &c.body {
        match g {
            Goal::Unify(v, p) => match env.get(v).cloned() {
                Some(x) => {
                    if !matches_pattern(p, &x, &mut env) {
                        return None;
                    }
                }
                None => {
                    let x = build(p, &env)?;
                    env.insert(*v, x);
                }
            },
            Goal::Call { fun, args, result } => {
                let args = args.iter().map(|a| build(a, &env)).collect::<Option<Vec<_>>>()?;
                let r = lang::interp::call(prog, *fun, args, &limits).ok()?;
                if !matches_pattern(result, &r, &mut env) {
                    return None;
                }
            }
            Goal::Pred(..) => unreachable!("no inductive predicate here"),
            Goal::Compute(target, e) => {
                let mut fv = Vec::new();
                free_vars(e, &mut Vec::new(), &mut fv);
                let params: Vec<(VarId, Ty)> =
                    fv.iter().map(|v| (*v, c.vars.iter().find(|(w, _)| w == v).unwrap().1.clone())).collect();
                let f = FunId(prog.funs.len() as u32);
                let ret = Ty::Bool;
                prog.funs.push(FunDef {
                    name: "computed".into(),
                    params,
                    ret,
                    body: e.clone(),
                    num_vars: lang::core::print::num_vars_of(e)
                        .max(c.vars.iter().map(|(v, _)| v.0 + 1).max().unwrap_or(0)),
                });
                let args = fv.iter().map(|v| env[v].clone()).collect();
                let r = lang::interp::call(prog, f, args, &limits).ok()?;
                if !matches_pattern(target, &r, &mut env) {
                    return None;
                }
            }
        }
    }
    build(c.head.last().expect("a result"), &env)
}

fn matches_pattern(p: &Pattern, v: &Value, env: &mut HashMap<VarId, Value>) -> bool {
    match (p, v) {
        (Pattern::Var(x), v) => match env.get(x) {
            Some(w) => w == v,
            None => {
                env.insert(*x, v.clone());
                true
            }
        },
        (Pattern::Lit(Lit::Bool(b)), Value::Bool(c)) => b == c,
        (Pattern::Lit(Lit::Nat(n)), Value::Int(i)) => i.to_bigint() == num_bigint::BigInt::from(n.clone()),
        (Pattern::Lit(Lit::Int(n)), Value::Int(i)) => i.to_bigint() == *n,
        (Pattern::Suc(p), Value::Int(i)) => {
            !i.is_zero() && matches_pattern(p, &Value::Int(i.sub(&Int::from(1i64))), env)
        }
        (Pattern::Ctor(c, ps), Value::Ctor(tag, fields)) => {
            c.tag == *tag && ps.iter().zip(fields.iter()).all(|(p, f)| matches_pattern(p, f, env))
        }
        _ => false,
    }
}

fn build(p: &Pattern, env: &HashMap<VarId, Value>) -> Option<Value> {
    Some(match p {
        Pattern::Var(x) => env.get(x)?.clone(),
        Pattern::Lit(Lit::Bool(b)) => Value::Bool(*b),
        Pattern::Lit(Lit::Nat(n)) => Value::Int(Int::from(i64::try_from(n.clone()).ok()?)),
        Pattern::Lit(Lit::Int(n)) => Value::Int(Int::from(i64::try_from(n.clone()).ok()?)),
        Pattern::Suc(p) => match build(p, env)? {
            Value::Int(i) => Value::Int(i.suc()),
            _ => return None,
        },
        Pattern::Ctor(c, ps) => Value::ctor(c.tag, ps.iter().map(|p| build(p, env)).collect::<Option<_>>()?),
    })
}

/// Exactly one clause of each function gives a result on each argument, and it is the
/// function's value (for `hd'`, whose `[]` is undefined, no clause at all there).
#[test]
fn clauses_agree_with_the_interpreter() {
    let th = lang::check_theory(SORTED);
    let c = th.lower_conjecture(0, &[]);
    let mut prog = c.program.clone();
    let list = |xs: &[u64]| xs.iter().rev().fold(Value::nullary(0), |t, x| Value::ctor(1, vec![Value::nat(*x), t]));
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut checked = 0;
    for name in ["sorted'", "app", "len", "hd'"] {
        let f = (0..prog.funs.len()).map(|i| FunId(i as u32)).find(|f| prog.fun(*f).name == name).unwrap();
        let cls = clauses(&prog, f);
        for _ in 0..200 {
            let args: Vec<Value> =
                prog.fun(f).params.iter().map(|_| list(&(0..next(5)).map(|_| next(4)).collect::<Vec<_>>())).collect();
            let want = lang::interp::call(&prog, f, args.clone(), &Limits::default()).ok();
            let got: Vec<Value> = cls.iter().filter_map(|c| run_clause(&mut prog, c, &args)).collect();
            match &want {
                Some(w) => assert_eq!(got, vec![w.clone()], "{name} on {args:?}"),
                None => assert!(got.is_empty(), "{name} on {args:?}: {got:?} where it is undefined"),
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 800);
}
