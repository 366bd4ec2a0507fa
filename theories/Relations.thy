theory Relations
  imports Main
begin

text ‹True lemmas about relations as sets of pairs, stated as Isabelle's Relation and
Transitive_Closure theories state them, under their names; polymorphic lemmas are tested
at finite types. Domain, Range, Image (written r `` A in Isabelle, Image r A here), refl,
sym, antisym, trans and Id_on are defined here as Isabelle defines them, since hol's
prelude lacks them (refl_on avoids A × A, which hol does not read). Each lemma is proved
in Isabelle and carries sorry.›

definition Domain :: "('a × 'b) set ⇒ 'a set" where
  "Domain r = {x. ∃y. (x, y) ∈ r}"

definition Range :: "('a × 'b) set ⇒ 'b set" where
  "Range r = {y. ∃x. (x, y) ∈ r}"

definition Image :: "('a × 'b) set ⇒ 'a set ⇒ 'b set" where
  "Image r A = {y. ∃x ∈ A. (x, y) ∈ r}"

definition Id_on :: "'a set ⇒ ('a × 'a) set" where
  "Id_on A = {p. fst p ∈ A ∧ fst p = snd p}"

definition refl_on :: "'a set ⇒ ('a × 'a) set ⇒ bool" where
  "refl_on A r = ((∀p ∈ r. fst p ∈ A ∧ snd p ∈ A) ∧ (∀x ∈ A. (x, x) ∈ r))"

definition refl :: "('a × 'a) set ⇒ bool" where
  "refl r = (∀x. (x, x) ∈ r)"

definition sym :: "('a × 'a) set ⇒ bool" where
  "sym r = (∀x y. (x, y) ∈ r ⟶ (y, x) ∈ r)"

definition antisym :: "('a × 'a) set ⇒ bool" where
  "antisym r = (∀x y. (x, y) ∈ r ⟶ (y, x) ∈ r ⟶ x = y)"

definition trans :: "('a × 'a) set ⇒ bool" where
  "trans r = (∀x y z. (x, y) ∈ r ⟶ (y, z) ∈ r ⟶ (x, z) ∈ r)"

section ‹Converse and composition›

lemma converse_iff: "((a, b) ∈ r¯) = ((b, a) ∈ r)"
  sorry

lemma converse_converse: "(r¯)¯ = r"
  sorry

lemma converse_Un: "(r ∪ s)¯ = r¯ ∪ s¯"
  sorry

lemma converse_Int: "(r ∩ s)¯ = r¯ ∩ s¯"
  sorry

lemma converse_Id: "Id¯ = Id"
  sorry

lemma converse_relcomp: "(r O s)¯ = s¯ O r¯"
  sorry

lemma converse_mono: "(r¯ ⊆ s¯) = (r ⊆ s)"
  sorry

lemma converse_empty: "{}¯ = {}"
  sorry

lemma relcomp_unfold: "((x, z) ∈ r O s) = (∃y. (x, y) ∈ r ∧ (y, z) ∈ s)"
  sorry

lemma O_assoc: "(R O S) O T = R O (S O T)"
  sorry

lemma R_O_Id: "R O Id = R"
  sorry

lemma Id_O_R: "Id O R = R"
  sorry

lemma relcomp_empty1: "{} O R = {}"
  sorry

lemma relcomp_mono: "⟦r' ⊆ r; s' ⊆ s⟧ ⟹ r' O s' ⊆ r O s"
  sorry

lemma relcomp_distrib: "R O (S ∪ T) = (R O S) ∪ (R O T)"
  sorry

lemma relcomp_distrib2: "(S ∪ T) O R = (S O R) ∪ (T O R)"
  sorry

lemma relcomp_Int_subset: "R O (S ∩ T) ⊆ (R O S) ∩ (R O T)"
  sorry

section ‹Domain, range, image›

lemma Domain_iff: "(a ∈ Domain r) = (∃y. (a, y) ∈ r)"
  sorry

lemma Domain_Un_eq: "Domain (A ∪ B) = Domain A ∪ Domain B"
  sorry

lemma Domain_Int_subset: "Domain (A ∩ B) ⊆ Domain A ∩ Domain B"
  sorry

lemma Domain_converse: "Domain (r¯) = Range r"
  sorry

lemma Range_converse: "Range (r¯) = Domain r"
  sorry

lemma Domain_empty: "Domain {} = {}"
  sorry

lemma Domain_insert: "Domain (insert (a, b) r) = insert a (Domain r)"
  sorry

lemma Range_Un_eq: "Range (A ∪ B) = Range A ∪ Range B"
  sorry

lemma Domain_mono: "r ⊆ s ⟹ Domain r ⊆ Domain s"
  sorry

lemma Domain_Id: "Domain Id = UNIV"
  sorry

lemma Domain_relcomp_subset: "Domain (r O s) ⊆ Domain r"
  sorry

lemma Image_Un: "Image R (A ∪ B) = Image R A ∪ Image R B"
  sorry

lemma Image_empty1: "Image R {} = {}"
  sorry

lemma Image_empty2: "Image {} A = {}"
  sorry

lemma Image_Id: "Image Id A = A"
  sorry

lemma Image_singleton_iff: "(b ∈ Image r {a}) = ((a, b) ∈ r)"
  sorry

lemma Image_Int_subset: "Image R (A ∩ B) ⊆ Image R A ∩ Image R B"
  sorry

lemma Image_mono: "⟦r' ⊆ r; A' ⊆ A⟧ ⟹ Image r' A' ⊆ Image r A"
  sorry

lemma Image_relcomp: "Image (r O s) A = Image s (Image r A)"
  sorry

lemma Image_subset_Range: "Image r A ⊆ Range r"
  sorry

lemma Image_Id_on: "Image (Id_on A) B = A ∩ B"
  sorry

section ‹Properties of relations›

lemma refl_Id: "refl Id"
  sorry

lemma sym_Id: "sym Id"
  sorry

lemma trans_Id: "trans Id"
  sorry

lemma antisym_Id: "antisym Id"
  sorry

lemma sym_converse: "sym (r¯) = sym r"
  sorry

lemma trans_converse: "trans (r¯) = trans r"
  sorry

lemma antisym_converse: "antisym (r¯) = antisym r"
  sorry

lemma sym_Un: "⟦sym r; sym s⟧ ⟹ sym (r ∪ s)"
  sorry

lemma sym_Int: "⟦sym r; sym s⟧ ⟹ sym (r ∩ s)"
  sorry

lemma trans_Int: "⟦trans r; trans s⟧ ⟹ trans (r ∩ s)"
  sorry

lemma refl_Un: "refl r ⟹ refl (r ∪ s)"
  sorry

lemma antisym_subset: "⟦r ⊆ s; antisym s⟧ ⟹ antisym r"
  sorry

lemma sym_conv_converse_eq: "sym r = (r¯ = r)"
  sorry

lemma trans_O_subset: "trans r ⟹ r O r ⊆ r"
  sorry

lemma refl_on_Id_on: "refl_on A (Id_on A)"
  sorry

lemma refl_on_Un: "⟦refl_on A r; refl_on B s⟧ ⟹ refl_on (A ∪ B) (r ∪ s)"
  sorry

lemma refl_on_domain: "⟦refl_on A r; (a, b) ∈ r⟧ ⟹ a ∈ A ∧ b ∈ A"
  sorry

section ‹Transitive closure›

lemma r_into_trancl: "(a, b) ∈ r ⟹ (a, b) ∈ r⇧+"
  sorry

lemma r_into_rtrancl: "p ∈ r ⟹ p ∈ r⇧*"
  sorry

lemma rtrancl_refl: "(a, a) ∈ r⇧*"
  sorry

lemma trancl_trans: "⟦(x, y) ∈ r⇧+; (y, z) ∈ r⇧+⟧ ⟹ (x, z) ∈ r⇧+"
  sorry

lemma rtrancl_trans: "⟦(x, y) ∈ r⇧*; (y, z) ∈ r⇧*⟧ ⟹ (x, z) ∈ r⇧*"
  sorry

lemma trans_trancl: "trans (r⇧+)"
  sorry

lemma trans_rtrancl: "trans (r⇧*)"
  sorry

lemma trancl_into_rtrancl: "(a, b) ∈ r⇧+ ⟹ (a, b) ∈ r⇧*"
  sorry

lemma rtrancl_eq_or_trancl: "((x, y) ∈ r⇧*) = (x = y ∨ x ≠ y ∧ (x, y) ∈ r⇧+)"
  sorry

lemma trancl_converse: "(r¯)⇧+ = (r⇧+)¯"
  sorry

lemma rtrancl_converse: "(r¯)⇧* = (r⇧*)¯"
  sorry

lemma trancl_mono: "⟦p ∈ r⇧+; r ⊆ s⟧ ⟹ p ∈ s⇧+"
  sorry

lemma trancl_trancl: "(r⇧+)⇧+ = r⇧+"
  sorry

lemma rtrancl_idemp: "(r⇧*)⇧* = r⇧*"
  sorry

lemma trancl_id: "trans r ⟹ r⇧+ = r"
  sorry

lemma trancl_unfold_left: "r⇧+ = r ∪ r O r⇧+"
  sorry

lemma trancl_unfold_right: "r⇧+ = r ∪ r⇧+ O r"
  sorry

lemma trancl_empty: "{}⇧+ = {}"
  sorry

lemma rtrancl_empty: "{}⇧* = Id"
  sorry

lemma rtrancl_Un_rtrancl: "(R⇧* ∪ S⇧*)⇧* = (R ∪ S)⇧*"
  sorry

lemma rtrancl_reflcl: "(r⇧=)⇧* = r⇧*"
  sorry

lemma trancl_reflcl: "(r⇧=)⇧+ = r⇧*"
  sorry

lemma reflcl_trancl: "(r⇧+)⇧= = r⇧*"
  sorry

lemma Domain_rtrancl: "Domain (R⇧*) = UNIV"
  sorry

lemma Domain_trancl: "Domain (r⇧+) = Domain r"
  sorry

lemma Range_trancl: "Range (r⇧+) = Range r"
  sorry

lemma acyclic_converse: "acyclic (r¯) = acyclic r"
  sorry

lemma acyclic_subset: "⟦acyclic s; r ⊆ s⟧ ⟹ acyclic r"
  sorry

lemma acyclic_empty: "acyclic {}"
  sorry

lemma acyclic_insert: "acyclic (insert (y, x) r) = (acyclic r ∧ (x, y) ∉ r⇧*)"
  sorry

end
