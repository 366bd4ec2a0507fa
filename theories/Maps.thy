theory Maps
  imports Main
begin

text ‹True lemmas about maps 'a ⇒ 'b option, stated as Isabelle's Map theory
(HOL/Map.thy) states them, under its names. Isabelle writes m(a ↦ b) for
m(a := Some b), m |` A for restrict_map m A, m₁ ⊆⇩m m₂ for map_le m₁ m₂ and m₁ ∘⇩m m₂
for map_comp m₁ m₂; hol reads neither notation, so these lemmas use the spelled-out
forms, and restrict_map, map_le, map_comp and map_upds are defined here as Isabelle
defines them. empty is Isabelle's Map.empty (λx. None). Polymorphic lemmas are tested at
finite types, where dom and ran are executable. Each lemma is proved in Isabelle and
carries sorry.›

definition empty :: "'a ⇒ 'b option" where
  "empty = (λx. None)"

definition restrict_map :: "('a ⇒ 'b option) ⇒ 'a set ⇒ 'a ⇒ 'b option" where
  "restrict_map m A = (λx. if x ∈ A then m x else None)"

definition map_le :: "('a ⇒ 'b option) ⇒ ('a ⇒ 'b option) ⇒ bool" where
  "map_le m1 m2 = (∀a ∈ dom m1. m1 a = m2 a)"

definition map_comp :: "('b ⇒ 'c option) ⇒ ('a ⇒ 'b option) ⇒ 'a ⇒ 'c option" where
  "map_comp f g = (λk. case g k of None ⇒ None | Some v ⇒ f v)"

primrec map_upds :: "('a ⇒ 'b option) ⇒ 'a list ⇒ 'b list ⇒ 'a ⇒ 'b option" where
  "map_upds m [] ys = m"
| "map_upds m (x # xs) ys = (case ys of [] ⇒ m | y # ys' ⇒ map_upds (m(x := Some y)) xs ys')"

section ‹Update›

lemma map_upd_triv: "t k = Some x ⟹ t(k := Some x) = t"
  sorry

lemma map_upd_nonempty: "t(k := Some x) ≠ empty"
  sorry

lemma map_upd_eqD1: "m(a := Some x) = n(a := Some y) ⟹ x = y"
  sorry

lemma fun_upd_None_if_notin_dom: "k ∉ dom m ⟹ m(k := None) = m"
  sorry

lemma map_upd_Some_unfold: "((m(a := Some b)) x = Some y) = (x = a ∧ b = y ∨ x ≠ a ∧ m x = Some y)"
  sorry

lemma map_upd_upd: "m(a := Some b, a := Some c) = m(a := Some c)"
  sorry

lemma map_upd_commute: "a ≠ c ⟹ m(a := Some b, c := Some d) = m(c := Some d, a := Some b)"
  sorry

lemma dom_fun_upd: "dom (f(x := y)) = (if y = None then dom f - {x} else insert x (dom f))"
  sorry

lemma dom_map_upd: "dom (m(a := Some b)) = insert a (dom m)"
  sorry

lemma ran_map_upd: "m a = None ⟹ ran (m(a := Some b)) = insert b (ran m)"
  sorry

lemma ran_map_upd_subset: "ran (m(a := Some b)) ⊆ insert b (ran m)"
  sorry

lemma map_upds_Nil2: "map_upds m xs [] = m"
  sorry

lemma map_upds_Cons: "map_upds m (a # as) (b # bs) = map_upds (m(a := Some b)) as bs"
  sorry

lemma dom_map_upds: "dom (map_upds m xs ys) = set (take (length ys) xs) ∪ dom m"
  sorry

lemma map_upds_append1: "length xs < length ys ⟹ map_upds m (xs @ [x]) ys = (map_upds m xs ys)(x := Some (ys ! length xs))"
  sorry

section ‹Domain and range›

lemma domI: "m a = Some b ⟹ a ∈ dom m"
  sorry

lemma domIff: "(a ∈ dom m) = (m a ≠ None)"
  sorry

lemma dom_empty: "dom empty = {}"
  sorry

lemma dom_eq_empty_conv: "(dom f = {}) = (f = empty)"
  sorry

lemma ranI: "m a = Some b ⟹ b ∈ ran m"
  sorry

lemma ran_empty: "ran empty = {}"
  sorry

lemma ran_map_option: "ran (λx. map_option f (m x)) = f ` ran m"
  sorry

lemma finite_dom_map_of: "finite (dom (map_of l))"
  sorry

lemma dom_map_of_conv_image_fst: "dom (map_of xys) = fst ` set xys"
  sorry

lemma ran_map_of_subset: "ran (map_of xs) ⊆ snd ` set xs"
  sorry

lemma card_dom_ran: "card (ran m) ≤ card (dom m)"
  sorry

section ‹map_of›

lemma map_of_append: "map_of (xs @ ys) = map_add (map_of ys) (map_of xs)"
  sorry

lemma map_of_SomeD: "map_of xs k = Some y ⟹ (k, y) ∈ set xs"
  sorry

lemma map_of_eq_None_iff: "(map_of xys x = None) = (x ∉ fst ` set xys)"
  sorry

lemma map_of_is_SomeI: "⟦distinct (map fst xys); (x, y) ∈ set xys⟧ ⟹ map_of xys x = Some y"
  sorry

lemma map_of_zip_is_None: "length xs = length ys ⟹ (map_of (zip xs ys) x = None) = (x ∉ set xs)"
  sorry

lemma map_of_map: "map_of (map (λ(k, v). (k, f v)) xs) = (λx. map_option f (map_of xs x))"
  sorry

lemma map_of_filter_in: "⟦map_of xs k = Some z; P k z⟧ ⟹ map_of (filter (λ(k, v). P k v) xs) k = Some z"
  sorry

lemma map_of_Cons_code: "map_of ((l, v) # ps) k = (if l = k then Some v else map_of ps k)"
  sorry

lemma map_of_zip_map: "map_of (zip xs (map f xs)) = (λx. if x ∈ set xs then Some (f x) else None)"
  sorry

section ‹Map addition›

lemma map_add_empty: "m ++ empty = m"
  sorry

lemma empty_map_add: "empty ++ m = m"
  sorry

lemma map_add_assoc: "m1 ++ (m2 ++ m3) = (m1 ++ m2) ++ m3"
  sorry

lemma map_add_Some_iff: "((m ++ n) k = Some x) = (n k = Some x ∨ n k = None ∧ m k = Some x)"
  sorry

lemma map_add_None: "((m ++ n) k = None) = (n k = None ∧ m k = None)"
  sorry

lemma map_add_dom_app_simps: "m ∈ dom l2 ⟹ (l1 ++ l2) m = l2 m"
  sorry

lemma map_add_dom_app_simps2: "m ∉ dom l2 ⟹ (l1 ++ l2) m = l1 m"
  sorry

lemma map_add_upd: "f ++ g(x := Some y) = (f ++ g)(x := Some y)"
  sorry

lemma dom_map_add: "dom (m ++ n) = dom n ∪ dom m"
  sorry

lemma ran_map_add: "dom m ∩ dom n = {} ⟹ ran (m ++ n) = ran m ∪ ran n"
  sorry

lemma map_add_comm: "dom m1 ∩ dom m2 = {} ⟹ m1 ++ m2 = m2 ++ m1"
  sorry

lemma map_add_left_None: "f k = None ⟹ (f ++ g) k = g k"
  sorry

lemma map_add_find_right: "n k = Some xx ⟹ (m ++ n) k = Some xx"
  sorry

lemma map_add_subsumed1: "map_le f g ⟹ f ++ g = g"
  sorry

lemma map_add_subsumed2: "map_le f g ⟹ g ++ f = g"
  sorry

section ‹Restriction›

lemma restrict_map_to_empty: "restrict_map m {} = empty"
  sorry

lemma restrict_map_insert: "restrict_map f (insert a A) = (restrict_map f A)(a := f a)"
  sorry

lemma restrict_map_empty: "restrict_map empty D = empty"
  sorry

lemma restrict_in: "x ∈ A ⟹ restrict_map m A x = m x"
  sorry

lemma restrict_out: "x ∉ A ⟹ restrict_map m A x = None"
  sorry

lemma dom_restrict: "dom (restrict_map m A) = dom m ∩ A"
  sorry

lemma restrict_restrict: "restrict_map (restrict_map m A) B = restrict_map m (A ∩ B)"
  sorry

lemma restrict_fun_upd: "restrict_map (m(x := y)) D = (if x ∈ D then (restrict_map m (D - {x}))(x := y) else restrict_map m D)"
  sorry

lemma restrict_upd_same: "restrict_map (m(x := Some y)) (- {x}) = restrict_map m (- {x})"
  sorry

lemma restrict_map_self: "restrict_map m (dom m) = m"
  sorry

lemma ran_restrictD: "y ∈ ran (restrict_map m A) ⟹ ∃x ∈ A. m x = Some y"
  sorry

lemma restrict_complement_singleton_eq: "restrict_map f (- {x}) = f(x := None)"
  sorry

section ‹Order and composition›

lemma map_le_refl: "map_le f f"
  sorry

lemma map_le_trans: "⟦map_le m1 m2; map_le m2 m3⟧ ⟹ map_le m1 m3"
  sorry

lemma map_le_antisym: "⟦map_le f g; map_le g f⟧ ⟹ f = g"
  sorry

lemma map_le_empty: "map_le empty g"
  sorry

lemma map_le_upds: "map_le f g ⟹ map_le (f(a := Some b)) (g(a := Some b))"
  sorry

lemma map_le_imp_upd_le: "map_le m1 m2 ⟹ map_le (m1(x := None)) (m2(x := Some y))"
  sorry

lemma map_le_map_add: "map_le f (g ++ f)"
  sorry

lemma map_le_iff_map_add_commute: "map_le f (f ++ g) = (f ++ g = g ++ f)"
  sorry

lemma dom_mono: "map_le m1 m2 ⟹ dom m1 ⊆ dom m2"
  sorry

lemma map_le_restrict: "map_le (restrict_map m A) m"
  sorry

lemma map_comp_empty1: "map_comp empty m = empty"
  sorry

lemma map_comp_empty2: "map_comp m empty = empty"
  sorry

lemma map_comp_Some_iff: "((map_comp m1 m2) k = Some v) = (∃k'. m2 k = Some k' ∧ m1 k' = Some v)"
  sorry

lemma map_comp_None_iff: "((map_comp m1 m2) k = None) = (m2 k = None ∨ (∃k'. m2 k = Some k' ∧ m1 k' = None))"
  sorry

lemma dom_map_comp_subset: "dom (map_comp m1 m2) ⊆ dom m2"
  sorry

end
