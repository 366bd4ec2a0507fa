theory Functions
  imports Main
begin

text ‹True lemmas about functions, stated as Isabelle's Fun and Hilbert_Choice theories
state them, under their names. Polymorphic lemmas are tested at finite types, where inj,
surj and bij are executable. bij, the_inv_into-free inverse images and fun_upd's
Isabelle spelling f(x := y) are used as in Isabelle; bij is defined here as Isabelle
defines it (bij f = bij_betw f UNIV UNIV), since hol's prelude lacks it, and so is
override_on. Each lemma is proved in Isabelle and carries sorry.›

definition bij :: "('a ⇒ 'b) ⇒ bool" where
  "bij f = bij_betw f UNIV UNIV"

definition override_on :: "('a ⇒ 'b) ⇒ ('a ⇒ 'b) ⇒ 'a set ⇒ 'a ⇒ 'b" where
  "override_on f g A = (λa. if a ∈ A then g a else f a)"

section ‹Composition and identity›

lemma comp_assoc: "(f ∘ g) ∘ h = f ∘ (g ∘ h)"
  sorry

lemma comp_apply: "(f ∘ g) x = f (g x)"
  sorry

lemma id_apply: "id x = x"
  sorry

lemma comp_id: "f ∘ id = f"
  sorry

lemma id_comp: "id ∘ g = g"
  sorry

lemma image_comp: "f ` (g ` A) = (f ∘ g) ` A"
  sorry

lemma comp_cong: "⟦f (g x) = f' (g' x')⟧ ⟹ (f ∘ g) x = (f' ∘ g') x'"
  sorry

section ‹Function update›

lemma fun_upd_same: "(f(x := y)) x = y"
  sorry

lemma fun_upd_other: "z ≠ x ⟹ (f(x := y)) z = f z"
  sorry

lemma fun_upd_apply: "(f(x := y)) z = (if z = x then y else f z)"
  sorry

lemma fun_upd_upd: "f(x := y, x := z) = f(x := z)"
  sorry

lemma fun_upd_triv: "f(x := f x) = f"
  sorry

lemma fun_upd_idem_iff: "(f(x := y) = f) = (f x = y)"
  sorry

lemma fun_upd_twist: "a ≠ c ⟹ m(a := b, c := d) = m(c := d, a := b)"
  sorry

lemma fun_upd_image: "f(x := y) ` A = (if x ∈ A then insert y (f ` (A - {x})) else f ` A)"
  sorry

lemma fun_upd_comp: "f ∘ (g(x := y)) = (f ∘ g)(x := f y)"
  sorry

lemma fun_upd_eqD: "f(x := y) = g(x := z) ⟹ y = z"
  sorry

lemma override_on_emptyset: "override_on f g {} = f"
  sorry

lemma override_on_apply_in: "a ∈ A ⟹ override_on f g A a = g a"
  sorry

lemma override_on_apply_notin: "a ∉ A ⟹ override_on f g A a = f a"
  sorry

section ‹Injectivity›

lemma inj_on_id: "inj_on id A"
  sorry

lemma inj_on_empty: "inj_on f {}"
  sorry

lemma inj_on_subset: "⟦inj_on f A; B ⊆ A⟧ ⟹ inj_on f B"
  sorry

lemma inj_on_insert: "inj_on f (insert a A) = (inj_on f A ∧ f a ∉ f ` (A - {a}))"
  sorry

lemma inj_on_Un: "inj_on f (A ∪ B) = (inj_on f A ∧ inj_on f B ∧ f ` (A - B) ∩ f ` (B - A) = {})"
  sorry

lemma comp_inj_on: "⟦inj_on f A; inj_on g (f ` A)⟧ ⟹ inj_on (g ∘ f) A"
  sorry

lemma inj_on_imageI2: "inj_on (f' ∘ f) A ⟹ inj_on f A"
  sorry

lemma inj_on_iff: "⟦inj_on f A; x ∈ A; y ∈ A⟧ ⟹ (f x = f y) = (x = y)"
  sorry

lemma inj_on_image_mem_iff: "⟦inj_on f B; a ∈ B; A ⊆ B⟧ ⟹ (f a ∈ f ` A) = (a ∈ A)"
  sorry

lemma inj_on_image_set_diff: "⟦inj_on f C; A ⊆ C; B ⊆ C⟧ ⟹ f ` (A - B) = f ` A - f ` B"
  sorry

lemma inj_eq: "inj f ⟹ (f x = f y) = (x = y)"
  sorry

lemma inj_comp: "⟦inj f; inj g⟧ ⟹ inj (f ∘ g)"
  sorry

lemma inj_image_mem_iff: "inj f ⟹ (f a ∈ f ` A) = (a ∈ A)"
  sorry

lemma inj_image_subset_iff: "inj f ⟹ (f ` A ⊆ f ` B) = (A ⊆ B)"
  sorry

lemma inj_image_eq_iff: "inj f ⟹ (f ` A = f ` B) = (A = B)"
  sorry

lemma inj_on_card_image: "inj_on f A ⟹ card (f ` A) = card A"
  sorry

lemma inj_on_iff_eq_card: "inj_on f A = (card (f ` A) = card A)"
  sorry

lemma inj_on_fun_updI: "⟦inj_on f A; y ∉ f ` A⟧ ⟹ inj_on (f(x := y)) A"
  sorry

lemma inj_id: "inj id"
  sorry

lemma inj_Some: "inj Some"
  sorry

lemma inj_Suc: "inj_on Suc A"
  sorry

lemma inj_Pair: "inj_on (Pair x) A"
  sorry

lemma inj_swap: "inj swap"
  sorry

section ‹Surjectivity and bijections›

lemma surj_id: "surj id"
  sorry

lemma comp_surj: "⟦surj f; surj g⟧ ⟹ surj (g ∘ f)"
  sorry

lemma surj_iff_all: "surj f = (∀x. ∃y. f y = x)"
  sorry

lemma surjD: "surj f ⟹ ∃x. y = f x"
  sorry

lemma surj_range: "surj f ⟹ range f = UNIV"
  sorry

lemma surj_image_vimage_eq: "surj f ⟹ f ` {x. f x ∈ A} = A"
  sorry

lemma comp_surj_imp: "surj (g ∘ f) ⟹ surj g"
  sorry

lemma inj_comp_imp: "inj (g ∘ f) ⟹ inj f"
  sorry

lemma bij_id: "bij id"
  sorry

lemma bij_def_alt: "bij f = (inj f ∧ surj f)"
  sorry

lemma bij_comp: "⟦bij f; bij g⟧ ⟹ bij (g ∘ f)"
  sorry

lemma bij_swap: "bij swap"
  sorry

lemma bij_betw_empty1: "bij_betw f {} A ⟹ A = {}"
  sorry

lemma bij_betw_imp_surj_on: "bij_betw f A B ⟹ f ` A = B"
  sorry

lemma bij_betw_imp_inj_on: "bij_betw f A B ⟹ inj_on f A"
  sorry

lemma bij_betw_same_card: "bij_betw f A B ⟹ card A = card B"
  sorry

lemma bij_betw_trans: "⟦bij_betw f A B; bij_betw g B C⟧ ⟹ bij_betw (g ∘ f) A C"
  sorry

lemma bij_betw_subset: "⟦bij_betw f A A'; B ⊆ A; f ` B = B'⟧ ⟹ bij_betw f B B'"
  sorry

lemma bij_betw_id: "bij_betw id A A"
  sorry

lemma bij_betw_singleton_iff: "bij_betw f {x} {y} = (f x = y)"
  sorry

lemma bij_betw_insert: "⟦a ∉ A; b ∉ B; bij_betw f A B; f a = b⟧ ⟹ bij_betw f (insert a A) (insert b B)"
  sorry

lemma inj_on_imp_bij_betw: "inj_on f A ⟹ bij_betw f A (f ` A)"
  sorry

lemma bij_betw_comp_iff: "bij_betw f A A' ⟹ bij_betw f' A' A'' = bij_betw (f' ∘ f) A A''"
  sorry

lemma surj_card_le: "card (f ` A) ≤ card A"
  sorry

lemma card_inj_on_le: "⟦inj_on f A; f ` A ⊆ B⟧ ⟹ card A ≤ card B"
  sorry

lemma inj_on_imp_card_eq: "⟦inj_on f A; f ` A ⊆ A⟧ ⟹ f ` A = A"
  sorry

lemma finite_surj_inj: "⟦finite A; A ⊆ f ` A⟧ ⟹ inj_on f A"
  sorry

lemma inj_fun_upd_swap: "inj f ⟹ inj (f(a := f b, b := f a))"
  sorry

end
