theory Queue
  imports Main
begin

text ‹A functional queue as two lists (Okasaki's batched queue), with a faulty
variant. The bundled demo theory: `hol check theories/Queue.thy`.›

datatype 'a queue = Queue "'a list" "'a list"

definition empty :: "'a queue" where
  "empty = Queue [] []"

fun norm :: "'a queue ⇒ 'a queue" where
  "norm (Queue [] back) = Queue (rev back) []"
| "norm q = q"

fun enq :: "'a ⇒ 'a queue ⇒ 'a queue" where
  "enq x (Queue front back) = norm (Queue front (x # back))"

fun deq :: "'a queue ⇒ 'a queue" where
  "deq (Queue [] back) = Queue [] back"
| "deq (Queue (x # front) back) = norm (Queue front back)"

fun first :: "'a queue ⇒ 'a option" where
  "first (Queue [] back) = None"
| "first (Queue (x # front) back) = Some x"

primrec contents :: "'a queue ⇒ 'a list" where
  "contents (Queue front back) = front @ rev back"

text ‹The invariant: the front is empty only when the whole queue is.›

fun inv :: "'a queue ⇒ bool" where
  "inv (Queue front back) = (front = [] ⟶ back = [])"

text ‹A faulty dequeue that forgets to normalise.›

fun deq_bad :: "'a queue ⇒ 'a queue" where
  "deq_bad (Queue [] back) = Queue [] back"
| "deq_bad (Queue (x # front) back) = Queue front back"

lemma enq_contents: "contents (enq x q) = contents q @ [x]"
  quickcheck[exhaustive, expect = no_counterexample]
  sorry

lemma deq_contents: "inv q ⟹ contents (deq q) = tl (contents q)"
  quickcheck[exhaustive, expect = no_counterexample]
  sorry

lemma first_contents: "inv q ⟹ first q = (case contents q of [] ⇒ None | x # xs ⇒ Some x)"
  quickcheck[exhaustive, expect = no_counterexample]
  sorry

lemma deq_inv: "inv q ⟹ inv (deq q)"
  quickcheck[exhaustive, expect = no_counterexample]
  sorry

lemma deq_bad_inv: "inv q ⟹ inv (deq_bad q)"
  quickcheck[exhaustive, expect = counterexample]
  oops

value "contents (enq (3 :: nat) (enq 2 (enq 1 empty)))"  (* [1, 2, 3] *)
value "first (deq (enq (3 :: nat) (enq 2 (enq 1 empty))))"  (* Some 2 *)
value "deq_bad (Queue [1 :: nat] [3, 2])"  (* Queue [] [3, 2] *)

end
