theory Lists
  imports Main
begin

text ‹True lemmas about the prelude's list functions, stated as Isabelle's List theory
(HOL/List.thy) states them, under the names it gives them. Each is proved there; here
each carries sorry. The mutation benchmark (hol mutants) mutates them, and the test
hol/tests/bundled_theories.rs checks that no tester refutes the originals.›

section ‹Append and reverse›

lemma append_assoc: "(xs @ ys) @ zs = xs @ (ys @ zs)"
  sorry

lemma append_Nil2: "xs @ [] = xs"
  sorry

lemma append_is_Nil_conv: "(xs @ ys = []) = (xs = [] ∧ ys = [])"
  sorry

lemma append_same_eq: "(ys @ xs = zs @ xs) = (ys = zs)"
  sorry

lemma length_append: "length (xs @ ys) = length xs + length ys"
  sorry

lemma rev_append: "rev (xs @ ys) = rev ys @ rev xs"
  sorry

lemma rev_rev_ident: "rev (rev xs) = xs"
  sorry

lemma rev_is_Nil_conv: "(rev xs = []) = (xs = [])"
  sorry

lemma rev_is_rev_conv: "(rev xs = rev ys) = (xs = ys)"
  sorry

lemma length_rev: "length (rev xs) = length xs"
  sorry

lemma set_rev: "set (rev xs) = set xs"
  sorry

lemma set_append: "set (xs @ ys) = (set xs ∪ set ys)"
  sorry

lemma in_set_conv_decomp: "(x ∈ set xs) = (∃i < length xs. xs ! i = x)"
  sorry

section ‹Map and filter›

lemma map_append: "map f (xs @ ys) = map f xs @ map f ys"
  sorry

lemma map_map: "map f (map g xs) = map (f ∘ g) xs"
  sorry

lemma map_ident: "map (λx. x) xs = xs"
  sorry

lemma length_map: "length (map f xs) = length xs"
  sorry

lemma rev_map: "rev (map f xs) = map f (rev xs)"
  sorry

lemma set_map: "set (map f xs) = f ` set xs"
  sorry

lemma map_is_Nil_conv: "(map f xs = []) = (xs = [])"
  sorry

lemma filter_append: "filter P (xs @ ys) = filter P xs @ filter P ys"
  sorry

lemma filter_filter: "filter P (filter Q xs) = filter (λx. Q x ∧ P x) xs"
  sorry

lemma length_filter_le: "length (filter P xs) ≤ length xs"
  sorry

lemma filter_True: "∀x ∈ set xs. P x ⟹ filter P xs = xs"
  sorry

lemma filter_False: "∀x ∈ set xs. ¬ P x ⟹ filter P xs = []"
  sorry

lemma rev_filter: "rev (filter P xs) = filter P (rev xs)"
  sorry

lemma filter_map: "filter P (map f xs) = map f (filter (P ∘ f) xs)"
  sorry

lemma set_filter: "set (filter P xs) = {x. x ∈ set xs ∧ P x}"
  sorry

lemma filter_id_conv: "(filter P xs = xs) = (∀x ∈ set xs. P x)"
  sorry

lemma length_filter_conv_card: "length (filter P xs) + length (filter (λx. ¬ P x) xs) = length xs"
  sorry

section ‹Concat and folds›

lemma concat_append: "concat (xs @ ys) = concat xs @ concat ys"
  sorry

lemma map_concat: "map f (concat xs) = concat (map (map f) xs)"
  sorry

lemma rev_concat: "rev (concat xs) = concat (map rev (rev xs))"
  sorry

lemma length_concat: "length (concat xss) = sum_list (map length xss)"
  sorry

lemma in_set_concat: "(x ∈ set (concat xss)) = (∃xs ∈ set xss. x ∈ set xs)"
  sorry

lemma foldl_append: "foldl f a (xs @ ys) = foldl f (foldl f a xs) ys"
  sorry

lemma foldr_append: "foldr f (xs @ ys) a = foldr f xs (foldr f ys a)"
  sorry

lemma foldl_conv_foldr: "foldl f a xs = foldr (λx y. f y x) (rev xs) a"
  sorry

lemma foldr_conv_fold: "foldr f xs a = fold f (rev xs) a"
  sorry

lemma sum_list_append: "sum_list (xs @ ys) = sum_list xs + (sum_list ys :: nat)"
  sorry

lemma sum_list_rev: "sum_list (rev xs) = (sum_list xs :: int)"
  sorry

lemma foldl_Cons_rev: "foldl (λxs x. x # xs) ys xs = rev xs @ ys"
  sorry

section ‹Take and drop›

lemma append_take_drop_id: "take n xs @ drop n xs = xs"
  sorry

lemma length_take: "length (take n xs) = min (length xs) n"
  sorry

lemma length_drop: "length (drop n xs) = length xs - n"
  sorry

lemma take_append: "take n (xs @ ys) = take n xs @ take (n - length xs) ys"
  sorry

lemma drop_append: "drop n (xs @ ys) = drop n xs @ drop (n - length xs) ys"
  sorry

lemma take_take: "take n (take m xs) = take (min n m) xs"
  sorry

lemma drop_drop: "drop n (drop m xs) = drop (n + m) xs"
  sorry

lemma take_drop: "take n (drop m xs) = drop m (take (n + m) xs)"
  sorry

lemma take_map: "take n (map f xs) = map f (take n xs)"
  sorry

lemma drop_map: "drop n (map f xs) = map f (drop n xs)"
  sorry

lemma rev_take: "rev (take i xs) = drop (length xs - i) (rev xs)"
  sorry

lemma set_take_subset: "set (take n xs) ⊆ set xs"
  sorry

lemma takeWhile_dropWhile_id: "takeWhile P xs @ dropWhile P xs = xs"
  sorry

lemma length_takeWhile_le: "length (takeWhile P xs) ≤ length xs"
  sorry

lemma takeWhile_append1: "⟦x ∈ set xs; ¬ P x⟧ ⟹ takeWhile P (xs @ ys) = takeWhile P xs"
  sorry

lemma dropWhile_append1: "⟦x ∈ set xs; ¬ P x⟧ ⟹ dropWhile P (xs @ ys) = dropWhile P xs @ ys"
  sorry

lemma takeWhile_eq_all_conv: "(takeWhile P xs = xs) = (∀x ∈ set xs. P x)"
  sorry

section ‹Selectors and indexing›

lemma hd_append2: "xs ≠ [] ⟹ hd (xs @ ys) = hd xs"
  sorry

lemma last_append: "ys ≠ [] ⟹ last (xs @ ys) = last ys"
  sorry

lemma last_snoc: "last (xs @ [x]) = x"
  sorry

lemma butlast_snoc: "butlast (xs @ [x]) = xs"
  sorry

lemma append_butlast_last_id: "xs ≠ [] ⟹ butlast xs @ [last xs] = xs"
  sorry

lemma hd_rev: "xs ≠ [] ⟹ hd (rev xs) = last xs"
  sorry

lemma length_butlast: "length (butlast xs) = length xs - 1"
  sorry

lemma nth_append: "n < length xs + length ys ⟹ (xs @ ys) ! n = (if n < length xs then xs ! n else ys ! (n - length xs))"
  sorry

lemma nth_map: "n < length xs ⟹ map f xs ! n = f (xs ! n)"
  sorry

lemma rev_nth: "n < length xs ⟹ rev xs ! n = xs ! (length xs - Suc n)"
  sorry

lemma nth_mem: "n < length xs ⟹ xs ! n ∈ set xs"
  sorry

lemma length_list_update: "length (xs[i := x]) = length xs"
  sorry

lemma nth_list_update_eq: "i < length xs ⟹ xs[i := x] ! i = x"
  sorry

lemma nth_list_update_neq: "⟦i ≠ j; j < length xs⟧ ⟹ xs[i := x] ! j = xs ! j"
  sorry

lemma set_update_subset_insert: "set (xs[i := x]) ⊆ insert x (set xs)"
  sorry

lemma list_update_overwrite: "xs[i := x, i := y] = xs[i := y]"
  sorry

section ‹Replicate, upt, zip›

lemma length_replicate: "length (replicate n x) = n"
  sorry

lemma set_replicate: "n ≠ 0 ⟹ set (replicate n x) = {x}"
  sorry

lemma replicate_add: "replicate (n + m) x = replicate n x @ replicate m x"
  sorry

lemma rev_replicate: "rev (replicate n x) = replicate n x"
  sorry

lemma map_replicate: "map f (replicate n x) = replicate n (f x)"
  sorry

lemma length_upt: "length [i..<j] = j - i"
  sorry

lemma upt_add_eq_append: "i ≤ j ⟹ [i..<j + k] = [i..<j] @ [j..<j + k]"
  sorry

lemma nth_upt: "i + k < j ⟹ [i..<j] ! k = i + k"
  sorry

lemma length_zip: "length (zip xs ys) = min (length xs) (length ys)"
  sorry

lemma zip_append: "length xs = length us ⟹ zip (xs @ ys) (us @ vs) = zip xs us @ zip ys vs"
  sorry

lemma map_fst_zip: "length xs = length ys ⟹ map fst (zip xs ys) = xs"
  sorry

lemma map_snd_zip: "length xs = length ys ⟹ map snd (zip xs ys) = ys"
  sorry

lemma zip_rev: "length xs = length ys ⟹ zip (rev xs) (rev ys) = rev (zip xs ys)"
  sorry

section ‹Distinct, remdups, counting›

lemma distinct_append: "distinct (xs @ ys) = (distinct xs ∧ distinct ys ∧ set xs ∩ set ys = {})"
  sorry

lemma distinct_rev: "distinct (rev xs) = distinct xs"
  sorry

lemma distinct_remdups: "distinct (remdups xs)"
  sorry

lemma set_remdups: "set (remdups xs) = set xs"
  sorry

lemma length_remdups_leq: "length (remdups xs) ≤ length xs"
  sorry

lemma remdups_id_iff_distinct: "(remdups xs = xs) = distinct xs"
  sorry

lemma distinct_filter: "distinct xs ⟹ distinct (filter P xs)"
  sorry

lemma distinct_card: "distinct xs ⟹ card (set xs) = length xs"
  sorry

lemma distinct_map: "distinct (map f xs) = (distinct xs ∧ inj_on f (set xs))"
  sorry

lemma count_list_append: "count_list (xs @ ys) x = count_list xs x + count_list ys x"
  sorry

lemma set_removeAll: "set (removeAll x xs) = set xs - {x}"
  sorry

lemma remove1_append: "x ∈ set xs ⟹ remove1 x (xs @ ys) = remove1 x xs @ ys"
  sorry

lemma length_remove1: "length (remove1 x xs) = (if x ∈ set xs then length xs - 1 else length xs)"
  sorry

section ‹Sorting›

lemma sorted_append: "sorted (xs @ ys) = (sorted xs ∧ sorted ys ∧ (∀x ∈ set xs. ∀y ∈ set ys. x ≤ y))"
  sorry

lemma sorted_sort: "sorted (sort xs)"
  sorry

lemma set_sort: "set (sort xs) = set xs"
  sorry

lemma length_sort: "length (sort xs) = length xs"
  sorry

lemma sort_idem: "sort (sort xs) = sort xs"
  sorry

lemma set_insort: "set (insort x xs) = insert x (set xs)"
  sorry

lemma sorted_insort: "sorted (insort x xs) = sorted xs"
  sorry

lemma sorted_sort_id: "sorted xs ⟹ sort xs = xs"
  sorry

lemma sorted_distinct_set_unique: "⟦sorted xs; distinct xs; sorted ys; distinct ys; set xs = set ys⟧ ⟹ xs = ys"
  sorry

section ‹Rotation and other functions›

lemma length_rotate1: "length (rotate1 xs) = length xs"
  sorry

lemma set_rotate1: "set (rotate1 xs) = set xs"
  sorry

lemma rotate_rotate: "rotate m (rotate n xs) = rotate (m + n) xs"
  sorry

lemma rotate_length01: "length xs ≤ 1 ⟹ rotate n xs = xs"
  sorry

lemma list_all_iff: "list_all P xs = (∀x ∈ set xs. P x)"
  sorry

lemma list_ex_iff: "list_ex P xs = (∃x ∈ set xs. P x)"
  sorry

lemma find_None_iff: "(find P xs = None) = (¬ (∃x. x ∈ set xs ∧ P x))"
  sorry

lemma partition_filter1: "fst (partition P xs) = filter P xs"
  sorry

lemma partition_filter2: "snd (partition P xs) = filter (λx. ¬ P x) xs"
  sorry

lemma length_product: "length (product xs ys) = length xs * length ys"
  sorry

lemma length_subseqs: "length (subseqs xs) = 2 ^ length xs"
  sorry

lemma length_splice: "length (splice xs ys) = length xs + length ys"
  sorry

lemma max_list_in_set: "xs ≠ [] ⟹ max_list xs ∈ set xs"
  sorry

end
