theory Main
  imports Pure
begin

text ‹The prelude of hol: the part of Isabelle/HOL's Main that user theories can
rely on, written in the theory language itself. The definitions follow
Isabelle's HOL/List.thy, Option.thy, Product_Type.thy, Sum_Type.thy and
Fun.thy; where an equation differs from the library's definition, a text
block says why.

Built in (not defined here): the types bool, nat (constructors 0 and Suc),
int, 'a set and 'a ⇒ 'b; the logic; equality; the orders < ≤ on every type of
sort ord (nat, int, bool, sets, and all datatypes, lists lexicographically);
+ - * div mod, unary minus, numerals; int, nat; undefined; the set operations;
finite; the datatype size function size (for nat the identity, for bool 0).

Underspecified functions stay underspecified: hd [], last [], [] ! n,
the None, projl (Inr b), projr (Inl a), min_list [] and max_list [] have no
equation (a missing equation is what Isabelle's fun and primrec leave
unspecified). Evaluating one is not an error: a counterexample that depends on
it is reported as potentially spurious. None of them is defined as undefined,
so that the evaluator can tell that no equation matched and name the function.

Sort constraints name the operations a body uses (zero, plus, times, modulo, ...)
rather than Isabelle's algebraic classes, so every body checks without a class
hierarchy; nat and int belong to all of them (nat has no uminus, which is why
abs is written with 0 - x).›


section ‹Datatypes›

text ‹The syntax [], x # xs and [a, b, c] stands for Nil and Cons; (a, b) and
the type 'a × 'b for Pair and prod; 'a + 'b for sum; () for Unity.›

datatype 'a list = Nil | Cons 'a "'a list"

datatype 'a option = None | Some 'a

datatype ('a, 'b) prod = Pair 'a 'b

datatype ('a, 'b) sum = Inl 'a | Inr 'b

datatype unit = Unity


section ‹Functions›

definition id :: "'a ⇒ 'a" where
  "id x = x"

text ‹f ∘ g stands for comp f g.›

definition comp :: "('b ⇒ 'c) ⇒ ('a ⇒ 'b) ⇒ 'a ⇒ 'c" where
  "comp f g = (λx. f (g x))"

text ‹f ^^ n stands for funpow n f: f applied n times (Isabelle's compow on functions).›

primrec funpow :: "nat ⇒ ('a ⇒ 'a) ⇒ 'a ⇒ 'a" where
  "funpow 0 f = id"
| "funpow (Suc n) f = f ∘ funpow n f"

text ‹f(a := b) stands for fun_upd f a b.›

definition fun_upd :: "('a ⇒ 'b) ⇒ 'a ⇒ 'b ⇒ 'a ⇒ 'b" where
  "fun_upd f a b = (λx. if x = a then b else f x)"



section ‹Pairs›

fun fst :: "'a × 'b ⇒ 'a" where
  "fst (a, b) = a"

fun snd :: "'a × 'b ⇒ 'b" where
  "snd (a, b) = b"

fun swap :: "'a × 'b ⇒ 'b × 'a" where
  "swap (a, b) = (b, a)"

definition curry :: "('a × 'b ⇒ 'c) ⇒ 'a ⇒ 'b ⇒ 'c" where
  "curry f a b = f (a, b)"

fun map_prod :: "('a ⇒ 'c) ⇒ ('b ⇒ 'd) ⇒ 'a × 'b ⇒ 'c × 'd" where
  "map_prod f g (a, b) = (f a, g b)"

fun apfst :: "('a ⇒ 'c) ⇒ 'a × 'b ⇒ 'c × 'b" where
  "apfst f (a, b) = (f a, b)"

fun apsnd :: "('b ⇒ 'c) ⇒ 'a × 'b ⇒ 'a × 'c" where
  "apsnd f (a, b) = (a, f b)"


section ‹Options›

text ‹the None is left unspecified, as in Isabelle.›

fun the :: "'a option ⇒ 'a" where
  "the (Some x) = x"

primrec map_option :: "('a ⇒ 'b) ⇒ 'a option ⇒ 'b option" where
  "map_option f None = None"
| "map_option f (Some x) = Some (f x)"

primrec set_option :: "'a option ⇒ 'a set" where
  "set_option None = {}"
| "set_option (Some x) = {x}"

primrec is_none :: "'a option ⇒ bool" where
  "is_none None = True"
| "is_none (Some x) = False"


section ‹Sums›

primrec isl :: "'a + 'b ⇒ bool" where
  "isl (Inl a) = True"
| "isl (Inr b) = False"

text ‹projl (Inr b) and projr (Inl a) are left unspecified, as in Isabelle.›

fun projl :: "'a + 'b ⇒ 'a" where
  "projl (Inl a) = a"

fun projr :: "'a + 'b ⇒ 'b" where
  "projr (Inr b) = b"

primrec map_sum :: "('a ⇒ 'c) ⇒ ('b ⇒ 'd) ⇒ 'a + 'b ⇒ 'c + 'd" where
  "map_sum f g (Inl a) = Inl (f a)"
| "map_sum f g (Inr b) = Inr (g b)"


section ‹Arithmetic›

definition min :: "'a::ord ⇒ 'a ⇒ 'a" where
  "min a b = (if a ≤ b then a else b)"

definition max :: "'a::ord ⇒ 'a ⇒ 'a" where
  "max a b = (if a ≤ b then b else a)"

text ‹abs is written with 0 - x rather than - x so that it also applies to
nat, which has no unary minus; on nat the else branch is always taken.›

definition abs :: "'a::{abs, ord, zero, minus} ⇒ 'a" where
  "abs x = (if x < 0 then 0 - x else x)"

definition sgn :: "int ⇒ int" where
  "sgn x = (if x = 0 then 0 else if 0 < x then 1 else - 1)"

text ‹x ^ n stands for power x n.›

primrec power :: "'a::{times, one} ⇒ nat ⇒ 'a" where
  "power a 0 = 1"
| "power a (Suc n) = a * power a n"

text ‹n ! is fact n, defined as Isabelle's simplification rules state it (of_nat is a
builtin: the identity on nat, int on int). n choose k stands for binomial n k, computed
as Isabelle's code equation does, by a product: n choose (k + 1) is
(n choose k) * (n - k) div (k + 1), where the division is exact (0 from k = n on).›

primrec fact :: "nat ⇒ 'a::semiring_1" where
  "fact 0 = 1"
| "fact (Suc n) = of_nat (Suc n) * fact n"

primrec binomial :: "nat ⇒ nat ⇒ nat" where
  "binomial n 0 = 1"
| "binomial n (Suc k) = binomial n k * (n - k) div Suc k"

text ‹a dvd b stands for dvd a b. Isabelle's definition is ∃k. b = a * k,
which is not executable; b mod a = 0 is equivalent on nat and int, including
a = 0 (b mod 0 = b) and negative numbers.›

definition dvd :: "'a::{zero, modulo} ⇒ 'a ⇒ bool" where
  "a dvd b = (b mod a = 0)"

definition even :: "'a::{zero, modulo, numeral} ⇒ bool" where
  "even a = (a mod 2 = 0)"

definition odd :: "'a::{zero, modulo, numeral} ⇒ bool" where
  "odd a = (¬ even a)"

text ‹Euclid's algorithm, for nat and int alike: the result is never negative,
gcd a 0 = abs a and gcd 0 0 = 0. It terminates because abs (a mod b) < abs b
for b ≠ 0 (the int remainder has the sign of the divisor).›

fun gcd :: "'a::{abs, ord, zero, minus, modulo} ⇒ 'a ⇒ 'a" where
  "gcd a b = (if b = 0 then abs a else gcd b (a mod b))"

text ‹lcm a 0 = lcm 0 b = 0, because x div 0 = 0.›

definition lcm :: "'a::{abs, ord, zero, minus, modulo, times, divide} ⇒ 'a ⇒ 'a" where
  "lcm a b = abs (a * b) div gcd a b"


section ‹Lists›

subsection ‹Basic functions›

primrec length :: "'a list ⇒ nat" where
  "length [] = 0"
| "length (x # xs) = Suc (length xs)"

text ‹xs @ ys stands for append xs ys.›

primrec append :: "'a list ⇒ 'a list ⇒ 'a list" where
  "append [] ys = ys"
| "append (x # xs) ys = x # append xs ys"

primrec set :: "'a list ⇒ 'a set" where
  "set [] = {}"
| "set (x # xs) = insert x (set xs)"

primrec rev :: "'a list ⇒ 'a list" where
  "rev [] = []"
| "rev (x # xs) = rev xs @ [x]"

primrec map :: "('a ⇒ 'b) ⇒ 'a list ⇒ 'b list" where
  "map f [] = []"
| "map f (x # xs) = f x # map f xs"

primrec filter :: "('a ⇒ bool) ⇒ 'a list ⇒ 'a list" where
  "filter P [] = []"
| "filter P (x # xs) = (if P x then x # filter P xs else filter P xs)"

primrec concat :: "'a list list ⇒ 'a list" where
  "concat [] = []"
| "concat (x # xs) = x @ concat xs"

definition maps :: "('a ⇒ 'b list) ⇒ 'a list ⇒ 'b list" where
  "maps f xs = concat (map f xs)"

primrec null :: "'a list ⇒ bool" where
  "null [] = True"
| "null (x # xs) = False"


subsection ‹Folds›

text ‹Isabelle defines foldr and fold point-free (foldr f [] = id,
foldr f (x # xs) = f x ∘ foldr f xs); these are the same equations applied to
the accumulator.›

primrec foldl :: "('b ⇒ 'a ⇒ 'b) ⇒ 'b ⇒ 'a list ⇒ 'b" where
  "foldl f a [] = a"
| "foldl f a (x # xs) = foldl f (f a x) xs"

primrec foldr :: "('a ⇒ 'b ⇒ 'b) ⇒ 'a list ⇒ 'b ⇒ 'b" where
  "foldr f [] a = a"
| "foldr f (x # xs) a = f x (foldr f xs a)"

primrec fold :: "('a ⇒ 'b ⇒ 'b) ⇒ 'a list ⇒ 'b ⇒ 'b" where
  "fold f [] a = a"
| "fold f (x # xs) a = fold f xs (f x a)"

primrec sum_list :: "'a::{zero, plus} list ⇒ 'a" where
  "sum_list [] = 0"
| "sum_list (x # xs) = x + sum_list xs"

primrec prod_list :: "'a::{times, one} list ⇒ 'a" where
  "prod_list [] = 1"
| "prod_list (x # xs) = x * prod_list xs"


subsection ‹Selectors›

text ‹hd [], last [] and [] ! n have no equation: Isabelle leaves them
unspecified. tl [] = [] and butlast [] = [], as in Isabelle.›

fun hd :: "'a list ⇒ 'a" where
  "hd (x # xs) = x"

primrec tl :: "'a list ⇒ 'a list" where
  "tl [] = []"
| "tl (x # xs) = xs"

fun last :: "'a list ⇒ 'a" where
  "last (x # xs) = (if xs = [] then x else last xs)"

primrec butlast :: "'a list ⇒ 'a list" where
  "butlast [] = []"
| "butlast (x # xs) = (if xs = [] then [] else x # butlast xs)"

text ‹xs ! n stands for nth xs n.›

fun nth :: "'a list ⇒ nat ⇒ 'a" where
  "nth (x # xs) n = (case n of 0 ⇒ x | Suc k ⇒ nth xs k)"

primrec list_update :: "'a list ⇒ nat ⇒ 'a ⇒ 'a list" where
  "list_update [] i v = []"
| "list_update (x # xs) i v = (case i of 0 ⇒ v # xs | Suc j ⇒ x # list_update xs j v)"

primrec take :: "nat ⇒ 'a list ⇒ 'a list" where
  "take n [] = []"
| "take n (x # xs) = (case n of 0 ⇒ [] | Suc m ⇒ x # take m xs)"

primrec drop :: "nat ⇒ 'a list ⇒ 'a list" where
  "drop n [] = []"
| "drop n (x # xs) = (case n of 0 ⇒ x # xs | Suc m ⇒ drop m xs)"

primrec takeWhile :: "('a ⇒ bool) ⇒ 'a list ⇒ 'a list" where
  "takeWhile P [] = []"
| "takeWhile P (x # xs) = (if P x then x # takeWhile P xs else [])"

primrec dropWhile :: "('a ⇒ bool) ⇒ 'a list ⇒ 'a list" where
  "dropWhile P [] = []"
| "dropWhile P (x # xs) = (if P x then dropWhile P xs else x # xs)"

primrec find :: "('a ⇒ bool) ⇒ 'a list ⇒ 'a option" where
  "find P [] = None"
| "find P (x # xs) = (if P x then Some x else find P xs)"


subsection ‹Predicates›

primrec list_all :: "('a ⇒ bool) ⇒ 'a list ⇒ bool" where
  "list_all P [] = True"
| "list_all P (x # xs) = (P x ∧ list_all P xs)"

primrec list_ex :: "('a ⇒ bool) ⇒ 'a list ⇒ bool" where
  "list_ex P [] = False"
| "list_ex P (x # xs) = (P x ∨ list_ex P xs)"

fun list_all2 :: "('a ⇒ 'b ⇒ bool) ⇒ 'a list ⇒ 'b list ⇒ bool" where
  "list_all2 P [] [] = True"
| "list_all2 P [] (y # ys) = False"
| "list_all2 P (x # xs) [] = False"
| "list_all2 P (x # xs) (y # ys) = (P x y ∧ list_all2 P xs ys)"

text ‹List.member: hol evaluates x ∈ set xs as member xs x, as Isabelle's code does.›

primrec member :: "'a list ⇒ 'a ⇒ bool" where
  "member [] y = False"
| "member (x # xs) y = (x = y ∨ member xs y)"

primrec distinct :: "'a list ⇒ bool" where
  "distinct [] = True"
| "distinct (x # xs) = (x ∉ set xs ∧ distinct xs)"

primrec count_list :: "'a list ⇒ 'a ⇒ nat" where
  "count_list [] y = 0"
| "count_list (x # xs) y = (if x = y then count_list xs y + 1 else count_list xs y)"


subsection ‹Construction›

primrec replicate :: "nat ⇒ 'a ⇒ 'a list" where
  "replicate 0 x = []"
| "replicate (Suc n) x = x # replicate n x"

text ‹[i..<j] stands for upt i j. Isabelle defines upt by recursion on j
(upt i (Suc j) = (if i ≤ j then upt i j @ [j] else [])), which takes quadratic
time; this is its code equation upt_rec, which takes linear time.›

fun upt :: "nat ⇒ nat ⇒ nat list" where
  "upt i j = (if i < j then i # upt (Suc i) j else [])"

text ‹[i..j] on int stands for upto i j (on nat, for upt i (Suc j)).›

fun upto :: "int ⇒ int ⇒ int list" where
  "upto i j = (if i ≤ j then i # upto (i + 1) j else [])"

primrec enumerate :: "nat ⇒ 'a list ⇒ (nat × 'a) list" where
  "enumerate n [] = []"
| "enumerate n (x # xs) = (n, x) # enumerate (Suc n) xs"

fun zip :: "'a list ⇒ 'b list ⇒ ('a × 'b) list" where
  "zip [] ys = []"
| "zip (x # xs) [] = []"
| "zip (x # xs) (y # ys) = (x, y) # zip xs ys"

definition map2 :: "('a ⇒ 'b ⇒ 'c) ⇒ 'a list ⇒ 'b list ⇒ 'c list" where
  "map2 f xs ys = map (λ(x, y). f x y) (zip xs ys)"

primrec product :: "'a list ⇒ 'b list ⇒ ('a × 'b) list" where
  "product [] ys = []"
| "product (x # xs) ys = map (Pair x) ys @ product xs ys"

primrec product_lists :: "'a list list ⇒ 'a list list" where
  "product_lists [] = [[]]"
| "product_lists (xs # xss) = concat (map (λx. map (Cons x) (product_lists xss)) xs)"

primrec subseqs :: "'a list ⇒ 'a list list" where
  "subseqs [] = [[]]"
| "subseqs (x # xs) = (let xss = subseqs xs in map (Cons x) xss @ xss)"

text ‹splice interleaves two lists, starting with the first; the rest of the
longer one comes last. The arguments swap places in the recursive call, so the
sum of the two lengths decreases.›

fun splice :: "'a list ⇒ 'a list ⇒ 'a list" where
  "splice [] ys = ys"
| "splice (x # xs) ys = x # splice ys xs"

primrec rotate1 :: "'a list ⇒ 'a list" where
  "rotate1 [] = []"
| "rotate1 (x # xs) = xs @ [x]"

text ‹Isabelle defines rotate n as rotate1 applied n times (rotate1 ^^ n).›

primrec rotate :: "nat ⇒ 'a list ⇒ 'a list" where
  "rotate 0 xs = xs"
| "rotate (Suc n) xs = rotate1 (rotate n xs)"

primrec partition :: "('a ⇒ bool) ⇒ 'a list ⇒ 'a list × 'a list" where
  "partition P [] = ([], [])"
| "partition P (x # xs) =
     (let (yes, no) = partition P xs
      in if P x then (x # yes, no) else (yes, x # no))"

primrec map_filter :: "('a ⇒ 'b option) ⇒ 'a list ⇒ 'b list" where
  "map_filter f [] = []"
| "map_filter f (x # xs) =
     (case f x of None ⇒ map_filter f xs | Some y ⇒ y # map_filter f xs)"

text ‹List.transpose. Isabelle's equation for a non-empty first row is
(x # [h. (h # t) ← xss]) # transpose (xs # [t. (h # t) ← xss]), the comprehensions
skipping the empty rows; heads and tails below do the same.›

fun transpose :: "'a list list ⇒ 'a list list" where
  "transpose [] = []"
| "transpose ([] # xss) = transpose xss"
| "transpose ((x # xs) # xss) =
     (x # concat (map (λys. case ys of [] ⇒ [] | h # t ⇒ [h]) xss))
     # transpose (xs # concat (map (λys. case ys of [] ⇒ [] | h # t ⇒ [t]) xss))"

text ‹size_list f xs, as the datatype package defines it for lists: f measures the
elements. size itself is built in (every datatype has one; size xs = length xs).›

primrec size_list :: "('a ⇒ nat) ⇒ 'a list ⇒ nat" where
  "size_list f [] = 0"
| "size_list f (x # xs) = f x + size_list f xs + 1"

primrec those :: "'a option list ⇒ 'a list option" where
  "those [] = Some []"
| "those (x # xs) = (case x of None ⇒ None | Some y ⇒ map_option (Cons y) (those xs))"

text ‹Isabelle's map_of (from Map.thy) builds the function point-free
(map_of (p # ps) = (map_of ps)(fst p ↦ snd p)); this is the same function
applied to the key.›

primrec map_of :: "('a × 'b) list ⇒ 'a ⇒ 'b option" where
  "map_of [] k = None"
| "map_of (p # ps) k = (if k = fst p then Some (snd p) else map_of ps k)"


subsection ‹Removing elements›

primrec remove1 :: "'a ⇒ 'a list ⇒ 'a list" where
  "remove1 x [] = []"
| "remove1 x (y # xs) = (if x = y then xs else y # remove1 x xs)"

primrec removeAll :: "'a ⇒ 'a list ⇒ 'a list" where
  "removeAll x [] = []"
| "removeAll x (y # xs) = (if x = y then removeAll x xs else y # removeAll x xs)"

primrec remdups :: "'a list ⇒ 'a list" where
  "remdups [] = []"
| "remdups (x # xs) = (if x ∈ set xs then remdups xs else x # remdups xs)"

fun remdups_adj :: "'a list ⇒ 'a list" where
  "remdups_adj [] = []"
| "remdups_adj [x] = [x]"
| "remdups_adj (x # y # xs) = (if x = y then remdups_adj (x # xs) else x # remdups_adj (y # xs))"


subsection ‹Orders: minimum, maximum, sorting›

text ‹min_list [] and max_list [] have no equation, as in Isabelle.›

fun min_list :: "'a::linorder list ⇒ 'a" where
  "min_list (x # xs) = (case xs of [] ⇒ x | _ ⇒ min x (min_list xs))"

fun max_list :: "'a::linorder list ⇒ 'a" where
  "max_list (x # xs) = (case xs of [] ⇒ x | _ ⇒ max x (max_list xs))"

text ‹Isabelle defines sorted as sorted_wrt (≤); the equations below are
sorted_wrt's, specialised.›

primrec sorted_wrt :: "('a ⇒ 'a ⇒ bool) ⇒ 'a list ⇒ bool" where
  "sorted_wrt P [] = True"
| "sorted_wrt P (x # ys) = ((∀y∈set ys. P x y) ∧ sorted_wrt P ys)"

primrec sorted :: "'a::linorder list ⇒ bool" where
  "sorted [] = True"
| "sorted (x # ys) = ((∀y∈set ys. x ≤ y) ∧ sorted ys)"

primrec strict_sorted :: "'a::linorder list ⇒ bool" where
  "strict_sorted [] = True"
| "strict_sorted (x # ys) = ((∀y∈set ys. x < y) ∧ strict_sorted ys)"

text ‹Code equations, as in Isabelle's List theory: compiled code runs these in place of
the definitions (linear rev; length with an accumulator; sortedness by neighbours, which
transitivity makes equal).
Isabelle proves them; hol's reference interpreter keeps the definitions, and its
differential tests check the two agree.›

lemma rev_conv_fold [code]: "rev xs = fold Cons xs []"
  sorry

primrec gen_length :: "nat ⇒ 'a list ⇒ nat" where
  "gen_length n [] = n"
| "gen_length n (x # xs) = gen_length (Suc n) xs"

lemma length_code [code]: "length xs = gen_length 0 xs"
  sorry

lemma sorted0 [code]: "sorted [] = True"
  sorry

lemma sorted1 [code]: "sorted [x] = True"
  sorry

lemma sorted2 [code]: "sorted (x # y # zs) = (x ≤ y ∧ sorted (y # zs))"
  sorry

lemma strict_sorted0 [code]: "strict_sorted [] = True"
  sorry

lemma strict_sorted1 [code]: "strict_sorted [x] = True"
  sorry

lemma strict_sorted2 [code]: "strict_sorted (x # y # zs) = (x < y ∧ strict_sorted (y # zs))"
  sorry

primrec insort_key :: "('b ⇒ 'a::linorder) ⇒ 'b ⇒ 'b list ⇒ 'b list" where
  "insort_key f x [] = [x]"
| "insort_key f x (y # ys) = (if f x ≤ f y then x # y # ys else y # insort_key f x ys)"

primrec sort_key :: "('b ⇒ 'a::linorder) ⇒ 'b list ⇒ 'b list" where
  "sort_key f [] = []"
| "sort_key f (x # xs) = insort_key f x (sort_key f xs)"

text ‹Isabelle's insort is insort_key (λx. x) and sort is sort_key (λx. x),
i.e. sort xs = foldr insort xs []; these are the same equations, specialised.›

primrec insort :: "'a::linorder ⇒ 'a list ⇒ 'a list" where
  "insort x [] = [x]"
| "insort x (y # ys) = (if x ≤ y then x # y # ys else y # insort x ys)"

primrec sort :: "'a::linorder list ⇒ 'a list" where
  "sort [] = []"
| "sort (x # xs) = insort x (sort xs)"


section ‹Finite sets›

text ‹Sets are finite sets or complements of finite sets. The builtin
sorted_list_of_set lists a finite set's elements in ascending order (a complement
has no such list: not executable); the functions below are defined through it.
Isabelle leaves Max {} and Min {} unspecified, and so do these (max_list []).›

definition card :: "'a set ⇒ nat" where
  "card A = length (sorted_list_of_set A)"

definition image :: "('a ⇒ 'b) ⇒ 'a set ⇒ 'b set" where
  "image f A = set (map f (sorted_list_of_set A))"

text ‹A × B stands for Times A B (Isabelle: Sigma A (λ_. B)).›

definition Times :: "'a set ⇒ 'b set ⇒ ('a × 'b) set" where
  "Times A B = set (concat (map (λa. map (λb. (a, b)) (sorted_list_of_set B)) (sorted_list_of_set A)))"

text ‹Pow A: the subsets of a finite set A.›

definition Pow :: "'a set ⇒ 'a set set" where
  "Pow A = set (map set (subseqs (sorted_list_of_set A)))"

text ‹⋃A and ⋂A of finitely many sets (⋂{} is UNIV, as in Isabelle).›

definition Union :: "'a set set ⇒ 'a set" where
  "Union A = foldr (∪) (sorted_list_of_set A) {}"

definition Inter :: "'a set set ⇒ 'a set" where
  "Inter A = foldr (∩) (sorted_list_of_set A) UNIV"

definition range :: "('a ⇒ 'b) ⇒ 'b set" where
  "range f = image f UNIV"

definition Max :: "'a::linorder set ⇒ 'a" where
  "Max A = max_list (sorted_list_of_set A)"

definition Min :: "'a::linorder set ⇒ 'a" where
  "Min A = min_list (sorted_list_of_set A)"

definition sum :: "('a ⇒ 'b::{zero, plus}) ⇒ 'a set ⇒ 'b" where
  "sum f A = sum_list (map f (sorted_list_of_set A))"

definition prod :: "('a ⇒ 'b::{times, one}) ⇒ 'a set ⇒ 'b" where
  "prod f A = prod_list (map f (sorted_list_of_set A))"

text ‹finite A is built in: every set hol holds is finite except a complement over an
infinite type (over a finite type every set is finite).›


section ‹Functions on sets›

text ‹As in Isabelle's Fun.thy and Hilbert_Choice.thy (bij_betw). inj_on quantifies over
A, so it is executable for finite sets; inj and surj over an infinite type are not
executable: inj's quantifiers range over the type, surj lists the range of the function.
Over a finite domain and an infinite codomain, surj f is False (a finite range is not
UNIV), which the set equality below decides.›

definition inj_on :: "('a ⇒ 'b) ⇒ 'a set ⇒ bool" where
  "inj_on f A = (∀x∈A. ∀y∈A. f x = f y ⟶ x = y)"

definition inj :: "('a ⇒ 'b) ⇒ bool" where
  "inj f = (∀x y. f x = f y ⟶ x = y)"

definition surj :: "('a ⇒ 'b) ⇒ bool" where
  "surj f = (range f = UNIV)"

definition bij_betw :: "('a ⇒ 'b) ⇒ 'a set ⇒ 'b set ⇒ bool" where
  "bij_betw f A B = (inj_on f A ∧ f ` A = B)"


section ‹Relations›

text ‹As in Isabelle's Relation.thy and Transitive_Closure.thy, on relations of type
('a × 'b) set. Isabelle defines relcomp, converse and trancl inductively; these are the
same sets computed from a finite relation's elements (trancl by Isabelle's own code
equation, ntrancl (card r - 1) r, since a shortest path uses each pair at most once).
A relation that is a complement over an infinite type is not executable for them, except
converse, which maps the excluded pairs instead.

Id and rtrancl are infinite over an infinite type. Membership in them is executable
(hol decides x ∈ S by the definition's comprehension, so (a, b) ∈ rtrancl r is
a = b ∨ (a, b) ∈ trancl r, and (5, 5) ∈ rtrancl {} is True); building them as sets
enumerates the type, which over an infinite type is not executable.›

definition Id :: "('a × 'a) set" where
  "Id = {p. fst p = snd p}"

definition converse :: "('a × 'b) set ⇒ ('b × 'a) set" where
  "converse r = (if finite r then swap ` r else - (swap ` (- r)))"

definition relcomp :: "('a × 'b) set ⇒ ('b × 'c) set ⇒ ('a × 'c) set" where
  "relcomp r s = set [(fst p, snd q). p ← sorted_list_of_set r, q ← sorted_list_of_set s, snd p = fst q]"

primrec ntrancl :: "nat ⇒ ('a × 'a) set ⇒ ('a × 'a) set" where
  "ntrancl 0 r = r"
| "ntrancl (Suc n) r = (let r' = ntrancl n r in r' ∪ relcomp r' r)"

definition trancl :: "('a × 'a) set ⇒ ('a × 'a) set" where
  "trancl r = ntrancl (card r - 1) r"

definition rtrancl :: "('a × 'a) set ⇒ ('a × 'a) set" where
  "rtrancl r = Id ∪ trancl r"

text ‹The predicate forms r⇧*⇧* and r⇧+⇧+ of a relation r :: 'a ⇒ 'a ⇒ bool, inductive as
in Isabelle's Transitive_Closure.thy, with its rule names; checked, like every inductive
predicate, by a search from its arguments.›

inductive rtranclp :: "('a ⇒ 'a ⇒ bool) ⇒ 'a ⇒ 'a ⇒ bool" for r where
  rtrancl_refl: "rtranclp r a a"
| rtrancl_into_rtrancl: "rtranclp r a b ⟹ r b c ⟹ rtranclp r a c"

inductive tranclp :: "('a ⇒ 'a ⇒ bool) ⇒ 'a ⇒ 'a ⇒ bool" for r where
  r_into_trancl: "r a b ⟹ tranclp r a b"
| trancl_into_trancl: "tranclp r a b ⟹ r b c ⟹ tranclp r a c"

text ‹Isabelle's reflcl is an abbreviation for r ∪ Id; here a definition with that meaning
(so membership in it is executable over infinite types, as for rtrancl).›

definition reflcl :: "('a × 'a) set ⇒ ('a × 'a) set" where
  "reflcl r = r ∪ Id"

text ‹Isabelle's acyclic r is ∀x. (x, x) ∉ r^+; a pair (x, x) of trancl r is one of its
elements, so this form needs only trancl r to be finite.›

text ‹Domain, Range and the properties of a relation as Relation.thy states them (refl is
refl_on UNIV: executable over finite types, as its quantifier ranges over the type).›

definition Domain :: "('a × 'b) set ⇒ 'a set" where
  "Domain r = fst ` r"

definition Range :: "('a × 'b) set ⇒ 'b set" where
  "Range r = snd ` r"

definition refl_on :: "'a set ⇒ ('a × 'a) set ⇒ bool" where
  "refl_on A r = (r ⊆ A × A ∧ (∀x∈A. (x, x) ∈ r))"

definition refl :: "('a × 'a) set ⇒ bool" where
  "refl r = (∀x. (x, x) ∈ r)"

definition sym :: "('a × 'a) set ⇒ bool" where
  "sym r = (∀p∈r. (snd p, fst p) ∈ r)"

definition antisym :: "('a × 'a) set ⇒ bool" where
  "antisym r = (∀p∈r. (snd p, fst p) ∈ r ⟶ fst p = snd p)"

definition trans :: "('a × 'a) set ⇒ bool" where
  "trans r = (∀p∈r. ∀q∈r. snd p = fst q ⟶ (fst p, snd q) ∈ r)"

definition acyclic :: "('a × 'a) set ⇒ bool" where
  "acyclic r = (∀p∈trancl r. fst p ≠ snd p)"


section ‹Maps›

text ‹As in Isabelle's Map.thy: a map is a function 'a ⇒ 'b option. x ∈ dom m is
executable at every key type (it is m x ≠ None); dom m and ran m as sets enumerate the
key type, which over an infinite type is not executable. Isabelle defines ran m as
{b. ∃a. m a = Some b}; this is the same set as the image of dom m, which needs only the
key type to be finite.›

definition map_add :: "('a ⇒ 'b option) ⇒ ('a ⇒ 'b option) ⇒ 'a ⇒ 'b option" where
  "map_add m1 m2 = (λx. case m2 x of None ⇒ m1 x | Some y ⇒ Some y)"

definition dom :: "('a ⇒ 'b option) ⇒ 'a set" where
  "dom m = {a. m a ≠ None}"

definition ran :: "('a ⇒ 'b option) ⇒ 'b set" where
  "ran m = (λa. the (m a)) ` dom m"

end
