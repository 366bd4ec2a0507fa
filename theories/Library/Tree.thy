theory Tree
  imports Main
begin

text ‹HOL-Library's Tree theory (src/HOL/Library/Tree.thy, Isabelle2021 and later), its
definitions only. Differences, each forced by what hol reads today:

- The notations ⟨⟩ and ⟨l, x, r⟩ for Leaf and Node l x r are built into hol's term
  syntax (it reads the datatype's mixfix annotations and ignores them); the definitions
  use Leaf and Node.
- The node's value selector is named "value", quoted as in Isabelle (value is a
  command); in terms it is a name like any other. left and right are defined, as in
  Isabelle, with left Leaf = Leaf.
- map_tree and set_tree, which Isabelle's datatype package generates, are defined here.
- height is a class in Isabelle (overloaded); here it is the function on trees.
- bst is an abbreviation in Isabelle; here a definition with the same meaning.
- balanced is the name Isabelle2020 and earlier gave acomplete; both are defined so
  older theories check.›

datatype 'a tree =
  Leaf ("⟨⟩") |
  Node "'a tree" ("value": 'a) "'a tree" ("(1⟨_,/ _,/ _⟩)")

primrec left :: "'a tree ⇒ 'a tree" where
  "left (Node l v r) = l"
| "left Leaf = Leaf"

primrec right :: "'a tree ⇒ 'a tree" where
  "right (Node l v r) = r"
| "right Leaf = Leaf"

primrec map_tree :: "('a ⇒ 'b) ⇒ 'a tree ⇒ 'b tree" where
  "map_tree f Leaf = Leaf"
| "map_tree f (Node l x r) = Node (map_tree f l) (f x) (map_tree f r)"

primrec set_tree :: "'a tree ⇒ 'a set" where
  "set_tree Leaf = {}"
| "set_tree (Node l x r) = insert x (set_tree l ∪ set_tree r)"

fun size1 :: "'a tree ⇒ nat" where
  "size1 Leaf = 1"
| "size1 (Node l x r) = size1 l + size1 r"

fun subtrees :: "'a tree ⇒ 'a tree set" where
  "subtrees Leaf = {Leaf}"
| "subtrees (Node l a r) = {Node l a r} ∪ subtrees l ∪ subtrees r"

fun mirror :: "'a tree ⇒ 'a tree" where
  "mirror Leaf = Leaf"
| "mirror (Node l x r) = Node (mirror r) x (mirror l)"

fun height :: "'a tree ⇒ nat" where
  "height Leaf = 0"
| "height (Node l a r) = max (height l) (height r) + 1"

fun min_height :: "'a tree ⇒ nat" where
  "min_height Leaf = 0"
| "min_height (Node l _ r) = min (min_height l) (min_height r) + 1"

fun complete :: "'a tree ⇒ bool" where
  "complete Leaf = True"
| "complete (Node l x r) = (height l = height r ∧ complete l ∧ complete r)"

definition acomplete :: "'a tree ⇒ bool" where
  "acomplete t = (height t - min_height t ≤ 1)"

definition balanced :: "'a tree ⇒ bool" where
  "balanced t = (height t - min_height t ≤ 1)"

fun wbalanced :: "'a tree ⇒ bool" where
  "wbalanced Leaf = True"
| "wbalanced (Node l x r) = (abs (int (size l) - int (size r)) ≤ 1 ∧ wbalanced l ∧ wbalanced r)"

fun ipl :: "'a tree ⇒ nat" where
  "ipl Leaf = 0"
| "ipl (Node l _ r) = ipl l + size l + ipl r + size r"

fun preorder :: "'a tree ⇒ 'a list" where
  "preorder Leaf = []"
| "preorder (Node l x r) = x # preorder l @ preorder r"

fun inorder :: "'a tree ⇒ 'a list" where
  "inorder Leaf = []"
| "inorder (Node l x r) = inorder l @ [x] @ inorder r"

fun inorder2 :: "'a tree ⇒ 'a list ⇒ 'a list" where
  "inorder2 Leaf xs = xs"
| "inorder2 (Node l x r) xs = inorder2 l (x # inorder2 r xs)"

fun postorder :: "'a tree ⇒ 'a list" where
  "postorder Leaf = []"
| "postorder (Node l x r) = postorder l @ postorder r @ [x]"

fun bst_wrt :: "('a ⇒ 'a ⇒ bool) ⇒ 'a tree ⇒ bool" where
  "bst_wrt P Leaf = True"
| "bst_wrt P (Node l a r) =
     ((∀x∈set_tree l. P x a) ∧ (∀x∈set_tree r. P a x) ∧ bst_wrt P l ∧ bst_wrt P r)"

definition bst :: "'a::linorder tree ⇒ bool" where
  "bst t = bst_wrt (<) t"

fun heap :: "'a::linorder tree ⇒ bool" where
  "heap Leaf = True"
| "heap (Node l m r) = ((∀x ∈ set_tree l ∪ set_tree r. m ≤ x) ∧ heap l ∧ heap r)"

end
