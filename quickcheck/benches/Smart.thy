theory Smart
  imports Main
begin

text ‹The smart generators' bench (`quickcheck/benches/smart.rs`, issue 16). Each lemma
carries the options the bench runs it with; the bench checks that they are written here,
and times `hol check` on a theory of these definitions and one lemma at a time.›

section ‹Hotel key cards›

text ‹Copied from `shared/examples/Hotel.thy` (Nipkow's hotel key card system, trace-based;
a trace is a list of events, most recent first).›

datatype guest = Guest0 | Guest1
datatype key = Key0 | Key1 | Key2 | Key3
datatype room = Room0

type_synonym card = "key × key"

datatype event = Check_in guest room card | Enter guest room card | Exit guest room

definition initk :: "room ⇒ key" where
  "initk = (λr. Key0)"

primrec owns :: "event list ⇒ room ⇒ guest option" where
  "owns [] r = None"
| "owns (e # s) r = (case e of
     Check_in g r' c ⇒ if r' = r then Some g else owns s r
   | Enter g r' c ⇒ owns s r
   | Exit g r' ⇒ owns s r)"

primrec currk :: "event list ⇒ room ⇒ key" where
  "currk [] r = initk r"
| "currk (e # s) r = (let k = currk s r in
     case e of Check_in g r' (k1, k2) ⇒ if r' = r then k2 else k
             | Enter g r' c ⇒ k
             | Exit g r' ⇒ k)"

primrec issued :: "event list ⇒ key set" where
  "issued [] = {Key0}"
| "issued (e # s) = issued s ∪
     (case e of Check_in g r (k1, k2) ⇒ {k2} | Enter g r c ⇒ {} | Exit g r ⇒ {})"

primrec cards :: "event list ⇒ guest ⇒ card set" where
  "cards [] g = {}"
| "cards (e # s) g = (let C = cards s g in
     case e of Check_in g' r c ⇒ if g' = g then insert c C else C
             | Enter g' r c ⇒ C
             | Exit g' r ⇒ C)"

primrec roomk :: "event list ⇒ room ⇒ key" where
  "roomk [] r = initk r"
| "roomk (e # s) r = (let k = roomk s r in
     case e of Check_in g r' c ⇒ k
             | Enter g r' (x, y) ⇒ if r' = r then y else k
             | Exit g r' ⇒ k)"

primrec isin :: "event list ⇒ room ⇒ guest set" where
  "isin [] r = {}"
| "isin (e # s) r = (let G = isin s r in
     case e of Check_in g r' c ⇒ G
             | Enter g r' c ⇒ if r' = r then {g} ∪ G else G
             | Exit g r' ⇒ if r' = r then G - {g} else G)"

primrec hotel :: "event list ⇒ bool" where
  "hotel [] = True"
| "hotel (e # s) = (hotel s ∧ (case e of
     Check_in g r (k, k') ⇒ k = currk s r ∧ k' ∉ issued s
   | Enter g r (k, k') ⇒ (k, k') ∈ cards s g ∧ roomk s r ∈ {k, k'}
   | Exit g r ⇒ g ∈ isin s r))"

definition no_Check_in :: "event list ⇒ room ⇒ bool" where
  "no_Check_in s r = (¬ (∃g c. Check_in g r c ∈ set s))"

definition feels_safe :: "event list ⇒ room ⇒ bool" where
  "feels_safe s r = (∃s1 s2 s3 g c c'.
     s = s3 @ [Enter g r c] @ s2 @ [Check_in g r c'] @ s1 ∧
     no_Check_in (s3 @ s2) r ∧ isin (s2 @ [Check_in g r c] @ s1) r = {})"

section ‹Workloads (b) and (c) of the peers' benchmark›

text ‹As in `narrowing/benches/Workloads.thy`: the elements are a type of six values (the
peers' naturals 0..5), so a premise-satisfying assignment is a sorted list of at most five
elements (462 lists) and one of six `x` for (b), 2,772 in all, and an ordered tree of at
most five nodes (599 trees) and one of six `x` for (c), 3,594 in all.›

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

text ‹What the workloads' spaces bound: at most five elements.›

fun short :: "e list ⇒ bool" where
  "short (a # b # c # d # f # g # xs) = False"
| "short xs = True"

section ‹The lemmas›

lemma hotel_isin: "⟦hotel s; g ∈ isin s r⟧ ⟹ owns s r = Some g"
  quickcheck[smart_exhaustive, depth = 6, expect = counterexample]
  oops

lemma hotel_feels_safe: "hotel s ⟹ feels_safe s r ⟹ g ∈ isin s r ⟹ owns s r = Some g"
  quickcheck[smart_exhaustive, depth = 10, expect = counterexample]
  oops

lemma sorted_insort: "sorted_e xs ⟹ sorted_e (insort_e x xs)"
  quickcheck[smart_exhaustive, size = 5, depth = 5, expect = no_counterexample]
  oops

text ‹Every list the premise produces within the same bounds is in the workload's space
(the bench sorts the produced lists with this conclusion).›

lemma sorted_short: "sorted_e xs ⟹ short xs"
  quickcheck[smart_exhaustive, size = 5, depth = 5, expect = no_counterexample]
  oops

lemma ordered_ins: "ordered t ⟹ ordered (ins x t)"
  quickcheck[smart_exhaustive, size = 5, depth = 7, expect = no_counterexample]
  oops

text ‹Within the same bounds the premise produces every tree of the workload's space (the
599 ordered trees of at most five nodes) and 100 of the 132 ordered trees of six nodes,
which are outside it: depth 7 is the least that covers the space (depth 6 produces 503 of
the 599, depth 8 all 731 ordered trees of the six keys; the call of the definition
`ordered` costs no depth, only those of the recursive `increasing` and `inorder`). The bench sorts the produced trees
with this conclusion.›

lemma ordered_short: "ordered t ⟹ short (inorder t)"
  quickcheck[smart_exhaustive, size = 5, depth = 7, expect = counterexample]
  oops

end
