//! Differential test over the prelude and the shared examples: every function of
//! `theories/Main.thy` and of `/work/shared/examples/*.thy`, instantiated at `nat` (and at
//! `int`), agrees between JIT and interpreter on generated inputs, smallest sizes first.

use crate::common::{check_call, Tally};
use crate::gen::{value, Rng};
use crate::signatures::{instantiate, signatures};
use codegen::Jit;
use lang::core::ir::{FunId, Program, Ty};
use lang::interp::{print_value, Limits};
use std::path::Path;

/// Helper functions, so that function-typed parameters have something to be.
const HELPERS: &str = r#"
definition inc :: "nat ⇒ nat" where "inc x = x + 1"
definition dbl :: "int ⇒ int" where "dbl x = 2 * x - 1"
definition small :: "nat ⇒ bool" where "small x = (x < 3)"
definition neg_ :: "int ⇒ bool" where "neg_ x = (x < 0)"
definition add3 :: "nat ⇒ nat ⇒ nat" where "add3 x y = x + y + 3"
definition isub :: "int ⇒ int ⇒ int" where "isub x y = x - y"
definition pick :: "nat ⇒ nat option" where "pick x = (if x mod 2 = 0 then Some (x div 2) else None)"
definition ipick :: "int ⇒ int option" where "ipick x = (if x < 0 then None else Some (x * x))"
definition lst :: "nat ⇒ nat list" where "lst x = [x, x + 1]"
definition ilst :: "int ⇒ int list" where "ilst x = [x, -x]"
definition lessn :: "nat ⇒ nat ⇒ bool" where "lessn x y = (x < y)"
definition lessi :: "int ⇒ int ⇒ bool" where "lessi x y = (y < x)"
definition cmp_pl :: "(nat × int list) list ⇒ (nat × int list) list ⇒ bool × bool × bool" where
  "cmp_pl a b = (a < b, a ≤ b, a = b)"
definition cmp_ol :: "(nat option × bool) list list ⇒ (nat option × bool) list list ⇒ bool × bool × bool" where
  "cmp_ol a b = (a < b, a ≤ b, a = b)"
definition cmp_s :: "(nat + int list) option ⇒ (nat + int list) option ⇒ bool × bool × bool" where
  "cmp_s a b = (a < b, a ≤ b, a = b)"
definition fin_ :: "nat list ⇒ int list ⇒ bool × bool × bool" where
  "fin_ xs ys = (finite (set xs), finite (- set ys), finite (- set (map (λx. 2 < x) xs)))"
definition sizes_ :: "nat list list ⇒ (nat × int) option ⇒ nat + bool ⇒ nat" where
  "sizes_ xss p s = size xss + size p + size s + size (length xss) + size (xss = [])"
definition dom_ :: "(nat × int) list ⇒ nat ⇒ nat ⇒ bool × bool" where
  "dom_ xs k j = (k ∈ dom (map_of xs), (k, j) ∈ rtrancl (set (map (λp. (fst p, nat (snd p))) xs)))"
definition compr_ :: "nat list list ⇒ (nat option × int) list ⇒ nat list × int list" where
  "compr_ xss ps = ([h + length t. (h # t) ← xss], [i. (Some _, i) ← ps, 0 < i])"
definition rel_ :: "(nat × nat) list ⇒ (nat × nat) list ⇒ nat ⇒ nat ⇒ bool × bool × bool × nat option" where
  "rel_ xs ys a b = ((a, b) ∈ (set xs)⇧+ O (set ys)¯, (a, b) ∈ (set xs)⇧=, (a, b) ∈ (set xs O set ys)⇧*,
     (map_of xs ++ map_of ys) a)"
"#;

const HELPER_VALUES: &[&str] = &[
    "inc :: nat ⇒ nat",
    "dbl :: int ⇒ int",
    "small :: nat ⇒ bool",
    "neg_ :: int ⇒ bool",
    "add3 :: nat ⇒ nat ⇒ nat",
    "isub :: int ⇒ int ⇒ int",
    "pick :: nat ⇒ nat option",
    "ipick :: int ⇒ int option",
    "lst :: nat ⇒ nat list",
    "ilst :: int ⇒ int list",
    "lessn :: nat ⇒ nat ⇒ bool",
    "lessi :: int ⇒ int ⇒ bool",
    "cmp_pl",
    "cmp_ol",
    "cmp_s",
    "fin_",
    "sizes_",
    "dom_",
    "compr_",
    "rel_",
];

/// The program with every function of `defs` instantiated at nat and at int.
fn program_for(prefix: &str, defs: &str, body_end: &str) -> Program {
    let mut values = String::new();
    for (name, ty) in signatures(defs) {
        for inst in ["nat", "int"] {
            values.push_str(&format!("value \"({name} :: {})\"\n", instantiate(&ty, inst)));
        }
    }
    for v in HELPER_VALUES {
        values.push_str(&format!("value \"({v})\"\n"));
    }
    let text = format!("{prefix}\n{HELPERS}\n{values}\n{body_end}");
    let mut th = lang::check_theory(&text);
    let indices: Vec<usize> = th.value_indices();
    assert!(!indices.is_empty(), "no value commands checked");
    let mut last = Program::default();
    for i in indices {
        last = th.lower_value(i).0.clone();
    }
    last
}

/// Checks every function of `p` on `per_fun` generated argument tuples, sizes ascending.
fn check_program(label: &str, p: &Program, per_fun: u32, seed: u64, tally: &mut Tally) -> Vec<String> {
    let t0 = std::time::Instant::now();
    let mut jit = Jit::compile(p).unwrap_or_else(|e| panic!("{label}: {e}"));
    eprintln!("{label}: compiled {} functions in {:?}", p.funs.len(), t0.elapsed());
    let limits = Limits { fuel: 1_000_000, max_depth: 10_000, deadline: None };
    let mut failures = Vec::new();
    let mut rng = Rng::new(seed);
    for (i, f) in p.funs.iter().enumerate() {
        if f.params.is_empty() {
            continue;
        }
        let tys: Vec<Ty> = f.params.iter().map(|(_, t)| t.clone()).collect();
        for k in 0..per_fun {
            let size = k * 8 / per_fun;
            let Some(args) = tys.iter().map(|t| value(p, t, size, &mut rng)).collect::<Option<Vec<_>>>() else {
                break;
            };
            match check_call(&mut jit, FunId(i as u32), &args, &limits) {
                Ok(v) => tally.add(v),
                Err(msg) => {
                    let shown: Vec<String> = args.iter().zip(&tys).map(|(a, t)| print_value(p, a, t)).collect();
                    failures.push(format!("{label}: {} {}\n{msg}", f.name, shown.join(" ")));
                    break; // the first (smallest) failing input of this function
                }
            }
        }
    }
    failures
}

#[test]
fn prelude_functions_agree() {
    let main = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../theories/Main.thy")).unwrap();
    let p = program_for("theory T imports Main begin", &main, "end");
    assert!(p.funs.len() > 80, "only {} functions instantiated", p.funs.len());
    let mut tally = Tally::default();
    let failures = check_program("Main", &p, 40, 1, &mut tally);
    eprintln!("prelude: {} functions, {tally:?}", p.funs.len());
    assert!(failures.is_empty(), "{} disagreement(s):\n{}", failures.len(), failures.join("\n\n"));
    assert!(tally.agree > 2000, "{tally:?}");
    assert!(tally.handed_over > 0, "{tally:?}");
}

#[test]
fn example_functions_agree() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/acceptance");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "thy"))
        .collect();
    files.sort();
    assert!(files.len() >= 7, "acceptance theories found: {files:?}");
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let Some(end) = text.rfind("end") else { continue };
        let p = program_for(&text[..end], &text, "end");
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        failures.extend(check_program(&name, &p, 25, 2, &mut tally));
    }
    eprintln!("examples: {tally:?}");
    assert!(failures.is_empty(), "{} disagreement(s):\n{}", failures.len(), failures.join("\n\n"));
}
