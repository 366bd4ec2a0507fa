//! HOL-Library's Tree theory as shipped in `theories/Library/Tree.thy`: its body checked
//! after the prelude with no diagnostic, its functions evaluated to the results Isabelle
//! gives, and the theorems Tree.thy proves about them evaluated on every tree of up to
//! four nodes over the values 0..2 (the reference interpreter, through the public API).
//! Until `imports "HOL-Library.Tree"` loads the file, the body is pasted into a test theory.

use lang::interp::Limits;
use lang::{check_theory, ValueOutcome};

const TREE: &str = include_str!("../../theories/Library/Tree.thy");

/// The text between `begin` and the final `end` of Tree.thy.
fn body() -> &'static str {
    let start = TREE.find("\nbegin\n").expect("Tree.thy has `begin`") + "\nbegin\n".len();
    let end = TREE.rfind("\nend").expect("Tree.thy ends with `end`");
    &TREE[start..end]
}

/// Every `nat tree` with at most `n` nodes holding values below 3, in theory syntax.
fn trees(n: usize) -> Vec<String> {
    if n == 0 {
        return vec!["Leaf".into()];
    }
    let mut out = trees(n - 1);
    for left in 0..n {
        for l in trees_exact(left) {
            for r in trees_exact(n - 1 - left) {
                for v in 0..3 {
                    out.push(format!("(Node {l} {v} {r})"));
                }
            }
        }
    }
    out
}

fn trees_exact(n: usize) -> Vec<String> {
    let all = trees(n);
    if n == 0 {
        return all;
    }
    let fewer = trees(n - 1).len();
    all[fewer..].to_vec()
}

/// Evaluates `value "t"` commands after Tree.thy's body; each must print its expectation.
fn check(cases: &[(String, String)]) {
    let mut text = format!("theory T imports Main begin\n{}\n", body());
    for (term, _) in cases {
        text.push_str(&format!("value \"{term}\"\n"));
    }
    text.push_str("end\n");
    let mut th = check_theory(&text);
    if let Some(d) = th.diagnostics.first() {
        let at = &text[d.primary.span.start as usize..d.primary.span.end as usize];
        panic!("Tree.thy does not check: {} at `{at}`", d.message);
    }
    let values = th.value_indices();
    assert_eq!(values.len(), cases.len());
    let mut failures = Vec::new();
    for ((term, want), index) in cases.iter().zip(values) {
        match th.eval_value(index, &Limits::default()) {
            ValueOutcome::Value { printed, .. } if printed == *want => {}
            ValueOutcome::Value { printed, .. } => failures.push(format!("{term} = {printed}, expected {want}")),
            ValueOutcome::Failed(e) => failures.push(format!("{term}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn tree_functions_give_isabelles_results() {
    let t = "Node (Node Leaf (1::nat) Leaf) 2 (Node Leaf 3 Leaf)";
    let u = "Node (Node Leaf (1::nat) Leaf) 2 Leaf";
    let cases: Vec<(String, String)> = [
        (format!("size ({u})"), "2"),
        (format!("size1 ({u})"), "3"),
        (format!("height ({u})"), "2"),
        (format!("min_height ({u})"), "1"),
        (format!("inorder ({t})"), "[1, 2, 3]"),
        (format!("preorder ({t})"), "[2, 1, 3]"),
        (format!("postorder ({t})"), "[1, 3, 2]"),
        (format!("inorder2 ({t}) [7]"), "[1, 2, 3, 7]"),
        (format!("bst ({t})"), "True"),
        (format!("heap ({t})"), "False"),
        ("heap (Node (Node Leaf (2::nat) Leaf) 1 Leaf)".into(), "True"),
        (format!("complete ({t})"), "True"),
        (format!("complete ({u})"), "False"),
        (format!("acomplete ({u})"), "True"),
        (format!("balanced ({u})"), "True"),
        (format!("wbalanced ({u})"), "True"),
        ("wbalanced (Node (Node (Node Leaf (1::nat) Leaf) 1 Leaf) 2 Leaf)".into(), "False"),
        (format!("ipl ({t})"), "2"),
        (format!("mirror ({u})"), "Node Leaf 2 (Node Leaf 1 Leaf)"),
        ("subtrees (Node Leaf (1::nat) Leaf)".into(), "{Leaf, Node Leaf 1 Leaf}"),
        (format!("set_tree ({u})"), "{1, 2}"),
        ("map_tree Suc (Node Leaf (1::nat) Leaf)".into(), "Node Leaf 2 Leaf"),
        (format!("left ({u})"), "Node Leaf 1 Leaf"),
        ("right (Leaf :: nat tree)".into(), "Leaf"),
        (format!("value ({u})"), "2"),
        (format!("value ` (subtrees ({t}) - {{Leaf}})"), "{1, 2, 3}"),
    ]
    .into_iter()
    .map(|(a, b)| (a, b.to_string()))
    .collect();
    check(&cases);
}

#[test]
fn tree_theorems_hold_on_small_trees() {
    // Lemmas of HOL-Library's Tree.thy (names as there).
    let laws = [
        "length (inorder t) = size t",                            // length_inorder
        "length (preorder t) = size t",                           // length_preorder
        "length (postorder t) = size t",                          // length_postorder
        "size1 t = size t + 1",                                   // size1_size
        "set (inorder t) = set_tree t",                           // set_inorder
        "complete t = (min_height t = height t)",                 // complete_iff_height
        "complete t = (size1 t = 2 ^ height t)",                  // complete_iff_size1
        "height t ≤ size t",                                      // height_le_size_tree
        "size1 t ≤ 2 ^ height t",                                 // size1_height
        "2 ^ min_height t ≤ size1 t",                             // min_height_size1
        "min_height t ≤ height t",                                // min_height_le_height
        "inorder2 t [5] = inorder t @ [5]",                       // inorder2_inorder
        "inorder (mirror t) = rev (inorder t)",                   // inorder_mirror
        "mirror (mirror t) = t",                                  // mirror_mirror
        "ipl (mirror t) = ipl t",                                 // ipl_mirror
        "size (map_tree Suc t) = size t",                         // size_map_tree
        "bst t = sorted_wrt (<) (inorder t)",                     // bst_iff_sorted_wrt_less
        "bst_wrt (≤) t = sorted (inorder t)",                     // bst_wrt_le_iff_sorted
        "(∀s∈subtrees t. height s ≤ height t ∧ size s ≤ size t)", // height_subtrees, size_subtrees
        "acomplete t = balanced t",
        "(size t = 0) = (t = Leaf)",                        // eq_size_0
        "t = Leaf ∨ t = Node (left t) (value t) (right t)", // the selectors take a node apart
    ];
    let mut cases = Vec::new();
    for t in trees(4) {
        for law in laws {
            cases.push((format!("let t = ({t} :: nat tree) in {law}"), "True".to_string()));
        }
    }
    assert!(cases.len() > 1000, "trees of up to four nodes: {}", cases.len() / laws.len());
    check(&cases);
}
