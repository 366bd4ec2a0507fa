//! Side conditions of generalizations (Extrapolate §3.3): where no pattern fails on every
//! instance, one may fail on every instance that meets a condition over its variables,
//! `x # xs when x ∈ set xs`. The conditions are single atoms, smallest first: `≠`, `<` and
//! `≤` between variables of one type (order on numbers only), a number against 0, list
//! membership and non-emptiness, and the lemma's own boolean functions (those its program
//! reaches: Extrapolate's rule of thumb, "include in the background the functions occurring
//! in properties") applied to variables, and their negations.
//!
//! A condition is kept only if the lemma failed on every instance that met it, and it is
//! not neutral (Extrapolate): it held on at least two instances, and no variable of it took
//! a single value on them (`x = 0` would only restate a less general pattern). Of those,
//! the one that held on the most instances wins, the first listed on a tie. One met only by
//! instances of an unconditional generalization already reported (`ys ≠ []` beside
//! `ys = _ # _`) adds nothing and is not reported.

use super::instances::Sample;
use lang::core::ir::{FunId, Program, Ty};
use lang::interp::{Interp, Limits, Value};
use std::collections::HashSet;

/// A condition over the holes of a pattern.
#[derive(Clone, Debug, PartialEq)]
pub enum Atom {
    Ne(u32, u32),
    Lt(u32, u32),
    Le(u32, u32),
    /// `0 < x`.
    Positive(u32),
    /// `x < 0`.
    Negative(u32),
    /// `x ∈ set xs` (`false`: `x ∉ set xs`).
    Elem(u32, u32, bool),
    /// `xs ≠ []`.
    NonEmpty(u32),
    /// `f x y` (`false`: `¬ f x y`).
    Call(FunId, Vec<u32>, bool),
}

impl Atom {
    /// The holes the condition mentions.
    pub fn holes(&self) -> Vec<u32> {
        match self {
            Atom::Ne(a, b) | Atom::Lt(a, b) | Atom::Le(a, b) | Atom::Elem(a, b, _) => vec![*a, *b],
            Atom::Positive(a) | Atom::Negative(a) | Atom::NonEmpty(a) => vec![*a],
            Atom::Call(_, args, _) => args.clone(),
        }
    }

    /// In theory syntax, the holes named by `name`.
    pub fn words(&self, prog: &Program, name: &dyn Fn(u32) -> String) -> String {
        match self {
            Atom::Ne(a, b) => format!("{} ≠ {}", name(*a), name(*b)),
            Atom::Lt(a, b) => format!("{} < {}", name(*a), name(*b)),
            Atom::Le(a, b) => format!("{} ≤ {}", name(*a), name(*b)),
            Atom::Positive(a) => format!("0 < {}", name(*a)),
            Atom::Negative(a) => format!("{} < 0", name(*a)),
            Atom::Elem(a, b, true) => format!("{} ∈ set {}", name(*a), name(*b)),
            Atom::Elem(a, b, false) => format!("{} ∉ set {}", name(*a), name(*b)),
            Atom::NonEmpty(a) => format!("{} ≠ []", name(*a)),
            Atom::Call(f, args, positive) => {
                let base = prog.fun(*f).name.split('[').next().unwrap_or_default().to_string();
                let call = std::iter::once(base).chain(args.iter().map(|a| name(*a))).collect::<Vec<_>>().join(" ");
                if *positive {
                    call
                } else {
                    format!("¬ {call}")
                }
            }
        }
    }
}

/// The element type of a list type.
pub fn list_elem(prog: &Program, ty: &Ty) -> Option<Ty> {
    let Ty::Data(d) = ty else { return None };
    let d = prog.data(*d);
    (d.name == "list" && d.ctors.len() == 2).then(|| d.ctors[1].fields.first().cloned()).flatten()
}

fn numeric(ty: &Ty) -> bool {
    matches!(ty, Ty::Nat | Ty::Int)
}

/// The candidate conditions over holes `holes` (with their types), smallest first. `skip`:
/// functions of the program that are not the theory's (the lemma's own parts).
pub fn candidates(prog: &Program, holes: &[(u32, Ty)], skip: &HashSet<FunId>) -> Vec<Atom> {
    let mut out = Vec::new();
    for (i, (a, ta)) in holes.iter().enumerate() {
        if list_elem(prog, ta).is_some() {
            out.push(Atom::NonEmpty(*a));
        }
        if numeric(ta) {
            out.push(Atom::Positive(*a));
            if *ta == Ty::Int {
                out.push(Atom::Negative(*a));
            }
        }
        for (b, tb) in &holes[i + 1..] {
            if ta == tb {
                out.push(Atom::Ne(*a, *b));
                if numeric(ta) {
                    out.extend([Atom::Lt(*a, *b), Atom::Lt(*b, *a), Atom::Le(*a, *b), Atom::Le(*b, *a)]);
                }
            }
        }
    }
    for (a, ta) in holes {
        for (b, tb) in holes {
            if list_elem(prog, tb).as_ref() == Some(ta) {
                out.extend([Atom::Elem(*a, *b, true), Atom::Elem(*a, *b, false)]);
            }
        }
    }
    for (id, f) in prog.funs.iter().enumerate() {
        let id = FunId(id as u32);
        let theirs = !skip.contains(&id) && !f.name.contains(['.', '#', '$']);
        if !theirs || f.ret != Ty::Bool || f.params.is_empty() || f.params.len() > 2 {
            continue;
        }
        // Every way of applying it to distinct holes of its parameters' types.
        let mut args: Vec<Vec<u32>> = vec![Vec::new()];
        for (_, pty) in &f.params {
            let mut longer = Vec::new();
            for pre in &args {
                for (h, t) in holes {
                    if t == pty && !pre.contains(h) {
                        let mut a = pre.clone();
                        a.push(*h);
                        longer.push(a);
                    }
                }
            }
            args = longer;
        }
        for a in args {
            out.push(Atom::Call(id, a.clone(), true));
            out.push(Atom::Call(id, a, false));
        }
    }
    out
}

/// Whether `atom` holds where hole `h` has value `v(h)`; `None` when it has no truth
/// value there (an underspecified function, a case that did not finish).
pub fn holds<'v>(
    atom: &Atom,
    v: &dyn Fn(u32) -> Option<&'v Value>,
    interp: &mut Interp,
    limits: &Limits,
) -> Option<bool> {
    let num = |h: u32| v(h)?.as_int().cloned();
    Some(match atom {
        Atom::Ne(a, b) => v(*a)? != v(*b)?,
        Atom::Lt(a, b) => num(*a)? < num(*b)?,
        Atom::Le(a, b) => num(*a)? <= num(*b)?,
        Atom::Positive(a) => {
            let n = num(*a)?;
            !n.is_negative() && !n.is_zero()
        }
        Atom::Negative(a) => num(*a)?.is_negative(),
        Atom::Elem(a, b, positive) => {
            let x = v(*a)?;
            let mut cur = v(*b)?;
            let mut found = false;
            while let Value::Ctor(1, f) = cur {
                if f.first()? == x {
                    found = true;
                    break;
                }
                cur = f.get(1)?;
            }
            found == *positive
        }
        Atom::NonEmpty(a) => v(*a)?.tag()? != 0,
        Atom::Call(f, args, positive) => {
            let args: Vec<Value> = args.iter().map(|h| v(*h).cloned()).collect::<Option<_>>()?;
            interp.call(*f, args, limits).ok()?.as_bool()? == *positive
        }
    })
}

/// The best condition under which every row of `sample` that meets it failed (`fails[r]`),
/// with the number of rows that met it. Only a condition that the counterexample meets
/// (`witness(h)`: its value at hole `h`) generalizes it; one met only by rows `known`
/// (instances of a generalization already reported) says nothing new and is passed over.
pub fn choose<'w>(
    prog: &Program,
    sample: &Sample,
    fails: &[bool],
    witness: &dyn Fn(u32) -> Option<&'w Value>,
    known: &dyn Fn(usize) -> bool,
    skip: &HashSet<FunId>,
    limits: &Limits,
) -> Option<(Atom, u64)> {
    let mut interp = Interp::new(prog);
    let mut best: Option<(Atom, u64)> = None;
    'atoms: for atom in candidates(prog, &sample.holes, skip) {
        if holds(&atom, witness, &mut interp, limits) != Some(true) {
            continue;
        }
        let mut met = Vec::new();
        for (r, row) in sample.rows.iter().enumerate() {
            let value = |h: u32| sample.holes.iter().position(|(x, _)| *x == h).map(|i| &row[i]);
            match holds(&atom, &value, &mut interp, limits) {
                Some(true) if !fails[r] => continue 'atoms,
                Some(true) => met.push(r),
                _ => {}
            }
        }
        if met.len() < 2 || best.as_ref().is_some_and(|(_, n)| *n >= met.len() as u64) {
            continue;
        }
        // Neutral: a variable of the condition that takes one value wherever it holds.
        let neutral = atom.holes().iter().any(|h| {
            let Some(i) = sample.holes.iter().position(|(x, _)| x == h) else { return true };
            met.iter().all(|r| sample.rows[*r][i] == sample.rows[met[0]][i])
        });
        if !neutral && !met.iter().all(|r| known(*r)) {
            best = Some((atom, met.len() as u64));
        }
    }
    best
}
