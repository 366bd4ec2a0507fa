theory Target
  imports Main
begin

text ‹The workloads of Target's Figure 8 (`shared/papers/type-targeted-testing-seidel.txt`,
§5.1), restated the way an Isabelle user writes them, for the bench
`quickcheck/benches/targeted.rs` (issue 25): insertion into a sorted list, red-black tree
insertion with its three invariants, and deletion from a weight-balanced search tree
(Haskell's `Data.Map`, keys only). Every lemma is true: the bench measures how deep each
tester gets, in Target's setting (the first 1000 inputs that meet the premise at each size,
sizes increasing, 60 s per size), not whether it finds a counterexample.
`LSC.hs` next to this file states the same definitions for Lazy SmallCheck.›

section ‹Insertion into a sorted list (Target: List.insert)›

lemma sorted_insort: "sorted (xs::int list) ⟹ sorted (insort x xs)"
  oops

section ‹Red-black trees (Target: RBTree.add)›

text ‹Okasaki's insertion; the invariants as Target states them: red nodes have black
children (`rb_red`), every path has the same number of black nodes (`rb_black`), and the
keys are ordered.›

datatype color = R | B
datatype rbt = E | T color rbt int rbt

fun rb_color :: "rbt ⇒ color" where
  "rb_color E = B"
| "rb_color (T c l x r) = c"

fun rb_red :: "rbt ⇒ bool" where
  "rb_red E = True"
| "rb_red (T c l x r) = (rb_red l ∧ rb_red r ∧ (c = R ⟶ rb_color l = B ∧ rb_color r = B))"

fun rb_bheight :: "rbt ⇒ nat" where
  "rb_bheight E = 0"
| "rb_bheight (T c l x r) = rb_bheight l + (if c = R then 0 else 1)"

fun rb_black :: "rbt ⇒ bool" where
  "rb_black E = True"
| "rb_black (T c l x r) = (rb_black l ∧ rb_black r ∧ rb_bheight l = rb_bheight r)"

fun rb_keys :: "rbt ⇒ int set" where
  "rb_keys E = {}"
| "rb_keys (T c l x r) = rb_keys l ∪ {x} ∪ rb_keys r"

fun rb_ordered :: "rbt ⇒ bool" where
  "rb_ordered E = True"
| "rb_ordered (T c l x r) =
     (rb_ordered l ∧ rb_ordered r ∧ (∀y∈rb_keys l. y < x) ∧ (∀y∈rb_keys r. x < y))"

definition is_rbt :: "rbt ⇒ bool" where
  "is_rbt t = (rb_ordered t ∧ rb_red t ∧ rb_black t)"

fun rb_balance :: "color ⇒ rbt ⇒ int ⇒ rbt ⇒ rbt" where
  "rb_balance B (T R (T R a x b) y c) z d = T R (T B a x b) y (T B c z d)"
| "rb_balance B (T R a x (T R b y c)) z d = T R (T B a x b) y (T B c z d)"
| "rb_balance B a x (T R (T R b y c) z d) = T R (T B a x b) y (T B c z d)"
| "rb_balance B a x (T R b y (T R c z d)) = T R (T B a x b) y (T B c z d)"
| "rb_balance c a x b = T c a x b"

fun rb_ins :: "int ⇒ rbt ⇒ rbt" where
  "rb_ins x E = T R E x E"
| "rb_ins x (T c a y b) =
     (if x < y then rb_balance c (rb_ins x a) y b
      else if y < x then rb_balance c a y (rb_ins x b)
      else T c a y b)"

fun rb_paint :: "rbt ⇒ rbt" where
  "rb_paint E = E"
| "rb_paint (T c a x b) = T B a x b"

definition rb_add :: "int ⇒ rbt ⇒ rbt" where
  "rb_add x t = rb_paint (rb_ins x t)"

lemma rbt_add: "is_rbt t ⟹ is_rbt (rb_add x t)"
  oops

section ‹Weight-balanced trees (Target: Map.delete)›

text ‹`Data.Map` of containers 0.4 with its balance parameters (delta 3, ratio 2), keys
only: a node stores the size of its tree. Valid maps are ordered, balanced and store
their sizes; deletion keeps them valid and removes the key.›

datatype wbt = Tip | Bin nat int wbt wbt

fun wb_size :: "wbt ⇒ nat" where
  "wb_size Tip = 0"
| "wb_size (Bin n k l r) = n"

definition wb_bin :: "int ⇒ wbt ⇒ wbt ⇒ wbt" where
  "wb_bin k l r = Bin (wb_size l + wb_size r + 1) k l r"

fun wb_keys :: "wbt ⇒ int set" where
  "wb_keys Tip = {}"
| "wb_keys (Bin n k l r) = wb_keys l ∪ {k} ∪ wb_keys r"

fun wb_ordered :: "wbt ⇒ bool" where
  "wb_ordered Tip = True"
| "wb_ordered (Bin n k l r) =
     (wb_ordered l ∧ wb_ordered r ∧ (∀y∈wb_keys l. y < k) ∧ (∀y∈wb_keys r. k < y))"

fun wb_balanced :: "wbt ⇒ bool" where
  "wb_balanced Tip = True"
| "wb_balanced (Bin n k l r) =
     (wb_balanced l ∧ wb_balanced r ∧
      (wb_size l + wb_size r ≤ 1 ∨ (wb_size l ≤ 3 * wb_size r ∧ wb_size r ≤ 3 * wb_size l)))"

fun wb_sizes :: "wbt ⇒ bool" where
  "wb_sizes Tip = True"
| "wb_sizes (Bin n k l r) = (wb_sizes l ∧ wb_sizes r ∧ n = wb_size l + wb_size r + 1)"

definition wb_valid :: "wbt ⇒ bool" where
  "wb_valid t = (wb_ordered t ∧ wb_balanced t ∧ wb_sizes t)"

fun wb_single_l :: "int ⇒ wbt ⇒ wbt ⇒ wbt" where
  "wb_single_l k1 t1 (Bin n k2 t2 t3) = wb_bin k2 (wb_bin k1 t1 t2) t3"

fun wb_single_r :: "int ⇒ wbt ⇒ wbt ⇒ wbt" where
  "wb_single_r k1 (Bin n k2 t1 t2) t3 = wb_bin k2 t1 (wb_bin k1 t2 t3)"

fun wb_double_l :: "int ⇒ wbt ⇒ wbt ⇒ wbt" where
  "wb_double_l k1 t1 (Bin n k2 (Bin m k3 t2 t3) t4) = wb_bin k3 (wb_bin k1 t1 t2) (wb_bin k2 t3 t4)"

fun wb_double_r :: "int ⇒ wbt ⇒ wbt ⇒ wbt" where
  "wb_double_r k1 (Bin n k2 t1 (Bin m k3 t2 t3)) t4 = wb_bin k3 (wb_bin k2 t1 t2) (wb_bin k1 t3 t4)"

fun wb_rotate_l :: "int ⇒ wbt ⇒ wbt ⇒ wbt" where
  "wb_rotate_l k l (Bin n k2 ly ry) =
     (if wb_size ly < 2 * wb_size ry then wb_single_l k l (Bin n k2 ly ry)
      else wb_double_l k l (Bin n k2 ly ry))"

fun wb_rotate_r :: "int ⇒ wbt ⇒ wbt ⇒ wbt" where
  "wb_rotate_r k (Bin n k2 ly ry) r =
     (if wb_size ry < 2 * wb_size ly then wb_single_r k (Bin n k2 ly ry) r
      else wb_double_r k (Bin n k2 ly ry) r)"

definition wb_balance :: "int ⇒ wbt ⇒ wbt ⇒ wbt" where
  "wb_balance k l r =
     (if wb_size l + wb_size r ≤ 1 then wb_bin k l r
      else if 3 * wb_size l < wb_size r then wb_rotate_l k l r
      else if 3 * wb_size r < wb_size l then wb_rotate_r k l r
      else wb_bin k l r)"

fun wb_min :: "wbt ⇒ int" where
  "wb_min (Bin n k Tip r) = k"
| "wb_min (Bin n k l r) = wb_min l"

fun wb_max :: "wbt ⇒ int" where
  "wb_max (Bin n k l Tip) = k"
| "wb_max (Bin n k l r) = wb_max r"

fun wb_delete_min :: "wbt ⇒ wbt" where
  "wb_delete_min Tip = Tip"
| "wb_delete_min (Bin n k Tip r) = r"
| "wb_delete_min (Bin n k l r) = wb_balance k (wb_delete_min l) r"

fun wb_delete_max :: "wbt ⇒ wbt" where
  "wb_delete_max Tip = Tip"
| "wb_delete_max (Bin n k l Tip) = l"
| "wb_delete_max (Bin n k l r) = wb_balance k l (wb_delete_max r)"

fun wb_glue :: "wbt ⇒ wbt ⇒ wbt" where
  "wb_glue Tip r = r"
| "wb_glue l Tip = l"
| "wb_glue l r =
     (if wb_size r < wb_size l then wb_balance (wb_max l) (wb_delete_max l) r
      else wb_balance (wb_min r) l (wb_delete_min r))"

fun wb_delete :: "int ⇒ wbt ⇒ wbt" where
  "wb_delete x Tip = Tip"
| "wb_delete x (Bin n k l r) =
     (if x < k then wb_balance k (wb_delete x l) r
      else if k < x then wb_balance k l (wb_delete x r)
      else wb_glue l r)"

lemma wbt_delete: "wb_valid t ⟹ wb_valid (wb_delete x t) ∧ wb_keys (wb_delete x t) = wb_keys t - {x}"
  oops

end
