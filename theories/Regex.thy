theory Regex
  imports Main
begin

text ‹Regular expressions and a matcher by Brzozowski derivatives, after the AFP entry
Regular-Sets (Regular_Exp.thy, Derivatives.thy, NDerivative.thy), with its datatype and
names. Isabelle defines the language of an expression as a set of words, lang r, which is
infinite; here w ∈ lang r is decided by a reference matcher that splits the word
(matches), and lang r is the set {w. matches r w}, so every lemma about lang below is
stated through membership. The derivative matcher (nullable of derivs) is then proved
equal to it, as Isabelle's lang_derivs and nullable_iff do. Each lemma is proved in
Isabelle (or follows from its lemmas at once) and carries sorry.›

datatype 'a rexp = Zero | One | Atom 'a | Plus "'a rexp" "'a rexp" | Times "'a rexp" "'a rexp" | Star "'a rexp"

text ‹Exhaustive testing enumerates expressions level by level, and lemmas over two or three
expressions and a word reach millions of cases by size 3; a run of hol check over this
theory gives each lemma a second.›

quickcheck_params[timeout = 1]

section ‹The reference matcher›

primrec splits :: "'a list ⇒ ('a list × 'a list) list" where
  "splits [] = [([], [])]"
| "splits (x # xs) = ([], x # xs) # map (λp. (x # fst p, snd p)) (splits xs)"

fun matches :: "'a rexp ⇒ 'a list ⇒ bool" where
  "matches Zero w = False"
| "matches One w = (w = [])"
| "matches (Atom a) w = (w = [a])"
| "matches (Plus r s) w = (matches r w ∨ matches s w)"
| "matches (Times r s) w = (∃p ∈ set (splits w). matches r (fst p) ∧ matches s (snd p))"
| "matches (Star r) w = (w = [] ∨ (∃p ∈ set (splits w). fst p ≠ [] ∧ matches r (fst p) ∧ matches (Star r) (snd p)))"

definition lang :: "'a rexp ⇒ 'a list set" where
  "lang r = {w. matches r w}"

section ‹Derivatives›

primrec nullable :: "'a rexp ⇒ bool" where
  "nullable Zero = False"
| "nullable One = True"
| "nullable (Atom c) = False"
| "nullable (Plus r1 r2) = (nullable r1 ∨ nullable r2)"
| "nullable (Times r1 r2) = (nullable r1 ∧ nullable r2)"
| "nullable (Star r) = True"

primrec deriv :: "'a ⇒ 'a rexp ⇒ 'a rexp" where
  "deriv c Zero = Zero"
| "deriv c One = Zero"
| "deriv c (Atom c') = (if c = c' then One else Zero)"
| "deriv c (Plus r1 r2) = Plus (deriv c r1) (deriv c r2)"
| "deriv c (Times r1 r2) = (if nullable r1 then Plus (Times (deriv c r1) r2) (deriv c r2) else Times (deriv c r1) r2)"
| "deriv c (Star r) = Times (deriv c r) (Star r)"

primrec derivs :: "'a list ⇒ 'a rexp ⇒ 'a rexp" where
  "derivs [] r = r"
| "derivs (c # s) r = derivs s (deriv c r)"

definition matcher :: "'a rexp ⇒ 'a list ⇒ bool" where
  "matcher r s = nullable (derivs s r)"

section ‹Smart constructors and normalising derivatives›

fun nPlus :: "'a rexp ⇒ 'a rexp ⇒ 'a rexp" where
  "nPlus Zero r = r"
| "nPlus r Zero = r"
| "nPlus r s = (if r = s then r else Plus r s)"

fun nTimes :: "'a rexp ⇒ 'a rexp ⇒ 'a rexp" where
  "nTimes Zero r = Zero"
| "nTimes r Zero = Zero"
| "nTimes One r = r"
| "nTimes r One = r"
| "nTimes r s = Times r s"

primrec nderiv :: "'a ⇒ 'a rexp ⇒ 'a rexp" where
  "nderiv c Zero = Zero"
| "nderiv c One = Zero"
| "nderiv c (Atom c') = (if c = c' then One else Zero)"
| "nderiv c (Plus r1 r2) = nPlus (nderiv c r1) (nderiv c r2)"
| "nderiv c (Times r1 r2) = (let r1' = nTimes (nderiv c r1) r2 in if nullable r1 then nPlus r1' (nderiv c r2) else r1')"
| "nderiv c (Star r) = nTimes (nderiv c r) (Star r)"

primrec norm :: "'a rexp ⇒ 'a rexp" where
  "norm Zero = Zero"
| "norm One = One"
| "norm (Atom a) = Atom a"
| "norm (Plus r s) = nPlus (norm r) (norm s)"
| "norm (Times r s) = nTimes (norm r) (norm s)"
| "norm (Star r) = Star (norm r)"

section ‹Atoms, map, reversal›

primrec atoms :: "'a rexp ⇒ 'a set" where
  "atoms Zero = {}"
| "atoms One = {}"
| "atoms (Atom a) = {a}"
| "atoms (Plus r s) = atoms r ∪ atoms s"
| "atoms (Times r s) = atoms r ∪ atoms s"
| "atoms (Star r) = atoms r"

primrec map_rexp :: "('a ⇒ 'b) ⇒ 'a rexp ⇒ 'b rexp" where
  "map_rexp f Zero = Zero"
| "map_rexp f One = One"
| "map_rexp f (Atom a) = Atom (f a)"
| "map_rexp f (Plus r s) = Plus (map_rexp f r) (map_rexp f s)"
| "map_rexp f (Times r s) = Times (map_rexp f r) (map_rexp f s)"
| "map_rexp f (Star r) = Star (map_rexp f r)"

primrec rexp_rev :: "'a rexp ⇒ 'a rexp" where
  "rexp_rev Zero = Zero"
| "rexp_rev One = One"
| "rexp_rev (Atom a) = Atom a"
| "rexp_rev (Plus r s) = Plus (rexp_rev r) (rexp_rev s)"
| "rexp_rev (Times r s) = Times (rexp_rev s) (rexp_rev r)"
| "rexp_rev (Star r) = Star (rexp_rev r)"

primrec rexp_empty :: "'a rexp ⇒ bool" where
  "rexp_empty Zero = True"
| "rexp_empty One = False"
| "rexp_empty (Atom a) = False"
| "rexp_empty (Plus r s) = (rexp_empty r ∧ rexp_empty s)"
| "rexp_empty (Times r s) = (rexp_empty r ∨ rexp_empty s)"
| "rexp_empty (Star r) = False"

section ‹The matcher and the language›

lemma splits_append: "((u, v) ∈ set (splits w)) = (u @ v = w)"
  sorry

lemma length_splits: "length (splits w) = Suc (length w)"
  sorry

lemma lang_Zero: "w ∉ lang Zero"
  sorry

lemma lang_One: "(w ∈ lang One) = (w = [])"
  sorry

lemma lang_Atom: "(w ∈ lang (Atom a)) = (w = [a])"
  sorry

lemma lang_Plus: "(w ∈ lang (Plus r s)) = (w ∈ lang r ∨ w ∈ lang s)"
  sorry

lemma lang_TimesI: "⟦u ∈ lang r; v ∈ lang s⟧ ⟹ u @ v ∈ lang (Times r s)"
  sorry

lemma lang_StarI: "⟦u ∈ lang r; v ∈ lang (Star r)⟧ ⟹ u @ v ∈ lang (Star r)"
  sorry

lemma lang_Star_Nil: "[] ∈ lang (Star r)"
  sorry

lemma lang_Star_single: "w ∈ lang r ⟹ w ∈ lang (Star r)"
  sorry

lemma lang_Star_append: "⟦u ∈ lang (Star r); v ∈ lang (Star r)⟧ ⟹ u @ v ∈ lang (Star r)"
  sorry

lemma lang_Star_Star: "(w ∈ lang (Star (Star r))) = (w ∈ lang (Star r))"
  sorry

lemma lang_Star_One: "(w ∈ lang (Star One)) = (w = [])"
  sorry

lemma lang_Star_Zero: "(w ∈ lang (Star Zero)) = (w = [])"
  sorry

lemma lang_Star_unfold: "(w ∈ lang (Star r)) = (w ∈ lang (Plus One (Times r (Star r))))"
  sorry

lemma lang_Star_unfold_right: "(w ∈ lang (Star r)) = (w ∈ lang (Plus One (Times (Star r) r)))"
  sorry

lemma lang_Plus_commute: "(w ∈ lang (Plus r s)) = (w ∈ lang (Plus s r))"
  sorry

lemma lang_Plus_assoc: "(w ∈ lang (Plus (Plus r s) t)) = (w ∈ lang (Plus r (Plus s t)))"
  sorry

lemma lang_Plus_idem: "(w ∈ lang (Plus r r)) = (w ∈ lang r)"
  sorry

lemma lang_Plus_Zero: "(w ∈ lang (Plus r Zero)) = (w ∈ lang r)"
  sorry

lemma lang_Times_assoc: "(w ∈ lang (Times (Times r s) t)) = (w ∈ lang (Times r (Times s t)))"
  sorry

lemma lang_Times_One: "(w ∈ lang (Times r One)) = (w ∈ lang r)"
  sorry

lemma lang_One_Times: "(w ∈ lang (Times One r)) = (w ∈ lang r)"
  sorry

lemma lang_Times_Zero: "w ∉ lang (Times r Zero)"
  sorry

lemma lang_Times_Plus_distrib: "(w ∈ lang (Times r (Plus s t))) = (w ∈ lang (Plus (Times r s) (Times r t)))"
  sorry

lemma lang_Plus_Times_distrib: "(w ∈ lang (Times (Plus r s) t)) = (w ∈ lang (Plus (Times r t) (Times s t)))"
  sorry

lemma lang_Star_Plus_One: "(w ∈ lang (Star (Plus One r))) = (w ∈ lang (Star r))"
  sorry

lemma lang_Times_Star_Star: "(w ∈ lang (Times (Star r) (Star r))) = (w ∈ lang (Star r))"
  sorry

lemma lang_Star_denest: "(w ∈ lang (Star (Plus r s))) = (w ∈ lang (Star (Times (Star r) (Star s))))"
  sorry

lemma lang_Times_Star_commute: "(w ∈ lang (Times r (Star (Times s r)))) = (w ∈ lang (Times (Star (Times r s)) r))"
  sorry

lemma lang_atoms: "w ∈ lang r ⟹ set w ⊆ atoms r"
  sorry

lemma lang_map_rexp: "w ∈ lang r ⟹ map f w ∈ lang (map_rexp f r)"
  sorry

lemma lang_rexp_rev: "(w ∈ lang (rexp_rev r)) = (rev w ∈ lang r)"
  sorry

lemma rexp_rev_rexp_rev: "rexp_rev (rexp_rev r) = r"
  sorry

lemma rexp_empty_iff: "rexp_empty r ⟹ w ∉ lang r"
  sorry

section ‹nullable and derivatives›

lemma nullable_iff: "nullable r = ([] ∈ lang r)"
  sorry

lemma lang_deriv: "(w ∈ lang (deriv a r)) = (a # w ∈ lang r)"
  sorry

lemma lang_derivs: "(w ∈ lang (derivs s r)) = (s @ w ∈ lang r)"
  sorry

lemma matcher_correct: "matcher r s = (s ∈ lang r)"
  sorry

lemma derivs_append: "derivs (s @ t) r = derivs t (derivs s r)"
  sorry

lemma derivs_Nil: "derivs [] r = r"
  sorry

lemma derivs_snoc: "derivs (s @ [a]) r = deriv a (derivs s r)"
  sorry

lemma deriv_Plus: "deriv a (Plus r s) = Plus (deriv a r) (deriv a s)"
  sorry

lemma derivs_Plus: "derivs s (Plus r t) = Plus (derivs s r) (derivs s t)"
  sorry

lemma derivs_Zero: "derivs s Zero = Zero"
  sorry

lemma derivs_One: "s ≠ [] ⟹ (w ∈ lang (derivs s One)) = False"
  sorry

lemma atoms_deriv_subset: "atoms (deriv a r) ⊆ atoms r"
  sorry

lemma atoms_derivs_subset: "atoms (derivs w r) ⊆ atoms r"
  sorry

lemma deriv_not_atom: "a ∉ atoms r ⟹ ¬ nullable (derivs (a # w) r)"
  sorry

lemma nullable_rexp_rev: "nullable (rexp_rev r) = nullable r"
  sorry

lemma nullable_map_rexp: "nullable (map_rexp f r) = nullable r"
  sorry

lemma deriv_map_rexp: "inj_on f (insert a (atoms r ∪ set w)) ⟹ (w ∈ lang (deriv a r)) = (map f w ∈ lang (deriv (f a) (map_rexp f r)))"
  sorry

lemma matcher_Star_Nil: "matcher (Star r) []"
  sorry

lemma matcher_Times: "⟦matcher r u; matcher s v⟧ ⟹ matcher (Times r s) (u @ v)"
  sorry

lemma matcher_rexp_rev: "matcher (rexp_rev r) w = matcher r (rev w)"
  sorry

lemma rexp_empty_nullable: "rexp_empty r ⟹ ¬ nullable r"
  sorry

lemma rexp_empty_deriv: "rexp_empty r ⟹ rexp_empty (deriv a r)"
  sorry

section ‹Normalising derivatives›

lemma lang_nPlus: "(w ∈ lang (nPlus r s)) = (w ∈ lang (Plus r s))"
  sorry

lemma lang_nTimes: "(w ∈ lang (nTimes r s)) = (w ∈ lang (Times r s))"
  sorry

lemma nullable_nPlus: "nullable (nPlus r s) = (nullable r ∨ nullable s)"
  sorry

lemma nullable_nTimes: "nullable (nTimes r s) = (nullable r ∧ nullable s)"
  sorry

lemma lang_nderiv: "(w ∈ lang (nderiv a r)) = (w ∈ lang (deriv a r))"
  sorry

lemma lang_norm: "(w ∈ lang (norm r)) = (w ∈ lang r)"
  sorry

lemma nullable_norm: "nullable (norm r) = nullable r"
  sorry

lemma atoms_norm: "atoms (norm r) ⊆ atoms r"
  sorry

lemma atoms_nderiv: "atoms (nderiv a r) ⊆ atoms r"
  sorry

lemma nPlus_Zero2: "nPlus r Zero = r"
  sorry

lemma nTimes_One1: "r ≠ Zero ⟹ nTimes One r = r"
  sorry

lemma nPlus_idem: "nPlus r r = r"
  sorry

end
