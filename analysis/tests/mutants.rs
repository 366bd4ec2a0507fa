//! Mutation (`analysis::mutants`): mutants type-check, differ from the original and from
//! each other, are drawn the same way in every run, keep their ids, and the sample of one
//! lemma does not change when another lemma is added.

use analysis::mutants::{check, mutant_lemma, mutate, Mutation, Operator, Settings};
use analysis::FsLoader;
use std::collections::HashSet;
use std::path::Path;

const THEORY: &str = "theory Small imports Main begin

primrec sumto :: \"nat list ⇒ nat\" where
  \"sumto [] = 0\"
| \"sumto (x # xs) = x + sumto xs\"

lemma rev_append: \"rev (xs @ ys) = rev ys @ rev xs\"
  sorry

lemma sumto_append: \"sumto (xs @ ys) = sumto xs + sumto ys\"
  sorry

lemma take_drop: \"n ≤ length xs ⟹ length (take n xs) + length (drop n xs) = length xs\"
  sorry

lemma all_filter: \"∀x ∈ set (filter P xs). P x\"
  sorry

end
";

fn run(text: &str, seed: u64) -> Mutation {
    let settings = Settings { per_lemma: 4, seed };
    mutate(Path::new("Small.thy"), text, &FsLoader::default(), &["random", "exhaustive"], &settings)
}

#[test]
fn every_mutant_checks_and_differs() {
    let m = run(THEORY, 7);
    assert_eq!(m.theory, "Small");
    let keys: Vec<&str> = m.lemmas.iter().map(|l| l.key.as_str()).collect();
    assert_eq!(keys, ["rev_append", "sumto_append", "take_drop", "all_filter"]);
    let mut ids = HashSet::new();
    for lemma in &m.lemmas {
        // A lemma with enough candidate edits gets all four; every lemma here has some.
        let want = if lemma.candidates >= 10 { 4 } else { 1 };
        assert!(lemma.mutants.len() >= want, "{} ({} candidates): {:#?}", lemma.key, lemma.candidates, lemma.mutants);
        assert!(lemma.mutants.len() <= 4);
        let mut texts = HashSet::new();
        for mutant in &lemma.mutants {
            assert_ne!(mutant.text, lemma.text, "{}", lemma.key);
            assert!(texts.insert(mutant.text.clone()), "a duplicate: {}", mutant.text);
            assert!(ids.insert(mutant.id.clone()), "a duplicate id: {}", mutant.id);
            assert_eq!(mutant.id.len(), 16);
            let theory = check(Path::new("Small.thy"), &mutant.theory_text, &FsLoader::default(), &["random"]);
            assert!(theory.diagnostics.is_empty(), "{}: {:?}", mutant.text, theory.diagnostics);
            assert!(mutant_lemma(&theory, mutant).is_some(), "{}", mutant.text);
            // The mutant is the only lemma left in its theory.
            let lemmas = theory.items.iter().filter(|i| matches!(i.kind, lang::ItemKind::Lemma { .. })).count();
            assert_eq!(lemmas, 1, "{}", mutant.theory_text);
        }
    }
    let operators: HashSet<Operator> = m.lemmas.iter().flat_map(|l| l.mutants.iter().map(|m| m.operator)).collect();
    assert_eq!(operators.len(), 2, "both operators are drawn: {operators:?}");
}

#[test]
fn the_same_seed_gives_the_same_mutants_and_another_seed_others() {
    let texts = |m: &Mutation| -> Vec<(String, String)> {
        m.lemmas.iter().flat_map(|l| l.mutants.iter().map(|m| (m.id.clone(), m.text.clone()))).collect()
    };
    let (a, b, c) = (run(THEORY, 1), run(THEORY, 1), run(THEORY, 2));
    assert_eq!(texts(&a), texts(&b));
    assert_ne!(texts(&a), texts(&c));
}

#[test]
fn adding_a_lemma_leaves_the_other_samples_alone() {
    let more = THEORY.replace(
        "lemma take_drop",
        "lemma map_append: \"map f (xs @ ys) = map f xs @ map f ys\"\n  sorry\n\nlemma take_drop",
    );
    let (before, after) = (run(THEORY, 3), run(&more, 3));
    for lemma in &before.lemmas {
        let again = after.lemmas.iter().find(|l| l.key == lemma.key).expect("still there");
        let ids = |l: &analysis::mutants::LemmaMutants| l.mutants.iter().map(|m| m.id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(lemma), ids(again), "{}", lemma.key);
    }
    assert_eq!(after.lemmas.len(), before.lemmas.len() + 1);
}

#[test]
fn commutative_operands_are_never_swapped() {
    let text = "theory C imports Main begin
lemma plus_comm: \"(a :: nat) + b = b + a\"
  sorry
end
";
    let m = mutate(Path::new("C.thy"), text, &FsLoader::default(), &["random"], &Settings { per_lemma: 1000, seed: 0 });
    for mutant in &m.lemmas[0].mutants {
        assert!(
            !(mutant.operator == Operator::Swap && mutant.text.contains("(b) + (a)")),
            "operands of + swapped: {}",
            mutant.text
        );
    }
    assert!(!m.lemmas[0].mutants.is_empty());
}
