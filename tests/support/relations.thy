theory T imports Main begin
fun sorted' :: "nat list ⇒ bool" where
  "sorted' [] = True"
| "sorted' [x] = True"
| "sorted' (x # y # zs) = (x ≤ y ∧ sorted' (y # zs))"
fun app :: "nat list ⇒ nat list ⇒ nat list" where
  "app [] ys = ys"
| "app (x # xs) ys = x # app xs ys"
fun len :: "nat list ⇒ nat" where
  "len [] = 0"
| "len (x # xs) = Suc (len xs)"
fun hd' :: "nat list ⇒ nat" where
  "hd' (x # xs) = x"
lemma "sorted' (app xs ys) ⟹ len xs = hd' ys"
  oops
end
