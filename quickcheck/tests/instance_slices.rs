//! The driver's time slices (`driver::SLICE_SHARE`): a step of the schedule (a type instance
//! at a size) that takes longer than its slice is put off until the other instances had
//! their sizes. A faulty leftist-heap merge needs two distinct keys: under Isabelle's order
//! alone, the one-element instance's large sizes (more than a million cases each) take the
//! whole time limit before the two-element instance reaches the size that refutes it.

use quickcheck::{check_lemma, Cancel, Engine, Options, OutcomeKind, Registry, TesterName};
use std::time::Duration;

const THEORY: &str = r#"theory Heaps imports Main begin
datatype 'a tree = Leaf | Node "'a tree" 'a "'a tree"
fun set_tree :: "'a tree ⇒ 'a set" where
  "set_tree Leaf = {}"
| "set_tree (Node l x r) = set_tree l ∪ {x} ∪ set_tree r"
type_synonym 'a lheap = "('a × nat) tree"
fun rank :: "'a lheap ⇒ nat" where
  "rank Leaf = 0"
| "rank (Node _ _ r) = rank r + 1"
fun heap :: "('a::linorder × nat) tree ⇒ bool" where
  "heap Leaf = True"
| "heap (Node l (m, _) r) = ((∀(x, _) ∈ set_tree l ∪ set_tree r. m ≤ x) ∧ heap l ∧ heap r)"
definition node :: "'a lheap ⇒ 'a ⇒ 'a lheap ⇒ 'a lheap" where
  "node l a r = (let rl = rank l; rr = rank r
     in if rl ≥ rr then Node l (a, rr+1) r else Node r (a, rl+1) l)"
fun merge :: "'a::ord lheap ⇒ 'a lheap ⇒ 'a lheap" where
  "merge Leaf t = t"
| "merge t Leaf = t"
| "merge (Node l1 (a1, n1) r1) (Node l2 (a2, n2) r2) =
    (if a1 ≤ a2 then node l1 a1 (merge r1 (Node l2 (a2, n2) r2))
     else node l2 a1 (merge (Node l1 (a1, n1) r1) r2))"
lemma "heap h1 ⟹ heap h2 ⟹ heap (merge h1 h2)" oops
end"#;

/// The exhaustive and smart testers find the counterexample (at `'a = finite_2`) within the time
/// limit; without the slices none did in 10 s.
#[test]
fn a_long_step_does_not_starve_the_other_instances() {
    let th = lang::check_theory(THEORY);
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    for tester in ["exhaustive", "smart_exhaustive"] {
        let opts = Options {
            testers: vec![TesterName::new(tester)],
            timeout: Duration::from_secs(10),
            seed: Some(1),
            generalize: false,
            ..Options::default()
        };
        let report = check_lemma(&th, 0, &opts, Engine::Tiered, &Registry::standard(), &Cancel::new());
        assert_eq!(report.outcome, OutcomeKind::Counterexample, "{tester}: {report:?}");
        let cx = report.counterexample.expect("a counterexample");
        assert!(format!("{cx:?}").contains("finite_2"), "{tester}: {cx:?}");
    }
}
