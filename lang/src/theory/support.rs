//! Which of Isabelle's theories and constants hol has: the data behind the README's support
//! table, computed by checking an import of each theory, so it says what name resolution does.

use crate::types::isabelle;

/// What hol has of one theory of Isabelle's (`isabelle::catalog`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TheorySupport {
    pub theory: &'static str,
    /// In the prelude (Main), bundled (a library theory hol ships), or not available.
    pub availability: Availability,
    /// Its constants that hol has, by the same name.
    pub has: Vec<&'static str>,
    /// Its constants that hol lacks: errors where a lemma uses them.
    pub lacks: Vec<&'static str>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Availability {
    Prelude,
    Bundled,
    Missing,
}

/// For each theory of the catalog, which of its constants hol has. The README's support
/// table is generated from this, so it says what name resolution does.
pub fn isabelle_support() -> Vec<TheorySupport> {
    let names_after = |import: &str| {
        let text = format!("theory Support imports Main \"{import}\" begin end");
        let theory = super::check_theory(&text);
        theory.env.names.keys().map(|k| k.to_string()).collect::<std::collections::HashSet<String>>()
    };
    let main = names_after("Main");
    isabelle::catalog()
        .theories
        .iter()
        .map(|t| {
            let bundled = crate::prelude::LIBRARY.iter().any(|(n, _)| *n == t.name);
            let (availability, names) = if t.in_main() {
                (Availability::Prelude, main.clone())
            } else if bundled {
                (Availability::Bundled, names_after(t.name))
            } else {
                (Availability::Missing, main.clone())
            };
            let known = |c: &&&str| names.contains(**c) && availability != Availability::Missing;
            TheorySupport {
                theory: t.name,
                availability,
                has: t.consts.iter().filter(known).copied().collect(),
                lacks: t.consts.iter().filter(|c| !known(c)).copied().collect(),
            }
        })
        .collect()
}
