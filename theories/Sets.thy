theory Sets
  imports Main
begin

text ‹True lemmas about finite sets, stated as Isabelle's Set, Finite_Set and
Groups_Big theories state them, under their names. Polymorphic lemmas are tested at
finite types. vimage is defined here as Isabelle defines it (hol's prelude lacks it);
f -` B is written vimage f B. Each lemma is proved in Isabelle and carries sorry.›

definition vimage :: "('a ⇒ 'b) ⇒ 'b set ⇒ 'a set" where
  "vimage f B = {x. f x ∈ B}"

section ‹Lattice laws›

lemma Un_commute: "A ∪ B = B ∪ A"
  sorry

lemma Un_assoc: "(A ∪ B) ∪ C = A ∪ (B ∪ C)"
  sorry

lemma Un_absorb: "A ∪ A = A"
  sorry

lemma Int_commute: "A ∩ B = B ∩ A"
  sorry

lemma Int_assoc: "(A ∩ B) ∩ C = A ∩ (B ∩ C)"
  sorry

lemma Int_absorb: "A ∩ A = A"
  sorry

lemma Un_Int_distrib: "A ∪ (B ∩ C) = (A ∪ B) ∩ (A ∪ C)"
  sorry

lemma Int_Un_distrib: "A ∩ (B ∪ C) = (A ∩ B) ∪ (A ∩ C)"
  sorry

lemma Un_empty: "(A ∪ B = {}) = (A = {} ∧ B = {})"
  sorry

lemma Int_empty_left: "{} ∩ B = {}"
  sorry

lemma Un_empty_left: "{} ∪ B = B"
  sorry

lemma Int_UNIV_left: "UNIV ∩ B = B"
  sorry

lemma Un_UNIV_left: "UNIV ∪ B = UNIV"
  sorry

lemma Int_absorb1: "B ⊆ A ⟹ A ∩ B = B"
  sorry

lemma Un_absorb1: "A ⊆ B ⟹ A ∪ B = B"
  sorry

lemma Int_lower1: "A ∩ B ⊆ A"
  sorry

lemma Un_upper1: "A ⊆ A ∪ B"
  sorry

lemma Int_greatest: "⟦C ⊆ A; C ⊆ B⟧ ⟹ C ⊆ A ∩ B"
  sorry

lemma Un_least: "⟦A ⊆ C; B ⊆ C⟧ ⟹ A ∪ B ⊆ C"
  sorry

lemma Un_Int_crazy: "(A ∩ B) ∪ (B ∩ C) ∪ (C ∩ A) = (A ∪ B) ∩ (B ∪ C) ∩ (C ∪ A)"
  sorry

section ‹Subsets›

lemma subset_refl: "A ⊆ A"
  sorry

lemma subset_trans: "⟦A ⊆ B; B ⊆ C⟧ ⟹ A ⊆ C"
  sorry

lemma subset_antisym: "⟦A ⊆ B; B ⊆ A⟧ ⟹ A = B"
  sorry

lemma psubset_imp_subset: "A ⊂ B ⟹ A ⊆ B"
  sorry

lemma psubset_eq: "(A ⊂ B) = (A ⊆ B ∧ A ≠ B)"
  sorry

lemma subset_iff: "(A ⊆ B) = (∀t. t ∈ A ⟶ t ∈ B)"
  sorry

lemma empty_subsetI: "{} ⊆ A"
  sorry

lemma subset_UNIV: "A ⊆ UNIV"
  sorry

lemma subset_insert_iff: "(A ⊆ insert x B) = (if x ∈ A then A - {x} ⊆ B else A ⊆ B)"
  sorry

lemma Un_subset_iff: "(A ∪ B ⊆ C) = (A ⊆ C ∧ B ⊆ C)"
  sorry

lemma Int_subset_iff: "(C ⊆ A ∩ B) = (C ⊆ A ∧ C ⊆ B)"
  sorry

section ‹Insert and difference›

lemma insert_absorb: "a ∈ A ⟹ insert a A = A"
  sorry

lemma insert_commute: "insert x (insert y A) = insert y (insert x A)"
  sorry

lemma insert_is_Un: "insert a A = {a} ∪ A"
  sorry

lemma insert_not_empty: "insert a A ≠ {}"
  sorry

lemma insert_iff: "(a ∈ insert b A) = (a = b ∨ a ∈ A)"
  sorry

lemma insert_Diff: "a ∈ A ⟹ insert a (A - {a}) = A"
  sorry

lemma Diff_insert_absorb: "x ∉ A ⟹ insert x A - {x} = A"
  sorry

lemma Diff_iff: "(c ∈ A - B) = (c ∈ A ∧ c ∉ B)"
  sorry

lemma Diff_cancel: "A - A = {}"
  sorry

lemma Diff_empty: "A - {} = A"
  sorry

lemma Diff_Int: "A - (B ∩ C) = (A - B) ∪ (A - C)"
  sorry

lemma Diff_Un: "A - (B ∪ C) = (A - B) ∩ (A - C)"
  sorry

lemma Diff_subset: "A - B ⊆ A"
  sorry

lemma Diff_disjoint: "A ∩ (B - A) = {}"
  sorry

lemma Un_Diff_cancel: "A ∪ (B - A) = A ∪ B"
  sorry

lemma Diff_Diff_Int: "A - (A - B) = A ∩ B"
  sorry

lemma Int_Diff: "(A ∩ B) - C = A ∩ (B - C)"
  sorry

section ‹Complement›

lemma Compl_iff: "(c ∈ - A) = (c ∉ A)"
  sorry

lemma double_complement: "- (- A) = A"
  sorry

lemma Compl_Un: "- (A ∪ B) = (- A) ∩ (- B)"
  sorry

lemma Compl_Int: "- (A ∩ B) = (- A) ∪ (- B)"
  sorry

lemma Diff_eq: "A - B = A ∩ (- B)"
  sorry

lemma Compl_partition: "A ∪ (- A) = UNIV"
  sorry

lemma Compl_subset_Compl_iff: "(- A ⊆ - B) = (B ⊆ A)"
  sorry

section ‹Image and preimage›

lemma image_Un: "f ` (A ∪ B) = f ` A ∪ f ` B"
  sorry

lemma image_Int_subset: "f ` (A ∩ B) ⊆ f ` A ∩ f ` B"
  sorry

lemma image_insert: "f ` insert a B = insert (f a) (f ` B)"
  sorry

lemma image_empty: "f ` {} = {}"
  sorry

lemma image_comp: "f ` (g ` r) = (f ∘ g) ` r"
  sorry

lemma image_mono: "A ⊆ B ⟹ f ` A ⊆ f ` B"
  sorry

lemma image_diff_subset: "f ` A - f ` B ⊆ f ` (A - B)"
  sorry

lemma image_id: "id ` Y = Y"
  sorry

lemma image_constant: "x ∈ A ⟹ (λx. c) ` A = {c}"
  sorry

lemma image_is_empty: "(f ` A = {}) = (A = {})"
  sorry

lemma inj_on_image_Int: "⟦inj_on f C; A ⊆ C; B ⊆ C⟧ ⟹ f ` (A ∩ B) = f ` A ∩ f ` B"
  sorry

lemma vimage_Un: "vimage f (A ∪ B) = vimage f A ∪ vimage f B"
  sorry

lemma vimage_Int: "vimage f (A ∩ B) = vimage f A ∩ vimage f B"
  sorry

lemma vimage_Compl: "vimage f (- A) = - vimage f A"
  sorry

lemma image_vimage_subset: "f ` vimage f A ⊆ A"
  sorry

lemma vimage_image_subset: "A ⊆ vimage f (f ` A)"
  sorry

section ‹Comprehension and quantifiers›

lemma Collect_conj_eq: "{x. P x ∧ Q x} = {x. P x} ∩ {x. Q x}"
  sorry

lemma Collect_disj_eq: "{x. P x ∨ Q x} = {x. P x} ∪ {x. Q x}"
  sorry

lemma Collect_neg_eq: "{x. ¬ P x} = - {x. P x}"
  sorry

lemma ball_Un: "(∀x ∈ A ∪ B. P x) = ((∀x ∈ A. P x) ∧ (∀x ∈ B. P x))"
  sorry

lemma bex_Un: "(∃x ∈ A ∪ B. P x) = ((∃x ∈ A. P x) ∨ (∃x ∈ B. P x))"
  sorry

lemma ball_insert: "(∀x ∈ insert a B. P x) = (P a ∧ (∀x ∈ B. P x))"
  sorry

lemma ball_simps: "(∀x ∈ {}. P x) = True"
  sorry

lemma bex_empty: "(∃x ∈ {}. P x) = False"
  sorry

section ‹Cardinality and sums›

lemma card_Un_Int: "card A + card B = card (A ∪ B) + card (A ∩ B)"
  sorry

lemma card_Un_le: "card (A ∪ B) ≤ card A + card B"
  sorry

lemma card_mono: "A ⊆ B ⟹ card A ≤ card B"
  sorry

lemma card_insert_disjoint: "x ∉ A ⟹ card (insert x A) = Suc (card A)"
  sorry

lemma card_insert_if: "card (insert x A) = (if x ∈ A then card A else Suc (card A))"
  sorry

lemma card_Diff_subset: "B ⊆ A ⟹ card (A - B) = card A - card B"
  sorry

lemma card_Diff_singleton: "x ∈ A ⟹ card (A - {x}) = card A - 1"
  sorry

lemma card_image_le: "card (f ` A) ≤ card A"
  sorry

lemma card_image: "inj_on f A ⟹ card (f ` A) = card A"
  sorry

lemma card_0_eq: "(card A = 0) = (A = {})"
  sorry

lemma card_psubset: "⟦A ⊆ B; card A < card B⟧ ⟹ A ⊂ B"
  sorry

lemma psubset_card_mono: "A ⊂ B ⟹ card A < card B"
  sorry

lemma card_seteq: "⟦A ⊆ B; card B ≤ card A⟧ ⟹ A = B"
  sorry

lemma card_1_singleton_iff: "(card A = Suc 0) = (∃x. A = {x})"
  sorry

lemma sum_Un_nat: "sum f (A ∪ B) = sum f A + sum f B - (sum f (A ∩ B) :: nat)"
  sorry

lemma sum_mono: "(∀i ∈ K. f i ≤ g i) ⟹ sum f K ≤ (sum g K :: nat)"
  sorry

lemma sum_insert: "x ∉ A ⟹ sum f (insert x A) = f x + (sum f A :: int)"
  sorry

lemma sum_subset_le: "A ⊆ B ⟹ sum f A ≤ (sum f B :: nat)"
  sorry

lemma Max_ge: "x ∈ A ⟹ x ≤ Max A"
  sorry

lemma Min_le: "x ∈ A ⟹ Min A ≤ x"
  sorry

lemma Max_in: "A ≠ {} ⟹ Max A ∈ A"
  sorry

lemma Max_insert: "A ≠ {} ⟹ Max (insert x A) = max x (Max A)"
  sorry

lemma Min_Un: "⟦A ≠ {}; B ≠ {}⟧ ⟹ Min (A ∪ B) = min (Min A) (Min B)"
  sorry

lemma finite_Un: "finite (F ∪ G) = (finite F ∧ finite G)"
  sorry

lemma finite_subset: "⟦A ⊆ B; finite B⟧ ⟹ finite A"
  sorry

end
