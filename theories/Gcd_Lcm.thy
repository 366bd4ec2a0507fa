theory Gcd_Lcm
  imports Main
begin

text ‹True lemmas about gcd and lcm on nat and int, stated as Isabelle's GCD theory
(HOL/GCD.thy) states them, under its names; the int versions carry the suffix _int as
there. On int, gcd and lcm are never negative. coprime is defined here by its
characterisation coprime a b ⟷ gcd a b = 1 (Isabelle's lemma coprime_iff_gcd_eq_1),
since hol's prelude lacks it. Each lemma is proved in Isabelle and carries sorry.›

definition coprime :: "'a::{abs, ord, zero, minus, modulo, one} ⇒ 'a ⇒ bool" where
  "coprime a b = (gcd a b = 1)"

section ‹gcd›

lemma gcd_0_nat: "gcd x 0 = (x :: nat)"
  sorry

lemma gcd_0_left_nat: "gcd 0 x = (x :: nat)"
  sorry

lemma gcd_0_int: "gcd x 0 = abs (x :: int)"
  sorry

lemma gcd_0_left_int: "gcd 0 x = abs (x :: int)"
  sorry

lemma gcd_1_nat: "gcd m 1 = (1 :: nat)"
  sorry

lemma gcd_1_int: "gcd m 1 = (1 :: int)"
  sorry

lemma gcd_idem_nat: "gcd x x = (x :: nat)"
  sorry

lemma gcd_idem_int: "gcd x x = abs (x :: int)"
  sorry

lemma gcd_commute_nat: "gcd m n = gcd n (m :: nat)"
  sorry

lemma gcd_commute_int: "gcd m n = gcd n (m :: int)"
  sorry

lemma gcd_assoc_nat: "gcd (gcd k m) n = gcd k (gcd m (n :: nat))"
  sorry

lemma gcd_assoc_int: "gcd (gcd k m) n = gcd k (gcd m (n :: int))"
  sorry

lemma gcd_dvd1_nat: "gcd m n dvd (m :: nat)"
  sorry

lemma gcd_dvd2_nat: "gcd m n dvd (n :: nat)"
  sorry

lemma gcd_dvd1_int: "gcd m n dvd (m :: int)"
  sorry

lemma gcd_dvd2_int: "gcd m n dvd (n :: int)"
  sorry

lemma gcd_greatest_nat: "⟦k dvd m; k dvd n⟧ ⟹ k dvd gcd m (n :: nat)"
  sorry

lemma gcd_greatest_int: "⟦k dvd m; k dvd n⟧ ⟹ k dvd gcd m (n :: int)"
  sorry

lemma gcd_greatest_iff_nat: "(k dvd gcd m n) = (k dvd m ∧ k dvd (n :: nat))"
  sorry

lemma gcd_greatest_iff_int: "(k dvd gcd m n) = (k dvd m ∧ k dvd (n :: int))"
  sorry

lemma gcd_eq_0_iff_nat: "(gcd m n = 0) = (m = 0 ∧ n = (0 :: nat))"
  sorry

lemma gcd_eq_0_iff_int: "(gcd m n = 0) = (m = 0 ∧ n = (0 :: int))"
  sorry

lemma gcd_pos_nat: "(0 < gcd m n) = (m ≠ 0 ∨ n ≠ (0 :: nat))"
  sorry

lemma gcd_ge_0_int: "0 ≤ gcd x (y :: int)"
  sorry

lemma gcd_le1_nat: "0 < a ⟹ gcd a b ≤ (a :: nat)"
  sorry

lemma gcd_le2_nat: "0 < b ⟹ gcd a b ≤ (b :: nat)"
  sorry

lemma gcd_le1_int: "0 < a ⟹ gcd a b ≤ (a :: int)"
  sorry

lemma gcd_abs1_int: "gcd (abs x) y = gcd x (y :: int)"
  sorry

lemma gcd_abs2_int: "gcd x (abs y) = gcd x (y :: int)"
  sorry

lemma gcd_neg1_int: "gcd (- x) y = gcd x (y :: int)"
  sorry

lemma gcd_neg2_int: "gcd x (- y) = gcd x (y :: int)"
  sorry

lemma gcd_red_nat: "gcd x y = gcd y (x mod (y :: nat))"
  sorry

lemma gcd_red_int: "gcd x y = gcd y (x mod (y :: int))"
  sorry

lemma gcd_add1_nat: "gcd (m + n) n = gcd m (n :: nat)"
  sorry

lemma gcd_add2_nat: "gcd m (m + n) = gcd m (n :: nat)"
  sorry

lemma gcd_add_mult_nat: "gcd m (k * m + n) = gcd m (n :: nat)"
  sorry

lemma gcd_add_mult_int: "gcd m (k * m + n) = gcd m (n :: int)"
  sorry

lemma gcd_diff1_nat: "n ≤ m ⟹ gcd (m - n) n = gcd m (n :: nat)"
  sorry

lemma gcd_diff2_nat: "m ≤ n ⟹ gcd (n - m) n = gcd m (n :: nat)"
  sorry

lemma gcd_mult_distrib_nat: "k * gcd m n = gcd (k * m) (k * (n :: nat))"
  sorry

lemma gcd_mult_distrib_int: "abs k * gcd m n = gcd (k * m) (k * (n :: int))"
  sorry

lemma gcd_proj1_if_dvd_nat: "m dvd n ⟹ gcd m n = (m :: nat)"
  sorry

lemma gcd_proj2_if_dvd_nat: "n dvd m ⟹ gcd m n = (n :: nat)"
  sorry

lemma gcd_int_int_eq: "gcd (int m) (int n) = int (gcd m n)"
  sorry

lemma gcd_nat_abs: "gcd (nat (abs x)) (nat (abs y)) = nat (gcd x y)"
  sorry

lemma gcd_exp_nat: "gcd (a ^ n) (b ^ n) = gcd a b ^ (n :: nat)"
  sorry

lemma gcd_dvd_prod_nat: "gcd m n dvd k * (n :: nat)"
  sorry

lemma gcd_mono_nat: "a dvd b ⟹ gcd a c dvd gcd b (c :: nat)"
  sorry

section ‹lcm›

lemma lcm_0_nat: "lcm x 0 = (0 :: nat)"
  sorry

lemma lcm_0_left_int: "lcm 0 x = (0 :: int)"
  sorry

lemma lcm_1_nat: "lcm m 1 = (m :: nat)"
  sorry

lemma lcm_1_int: "lcm m 1 = abs (m :: int)"
  sorry

lemma lcm_idem_nat: "lcm x x = (x :: nat)"
  sorry

lemma lcm_commute_nat: "lcm m n = lcm n (m :: nat)"
  sorry

lemma lcm_commute_int: "lcm m n = lcm n (m :: int)"
  sorry

lemma lcm_assoc_nat: "lcm (lcm k m) n = lcm k (lcm m (n :: nat))"
  sorry

lemma lcm_assoc_int: "lcm (lcm k m) n = lcm k (lcm m (n :: int))"
  sorry

lemma dvd_lcm1_nat: "m dvd lcm m (n :: nat)"
  sorry

lemma dvd_lcm2_nat: "n dvd lcm m (n :: nat)"
  sorry

lemma dvd_lcm1_int: "m dvd lcm m (n :: int)"
  sorry

lemma dvd_lcm2_int: "n dvd lcm m (n :: int)"
  sorry

lemma lcm_least_nat: "⟦m dvd k; n dvd k⟧ ⟹ lcm m n dvd (k :: nat)"
  sorry

lemma lcm_least_int: "⟦m dvd k; n dvd k⟧ ⟹ lcm m n dvd (k :: int)"
  sorry

lemma lcm_dvd_iff_nat: "(lcm m n dvd k) = (m dvd k ∧ n dvd (k :: nat))"
  sorry

lemma lcm_eq_0_iff_nat: "(lcm m n = 0) = (m = 0 ∨ n = (0 :: nat))"
  sorry

lemma lcm_eq_0_iff_int: "(lcm m n = 0) = (m = 0 ∨ n = (0 :: int))"
  sorry

lemma lcm_pos_nat: "⟦0 < m; 0 < n⟧ ⟹ 0 < lcm m (n :: nat)"
  sorry

lemma lcm_ge_0_int: "0 ≤ lcm x (y :: int)"
  sorry

lemma lcm_1_iff_nat: "(lcm m n = 1) = (m = 1 ∧ n = (1 :: nat))"
  sorry

lemma lcm_1_iff_int: "(lcm m n = 1) = (abs m = 1 ∧ abs n = (1 :: int))"
  sorry

lemma lcm_abs_int: "lcm (abs x) y = lcm x (y :: int)"
  sorry

lemma lcm_neg1_int: "lcm (- x) y = lcm x (y :: int)"
  sorry

lemma lcm_proj1_if_dvd_nat: "n dvd m ⟹ lcm m n = (m :: nat)"
  sorry

lemma lcm_proj2_if_dvd_nat: "m dvd n ⟹ lcm m n = (n :: nat)"
  sorry

lemma lcm_int_int_eq: "lcm (int m) (int n) = int (lcm m n)"
  sorry

lemma lcm_mult_distrib_nat: "k * lcm m n = lcm (k * m) (k * (n :: nat))"
  sorry

lemma lcm_le_prod_nat: "⟦0 < m; 0 < n⟧ ⟹ lcm m n ≤ m * (n :: nat)"
  sorry

section ‹gcd and lcm together›

lemma prod_gcd_lcm_nat: "m * n = gcd m n * lcm m (n :: nat)"
  sorry

lemma prod_gcd_lcm_int: "abs (m * n) = gcd m n * lcm m (n :: int)"
  sorry

lemma gcd_lcm_absorb_nat: "gcd m (lcm m n) = (m :: nat)"
  sorry

lemma lcm_gcd_absorb_nat: "lcm m (gcd m n) = (m :: nat)"
  sorry

lemma gcd_lcm_distrib_nat: "gcd x (lcm y z) = lcm (gcd x y) (gcd x (z :: nat))"
  sorry

lemma lcm_gcd_distrib_nat: "lcm x (gcd y z) = gcd (lcm x y) (lcm x (z :: nat))"
  sorry

lemma gcd_dvd_lcm_nat: "gcd m n dvd lcm m (n :: nat)"
  sorry

section ‹Coprimality›

lemma coprime_iff_gcd_eq_1: "coprime a b = (gcd a b = (1 :: nat))"
  sorry

lemma coprime_commute_nat: "coprime a b = coprime b (a :: nat)"
  sorry

lemma coprime_Suc_nat: "coprime (Suc n) n"
  sorry

lemma coprime_plus_one_int: "coprime (n + 1) (n :: int)"
  sorry

lemma coprime_1_left_nat: "coprime 1 (n :: nat)"
  sorry

lemma coprime_dvd_mult_nat: "⟦coprime a b; a dvd b * c⟧ ⟹ a dvd (c :: nat)"
  sorry

lemma coprime_dvd_mult_int: "⟦coprime a b; a dvd b * c⟧ ⟹ a dvd (c :: int)"
  sorry

lemma coprime_mult_right_iff_nat: "coprime c (a * b) = (coprime c a ∧ coprime c (b :: nat))"
  sorry

lemma coprime_mult_int: "⟦coprime d a; coprime d b⟧ ⟹ coprime d (a * b :: int)"
  sorry

lemma lcm_coprime_nat: "coprime a b ⟹ lcm a b = a * (b :: nat)"
  sorry

lemma gcd_mult_cancel_nat: "coprime k n ⟹ gcd (k * m) n = gcd m (n :: nat)"
  sorry

lemma div_gcd_coprime_nat: "a ≠ 0 ∨ b ≠ 0 ⟹ coprime (a div gcd a b) (b div gcd a (b :: nat))"
  sorry

lemma div_gcd_coprime_int: "a ≠ 0 ∨ b ≠ 0 ⟹ coprime (a div gcd a b) (b div gcd a (b :: int))"
  sorry

lemma coprime_exp_nat: "coprime d a ⟹ coprime d (a ^ (n :: nat) :: nat)"
  sorry

lemma coprime_common_divisor_nat: "⟦coprime a b; x dvd a; x dvd b⟧ ⟹ x = (1 :: nat)"
  sorry

lemma coprime_crossproduct_nat: "⟦coprime a d; coprime b c⟧ ⟹ (a * c = b * d) = (a = b ∧ c = (d :: nat))"
  sorry

lemma coprime_minus_left_iff: "coprime (- a) b = coprime a (b :: int)"
  sorry

end
