theory Divides
  imports Main
begin

text ‹True lemmas about division, remainder, divisibility and parity on nat and int,
stated as Isabelle's Divides, Euclidean_Rings, Rings, Parity and Int theories state them,
under their names. Division is Isabelle's: x div 0 = 0, x mod 0 = x, and int division
rounds towards negative infinity, so the remainder has the sign of the divisor. Each lemma
is proved in Isabelle and carries sorry.›

section ‹Division and remainder on nat›

lemma div_mult_mod_eq: "a div b * b + a mod b = (a :: nat)"
  sorry

lemma mod_div_mult_eq: "a mod b + a div b * b = (a :: nat)"
  sorry

lemma mod_less_divisor: "0 < n ⟹ m mod n < (n :: nat)"
  sorry

lemma mod_less: "m < n ⟹ m mod n = (m :: nat)"
  sorry

lemma div_less: "m < n ⟹ m div n = (0 :: nat)"
  sorry

lemma div_by_0: "a div 0 = (0 :: nat)"
  sorry

lemma mod_by_0: "a mod 0 = (a :: nat)"
  sorry

lemma div_by_1: "a div 1 = (a :: nat)"
  sorry

lemma mod_by_1: "a mod 1 = (0 :: nat)"
  sorry

lemma div_self: "a ≠ 0 ⟹ a div a = (1 :: nat)"
  sorry

lemma mod_self: "a mod a = (0 :: nat)"
  sorry

lemma mod_le_divisor: "0 < n ⟹ m mod n ≤ (n :: nat)"
  sorry

lemma mod_less_eq_dividend: "m mod n ≤ (m :: nat)"
  sorry

lemma div_le_dividend: "m div n ≤ (m :: nat)"
  sorry

lemma div_le_mono: "m ≤ n ⟹ m div k ≤ n div (k :: nat)"
  sorry

lemma div_le_mono2: "⟦0 < m; m ≤ n⟧ ⟹ k div n ≤ k div (m :: nat)"
  sorry

lemma div_mult_self1: "b ≠ 0 ⟹ (a + c * b) div b = c + a div (b :: nat)"
  sorry

lemma mod_mult_self1: "(a + c * b) mod b = a mod (b :: nat)"
  sorry

lemma mod_mod_trivial: "a mod b mod b = a mod (b :: nat)"
  sorry

lemma mod_add_eq: "(a mod c + b mod c) mod c = (a + b) mod (c :: nat)"
  sorry

lemma mod_mult_eq: "(a mod c * (b mod c)) mod c = (a * b) mod (c :: nat)"
  sorry

lemma div_mult2_eq: "m div (n * q) = m div n div (q :: nat)"
  sorry

lemma mod_mult2_eq: "m mod (n * q) = n * (m div n mod q) + m mod (n :: nat)"
  sorry

lemma div_mult_mult1: "c ≠ 0 ⟹ (c * a) div (c * b) = a div (b :: nat)"
  sorry

lemma nonzero_mult_div_cancel_left: "a ≠ 0 ⟹ (a * b) div a = (b :: nat)"
  sorry

lemma div_add1_eq: "(a + b) div c = a div c + b div c + ((a mod c + b mod c) div (c :: nat))"
  sorry

lemma Suc_mod_eq_add3_mod: "Suc (Suc (Suc m)) mod n = (3 + m) mod n"
  sorry

lemma mod_Suc: "Suc m mod n = (if Suc (m mod n) = n then 0 else Suc (m mod n))"
  sorry

lemma div_eq_0_iff: "(m div n = 0) = (m < n ∨ n = (0 :: nat))"
  sorry

lemma split_div_lemma: "0 < n ⟹ (n * q ≤ m ∧ m < n * Suc q) = (q = m div (n :: nat))"
  sorry

lemma mult_div_le: "n * (m div n) ≤ (m :: nat)"
  sorry

lemma div_times_less_eq_dividend: "m div n * n ≤ (m :: nat)"
  sorry

section ‹Division and remainder on int›

lemma div_mult_mod_eq_int: "a div b * b + a mod b = (a :: int)"
  sorry

lemma pos_mod_sign: "0 < b ⟹ 0 ≤ a mod (b :: int)"
  sorry

lemma pos_mod_bound: "0 < b ⟹ a mod b < (b :: int)"
  sorry

lemma neg_mod_sign: "b < 0 ⟹ a mod b ≤ (0 :: int)"
  sorry

lemma neg_mod_bound: "b < 0 ⟹ b < a mod (b :: int)"
  sorry

lemma zdiv_zminus_zminus: "(- a) div (- b) = a div (b :: int)"
  sorry

lemma zmod_zminus_zminus: "(- a) mod (- b) = - (a mod (b :: int))"
  sorry

lemma zmod_zminus1_eq_if: "(- a) mod b = (if a mod b = 0 then 0 else b - a mod (b :: int))"
  sorry

lemma zdiv_zminus1_eq_if: "b ≠ 0 ⟹ (- a) div b = (if a mod b = 0 then - (a div b) else - (a div b) - (1 :: int))"
  sorry

lemma div_pos_pos_trivial: "⟦0 ≤ a; a < b⟧ ⟹ a div b = (0 :: int)"
  sorry

lemma mod_pos_pos_trivial: "⟦0 ≤ a; a < b⟧ ⟹ a mod b = (a :: int)"
  sorry

lemma zdiv_mono1: "⟦a ≤ a'; 0 < b⟧ ⟹ a div b ≤ a' div (b :: int)"
  sorry

lemma zdiv_mono2: "⟦0 ≤ a; 0 < b'; b' ≤ b⟧ ⟹ a div b ≤ a div (b' :: int)"
  sorry

lemma zmod_zdiv_equality: "a = b * (a div b) + (a mod b :: int)"
  sorry

lemma zdiv_zmult2_eq: "0 ≤ c ⟹ a div (b * c) = a div b div (c :: int)"
  sorry

lemma zdiv_int: "int (a div b) = int a div int b"
  sorry

lemma zmod_int: "int (a mod b) = int a mod int b"
  sorry

lemma nat_div_distrib: "0 ≤ x ⟹ nat (x div y) = nat x div nat y"
  sorry

lemma nat_mod_distrib: "⟦0 ≤ x; 0 ≤ y⟧ ⟹ nat (x mod y) = nat x mod nat y"
  sorry

lemma q_pos_lemma: "⟦0 ≤ b' * q' + r'; r' < b'; 0 < b'⟧ ⟹ 0 ≤ (q' :: int)"
  sorry

lemma zdiv_mono2_lemma: "⟦b * q + r = b' * q' + r'; 0 ≤ b' * q' + r'; r' < b'; 0 ≤ r; 0 < b'; b' ≤ b⟧ ⟹ q ≤ (q' :: int)"
  sorry

lemma abs_mod_less: "b ≠ 0 ⟹ abs (a mod b) < abs (b :: int)"
  sorry

lemma mod_add_right_eq_int: "(a + b mod c) mod c = (a + b) mod (c :: int)"
  sorry

lemma mod_diff_eq: "(a mod c - b mod c) mod c = (a - b) mod (c :: int)"
  sorry

lemma minus_mod_self2: "(a - b) mod b = a mod (b :: int)"
  sorry

section ‹Divisibility›

lemma dvd_refl: "a dvd (a :: nat)"
  sorry

lemma dvd_trans: "⟦a dvd b; b dvd c⟧ ⟹ a dvd (c :: nat)"
  sorry

lemma dvd_antisym: "⟦m dvd n; n dvd m⟧ ⟹ m = (n :: nat)"
  sorry

lemma dvd_0_right: "a dvd (0 :: nat)"
  sorry

lemma dvd_0_left_iff: "(0 dvd a) = (a = (0 :: nat))"
  sorry

lemma one_dvd: "1 dvd (a :: int)"
  sorry

lemma dvd_add: "⟦a dvd b; a dvd c⟧ ⟹ a dvd (b + c :: int)"
  sorry

lemma dvd_diff_nat: "⟦k dvd m; k dvd n⟧ ⟹ k dvd (m - n :: nat)"
  sorry

lemma dvd_mult: "a dvd c ⟹ a dvd (b * c :: int)"
  sorry

lemma dvd_mult2: "a dvd b ⟹ a dvd (b * c :: nat)"
  sorry

lemma mult_dvd_mono: "⟦a dvd b; c dvd d⟧ ⟹ a * c dvd (b * d :: int)"
  sorry

lemma dvd_mult_cancel_left: "k ≠ 0 ⟹ (k * m dvd k * n) = (m dvd (n :: nat))"
  sorry

lemma dvd_imp_le: "⟦k dvd n; 0 < n⟧ ⟹ k ≤ (n :: nat)"
  sorry

lemma dvd_eq_mod_eq_0: "(a dvd b) = (b mod a = (0 :: int))"
  sorry

lemma dvd_add_right_iff: "a dvd b ⟹ (a dvd b + c) = (a dvd (c :: int))"
  sorry

lemma dvd_minus_iff: "(x dvd - y) = (x dvd (y :: int))"
  sorry

lemma minus_dvd_iff: "(- x dvd y) = (x dvd (y :: int))"
  sorry

lemma dvd_abs_iff: "(m dvd abs k) = (m dvd (k :: int))"
  sorry

lemma dvd_div_mult_self: "a dvd b ⟹ b div a * a = (b :: nat)"
  sorry

lemma div_dvd_div: "⟦a dvd b; a dvd c; a ≠ 0⟧ ⟹ (b div a dvd c div a) = (b dvd (c :: nat))"
  sorry

lemma mod_mod_cancel: "c dvd b ⟹ a mod b mod c = a mod (c :: int)"
  sorry

lemma dvd_mod_iff: "k dvd n ⟹ (k dvd m mod n) = (k dvd (m :: nat))"
  sorry

lemma dvd_power: "0 < n ⟹ x dvd (x ^ n :: nat)"
  sorry

lemma int_dvd_int_iff: "(int m dvd int n) = (m dvd n)"
  sorry

lemma zdvd_imp_le: "⟦z dvd n; 0 < n⟧ ⟹ z ≤ (n :: int)"
  sorry

section ‹Parity›

lemma even_add: "even (a + b) = (even a = even (b :: int))"
  sorry

lemma even_mult_iff: "even (a * b) = (even a ∨ even (b :: nat))"
  sorry

lemma even_Suc: "even (Suc n) = odd n"
  sorry

lemma odd_Suc_div_two: "odd n ⟹ Suc n div 2 = Suc (n div 2)"
  sorry

lemma even_two_times_div_two: "even a ⟹ 2 * (a div 2) = (a :: int)"
  sorry

lemma odd_two_times_div_two_succ: "odd a ⟹ 2 * (a div 2) + 1 = (a :: nat)"
  sorry

lemma even_power: "even (a ^ n) = (even a ∧ 0 < (n :: nat))"
  sorry

lemma even_iff_mod_2_eq_zero: "even a = (a mod 2 = (0 :: int))"
  sorry

lemma odd_iff_mod_2_eq_one: "odd a = (a mod 2 = (1 :: int))"
  sorry

lemma even_minus: "even (- a) = even (a :: int)"
  sorry

lemma even_diff_nat: "even (m - n) = (m < n ∨ even (m + n :: nat))"
  sorry

lemma odd_pos: "odd n ⟹ 0 < (n :: nat)"
  sorry

lemma even_of_nat: "even (int n) = even n"
  sorry

end
