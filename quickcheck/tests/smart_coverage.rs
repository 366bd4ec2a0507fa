//! What the smart generators produce, against the exhaustive tester's space: on every lemma
//! with premises in the repository's theories (fixtures, bundled theories, acceptance
//! theories), each type variable a two-element type,
//! - every assignment the premise search produces satisfies every premise (the reference
//!   interpreter evaluates them), and
//! - every assignment of the exhaustive space at size `k` (`Spaces`, as the exhaustive
//!   tester enumerates it) that satisfies the premises is produced at generator size `k`
//!   and derivation depth `DEPTH_FOR(k)`, compared on the variables the premises read;
//!
//! both with the enumerators' functional goals in the interpreter and in compiled code.
//!
//! The depth–size correspondence: a value of size `k` is built by at most `k` recursive
//! steps of each relation, which run under one premise call and the calls of functions
//! run backwards inside it, so depth `3k + 3` covers it. Lemmas whose exhaustive space is
//! larger than `MAX_CASES` at size `k`, whose premise search does not finish within
//! `TIME` for both sizes (a recursive `Compute` in a deep plan), or whose premises derive a
//! transition system's states (`derivations_unbounded`: only the first check is made), are
//! skipped and counted; a minimum number
//! of lemmas compared is asserted so the test cannot pass by skipping everything.

use lang::core::conjecture::{Conjecture, TypeChoice};
use lang::interp::{Limits, Value};
use quickcheck::smart::enumerate::Flow;
use quickcheck::smart::premises::PremiseSearch;
use quickcheck::space::Spaces;
use quickcheck::Engine;
use std::collections::BTreeSet;
use std::path::Path;
use std::time::{Duration, Instant};

#[path = "../../tests/support/theories.rs"]
mod corpus;

const MAX_CASES: u64 = 5_000;
const TIME: Duration = Duration::from_millis(500);
const SIZES: [u64; 2] = [1, 2];

fn depth_for(k: u64) -> u32 {
    3 * k as u32 + 3
}

/// The premises' values on `vals`: `Some(true)` when all hold, `None` when one is undecided.
fn premises_hold(c: &Conjecture, vals: &[Value]) -> Option<bool> {
    let limits = Limits::default();
    for p in &c.premises {
        match lang::interp::call(&c.program, p.fun, vals.to_vec(), &limits) {
            Ok(Value::Bool(true)) => {}
            Ok(_) => return Some(false),
            Err(_) => return None,
        }
    }
    Some(true)
}

/// The variables some premise reads.
fn premise_vars(c: &Conjecture) -> Vec<usize> {
    (0..c.vars.len()).filter(|v| c.premises.iter().any(|p| p.uses.contains(v))).collect()
}

/// The exhaustive space's assignments at size `k` that satisfy the premises, projected on
/// the premises' variables; `None` when the space is too big or a premise is undecided.
#[allow(clippy::mutable_key_type)]
fn exhaustive_satisfying(c: &Conjecture, k: u64) -> Option<BTreeSet<Vec<Value>>> {
    let mut spaces = Spaces::new(&c.program);
    let spaces: Vec<_> = c.vars.iter().map(|v| spaces.space(&v.ty, k).ok()).collect::<Option<_>>()?;
    let total = spaces.iter().try_fold(1u64, |n, s| n.checked_mul(s.count()))?;
    if total > MAX_CASES {
        return None;
    }
    let keep = premise_vars(c);
    let mut out = BTreeSet::new();
    for mut n in 0..total {
        let vals: Vec<Value> = spaces
            .iter()
            .map(|s| {
                let v = s.value(n % s.count());
                n /= s.count();
                v
            })
            .collect();
        if premises_hold(c, &vals)? {
            out.insert(keep.iter().map(|v| vals[*v].clone()).collect());
        }
    }
    Some(out)
}

/// What the premise search produces at size `k`, checked against the premises as it goes;
/// `None` when it does not finish in `TIME`.
#[allow(clippy::mutable_key_type)]
fn smart_produced(
    c: &Conjecture,
    search: &PremiseSearch,
    k: u64,
    problems: &mut Vec<String>,
    label: &str,
) -> Option<BTreeSet<Vec<Value>>> {
    let keep = premise_vars(c);
    let mut out = BTreeSet::new();
    let stats = search.run(depth_for(k), k, &|| false, &mut |vals, holds| {
        if holds {
            let full: Vec<Value> = vals.iter().map(|v| v.clone().unwrap_or(Value::Bool(false))).collect();
            if premises_hold(c, &full) == Some(false) {
                problems.push(format!("{label}: size {k}: produced {full:?}, which fails a premise"));
            }
            out.insert(keep.iter().map(|v| vals[*v].clone().unwrap_or(Value::Bool(false))).collect());
        }
        Flow::Continue
    });
    (!stats.expired && !stats.too_big).then_some(out)
}

#[test]
fn smart_produces_exactly_the_premise_satisfying_assignments() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let files = corpus::theories(&root);
    // The theories split between two threads (CI has two cores).
    let (mut compared, mut skipped, mut problems) = (0, 0, Vec::new());
    std::thread::scope(|s| {
        let runs: Vec<_> = (0..THREADS)
            .map(|t| {
                let (files, root) = (&files, &root);
                s.spawn(move || compare_files(root, files.iter().skip(t).step_by(THREADS)))
            })
            .collect();
        for run in runs {
            let (c, k, p) = run.join().expect("a comparing thread");
            compared += c;
            skipped += k;
            problems.extend(p);
        }
    });
    eprintln!("{compared} (lemma, size) pairs compared, {skipped} skipped");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(compared >= 40, "only {compared} compared ({skipped} skipped)");
}

/// Threads of the comparison.
const THREADS: usize = 2;

/// Whether an inductive predicate of the lemma has a recursive premise that takes no part
/// of the head's arguments (`reach s ⟹ step s s' ⟹ reach s'`, `star r y z` for `star r x
/// z`): a transition system's states, whose derivations are not bounded by their size (a
/// small state may be many steps away), so the depth–size correspondence does not hold.
fn derivations_unbounded(c: &Conjecture) -> bool {
    use lang::core::ir::Expr;
    fn contains(e: &Expr, v: lang::core::ir::VarId) -> bool {
        match e {
            Expr::Var(w) => *w == v,
            Expr::Ctor(_, args) | Expr::Prim(_, args) => args.iter().any(|a| contains(a, v)),
            _ => false,
        }
    }
    c.program.inductives.iter().enumerate().any(|(i, def)| {
        def.clauses.iter().any(|cl| {
            cl.premises.iter().any(|p| match p {
                Expr::Pred(id, args) if id.0 as usize == i => !args.iter().zip(&cl.head).any(|(a, h)| match a {
                    Expr::Var(v) => !matches!(h, Expr::Var(_)) && contains(h, *v),
                    _ => false,
                }),
                _ => false,
            })
        })
    })
}

/// The (lemma, size) pairs compared, those skipped, and the problems found, over `files`.
#[allow(clippy::mutable_key_type)]
fn compare_files<'f>(root: &Path, files: impl Iterator<Item = &'f std::path::PathBuf>) -> (usize, usize, Vec<String>) {
    let (mut compared, mut skipped, mut problems) = (0, 0, Vec::new());
    for f in files {
        let text = std::fs::read_to_string(f).unwrap();
        let th = lang::check_theory(&text);
        for item in &th.items {
            let lang::ItemKind::Lemma { index, .. } = item.kind else { continue };
            let lemma = th.lemma(index);
            let choices = vec![TypeChoice::Finite(2); lemma.params.len()];
            let c = th.lower_conjecture(index, &choices);
            if c.premises.is_empty() || c.vars.is_empty() {
                continue;
            }
            let statement = text.get(lemma.span.start as usize..lemma.span.end as usize).unwrap_or("?");
            let label = format!("{}: lemma {index} \"{statement}\"", f.strip_prefix(root).unwrap_or(f).display());
            // The order of the premises is chosen once per lemma, as the tester does; the
            // enumerators' functional goals run in the interpreter, and in compiled code.
            let searches = [Engine::Interpreter, Engine::Compiled]
                .map(|e| (e, PremiseSearch::new(&c, e, Some(Instant::now() + TIME))));
            let unbounded = derivations_unbounded(&c);
            for k in SIZES {
                if unbounded {
                    // What is produced still satisfies the premises; whether it is all the
                    // exhaustive space lets through is not a matter of depth.
                    for (engine, search) in &searches {
                        let label = format!("{label} ({engine:?})");
                        let _ = smart_produced(&c, search, k, &mut problems, &label);
                    }
                    skipped += 1;
                    continue;
                }
                let Some(expected) = exhaustive_satisfying(&c, k) else {
                    skipped += 1;
                    continue;
                };
                for (engine, search) in &searches {
                    let label = format!("{label} ({engine:?})");
                    let Some(produced) = smart_produced(&c, search, k, &mut problems, &label) else {
                        skipped += 1;
                        continue;
                    };
                    compared += 1;
                    let missing: Vec<_> = expected.difference(&produced).take(3).collect();
                    if !missing.is_empty() {
                        problems.push(format!(
                            "{label}: size {k}: {} premise-satisfying assignments of the exhaustive space not produced, e.g. {missing:?}",
                            expected.difference(&produced).count()
                        ));
                    }
                }
            }
        }
    }
    (compared, skipped, problems)
}
