//! Fuzzing the limits: random theories with deep types, large numerals in patterns and
//! values, many constructors and many equations, each run by `hol check` under a 1 GiB data
//! limit. Every run must end by itself (no signal, no internal error) within the sum of its
//! parts' time limits plus a second, every output line must be a JSON record, and every
//! `value` whose result the generator knows must have it.
//!
//! The seed is fresh on every run and printed on failure; `HOL_FUZZ_SEED=N` replays one.

#[path = "../../tests/support/process.rs"]
mod process;

use process::{run_measured, End, MEMORY_LIMIT};
use std::fmt::Write as _;
use std::time::Duration;

const HOL: &str = env!("CARGO_BIN_EXE_hol");

/// Theories per run.
const THEORIES: usize = 24;

/// What a run may take beyond its parts' limits: start-up, reading and checking the file.
const SLACK: Duration = Duration::from_secs(2);

/// Time limit of a `value` command (`hol check`'s `VALUE_TIMEOUT`).
const VALUE_LIMIT: Duration = Duration::from_secs(5);

/// Time limit the generator gives each quickcheck command.
const QUICKCHECK_LIMIT: Duration = Duration::from_secs(1);

#[path = "../../tests/support/split_mix.rs"]
mod split_mix;
use split_mix::Rng;

impl Rng {
    /// A natural number of 1 to `max_digits` digits, as text and (when it fits) as a `u128`.
    fn numeral(&mut self, max_digits: u64) -> (String, Option<u128>) {
        let digits = self.range(1, max_digits);
        let mut text = self.range(1, 9).to_string();
        for _ in 1..digits {
            text.push(char::from(b'0' + self.range(0, 9) as u8));
        }
        let value = text.parse().ok();
        (text, value)
    }
}

/// A generated theory: its text, its time budget, and the values it expects.
struct Theory {
    text: String,
    budget: Duration,
    /// (line, expected result) of `value` commands.
    values: Vec<(usize, String)>,
}

/// Builds a theory part by part, keeping line numbers and the budget.
struct Builder {
    lines: Vec<String>,
    budget: Duration,
    values: Vec<(usize, String)>,
}

impl Builder {
    fn line(&mut self, text: impl Into<String>) {
        self.lines.push(text.into());
    }

    fn value(&mut self, term: &str, expected: Option<String>) {
        self.line(format!("value \"{term}\""));
        self.budget += VALUE_LIMIT;
        if let Some(e) = expected {
            self.values.push((self.lines.len(), e));
        }
    }

    fn lemma(&mut self, statement: &str, rng: &mut Rng) {
        let tester = rng.pick(&["random", "exhaustive"]);
        self.line(format!("lemma \"{statement}\""));
        self.line(format!("  quickcheck[{tester}, timeout = {}]", QUICKCHECK_LIMIT.as_secs()));
        self.line("  oops");
        self.budget += QUICKCHECK_LIMIT;
    }
}

/// One theory of 1 to 4 random parts.
fn theory(rng: &mut Rng, name: &str) -> Theory {
    let mut b = Builder { lines: vec![format!("theory {name} imports Main begin")], budget: SLACK, values: vec![] };
    for part in 0..rng.range(1, 4) {
        match rng.range(0, 5) {
            0 => deep_type(&mut b, rng),
            1 => curried_function(&mut b, rng),
            2 => numeral_pattern(&mut b, rng, part),
            3 => many_constructors(&mut b, rng, part),
            4 => many_equations(&mut b, rng, part),
            _ => large_values(&mut b, rng),
        }
    }
    b.line("end");
    let mut text = String::new();
    for l in &b.lines {
        let _ = writeln!(text, "{l}");
    }
    Theory { text, budget: b.budget, values: b.values }
}

/// `(x :: nat list option list …) = x`, up to 60 type constructors deep.
fn deep_type(b: &mut Builder, rng: &mut Rng) {
    let mut ty = "nat".to_owned();
    for _ in 0..rng.range(1, 60) {
        ty = match rng.range(0, 3) {
            0 | 1 => format!("{ty} list"),
            2 => format!("{ty} option"),
            _ => format!("({ty} × bool)"),
        };
    }
    b.lemma(&format!("(x :: {ty}) = x"), rng);
}

/// `f x1 … xn = f x1 … xn` for a curried function of up to 20 arguments.
fn curried_function(b: &mut Builder, rng: &mut Rng) {
    let n = rng.range(1, 20);
    let ty = vec!["nat"; n as usize + 1].join(" ⇒ ");
    let args: Vec<String> = (1..=n).map(|i| format!("x{i}")).collect();
    let call = format!("f {}", args.join(" "));
    b.lemma(&format!("(f :: {ty}) {} = {call}", args.join(" ")), rng);
}

/// A function and a `case` deciding on a numeral of up to 30 digits.
fn numeral_pattern(b: &mut Builder, rng: &mut Rng, part: u64) {
    let (n, _) = rng.numeral(30);
    let g = format!("g{part}");
    b.line(format!("fun {g} :: \"nat ⇒ nat\" where \"{g} {n} = 1\" | \"{g} _ = 0\""));
    b.value(&format!("{g} {n}"), Some("1".into()));
    b.value(&format!("{g} 7"), Some(if n == "7" { "1" } else { "0" }.into()));
    let (m, _) = rng.numeral(30);
    b.value(
        &format!("case ({m} :: nat) of {n} ⇒ True | _ ⇒ False"),
        Some(if m == n { "True" } else { "False" }.into()),
    );
    b.lemma(&format!("{g} x ≤ 1"), rng);
}

/// A datatype of up to 3,000 constructors and a function over it.
fn many_constructors(b: &mut Builder, rng: &mut Rng, part: u64) {
    let n = rng.range(1, 3000);
    let ctors: Vec<String> = (0..n).map(|i| format!("K{part}_{i}")).collect();
    b.line(format!("datatype t{part} = {}", ctors.join(" | ")));
    let last = &ctors[ctors.len() - 1];
    b.line(format!(
        "fun is_last{part} :: \"t{part} ⇒ bool\" where \"is_last{part} {last} = True\" | \"is_last{part} _ = False\""
    ));
    b.value(&format!("is_last{part} {last}"), Some("True".into()));
    b.value(&format!("is_last{part} {}", ctors[0]), Some(if n == 1 { "True" } else { "False" }.into()));
    b.lemma(&format!("is_last{part} x ⟶ x = {last}"), rng);
}

/// A function of up to 3,000 numeral equations.
fn many_equations(b: &mut Builder, rng: &mut Rng, part: u64) {
    let n = rng.range(1, 3000);
    let f = format!("f{part}");
    let equations: Vec<String> = (0..n).map(|i| format!("\"{f} {i} = {}\"", 2 * i)).collect();
    b.line(format!("fun {f} :: \"nat ⇒ nat\" where {} | \"{f} _ = 0\"", equations.join(" | ")));
    let m = rng.range(0, n + 1);
    b.value(&format!("{f} {m}"), Some(if m < n { (2 * m).to_string() } else { "0".into() }));
    b.lemma(&format!("{f} x ≤ 2 * x"), rng);
}

/// Arithmetic on numerals of up to 40 digits.
fn large_values(b: &mut Builder, rng: &mut Rng) {
    let (n, value) = rng.numeral(40);
    b.value(&format!("({n} :: nat) - {n}"), Some("0".into()));
    b.value(&format!("({n} :: int) div {n}"), Some("1".into()));
    let square = value.and_then(|v| v.checked_mul(v)).map(|v| v.to_string());
    b.value(&format!("({n} :: nat) * {n}"), square);
    b.lemma(&format!("x * {n} = {n} * (x :: nat)"), rng);
}

/// Runs one theory and says what is wrong with the run.
fn check(theory: &Theory, name: &str, dir: &std::path::Path) -> Result<(), String> {
    let file = format!("{name}.thy");
    std::fs::write(dir.join(&file), &theory.text).map_err(|e| e.to_string())?;
    let measured = run_measured(HOL, dir, &["check", "--format", "json", "--seed", "1", &file], theory.budget * 2)?;
    let run = &measured.run;
    let mut problems = Vec::new();
    if run.crashed() || !matches!(run.end, End::Exited(0..=2)) {
        problems.push(format!("did not end cleanly: {}", run.end));
    }
    if measured.took() > theory.budget + Duration::from_secs(1) {
        problems.push(format!(
            "took {:.2} s, over its budget of {} s",
            measured.took().as_secs_f64(),
            theory.budget.as_secs()
        ));
    }
    if measured.peak_memory > MEMORY_LIMIT {
        problems.push(format!("peak resident memory {} MiB", measured.peak_memory >> 20));
    }
    match run.records() {
        Err(e) => problems.push(e),
        Ok(records) => {
            for (line, expected) in &theory.values {
                let got = records.iter().find(|r| r["kind"] == "value" && r["line"].as_u64() == Some(*line as u64));
                match got.and_then(|r| r["result"].as_str()) {
                    Some(result) if result == expected => {}
                    other => problems.push(format!("line {line}: expected {expected}, got {other:?}")),
                }
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{}\n--- theory\n{}\n--- run\n{}", problems.join("\n"), abbreviate(&theory.text), run.output()))
    }
}

/// A theory's text with long lines cut, for failure messages.
fn abbreviate(text: &str) -> String {
    text.lines()
        .map(
            |l| {
                if l.chars().count() > 200 {
                    format!("{}…", l.chars().take(200).collect::<String>())
                } else {
                    l.into()
                }
            },
        )
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn random_adversarial_theories_end_within_their_limits() {
    let seed = match std::env::var("HOL_FUZZ_SEED") {
        Ok(s) => s.parse().expect("HOL_FUZZ_SEED must be a number"),
        Err(_) => std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64),
    };
    let dir = std::env::temp_dir().join(format!("hol-limits-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let mut rng = Rng(seed);
    let mut failures = Vec::new();
    for i in 0..THEORIES {
        let name = format!("Fuzz{i}");
        let t = theory(&mut rng, &name);
        if let Err(e) = check(&t, &name, &dir) {
            failures.push(format!("theory {i}: {e}"));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "seed {seed} (replay with HOL_FUZZ_SEED={seed}):\n{}", failures.join("\n\n"));
}

#[test]
fn generator_replays_from_its_seed() {
    let a = theory(&mut Rng(42), "T");
    let b = theory(&mut Rng(42), "T");
    assert_eq!(a.text, b.text);
    assert!(a.budget >= SLACK + VALUE_LIMIT.min(QUICKCHECK_LIMIT));
}
