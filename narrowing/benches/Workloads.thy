theory Workloads
  imports Main
begin

text ‹Workloads (b) and (c) of the peers' benchmark over exactly Lazy SmallCheck's space
at depth 5: the elements are a type of six values (LSC's `E`, naturals 0..5, whose series
ignores depth), so at narrowing size 5 lists have at most 5 elements and trees at most 5
levels, each element any of the six.›

datatype e = E0 | E1 | E2 | E3 | E4 | E5

fun idx :: "e ⇒ nat" where
  "idx E0 = 0" | "idx E1 = 1" | "idx E2 = 2" | "idx E3 = 3" | "idx E4 = 4" | "idx E5 = 5"

definition le :: "e ⇒ e ⇒ bool" where "le x y = (idx x ≤ idx y)"
definition lt :: "e ⇒ e ⇒ bool" where "lt x y = (idx x < idx y)"

fun sorted_e :: "e list ⇒ bool" where
  "sorted_e [] = True"
| "sorted_e [x] = True"
| "sorted_e (x # y # zs) = (le x y ∧ sorted_e (y # zs))"

fun insort_e :: "e ⇒ e list ⇒ e list" where
  "insort_e x [] = [x]"
| "insort_e x (y # ys) = (if le x y then x # y # ys else y # insort_e x ys)"

lemma sorted_insort: "sorted_e xs ⟹ sorted_e (insort_e x xs)"
  sorry

datatype tree = Leaf | Node tree e tree

primrec inorder :: "tree ⇒ e list" where
  "inorder Leaf = []"
| "inorder (Node l x r) = inorder l @ [x] @ inorder r"

fun increasing :: "e list ⇒ bool" where
  "increasing [] = True"
| "increasing [x] = True"
| "increasing (x # y # zs) = (lt x y ∧ increasing (y # zs))"

definition ordered :: "tree ⇒ bool" where "ordered t = increasing (inorder t)"

primrec ins :: "e ⇒ tree ⇒ tree" where
  "ins x Leaf = Node Leaf x Leaf"
| "ins x (Node l y r) = (if lt x y then Node (ins x l) y r else if lt y x then Node l y (ins x r) else Node l y r)"

lemma ordered_ins: "ordered t ⟹ ordered (ins x t)"
  sorry

text ‹A statement with an existential inside (issue 15): for every list an existential
witness whose every extension agrees, refuted case by case; narrowing's memory is the
depth of its refinement tree.›

lemma append_witness: "∃ys. ∀zs. xs @ zs = ys @ (zs :: e list)"
  sorry

end
