//! Evaluates every law of `theories/laws.txt` on random inputs with the reference
//! interpreter: each law becomes a theory of `value "let x = <value> in <law>"` commands,
//! and every one must print `True`. Exercises the prelude, the elaborator, the lowering and
//! the interpreter together, through the public API only.

use lang::interp::Limits;
use lang::{check_theory, ValueOutcome};

const LAWS: &str = include_str!("../../theories/laws.txt");
/// Random assignments per law.
const CASES: usize = 60;

#[path = "../../tests/support/split_mix.rs"]
mod split_mix;
use split_mix::Rng;

#[derive(Clone, Debug)]
enum Ty {
    Nat,
    Int,
    Bool,
    List(Box<Ty>),
    Option(Box<Ty>),
    Prod(Box<Ty>, Box<Ty>),
    Sum(Box<Ty>, Box<Ty>),
    Fun(Box<Ty>, Box<Ty>),
}

/// Reads the type syntax of laws.txt: `⇒` (right, loosest), `+`, `×` (right), postfix
/// `list`/`option`, parentheses.
fn parse_ty(s: &str) -> Ty {
    let toks: Vec<String> = s.replace('(', " ( ").replace(')', " ) ").split_whitespace().map(str::to_string).collect();
    let mut pos = 0;
    let t = ty_fun(&toks, &mut pos);
    assert_eq!(pos, toks.len(), "trailing tokens in type {s:?}");
    t
}

fn ty_fun(t: &[String], p: &mut usize) -> Ty {
    let a = ty_sum(t, p);
    if t.get(*p).map(String::as_str) == Some("⇒") {
        *p += 1;
        return Ty::Fun(Box::new(a), Box::new(ty_fun(t, p)));
    }
    a
}

fn ty_sum(t: &[String], p: &mut usize) -> Ty {
    let a = ty_prod(t, p);
    if t.get(*p).map(String::as_str) == Some("+") {
        *p += 1;
        return Ty::Sum(Box::new(a), Box::new(ty_sum(t, p)));
    }
    a
}

fn ty_prod(t: &[String], p: &mut usize) -> Ty {
    let a = ty_postfix(t, p);
    if t.get(*p).map(String::as_str) == Some("×") {
        *p += 1;
        return Ty::Prod(Box::new(a), Box::new(ty_prod(t, p)));
    }
    a
}

fn ty_postfix(t: &[String], p: &mut usize) -> Ty {
    let mut a = match t[*p].as_str() {
        "(" => {
            *p += 1;
            let a = ty_fun(t, p);
            assert_eq!(t[*p], ")");
            *p += 1;
            a
        }
        "nat" => {
            *p += 1;
            Ty::Nat
        }
        "int" => {
            *p += 1;
            Ty::Int
        }
        "bool" => {
            *p += 1;
            Ty::Bool
        }
        other => panic!("unknown type {other}"),
    };
    loop {
        match t.get(*p).map(String::as_str) {
            Some("list") => a = Ty::List(Box::new(a)),
            Some("option") => a = Ty::Option(Box::new(a)),
            _ => return a,
        }
        *p += 1;
    }
}

fn show_ty(t: &Ty) -> String {
    match t {
        Ty::Nat => "nat".into(),
        Ty::Int => "int".into(),
        Ty::Bool => "bool".into(),
        Ty::List(a) => format!("({}) list", show_ty(a)),
        Ty::Option(a) => format!("({}) option", show_ty(a)),
        Ty::Prod(a, b) => format!("({} × {})", show_ty(a), show_ty(b)),
        Ty::Sum(a, b) => format!("({} + {})", show_ty(a), show_ty(b)),
        Ty::Fun(a, b) => format!("({} ⇒ {})", show_ty(a), show_ty(b)),
    }
}

/// A random value of `t` as a term; numbers small, lists short, `depth` bounds nesting.
fn gen(r: &mut Rng, t: &Ty, depth: u32) -> String {
    match t {
        Ty::Nat => {
            let bound = if r.below(4) == 0 { 40 } else { 8 };
            r.below(bound).to_string()
        }
        Ty::Int => {
            let (range, shift) = if r.below(4) == 0 { (60, 30) } else { (10, 5) };
            let n = r.below(range) as i64 - shift;
            if n < 0 {
                format!("({n})")
            } else {
                n.to_string()
            }
        }
        Ty::Bool => if r.below(2) == 0 { "True" } else { "False" }.into(),
        Ty::List(a) => {
            let max = if depth > 0 { 4 } else { 9 };
            let n = r.below(max + 1);
            let items: Vec<String> = (0..n).map(|_| gen(r, a, depth + 1)).collect();
            format!("[{}]", items.join(", "))
        }
        Ty::Option(a) => {
            if r.below(3) == 0 {
                "None".into()
            } else {
                format!("Some ({})", gen(r, a, depth + 1))
            }
        }
        Ty::Prod(a, b) => format!("({}, {})", gen(r, a, depth + 1), gen(r, b, depth + 1)),
        Ty::Sum(a, b) => {
            if r.below(2) == 0 {
                format!("Inl ({})", gen(r, a, depth + 1))
            } else {
                format!("Inr ({})", gen(r, b, depth + 1))
            }
        }
        Ty::Fun(a, b) => {
            let mut s = format!("(λ_. {})", gen(r, b, depth + 1));
            let n = r.below(4);
            if n > 0 {
                let ups: Vec<String> =
                    (0..n).map(|_| format!("{} := {}", gen(r, a, depth + 1), gen(r, b, depth + 1))).collect();
                s = format!("{s}({})", ups.join(", "));
            }
            s
        }
    }
}

struct Law {
    line: usize,
    term: String,
    vars: Vec<(String, Ty)>,
}

fn laws() -> Vec<Law> {
    let mut out = Vec::new();
    for (i, line) in LAWS.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (term, vars) = match line.rfind("\" ::") {
            Some(k) => (&line[1..k], &line[k + 4..]),
            None => (line.trim_matches('"'), ""),
        };
        let vars = vars
            .split(';')
            .filter(|v| !v.trim().is_empty())
            .map(|v| {
                let (name, ty) = v.split_once(':').unwrap_or_else(|| panic!("line {}: bad variable {v:?}", i + 1));
                (name.trim().to_string(), parse_ty(ty.trim()))
            })
            .collect();
        out.push(Law { line: i + 1, term: term.to_string(), vars });
    }
    out
}

#[test]
fn every_prelude_law_holds_on_random_inputs() {
    let laws = laws();
    assert!(laws.len() > 200, "laws.txt should hold the prelude's laws");
    let mut failures = Vec::new();
    let mut evaluated = 0;
    for (k, law) in laws.iter().enumerate() {
        let mut rng = Rng(0x5eed ^ (k as u64).wrapping_mul(0x1000_0001));
        let mut text = String::from("theory Laws imports Main begin\n");
        let mut cases = Vec::new();
        for _ in 0..CASES {
            let binds: Vec<String> =
                law.vars.iter().map(|(n, t)| format!("{n} = ({} :: {})", gen(&mut rng, t, 0), show_ty(t))).collect();
            let term =
                if binds.is_empty() { law.term.clone() } else { format!("let {} in {}", binds.join("; "), law.term) };
            text.push_str(&format!("value \"{term}\"\n"));
            cases.push(term);
        }
        text.push_str("end\n");
        let mut th = check_theory(&text);
        if let Some(d) = th.diagnostics.first() {
            let at = &text[d.primary.span.start as usize..d.primary.span.end as usize];
            failures.push(format!("laws.txt:{}: {} at `{at}`", law.line, d.message));
            continue;
        }
        let values: Vec<usize> = th.value_indices();
        assert_eq!(values.len(), CASES);
        for (case, index) in cases.iter().zip(values) {
            evaluated += 1;
            match th.eval_value(index, &Limits::default()) {
                ValueOutcome::Value { printed, .. } if printed == "True" => {}
                ValueOutcome::Value { printed, .. } => {
                    failures.push(format!("laws.txt:{}: {case} gave {printed}", law.line));
                    break;
                }
                ValueOutcome::Failed(e) => {
                    failures.push(format!("laws.txt:{}: {case}: {e}", law.line));
                    break;
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} laws failed ({evaluated} cases evaluated):\n{}",
        failures.len(),
        laws.len(),
        failures.join("\n")
    );
}
