theory Search_Trees
  imports "HOL-Library.Tree"
begin

text ‹Binary trees, unbalanced binary search trees and AVL trees, after HOL-Library's
Tree theory and the sets-as-search-trees theories of Nipkow's Functional Data Structures
(Tree_Set.thy, AVL_Set.thy, List_Ins_Del.thy, in Isabelle's HOL-Data_Structures), with
their definitions and lemma names. Differences: the comparison cmp x a is written as
if-then-else; the search tree operations are named isin, ins, split_min and del (insert
and delete are Isabelle's set operations in hol's prelude); AVL trees are ('a × nat) tree
with the height in each node, and their operations carry the suffix _avl. Each lemma is
proved in Isabelle and carries sorry.›

text ‹Exhaustive testing of the lemmas over three trees (a node's subtrees and another
tree) reaches millions of cases by size 5; a run of hol check over this theory gives each
lemma a second.›

quickcheck_params[timeout = 1]

section ‹Sorted lists with insertion and deletion (List_Ins_Del)›

fun ins_list :: "'a::linorder ⇒ 'a list ⇒ 'a list" where
  "ins_list x [] = [x]"
| "ins_list x (a # xs) = (if x < a then x # a # xs else if x = a then a # xs else a # ins_list x xs)"

fun del_list :: "'a::linorder ⇒ 'a list ⇒ 'a list" where
  "del_list x [] = []"
| "del_list x (a # xs) = (if x = a then xs else a # del_list x xs)"

section ‹Unbalanced search trees (Tree_Set)›

fun isin :: "'a::linorder tree ⇒ 'a ⇒ bool" where
  "isin Leaf x = False"
| "isin (Node l a r) x = (if x < a then isin l x else if x = a then True else isin r x)"

fun ins :: "'a::linorder ⇒ 'a tree ⇒ 'a tree" where
  "ins x Leaf = Node Leaf x Leaf"
| "ins x (Node l a r) = (if x < a then Node (ins x l) a r else if x = a then Node l a r else Node l a (ins x r))"

fun split_min :: "'a tree ⇒ 'a × 'a tree" where
  "split_min (Node l a r) = (if l = Leaf then (a, r) else let (x, l') = split_min l in (x, Node l' a r))"

fun del :: "'a::linorder ⇒ 'a tree ⇒ 'a tree" where
  "del x Leaf = Leaf"
| "del x (Node l a r) =
     (if x < a then Node (del x l) a r
      else if x = a then (if r = Leaf then l else let (a', r') = split_min r in Node l a' r')
      else Node l a (del x r))"

section ‹AVL trees (AVL_Set)›

type_synonym 'a tree_ht = "('a × nat) tree"

fun keys :: "'a tree_ht ⇒ 'a list" where
  "keys Leaf = []"
| "keys (Node l (a, n) r) = keys l @ a # keys r"

fun ht :: "'a tree_ht ⇒ nat" where
  "ht Leaf = 0"
| "ht (Node l (a, n) r) = n"

fun avl :: "'a tree_ht ⇒ bool" where
  "avl Leaf = True"
| "avl (Node l (a, n) r) =
     ((height l = height r ∨ height l = height r + 1 ∨ height r = height l + 1) ∧
      n = max (height l) (height r) + 1 ∧ avl l ∧ avl r)"

definition node :: "'a tree_ht ⇒ 'a ⇒ 'a tree_ht ⇒ 'a tree_ht" where
  "node l a r = Node l (a, max (ht l) (ht r) + 1) r"

fun balL :: "'a tree_ht ⇒ 'a ⇒ 'a tree_ht ⇒ 'a tree_ht" where
  "balL AB c C =
     (if ht AB = ht C + 2 then
        case AB of
          Node A (a, x) B ⇒
            (if ht A ≥ ht B then node A a (node B c C)
             else case B of Node B1 (b, y) B2 ⇒ node (node A a B1) b (node B2 c C))
      else node AB c C)"

fun balR :: "'a tree_ht ⇒ 'a ⇒ 'a tree_ht ⇒ 'a tree_ht" where
  "balR A a BC =
     (if ht BC = ht A + 2 then
        case BC of
          Node B (c, x) C ⇒
            (if ht B ≤ ht C then node (node A a B) c C
             else case B of Node B1 (b, y) B2 ⇒ node (node A a B1) b (node B2 c C))
      else node A a BC)"

fun insert_avl :: "'a::linorder ⇒ 'a tree_ht ⇒ 'a tree_ht" where
  "insert_avl x Leaf = Node Leaf (x, 1) Leaf"
| "insert_avl x (Node l (a, n) r) =
     (if x < a then balL (insert_avl x l) a r
      else if x = a then Node l (a, n) r
      else balR l a (insert_avl x r))"

fun split_max :: "'a tree_ht ⇒ 'a tree_ht × 'a" where
  "split_max (Node l (a, n) r) = (if r = Leaf then (l, a) else let (r', a') = split_max r in (balL l a r', a'))"

fun delete_avl :: "'a::linorder ⇒ 'a tree_ht ⇒ 'a tree_ht" where
  "delete_avl x Leaf = Leaf"
| "delete_avl x (Node l (a, n) r) =
     (if x < a then balR (delete_avl x l) a r
      else if x = a then (if l = Leaf then r else let (l', a') = split_max l in balR l' a' r)
      else balL l a (delete_avl x r))"

section ‹Binary trees (HOL-Library.Tree)›

lemma length_inorder: "length (inorder t) = size t"
  sorry

lemma set_inorder: "set (inorder t) = set_tree t"
  sorry

lemma length_preorder: "length (preorder t) = size t"
  sorry

lemma set_preorder: "set (preorder t) = set_tree t"
  sorry

lemma set_postorder: "set (postorder t) = set_tree t"
  sorry

lemma inorder2_inorder: "inorder2 t xs = inorder t @ xs"
  sorry

lemma size1_size: "size1 t = size t + 1"
  sorry

lemma size_mirror: "size (mirror t) = size t"
  sorry

lemma height_mirror: "height (mirror t) = height t"
  sorry

lemma mirror_mirror: "mirror (mirror t) = t"
  sorry

lemma inorder_mirror: "inorder (mirror t) = rev (inorder t)"
  sorry

lemma set_tree_mirror: "set_tree (mirror t) = set_tree t"
  sorry

lemma inorder_map: "inorder (map_tree f t) = map f (inorder t)"
  sorry

lemma preorder_map: "preorder (map_tree f t) = map f (preorder t)"
  sorry

lemma postorder_map: "postorder (map_tree f t) = map f (postorder t)"
  sorry

lemma size_map_tree: "size (map_tree f t) = size t"
  sorry

lemma height_map_tree: "height (map_tree f t) = height t"
  sorry

lemma map_tree_mirror: "map_tree f (mirror t) = mirror (map_tree f t)"
  sorry

lemma set_tree_map: "set_tree (map_tree f t) = f ` set_tree t"
  sorry

lemma set_tree_empty: "(set_tree t = {}) = (t = Leaf)"
  sorry

lemma height_le_size_tree: "height t ≤ size t"
  sorry

lemma size1_height: "size1 t ≤ 2 ^ height t"
  sorry

lemma min_height_le_height: "min_height t ≤ height t"
  sorry

lemma min_height_size1: "2 ^ min_height t ≤ size1 t"
  sorry

lemma complete_iff_height: "complete t = (min_height t = height t)"
  sorry

lemma size1_if_complete: "complete t ⟹ size1 t = 2 ^ height t"
  sorry

lemma complete_if_size1_height: "size1 t = 2 ^ height t ⟹ complete t"
  sorry

lemma acomplete_if_complete: "complete t ⟹ acomplete t"
  sorry

lemma wbalanced_if_complete: "complete t ⟹ wbalanced t"
  sorry

lemma complete_mirror: "complete (mirror t) = complete t"
  sorry

lemma self_in_subtrees: "t ∈ subtrees t"
  sorry

lemma Node_notin_subtrees_if: "a ∉ set_tree t ⟹ Node l a r ∉ subtrees t"
  sorry

lemma in_set_tree_if: "Node l a r ∈ subtrees t ⟹ a ∈ set_tree t"
  sorry

lemma heap_root_min: "⟦heap t; t ≠ Leaf; x ∈ set_tree t⟧ ⟹ value t ≤ x"
  sorry

lemma bst_wrt_mirror: "bst_wrt P (mirror t) = bst_wrt (λx y. P y x) t"
  sorry

lemma bst_iff_sorted_wrt_less: "bst t = sorted_wrt (<) (inorder t)"
  sorry

section ‹Sorted lists›

lemma set_ins_list: "set (ins_list x xs) = insert x (set xs)"
  sorry

lemma sorted_ins_list: "sorted_wrt (<) xs ⟹ sorted_wrt (<) (ins_list x xs)"
  sorry

lemma set_del_list: "sorted_wrt (<) xs ⟹ set (del_list x xs) = set xs - {x}"
  sorry

lemma sorted_del_list: "sorted_wrt (<) xs ⟹ sorted_wrt (<) (del_list x xs)"
  sorry

lemma del_list_filter: "sorted_wrt (<) xs ⟹ del_list x xs = filter (λy. y ≠ x) xs"
  sorry

lemma ins_list_sorted_eq: "sorted_wrt (<) xs ⟹ ins_list x xs = sort (remdups (x # xs))"
  sorry

lemma length_ins_list: "sorted_wrt (<) xs ⟹ length (ins_list x xs) = (if x ∈ set xs then length xs else Suc (length xs))"
  sorry

section ‹Search trees›

lemma isin_set_inorder: "bst t ⟹ isin t x = (x ∈ set (inorder t))"
  sorry

lemma isin_set_tree: "bst t ⟹ isin t x = (x ∈ set_tree t)"
  sorry

lemma inorder_ins: "bst t ⟹ inorder (ins x t) = ins_list x (inorder t)"
  sorry

lemma set_tree_ins: "set_tree (ins x t) = insert x (set_tree t)"
  sorry

lemma bst_ins: "bst t ⟹ bst (ins x t)"
  sorry

lemma isin_ins: "bst t ⟹ isin (ins x t) y = (x = y ∨ isin t y)"
  sorry

lemma size_ins: "bst t ⟹ size (ins x t) = (if isin t x then size t else Suc (size t))"
  sorry

lemma height_ins: "height (ins x t) ≤ height t + 1"
  sorry

lemma ins_Leaf_ne: "ins x t ≠ Leaf"
  sorry

lemma split_minD: "⟦split_min t = (x, t'); t ≠ Leaf⟧ ⟹ inorder t = x # inorder t'"
  sorry

lemma inorder_del: "bst t ⟹ inorder (del x t) = del_list x (inorder t)"
  sorry

lemma set_tree_del: "bst t ⟹ set_tree (del x t) = set_tree t - {x}"
  sorry

lemma bst_del: "bst t ⟹ bst (del x t)"
  sorry

lemma isin_del: "bst t ⟹ isin (del x t) y = (x ≠ y ∧ isin t y)"
  sorry

lemma height_del: "height (del x t) ≤ height t"
  sorry

lemma inorder_fold_ins: "inorder (fold ins xs Leaf) = sort (remdups xs)"
  sorry

lemma bst_fold_ins: "bst (fold ins xs Leaf)"
  sorry

section ‹AVL trees›

lemma ht_height: "avl t ⟹ ht t = height t"
  sorry

lemma keys_inorder: "keys t = map fst (inorder t)"
  sorry

lemma avl_node: "⟦avl l; avl r; height l ≤ height r + 1; height r ≤ height l + 1⟧ ⟹ avl (node l a r)"
  sorry

lemma keys_node: "keys (node l a r) = keys l @ a # keys r"
  sorry

lemma avl_insert: "avl t ⟹ avl (insert_avl x t)"
  sorry

lemma height_insert: "avl t ⟹ height (insert_avl x t) = height t ∨ height (insert_avl x t) = height t + 1"
  sorry

lemma inorder_insert: "⟦avl t; sorted_wrt (<) (keys t)⟧ ⟹ keys (insert_avl x t) = ins_list x (keys t)"
  sorry

lemma set_insert: "avl t ⟹ set (keys (insert_avl x t)) = insert x (set (keys t))"
  sorry

lemma avl_delete: "avl t ⟹ avl (delete_avl x t)"
  sorry

lemma height_delete: "avl t ⟹ height t ≤ height (delete_avl x t) + 1"
  sorry

lemma height_delete_le: "avl t ⟹ height (delete_avl x t) ≤ height t"
  sorry

lemma inorder_delete: "⟦avl t; sorted_wrt (<) (keys t)⟧ ⟹ keys (delete_avl x t) = del_list x (keys t)"
  sorry

lemma split_max_keys: "⟦avl t; t ≠ Leaf; split_max t = (t', a)⟧ ⟹ keys t = keys t' @ [a]"
  sorry

lemma avl_fold_insert: "avl (fold insert_avl xs Leaf)"
  sorry

lemma keys_fold_insert: "keys (fold insert_avl xs Leaf) = sort (remdups xs)"
  sorry

lemma avl_size_bound: "avl t ⟹ 2 ^ (height t div 2) ≤ size1 t"
  sorry

end
