//! Unit tests of the whole syntax layer: every form, every spelling, precedence, the shared
//! example theories and the error files. Terms are compared through a compact, fully
//! parenthesised printer (`sexp`), which keeps the expectations readable.

use super::ast::*;
use super::{parse_term, parse_theory, parse_type, Parsed};
use crate::span::Span;

// ---------------------------------------------------------------- printer

fn sexp(t: &Term) -> String {
    let mut s = String::new();
    term(&mut s, t);
    s
}

fn ty_sexp(t: &Type) -> String {
    let mut s = String::new();
    ty(&mut s, t);
    s
}

fn list(s: &mut String, ts: &[Term]) {
    for (i, t) in ts.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        term(s, t);
    }
}

fn term(s: &mut String, t: &Term) {
    match &t.kind {
        TermKind::Name(n) => s.push_str(&n.name),
        TermKind::Num(n) => s.push_str(n),
        TermKind::Wildcard => s.push('_'),
        TermKind::App(..) => {
            let mut args = Vec::new();
            let mut f = t;
            while let TermKind::App(g, a) = &f.kind {
                args.push(&**a);
                f = g;
            }
            s.push('(');
            term(s, f);
            for a in args.iter().rev() {
                s.push(' ');
                term(s, a);
            }
            s.push(')');
        }
        TermKind::Lambda(ps, b) => {
            s.push_str("(λ [");
            list(s, ps);
            s.push_str("] ");
            term(s, b);
            s.push(')');
        }
        TermKind::Quant { q, binders, bound, body } => {
            s.push('(');
            s.push_str(match q {
                Quantifier::All => "∀",
                Quantifier::Ex => "∃",
                Quantifier::Ex1 => "∃!",
            });
            s.push_str(" [");
            for (i, b) in binders.iter().enumerate() {
                if i > 0 {
                    s.push(' ');
                }
                s.push_str(&b.name.name);
                if let Some(t) = &b.ty {
                    s.push(':');
                    ty(s, t);
                }
            }
            s.push(']');
            if let Some(bd) = bound {
                let (op, b) = match bd {
                    QuantBound::In(b) => ("∈", b),
                    QuantBound::Less(b) => ("<", b),
                    QuantBound::LessEq(b) => ("≤", b),
                };
                s.push_str(&format!(" ({op} "));
                term(s, b);
                s.push(')');
            }
            s.push(' ');
            term(s, body);
            s.push(')');
        }
        TermKind::If(a, b, c) => {
            s.push_str("(if ");
            list(s, &[(**a).clone(), (**b).clone(), (**c).clone()]);
            s.push(')');
        }
        TermKind::Let(bs, b) => {
            s.push_str("(let [");
            pairs(s, bs);
            s.push_str("] ");
            term(s, b);
            s.push(')');
        }
        TermKind::Case(t, arms) => {
            s.push_str("(case ");
            term(s, t);
            s.push_str(" [");
            pairs(s, arms);
            s.push_str("])");
        }
        TermKind::BinOp(op, _, a, b) => {
            s.push('(');
            s.push_str(super::construct::binop_text(*op));
            s.push(' ');
            term(s, a);
            s.push(' ');
            term(s, b);
            s.push(')');
        }
        TermKind::UnOp(op, _, a) => {
            s.push_str(match op {
                UnOp::Not => "(¬ ",
                UnOp::Neg => "(neg ",
                _ => "(",
            });
            term(s, a);
            if op.is_postfix() {
                s.push(' ');
                s.push_str(super::construct::unop_text(*op));
            }
            s.push(')');
        }
        TermKind::Tuple(ts) => {
            s.push_str("(tuple");
            for t in ts {
                s.push(' ');
                term(s, t);
            }
            s.push(')');
        }
        TermKind::List(ts) => {
            s.push('[');
            list(s, ts);
            s.push(']');
        }
        TermKind::ListCompr(h, qs) => {
            s.push('[');
            term(s, h);
            s.push_str(" |");
            for q in qs {
                s.push(' ');
                match q {
                    Qualifier::Generator(p, e) => {
                        s.push_str("(← ");
                        term(s, p);
                        s.push(' ');
                        term(s, e);
                        s.push(')');
                    }
                    Qualifier::Guard(g) => term(s, g),
                }
            }
            s.push(']');
        }
        TermKind::Range { from, to, exclusive } => {
            s.push('[');
            term(s, from);
            s.push_str(if *exclusive { " ..< " } else { " .. " });
            term(s, to);
            s.push(']');
        }
        TermKind::SetLit(ts) => {
            s.push('{');
            list(s, ts);
            s.push('}');
        }
        TermKind::SetCompr(p, b) => {
            s.push('{');
            term(s, p);
            s.push_str(" . ");
            term(s, b);
            s.push('}');
        }
        TermKind::Update(f, bs) => {
            s.push_str("(upd ");
            term(s, f);
            s.push(' ');
            pairs(s, bs);
            s.push(')');
        }
        TermKind::Typed(t, tt) => {
            s.push_str("(:: ");
            term(s, t);
            s.push(' ');
            ty(s, tt);
            s.push(')');
        }
    }
}

fn pairs(s: &mut String, ps: &[(Term, Term)]) {
    for (i, (a, b)) in ps.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        s.push('(');
        term(s, a);
        s.push(' ');
        term(s, b);
        s.push(')');
    }
}

fn ty(s: &mut String, t: &Type) {
    match &t.kind {
        TypeKind::Var(v) => {
            s.push_str(&v.name.name);
            if !v.sort.is_empty() {
                s.push_str("::{");
                s.push_str(&v.sort.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(","));
                s.push('}');
            }
        }
        TypeKind::App(n, args) if args.is_empty() => s.push_str(&n.name),
        TypeKind::App(n, args) => {
            s.push('(');
            s.push_str(&n.name);
            for a in args {
                s.push(' ');
                ty(s, a);
            }
            s.push(')');
        }
        TypeKind::Fun(a, b) => {
            s.push_str("(⇒ ");
            ty(s, a);
            s.push(' ');
            ty(s, b);
            s.push(')');
        }
    }
}

// ---------------------------------------------------------------- helpers

#[track_caller]
fn t(src: &str) -> String {
    match parse_term(src, 0) {
        Ok(t) => {
            check_spans(&t, src.len());
            sexp(&t)
        }
        Err(d) => panic!("`{src}` failed to parse: {} at {:?}", d.message, d.primary.span),
    }
}

#[track_caller]
fn tt(src: &str) -> String {
    match parse_type(src, 0) {
        Ok(t) => ty_sexp(&t),
        Err(d) => panic!("type `{src}` failed to parse: {} at {:?}", d.message, d.primary.span),
    }
}

/// The error message and the source text its primary span covers.
#[track_caller]
fn err(src: &str) -> (String, String) {
    match parse_term(src, 0) {
        Ok(t) => panic!("`{src}` parsed as {} but should fail", sexp(&t)),
        Err(d) => {
            let r = d.primary.span.range();
            assert!(r.end <= src.len() && src.is_char_boundary(r.start) && src.is_char_boundary(r.end));
            (d.message, src[r].to_string())
        }
    }
}

/// Every node's span lies within the text and is non-empty.
fn check_spans(t: &Term, len: usize) {
    assert!(t.span.end as usize <= len && t.span.start <= t.span.end, "bad span {:?}", t.span);
}

// ---------------------------------------------------------------- spellings

#[test]
fn every_spelling_of_every_symbol() {
    // Each group: the same term in its spellings.
    let groups: &[&[&str]] = &[
        &["∀x. P x", "\\<forall>x. P x", "ALL x. P x", "! x. P x"],
        &["∃x. P x", "\\<exists>x. P x", "EX x. P x", "? x. P x"],
        &["∃!x. P x", "\\<exists>!x. P x", "EX! x. P x"],
        &["λx. f x", "\\<lambda>x. f x", "%x. f x"],
        &["¬ A", "\\<not> A", "~ A"],
        &["A ∧ B", "A \\<and> B", "A & B"],
        &["A ∨ B", "A \\<or> B", "A | B"],
        &["A ⟶ B", "A \\<longrightarrow> B", "A --> B"],
        &["A ⟷ B", "A \\<longleftrightarrow> B", "A <-> B"],
        &["A ⟹ B", "A \\<Longrightarrow> B", "A ==> B"],
        &["⟦A; B⟧ ⟹ C", "\\<lbrakk>A; B\\<rbrakk> \\<Longrightarrow> C", "[| A; B |] ==> C"],
        &["a ≠ b", "a \\<noteq> b", "a ~= b"],
        &["a ≤ b", "a \\<le> b", "a <= b"],
        &["a ≥ b", "a \\<ge> b", "a >= b"],
        &["a ∈ A", "a \\<in> A", "a : A"],
        &["a ∉ A", "a \\<notin> A", "a ~: A"],
        &["A ⊆ B", "A \\<subseteq> B"],
        &["A ⊂ B", "A \\<subset> B"],
        &["A ∪ B", "A \\<union> B", "A Un B"],
        &["A ∩ B", "A \\<inter> B", "A Int B"],
        &["f ∘ g", "f \\<circ> g", "f o g"],
        &["[x. x ← xs]", "[x. x \\<leftarrow> xs]", "[x. x <- xs]"],
        &["f ≡ g", "f \\<equiv> g", "f == g"],
        &["(x :: 'a ⇒ 'b)", "(x :: 'a \\<Rightarrow> 'b)", "(x :: 'a => 'b)"],
        &["(x :: 'a × 'b)", "(x :: 'a \\<times> 'b)", "(x :: 'a * 'b)"],
    ];
    for g in groups {
        let first = t(g[0]);
        for s in &g[1..] {
            assert_eq!(t(s), first, "spelling `{s}` differs from `{}`", g[0]);
        }
    }
    assert_eq!(t("⟦A; B⟧ ⟹ C"), "(⟹ A (⟹ B C))");
    // ASCII `!` is both ∀ (in front of a binder) and nth (between terms).
    assert_eq!(t("! x. xs ! x = y"), "(∀ [x] (= (! xs x) y))");
    assert_eq!(t("?! x. P x"), "(∃! [x] (P x))");
    assert_eq!(t("%(a, b). a"), "(λ [(tuple a b)] a)");
    assert_eq!(t("(x \\<Colon> nat)"), "(:: x nat)");
    assert_eq!(t("(x ∷ nat)"), "(:: x nat)");
    assert_eq!(t("A ⊆ B"), "(⊆ A B)");
    assert_eq!(t("a <= b"), "(≤ a b)");
}

#[test]
fn names() {
    assert_eq!(t("x\\<^sub>1 + s⇩2"), "(+ x\\<^sub>1 s\\<^sub>2)");
    assert_eq!(t("α + \\<beta>"), "(+ \\<alpha> \\<beta>)");
    assert_eq!(t("n' + xs_1 + True"), "(+ (+ n' xs_1) True)");
    assert_eq!(t("_"), "_");
    assert_eq!(t("42"), "42");
}

// ---------------------------------------------------------------- forms

#[test]
fn application_and_update() {
    assert_eq!(t("f x y"), "(f x y)");
    assert_eq!(t("f (g x) y"), "(f (g x) y)");
    assert_eq!(t("f(x := y)"), "(upd f (x y))");
    assert_eq!(t("f(x := y, z := w)"), "(upd f (x y) (z w))");
    assert_eq!(t("(f(x := y)) z"), "((upd f (x y)) z)");
    assert_eq!(t("f(x := y) z"), "((upd f (x y)) z)");
    assert_eq!(t("f (x := 1)"), "(upd f (x 1))");
}

#[test]
fn lambdas() {
    assert_eq!(t("λx y. f x y"), "(λ [x y] (f x y))");
    assert_eq!(t("λ(a, b). a"), "(λ [(tuple a b)] a)");
    assert_eq!(t("λ_. 0"), "(λ [_] 0)");
    assert_eq!(t("λx::nat. x"), "(λ [(:: x nat)] x)");
    assert_eq!(t("λ(x::nat) y. x"), "(λ [(:: x nat) y] x)");
    assert_eq!(t("λx y::nat. x"), "(λ [x (:: y nat)] x)");
    assert_eq!(t("λx. λy. x"), "(λ [x] (λ [y] x))");
}

#[test]
fn quantifiers() {
    assert_eq!(t("∀x y. P x y"), "(∀ [x y] (P x y))");
    assert_eq!(t("∀x::nat. P x"), "(∀ [x:nat] (P x))");
    assert_eq!(t("∀(x::nat) y. P x"), "(∀ [x:nat y] (P x))");
    assert_eq!(t("∀(x :: 'a) y z. x = y"), "(∀ [x:'a y z] (= x y))");
    assert_eq!(t("∃y :: nat. ∀x. x = y"), "(∃ [y:nat] (∀ [x] (= x y)))");
    assert_eq!(t("∀x∈A. P x"), "(∀ [x] (∈ A) (P x))");
    assert_eq!(t("∃x∈A. P x"), "(∃ [x] (∈ A) (P x))");
    assert_eq!(t("∀x<n. P x"), "(∀ [x] (< n) (P x))");
    assert_eq!(t("∀x≤n. P x"), "(∀ [x] (≤ n) (P x))");
    assert_eq!(t("∀n' ∈ set_of l. n' < n"), "(∀ [n'] (∈ (set_of l)) (< n' n))");
    assert_eq!(t("∃!x. P x"), "(∃! [x] (P x))");
    assert_eq!(t("ALL x:A. P x"), "(∀ [x] (∈ A) (P x))");
}

#[test]
fn if_let_case() {
    assert_eq!(t("if b then x else y"), "(if b x y)");
    assert_eq!(t("if a then b else if c then d else e"), "(if a b (if c d e))");
    assert_eq!(t("let x = 1 in x"), "(let [(x 1)] x)");
    assert_eq!(t("let x = 1; (a, b) = p in x"), "(let [(x 1) ((tuple a b) p)] x)");
    assert_eq!(t("case xs of [] ⇒ 0 | y # ys ⇒ 1"), "(case xs [([] 0) ((# y ys) 1)])");
    assert_eq!(t("case p of (a, b) ⇒ a | _ ⇒ b"), "(case p [((tuple a b) a) (_ b)])");
    // A nested case absorbs the following arms.
    assert_eq!(t("case x of A ⇒ case y of B ⇒ 1 | C ⇒ 2 | D ⇒ 3"), "(case x [(A (case y [(B 1) (C 2) (D 3)]))])");
    assert_eq!(t("case x of A ⇒ (case y of B ⇒ 1) | C ⇒ 2"), "(case x [(A (case y [(B 1)])) (C 2)])");
    // `if` and binders in a non-last arm end at the `|`.
    assert_eq!(
        t("case e of C g ⇒ if g = r then Some g else s | D ⇒ s"),
        "(case e [((C g) (if (= g r) (Some g) s)) (D s)])"
    );
    assert_eq!(t("case x of A ⇒ λy. y | B ⇒ id"), "(case x [(A (λ [y] y)) (B id)])");
    // In arms, ASCII `|` separates; `∨` is still disjunction, and `|` inside brackets too.
    assert_eq!(t("case x of A ⇒ P ∨ Q | B ⇒ (P | Q)"), "(case x [(A (∨ P Q)) (B (∨ P Q))])");
    assert_eq!(t("case n of 0 ⇒ x | Suc k ⇒ nth xs k"), "(case n [(0 x) ((Suc k) (nth xs k))])");
    // Case in the then-branch of an if inside an arm.
    assert_eq!(
        t("case a of X ⇒ if b then case c of Y ⇒ 1 | Z ⇒ 2 else 3 | W ⇒ 4"),
        "(case a [(X (if b (case c [(Y 1) (Z 2)]) 3)) (W 4)])"
    );
}

#[test]
fn tuples_lists_sets() {
    assert_eq!(t("(a, b, c)"), "(tuple a b c)");
    assert_eq!(t("()"), "(tuple)");
    assert_eq!(t("[]"), "[]");
    assert_eq!(t("[a, b]"), "[a b]");
    assert_eq!(t("[1, 2, 3 :: nat]"), "[1 2 (:: 3 nat)]");
    assert_eq!(t("[f x. x ← xs, P x]"), "[(f x) | (← x xs) (P x)]");
    assert_eq!(t("[x←xs. P x]"), "[x | (← x xs) (P x)]");
    assert_eq!(t("[x <- xs. x < 3]"), "[x | (← x xs) (< x 3)]");
    assert_eq!(t("[(x, y). x ← xs, y ← ys]"), "[(tuple x y) | (← x xs) (← y ys)]");
    assert_eq!(t("[m..<n]"), "[m ..< n]");
    assert_eq!(t("[0..<5]"), "[0 ..< 5]");
    assert_eq!(t("[m..n]"), "[m .. n]");
    assert_eq!(t("{}"), "{}");
    assert_eq!(t("{a, b}"), "{a b}");
    assert_eq!(t("{x. P x}"), "{x . (P x)}");
    assert_eq!(t("{x ∈ A. P x}"), "{x . (∧ (∈ x A) (P x))}");
    assert_eq!(t("{(x, y). P x y}"), "{(tuple x y) . (P x y)}");
    assert_eq!(t("{x. P x | Q x}"), "{x . (∨ (P x) (Q x))}");
}

#[test]
fn typed_terms_and_unary_minus() {
    assert_eq!(t("(x :: nat) > 0"), "(> (:: x nat) 0)");
    assert_eq!(t("x + y :: int"), "(:: (+ x y) int)");
    assert_eq!(t("-2"), "(neg 2)");
    assert_eq!(t("- x"), "(neg x)");
    assert_eq!(t("(7 :: int) div -2"), "(div (:: 7 int) (neg 2))");
    assert_eq!(t("- x ^ 2"), "(neg (^ x 2))");
    assert_eq!(t("- a + b"), "(+ (neg a) b)");
    assert_eq!(t("a - - b"), "(- a (neg b))");
    assert_eq!(t("- A"), "(neg A)");
}

#[test]
fn sections() {
    assert_eq!(t("(+)"), "(λ [x y] (+ x y))");
    assert_eq!(t("foldr (#) xs []"), "(foldr (λ [x y] (# x y)) xs [])");
    assert_eq!(t("(-)"), "(λ [x y] (- x y))");
    assert_eq!(t("(dvd)"), "(λ [x y] (dvd x y))");
}

#[test]
fn comments_inside_terms() {
    assert_eq!(t("f (* a comment *) x"), "(f x)");
}

// ---------------------------------------------------------------- precedence

#[test]
fn precedence_and_associativity() {
    let cases = [
        ("A ⟹ B ⟹ C", "(⟹ A (⟹ B C))"),
        ("A ⟶ B ⟶ C", "(⟶ A (⟶ B C))"),
        ("A ⟷ B ⟶ C", "(⟷ A (⟶ B C))"),
        ("A ∨ B ∨ C", "(∨ A (∨ B C))"),
        ("A ∧ B ∧ C", "(∧ A (∧ B C))"),
        ("A ∨ B ∧ C", "(∨ A (∧ B C))"),
        ("A ∧ B ∨ C", "(∨ (∧ A B) C)"),
        ("A ⟶ B ∨ C", "(⟶ A (∨ B C))"),
        ("¬ A ∧ B", "(∧ (¬ A) B)"),
        ("¬ a = b", "(¬ (= a b))"),
        ("a = b ∧ c", "(∧ (= a b) c)"),
        ("a = b = c", "(= (= a b) c)"),
        ("a < b = c", "(= (< a b) c)"),
        ("f ∘ g = h", "(= (∘ f g) h)"),
        ("f ∘ g ∘ h", "(∘ (∘ f g) h)"),
        ("x # xs @ ys", "(# x (@ xs ys))"),
        ("xs @ ys @ zs", "(@ xs (@ ys zs))"),
        ("a + b # xs", "(# (+ a b) xs)"),
        ("a + b - c", "(- (+ a b) c)"),
        ("a + b * c", "(+ a (* b c))"),
        ("a * b + c", "(+ (* a b) c)"),
        ("a * b div c mod d", "(mod (div (* a b) c) d)"),
        ("A ∪ B ∩ C", "(∪ A (∩ B C))"),
        ("A - B ∪ C", "(∪ (- A B) C)"),
        ("2 ^ 3 ^ 4", "(^ 2 (^ 3 4))"),
        ("a * b ^ c", "(* a (^ b c))"),
        ("xs ! i ! j", "(! (! xs i) j)"),
        ("xs ! f i", "(! xs (f i))"),
        ("f xs ! i", "(! (f xs) i)"),
        ("x ∈ A ∪ B", "(∈ x (∪ A B))"),
        ("a dvd b ∧ c", "(∧ (dvd a b) c)"),
        ("[] @ xs ! i # take i xs", "(@ [] (# (! xs i) (take i xs)))"),
        ("f x = y ≡ g", "(≡ (= (f x) y) g)"),
        ("A ≡ B ⟹ C", "(⟹ (≡ A B) C)"),
        ("x * x + y * y ≠ z * z", "(≠ (+ (* x x) (* y y)) (* z z))"),
        ("(a::nat) div b * b + a mod b = a", "(= (+ (* (div (:: a nat) b) b) (mod a b)) a)"),
        // Prefix operators take what binds at least as tightly as they do and their context.
        ("a = ¬ b = c", "(= (= a (¬ b)) c)"),
        ("a = ¬ b ∧ c", "(∧ (= a (¬ b)) c)"),
        ("¬ - x = y", "(¬ (= (neg x) y))"),
        ("¬ ¬ A ∧ B", "(∧ (¬ (¬ A)) B)"),
        ("- - x", "(neg (neg x))"),
        ("a * - b ^ c", "(* a (neg (^ b c)))"),
        ("A ∧ ¬ B ∨ C", "(∨ (∧ A (¬ B)) C)"),
        ("x # - y # zs", "(# x (# (neg y) zs))"),
    ];
    for (src, want) in cases {
        assert_eq!(t(src), want, "`{src}`");
    }
}

#[test]
fn binders_at_the_right_of_operators() {
    assert_eq!(t("A ∧ ∀x. P x ∨ Q"), "(∧ A (∀ [x] (∨ (P x) Q)))");
    assert_eq!(t("∀x. P x ⟹ Q"), "(⟹ (∀ [x] (P x)) Q)");
    assert_eq!(t("A ⟹ ∀x. P x ⟶ Q x"), "(⟹ A (∀ [x] (⟶ (P x) (Q x))))");
    assert_eq!(t("x = y ∨ (∀z. P z)"), "(∨ (= x y) (∀ [z] (P z)))");
    assert_eq!(t("x + if b then 1 else 2 + 3"), "(+ x (if b 1 (+ 2 3)))");
    assert_eq!(t("¬ ∃x. P x"), "(¬ (∃ [x] (P x)))");
    assert_eq!(t("f ≡ λx. x + 1"), "(≡ f (λ [x] (+ x 1)))");
    assert_eq!(t("x = (let k = a in case e of A ⇒ k | B ⇒ k)"), "(= x (let [(k a)] (case e [(A k) (B k)])))");
    assert_eq!(t("xs = [] ⟶ (∀x. f x)"), "(⟶ (= xs []) (∀ [x] (f x)))");
}

#[test]
fn operator_chains_have_a_depth_limit() {
    let long = format!("x{}", " + x".repeat(999));
    assert!(parse_term(&long, 0).is_ok());
    let (m, _) = err(&format!("x{}", " + x".repeat(1000)));
    assert!(m.contains("nested too deeply"), "{m}");
    let (m, _) = err(&format!("x{}", " # x".repeat(1000)));
    assert!(m.contains("nested too deeply"), "{m}");
}

#[test]
fn ambiguous_operators_are_errors() {
    let (m, at) = err("a < b < c");
    assert!(m.contains("ambiguous"), "{m}");
    assert_eq!(at, "<");
    let (m, _) = err("a = b < c");
    assert!(m.contains("ambiguous"), "{m}");
}

// ---------------------------------------------------------------- types

#[test]
fn types() {
    assert_eq!(tt("bool"), "bool");
    assert_eq!(tt("'a list"), "(list 'a)");
    assert_eq!(tt("'a list set"), "(set (list 'a))");
    assert_eq!(tt("('a, 'b) foo"), "(foo 'a 'b)");
    assert_eq!(tt("'a × 'b × 'c"), "(prod 'a (prod 'b 'c))");
    assert_eq!(tt("'a * 'b"), "(prod 'a 'b)");
    assert_eq!(tt("'a + 'b × 'c"), "(sum 'a (prod 'b 'c))");
    assert_eq!(tt("'a + 'b + 'c"), "(sum 'a (sum 'b 'c))");
    assert_eq!(tt("'a ⇒ 'b ⇒ 'c"), "(⇒ 'a (⇒ 'b 'c))");
    assert_eq!(tt("('a ⇒ 'b) ⇒ 'c"), "(⇒ (⇒ 'a 'b) 'c)");
    assert_eq!(tt("'a × 'b ⇒ 'a"), "(⇒ (prod 'a 'b) 'a)");
    assert_eq!(tt("('a ⇒ 'a) list"), "(list (⇒ 'a 'a))");
    assert_eq!(tt("'a::linorder ⇒ 'a"), "(⇒ 'a::{linorder} 'a)");
    assert_eq!(tt("('a :: linorder) tree"), "(tree 'a::{linorder})");
    assert_eq!(tt("'a::{plus, zero} list"), "(list 'a::{plus,zero})");
    assert_eq!(tt("'a::{}"), "'a");
    assert_eq!(tt("nat × 'a"), "(prod nat 'a)");
    // The operator's span names the constructor.
    let ty = parse_type("'a × 'b", 10).unwrap_or_else(|d| panic!("{}", d.message));
    match ty.kind {
        TypeKind::App(n, _) => assert_eq!(n.span, Span::new(13, 15)),
        other => panic!("{other:?}"),
    }
}

// ---------------------------------------------------------------- spans

#[test]
fn spans_are_file_absolute() {
    let term = parse_term("f (x + y)", 100).unwrap_or_else(|d| panic!("{}", d.message));
    assert_eq!(term.span, Span::new(100, 109));
    match term.kind {
        TermKind::App(f, a) => {
            assert_eq!(f.span, Span::new(100, 101));
            assert_eq!(a.span, Span::new(102, 109));
            match a.kind {
                TermKind::BinOp(BinOp::Plus, op, l, r) => {
                    assert_eq!(op, Span::new(105, 106));
                    assert_eq!(l.span, Span::new(103, 104));
                    assert_eq!(r.span, Span::new(107, 108));
                }
                other => panic!("{other:?}"),
            }
        }
        other => panic!("{other:?}"),
    }
}

// ---------------------------------------------------------------- inner errors

#[test]
fn inner_error_messages() {
    let (m, at) = err("rev (rev xs = xs");
    assert_eq!(m, "expected `)` or `,`, found the end of the term");
    assert_eq!(at, "");
    let (m, at) = err("f x)");
    assert_eq!(m, "unbalanced `)`: no `(` is open here");
    assert_eq!(at, ")");
    let (m, at) = err("x + ");
    assert!(m.contains("a term"), "{m}");
    assert_eq!(at, "");
    let (m, at) = err("a § b");
    assert!(m.starts_with("unexpected character"), "{m}");
    assert_eq!(at, "§");
    let (m, _) = err("");
    assert_eq!(m, "expected a term, found the end of the term");
    let (m, at) = err("∀x. ");
    assert!(m.contains("a term"), "{m}");
    assert_eq!(at, "");
}

// ---------------------------------------------------------------- theories

fn examples_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/acceptance")
}

/// Reads the `.thy` files of a directory; fails the test if there are none.
fn thy_files(dir: &std::path::Path) -> Vec<(String, String)> {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    let mut files: Vec<(String, String)> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "thy"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()));
            (p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(), text)
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .thy files in {}", dir.display());
    files
}

fn line_of(text: &str, span: Span) -> usize {
    text[..span.start as usize].matches('\n').count() + 1
}

fn show_diags(text: &str, p: &Parsed) -> String {
    p.diagnostics
        .iter()
        .map(|d| format!("line {}: {} [{}]", line_of(text, d.primary.span), d.message, &text[d.primary.span.range()]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The theory of a text that parses without errors or warnings (notes that a command was
/// skipped are allowed).
fn theory(text: &str) -> Theory {
    let mut p = parse_theory(text);
    p.diagnostics.retain(|d| d.severity != crate::diagnostic::Severity::Info);
    assert!(p.diagnostics.is_empty(), "unexpected diagnostics:\n{}", show_diags(text, &p));
    p.theory
}

fn wrap(body: &str) -> String {
    format!("theory T imports Main begin\n{body}\nend\n")
}

/// The commands of a theory with the given body.
/// The commands of a theory body as written (without the functions the parser generates
/// for a datatype, which `datatype_functions_are_generated` looks at, and the names its
/// `for` clause declares).
fn cmds(body: &str) -> Vec<CommandKind> {
    theory(&wrap(body))
        .commands
        .into_iter()
        .map(|c| c.kind)
        .filter(|k| !matches!(k, CommandKind::Fun { kind: FunKind::Generated, .. }))
        .filter(|k| !matches!(k, CommandKind::Declares { keyword, .. } if keyword.name == "datatype"))
        .collect()
}

#[test]
fn datatype_functions_are_generated() {
    let names = |body: &str| -> Vec<String> {
        theory(&wrap(body))
            .commands
            .into_iter()
            .filter_map(|c| match c.kind {
                CommandKind::Fun { kind: FunKind::Generated, consts, .. } => {
                    Some(consts.iter().map(|c| c.name.name.clone()).collect::<Vec<_>>().join(" "))
                }
                _ => None,
            })
            .collect()
    };
    assert_eq!(names("datatype 'a t = L | N \"'a t\" 'a"), ["case_t", "set_t", "map_t"]);
    assert_eq!(
        names("datatype ('a, 'b) t = L 'a | N \"('a × 'b) list\" and ('a, 'b) u = U \"('a, 'b) t option\""),
        ["case_t case_u", "set1_t set1_u", "set2_t set2_u", "map_t map_u"]
    );
    // Through a function type there is no set or map function; without parameters, only
    // the case combinator.
    assert_eq!(names("datatype 'a s = S \"nat ⇒ 'a\""), ["case_s"]);
    assert_eq!(names("datatype c = A | B"), ["case_c"]);
}

#[test]
fn all_examples_parse_without_diagnostics() {
    for (name, text) in thy_files(&examples_dir()) {
        let p = parse_theory(&text);
        assert!(p.diagnostics.is_empty(), "{name}:\n{}", show_diags(&text, &p));
        assert!(!p.theory.commands.is_empty(), "{name}: no commands");
        assert_eq!(p.theory.name.name, name.trim_end_matches(".thy"), "{name}");
    }
}

#[test]
fn example_shapes() {
    let text = std::fs::read_to_string(examples_dir().join("Lists.thy")).unwrap_or_else(|e| panic!("{e}"));
    let th = theory(&text);
    assert_eq!(th.imports.iter().map(|i| i.name.as_str()).collect::<Vec<_>>(), vec!["Main"]);
    let lemmas = th.commands.iter().filter(|c| matches!(c.kind, CommandKind::Lemma(_))).count();
    let qcs = th.commands.iter().filter(|c| matches!(c.kind, CommandKind::Quickcheck(_))).count();
    let values = th.commands.iter().filter(|c| matches!(c.kind, CommandKind::Value(_))).count();
    assert_eq!((lemmas, values), (text.matches("\nlemma ").count(), 3));
    assert_eq!(qcs, text.matches("quickcheck[").count());
    // Every command span starts with its keyword.
    for c in &th.commands {
        let kw = &text[c.span.range()];
        assert!(kw.chars().next().is_some_and(|c| c.is_alphabetic()), "{kw}");
    }
}

#[test]
fn error_files_give_their_errors() {
    let dir = examples_dir().join("errors");
    for (name, text) in thy_files(&dir) {
        let p = parse_theory(&text);
        match name.as_str() {
            "syntax_unclosed_quote.thy" => {
                assert_eq!(p.diagnostics.len(), 1, "{}", show_diags(&text, &p));
                let d = &p.diagnostics[0];
                assert_eq!(d.message, "unterminated string");
                assert_eq!(line_of(&text, d.primary.span), 3);
                assert_eq!(&text[d.primary.span.range()], "\"");
                let line3 = text.lines().nth(2).unwrap_or_default();
                let col = d.primary.span.start as usize - text.find(line3).unwrap_or(0);
                assert_eq!(col, line3.find('"').unwrap_or(usize::MAX));
            }
            "unsupported_command.thy" => {
                assert!(p.diagnostics.is_empty(), "{}", show_diags(&text, &p));
                let c = &p.theory.commands[0];
                match &c.kind {
                    CommandKind::Locale { keyword, name } => {
                        assert_eq!((keyword.name.as_str(), name.name.as_str()), ("locale", "antisym"));
                        assert_eq!(line_of(&text, keyword.span), 3);
                    }
                    other => panic!("{other:?}"),
                }
                // The rest of the file is still there.
                assert!(matches!(p.theory.commands[1].kind, CommandKind::Lemma(_)));
                assert!(matches!(p.theory.commands[2].kind, CommandKind::Quickcheck(_)));
            }
            // All other error files are about later stages: they parse cleanly.
            _ => assert!(p.diagnostics.is_empty(), "{name}:\n{}", show_diags(&text, &p)),
        }
    }
}

fn one(body: &str) -> CommandKind {
    let mut cs = cmds(body);
    assert_eq!(cs.len(), 1, "{cs:?}");
    cs.remove(0)
}

fn eq_sexps(eqs: &[Equation]) -> Vec<String> {
    eqs.iter()
        .map(|e| format!("{}{}", e.name.as_ref().map_or(String::new(), |n| format!("{}: ", n.name)), sexp(&e.term)))
        .collect()
}

#[test]
fn datatypes() {
    match one("datatype 'a tree = Leaf | Node \"'a tree\" 'a \"'a tree\"") {
        CommandKind::Datatype(ds) => {
            assert_eq!(ds.len(), 1);
            let d = &ds[0];
            assert_eq!(d.name.name, "tree");
            assert_eq!(d.params.iter().map(|p| p.name.name.as_str()).collect::<Vec<_>>(), vec!["'a"]);
            assert_eq!(d.ctors.iter().map(|c| c.name.name.as_str()).collect::<Vec<_>>(), vec!["Leaf", "Node"]);
            let args: Vec<String> = d.ctors[1].args.iter().map(|a| ty_sexp(&a.ty)).collect();
            assert_eq!(args, vec!["(tree 'a)", "'a", "(tree 'a)"]);
        }
        other => panic!("{other:?}"),
    }
    match one("datatype ('a::linorder, 'b) t = C (left: 'a) (right: \"'b list\") nat | D") {
        CommandKind::Datatype(ds) => {
            let d = &ds[0];
            assert_eq!(d.params.len(), 2);
            assert_eq!(d.params[0].sort.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), vec!["linorder"]);
            let c = &d.ctors[0];
            assert_eq!(c.args[0].selector.as_ref().map(|s| s.name.as_str()), Some("left"));
            assert_eq!(c.args[1].selector.as_ref().map(|s| s.name.as_str()), Some("right"));
            assert_eq!(ty_sexp(&c.args[1].ty), "(list 'b)");
            assert_eq!(c.args[2].selector, None);
        }
        other => panic!("{other:?}"),
    }
    // Mutual recursion, mixfix annotations, a quoted sort.
    match one("datatype 'a l = N (\"[]\") | Cs 'a \"'a l\" (infixr \"#\" 65)\n and ('b::\"{plus, zero}\") m = M \"'b l\" (\"_ ⊕ _\" [65, 66] 65)") {
        CommandKind::Datatype(ds) => {
            assert_eq!(ds.len(), 2);
            assert_eq!(ds[0].ctors.len(), 2);
            assert_eq!(ds[0].ctors[1].args.len(), 2);
            assert_eq!(ds[1].params[0].sort.len(), 2);
            assert_eq!(ds[1].ctors[0].args.len(), 1);
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(one("datatype bst = E | T bst nat bst"), CommandKind::Datatype(_)));
    match one("datatype 'a l = N | C (hd: 'a) (tl: \"'a l\")\n  for map: map_l rel: rel_l") {
        CommandKind::Datatype(ds) => assert_eq!(ds[0].ctors.len(), 2),
        other => panic!("{other:?}"),
    }
}

#[test]
fn type_synonyms() {
    match one("type_synonym card = \"key × key\"") {
        CommandKind::TypeSynonym { params, name, rhs } => {
            assert!(params.is_empty());
            assert_eq!(name.name, "card");
            assert_eq!(ty_sexp(&rhs), "(prod key key)");
        }
        other => panic!("{other:?}"),
    }
    match one("type_synonym ('a, 'b) m = \"'a ⇒ 'b option\"") {
        CommandKind::TypeSynonym { params, .. } => assert_eq!(params.len(), 2),
        other => panic!("{other:?}"),
    }
    assert!(matches!(one("type_synonym 'a s = \"'a list\""), CommandKind::TypeSynonym { .. }));
}

#[test]
fn functions() {
    match one("primrec f :: \"nat ⇒ nat\" where\n  \"f 0 = 0\"\n| \"f (Suc n) = f n\"") {
        CommandKind::Fun { kind, consts, equations } => {
            assert_eq!(kind, FunKind::Primrec);
            assert_eq!(consts.len(), 1);
            assert_eq!(consts[0].name.name, "f");
            assert_eq!(consts[0].ty.as_ref().map(ty_sexp).as_deref(), Some("(⇒ nat nat)"));
            assert_eq!(eq_sexps(&equations), vec!["(= (f 0) 0)", "(= (f (Suc n)) (f n))"]);
        }
        other => panic!("{other:?}"),
    }
    match one("fun f where \"f x = x\"") {
        CommandKind::Fun { kind, consts, .. } => {
            assert_eq!(kind, FunKind::Fun);
            assert_eq!(consts[0].ty, None);
        }
        other => panic!("{other:?}"),
    }
    match one(
        "function (sequential) ev :: \"nat ⇒ bool\" and od :: \"nat ⇒ bool\" (\"odd\") where\n  e0: \"ev 0 = True\"\n| e1[simp]: \"ev (Suc n) = od n\"\n| [simp]: ‹od 0 = False›\n| \"od (Suc n) = ev n\"",
    ) {
        CommandKind::Fun { kind, consts, equations } => {
            assert_eq!(kind, FunKind::Function);
            assert_eq!(consts.len(), 2);
            assert_eq!(eq_sexps(&equations), vec![
                "e0: (= (ev 0) True)",
                "e1: (= (ev (Suc n)) (od n))",
                "(= (od 0) False)",
                "(= (od (Suc n)) (ev n))"
            ]);
        }
        other => panic!("{other:?}"),
    }
    match one("fun plus' :: \"nat ⇒ nat ⇒ nat\" (infixl \"⊕\" 65) where \"plus' a b = a + b\"") {
        CommandKind::Fun { consts, .. } => assert!(consts[0].ty.is_some()),
        other => panic!("{other:?}"),
    }
}

#[test]
fn definitions() {
    match one("definition f :: \"nat ⇒ nat\" where \"f x = x + 1\"") {
        CommandKind::Definition { decl: Some(d), equation } => {
            assert_eq!(d.name.name, "f");
            assert_eq!(sexp(&equation.term), "(= (f x) (+ x 1))");
        }
        other => panic!("{other:?}"),
    }
    match one("definition \"g ≡ λx. x\"") {
        CommandKind::Definition { decl: None, equation } => assert_eq!(sexp(&equation.term), "(≡ g (λ [x] x))"),
        other => panic!("{other:?}"),
    }
    match one("definition h where h_def: \"h = 0\"") {
        CommandKind::Definition { decl: Some(d), equation } => {
            assert_eq!(d.ty, None);
            assert_eq!(equation.name.map(|n| n.name).as_deref(), Some("h_def"));
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        one("abbreviation (input) sq where \"sq x ≡ x * x\""),
        CommandKind::Definition { decl: Some(_), .. }
    ));
}

#[test]
fn inductives() {
    match one("inductive ev :: \"nat ⇒ bool\" where\n  zero: \"ev 0\"\n| step: \"ev n ⟹ ev (Suc (Suc n))\"") {
        CommandKind::Inductive { consts, intros } => {
            assert_eq!(consts[0].name.name, "ev");
            assert_eq!(eq_sexps(&intros), vec!["zero: (ev 0)", "step: (⟹ (ev n) (ev (Suc (Suc n))))"]);
        }
        other => panic!("{other:?}"),
    }
}

fn lemma_of(k: CommandKind) -> Lemma {
    match k {
        CommandKind::Lemma(l) => l,
        other => panic!("{other:?}"),
    }
}

#[test]
fn lemmas() {
    let l = lemma_of(one("lemma \"A ⟹ B\""));
    assert_eq!((l.kind, l.name.is_none(), l.shows.len()), (LemmaKind::Lemma, true, 1));
    let l = lemma_of(one("theorem foo: \"A\""));
    assert_eq!((l.kind, l.name.map(|n| n.name)), (LemmaKind::Theorem, Some("foo".to_string())));
    let l = lemma_of(one("corollary foo[simp]: ‹A›"));
    assert_eq!(l.kind, LemmaKind::Corollary);
    assert_eq!(l.name.map(|n| n.name).as_deref(), Some("foo"));
    let l = lemma_of(one("proposition foo [simp, intro!]: \"A\" \"B\" and \"C\""));
    assert_eq!((l.kind, l.shows.len()), (LemmaKind::Proposition, 3));
    let l = lemma_of(one("lemma [simp]: \"A\""));
    assert!(l.name.is_none() && !l.code);
    let l = lemma_of(one("lemma rev_code [simp, code]: \"A\""));
    assert!(l.code);
    let l = lemma_of(one("lemma [code]: \"A\""));
    assert!(l.name.is_none() && l.code);
    for not_code in ["lemma a [code del]: \"A\"", "lemma a [code_unfold]: \"A\"", "lemma a: \"A\""] {
        assert!(!lemma_of(one(not_code)).code, "{not_code}");
    }
    let l = lemma_of(one("lemma foo:\n  fixes x :: \"nat\" and y\n  assumes a1: \"x > 0\" and \"y > 0\" \"x < y\"\n  shows \"x < y + 1\" and c: \"y > 0\""));
    assert_eq!(
        l.fixes.iter().map(|f| (f.name.name.as_str(), f.ty.is_some())).collect::<Vec<_>>(),
        vec![("x", true), ("y", false)]
    );
    assert_eq!(eq_sexps(&l.assumes), vec!["a1: (> x 0)", "(> y 0)", "(< x y)"]);
    assert_eq!(l.shows.iter().map(sexp).collect::<Vec<_>>(), vec!["(< x (+ y 1))", "(> y 0)"]);
    let l = lemma_of(one("lemma assumes \"A\" shows \"B\""));
    assert_eq!((l.assumes.len(), l.shows.len()), (1, 1));
    let l = lemma_of(one("lemma shows \"B\""));
    assert_eq!(l.shows.len(), 1);
    let l = lemma_of(one("lemma fixes x y :: nat shows \"x + y = y + x\""));
    assert_eq!(l.fixes.len(), 2);
    assert!(l.fixes.iter().all(|f| f.ty.is_some()));
    let l = lemma_of(one("lemma \"P x\" for x :: nat"));
    assert_eq!(l.fixes.len(), 1);
}

fn opts(os: &[QcOption]) -> Vec<String> {
    os.iter()
        .map(|o| match &o.value {
            Some(v) => format!("{}={}", o.name.name, v.name),
            None => o.name.name.clone(),
        })
        .collect()
}

#[test]
fn quickcheck_declare_value() {
    let cs = cmds(
        "lemma \"A\"\n  quickcheck[random, size = 5, timeout = 2.5, expect = counterexample, default_type = \"int\"]\n  quickcheck\n  quickcheck []\n  oops\nquickcheck_params[exhaustive]\ndeclare [[quickcheck_size = 10, quickcheck_timeout = 3]]\ndeclare foo.simps [simp]\nvalue \"rev [1, 2 :: nat]\"\nvalue [code] \"x\"",
    );
    let shapes: Vec<String> = cs
        .iter()
        .map(|c| match c {
            CommandKind::Lemma(_) => "lemma".to_string(),
            CommandKind::Quickcheck(o) => format!("qc{:?}", opts(o)),
            CommandKind::QuickcheckParams(o) => format!("qcp{:?}", opts(o)),
            CommandKind::Declare(o) => format!("declare{:?}", opts(o)),
            CommandKind::Value(t) => format!("value {}", sexp(t)),
            CommandKind::Proof => "proof".to_string(),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        shapes,
        vec![
            "lemma",
            "qc[\"random\", \"size=5\", \"timeout=2.5\", \"expect=counterexample\", \"default_type=int\"]",
            "qc[]",
            "qc[]",
            "proof",
            "qcp[\"exhaustive\"]",
            "declare[\"quickcheck_size=10\", \"quickcheck_timeout=3\"]",
            "declare[]",
            "value (rev [1 (:: 2 nat)])",
            "value x",
        ]
    );
}

#[test]
fn proofs_text_and_unsupported() {
    let cs = cmds(
        "text ‹some text with lemma inside›\nsection \"S\"\nlemma \"A\"\n  apply (induct xs arbitrary: ys)\n   apply (auto simp: foo)\n  done\nlemma \"B\"\nproof (cases x)\n  case Nil\n  then show ?thesis by simp\nnext\n  case (Cons y ys)\n  have \"P\" using assms by blast\n  thus ?thesis ..\nqed\nlemma \"C\" by (induct fs arbitrary: x) simp_all\nlocale foo = fixes R assumes \"R x\"\ntypedecl point\nlemmas foo = bar baz\nsubsection \\<open>x\\<close> \\<comment> \\<open>note\\<close>",
    );
    let shapes: Vec<String> = cs
        .iter()
        .map(|c| match c {
            CommandKind::Lemma(_) => "lemma".to_string(),
            CommandKind::Proof => "proof".to_string(),
            CommandKind::Text => "text".to_string(),
            CommandKind::Unsupported(id) => format!("unsupported {}", id.name),
            CommandKind::Skipped(id) => format!("skipped {}", id.name),
            CommandKind::Locale { keyword, .. } => format!("unsupported {}", keyword.name),
            CommandKind::Declares { keyword, types, .. } => format!("unsupported {} {}", keyword.name, types[0].name),
            other => format!("{other:?}"),
        })
        .collect();
    let want = "text text lemma proof proof proof lemma proof proof proof proof proof proof proof proof proof proof proof proof proof lemma proof unsupported locale unsupported typedecl point skipped lemmas text";
    assert_eq!(shapes.join(" "), want);
}

/// The names each command of a record defines, in order: `datatype T`, `type T`,
/// `fun f`, `definition f`.
fn record_shapes(src: &str) -> Vec<String> {
    let p = parse_theory(&format!("theory T imports Main begin\n{src}\nend\n"));
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    let shape = |c: &CommandKind| match c {
        CommandKind::Datatype(ds) => format!("datatype {}", ds[0].name.name),
        CommandKind::TypeSynonym { name, .. } => format!("type {}", name.name),
        CommandKind::Fun { consts, .. } => format!("fun {}", consts[0].name.name),
        CommandKind::Definition { decl: Some(d), .. } => format!("definition {}", d.name.name),
        other => format!("{other:?}"),
    };
    p.theory.commands.iter().map(|c| shape(&c.kind)).collect()
}

#[test]
fn a_record_is_its_extension_datatype_synonyms_and_update_functions() {
    let p = parse_theory("theory T imports Main begin\nrecord 'a point = xpos :: nat  ypos :: \"'a list\"\nend\n");
    let CommandKind::Datatype(ds) = &p.theory.commands[0].kind else { panic!("{:?}", p.theory.commands) };
    let params: Vec<&str> = ds[0].params.iter().map(|v| v.name.name.as_str()).collect();
    assert_eq!((ds[0].name.name.as_str(), params), ("point_ext", vec!["'a", "'z"]));
    assert_eq!(ds[0].ctors[0].name.name, "⦇xpos, ypos, …⦈");
    let selectors: Vec<&str> =
        ds[0].ctors[0].args.iter().map(|a| a.selector.as_ref().map_or("", |s| s.name.as_str())).collect();
    assert_eq!(selectors, ["xpos", "ypos", "point.more"]);
    assert_eq!(
        record_shapes("record 'a point = xpos :: nat  ypos :: \"'a list\""),
        [
            "datatype point_ext",
            "type point",
            "type point_scheme",
            "fun xpos_update",
            "fun ypos_update",
            "fun point.more_update"
        ]
    );
    // An extension: its own datatype, reached through the parent's rest.
    assert_eq!(
        record_shapes("record point = xpos :: nat\nrecord cpoint = point + colour :: bool"),
        [
            "datatype point_ext",
            "type point",
            "type point_scheme",
            "fun xpos_update",
            "fun point.more_update",
            "datatype cpoint_ext",
            "type cpoint",
            "type cpoint_scheme",
            "fun cpoint_ext.colour_update",
            "fun cpoint_ext.more_update",
            "definition colour",
            "definition colour_update",
            "definition cpoint.more",
            "definition cpoint.more_update",
        ]
    );
    // Record terms: the constructor of the fields, and the update functions.
    assert_eq!(t("⦇xpos = 1, ypos = []⦈"), "(⦇xpos, ypos⦈ 1 [])");
    assert_eq!(t("f r⦇xpos := 2⦈"), "(f (xpos_update (λ [_] 2) r))");
}

#[test]
fn context_blocks_do_not_end_the_theory() {
    // `context begin` fixes nothing: a block, not a command.
    let th = theory(&wrap("context begin\nlemma \"A\" sorry\nend\nlemma \"B\" oops"));
    let kinds: Vec<String> = th.commands.iter().map(|c| format!("{:?}", std::mem::discriminant(&c.kind))).collect();
    assert_eq!(kinds.len(), 4);
    assert!(matches!(th.commands[0].kind, CommandKind::Lemma(_)));
    assert!(matches!(th.commands[2].kind, CommandKind::Lemma(_)));
    // One that fixes something is outside the subset, and still a block.
    let th = theory(&wrap("context fixes x :: nat begin\nlemma \"A\" sorry\nend\nlemma \"B\" oops"));
    assert!(matches!(th.commands[0].kind, CommandKind::Unsupported(_)));
    assert!(matches!(th.commands[3].kind, CommandKind::Lemma(_)));
}

/// Where the commands are in a locale's context: `context l begin`, `locale l ... begin`
/// and `lemma (in l)` say so to the checker (`Target`), and `end` says where the context is
/// the theory's again; an anonymous block keeps the context around it.
#[test]
fn locale_contexts_are_marked() {
    let p = parse_theory(
        "theory T imports Main begin\nlocale a = fixes f :: \"nat ⇒ nat\" assumes \"f x = x\"\n\
         locale b = a + assumes \"f 1 = 1\" begin\nlemma \"f 1 = 1\" oops\nend\n\
         context a begin\ncontext begin\nlemma \"f 1 = 1\" oops\nend\nend\n\
         lemma (in b) l: \"f 0 = 0\" oops\nlemma \"f 0 = 0\" oops\nend\n",
    );
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    let shape = |c: &CommandKind| match c {
        CommandKind::Locale { name, .. } => format!("locale {}", name.name),
        CommandKind::Target(t) => format!("in {}", t.as_ref().map_or("theory", |t| t.name.as_str())),
        CommandKind::Lemma(_) => "lemma".to_string(),
        CommandKind::Proof => "proof".to_string(),
        other => format!("{other:?}"),
    };
    let shapes: Vec<String> = p.theory.commands.iter().map(|c| shape(&c.kind)).collect();
    let want = "locale a, locale b, in b, lemma, proof, in theory, in a, lemma, proof, in theory, \
                in b, lemma, in theory, proof, lemma, proof";
    assert_eq!(shapes.join(", "), want);
}

#[test]
fn header_forms() {
    let th = theory("theory Foo\n  imports Main \"HOL-Library.Multiset\"\nbegin\nend");
    assert_eq!(th.name.name, "Foo");
    assert_eq!(th.imports.iter().map(|i| i.name.as_str()).collect::<Vec<_>>(), vec!["Main", "HOL-Library.Multiset"]);
    let th = theory("(* a comment *) theory Bar begin end");
    assert_eq!(th.name.name, "Bar");
    assert!(th.imports.is_empty());
    // Keyword declarations for ML-defined commands are read and dropped.
    let th = theory(
        "theory Baz\nimports Main\nkeywords \"code_pred\" :: thy_goal and \"values\" :: diag\n  abbrevs \"==>\" = \"⟹\"\nbegin\nend",
    );
    assert_eq!(th.name.name, "Baz");
    assert_eq!(th.imports.iter().map(|i| i.name.as_str()).collect::<Vec<_>>(), vec!["Main"]);
}

// ---------------------------------------------------------------- recovery

/// (line, message) of every diagnostic.
fn diags(text: &str) -> Vec<(usize, String)> {
    let p = parse_theory(text);
    for d in &p.diagnostics {
        let r = d.primary.span.range();
        assert!(r.end <= text.len() && text.is_char_boundary(r.start) && text.is_char_boundary(r.end));
    }
    p.diagnostics.iter().map(|d| (line_of(text, d.primary.span), d.message.clone())).collect()
}

#[test]
fn errors_recover_at_the_next_command() {
    let text = "theory T imports Main begin
fun f :: \"nat ⇒ nat\" where
  \"f 0 = 0\"
| \"f (Suc n) = (f n\"
lemma ok1: \"rev (rev xs) = xs\"
  quickcheck[random]
  oops
lemma bad: \"A ∧ B ⟶\"
  quickcheck[random]
  oops
definition g :: \"nat\" where
lemma ok2: \"x = x\"
value \"[1, 2,, 3]\"
end
";
    assert_eq!(
        diags(text),
        vec![
            (4, "expected `)` or `,`, found the end of the term".to_string()),
            (8, "expected a term, found the end of the term".to_string()),
            (12, "expected one of a name, a string or `[`, found `lemma`".to_string()),
            (13, "expected a term, found `,`".to_string()),
        ]
    );
    let th = parse_theory(text).theory;
    let shapes: Vec<String> = th
        .commands
        .iter()
        .map(|c| match &c.kind {
            CommandKind::Lemma(l) => format!("lemma {}", l.name.as_ref().map_or("", |n| n.name.as_str())),
            CommandKind::Quickcheck(_) => "qc".to_string(),
            CommandKind::Proof => "proof".to_string(),
            other => unparsed(other).unwrap_or_else(|| format!("{other:?}")),
        })
        .collect();
    // The failed lemma's quickcheck is dropped with it; its `oops` stays a proof step. Each
    // command that failed stays as `Unparsed`, with the constants its first words name.
    assert_eq!(
        shapes,
        vec![
            "unparsed fun [f]",
            "lemma ok1",
            "qc",
            "proof",
            "unparsed lemma []",
            "proof",
            "unparsed definition [g]",
            "lemma ok2",
            "unparsed value []"
        ]
    );
}

#[test]
fn unclosed_quote_before_a_command_line() {
    let text = "theory T imports Main begin\ndatatype 'a t = L | N \"'a t\" 'a \"'a t\nfun f :: \"nat ⇒ nat\" where \"f x = x\"\nend\n";
    assert_eq!(diags(text), vec![(2, "unterminated string".to_string())]);
    let th = parse_theory(text).theory;
    // The datatype is kept as unparsed (its constructors cannot be told), the `fun` is read.
    assert_eq!(th.commands.len(), 2);
    assert_eq!(unparsed(&th.commands[0].kind).as_deref(), Some("unparsed datatype ?"));
    assert!(matches!(th.commands[1].kind, CommandKind::Fun { .. }));
}

#[test]
fn header_and_end_problems() {
    assert_eq!(
        diags("theory T imports Main begin\nlemma \"x\"\n"),
        vec![(3, "expected `end` at the end of the theory".to_string())]
    );
    assert_eq!(
        diags("theory T imports Main begin\nend\nlemma \"x\"\n"),
        vec![(3, "unexpected `lemma` after the end of the theory".to_string())]
    );
    assert_eq!(diags("theory T imports Main begin\nend foo\n"), vec![(2, "unexpected `foo` after `end`".to_string())]);
    assert_eq!(diags("lemma \"x\"\nend\n"), vec![(1, "expected `theory`, found `lemma`".to_string())]);
    assert_eq!(
        diags("foo bar\ntheory T imports Main begin\nend\n")[0],
        (1, "expected `theory`, found `foo`".to_string())
    );
    assert_eq!(
        diags("theory imports Main begin\nend\n"),
        vec![(1, "expected a name or a string, found `imports`".to_string())]
    );
    assert_eq!(
        diags("theory T imports Main\nlemma \"x\"\nend\n"),
        vec![(2, "expected one of a name, a string or `begin`, found `lemma`".to_string())]
    );
    // Empty and blank files.
    assert_eq!(diags(""), vec![(1, "expected `theory`, found the end of the file".to_string())]);
    assert_eq!(diags("(* only a comment *)"), vec![(1, "expected `theory`, found the end of the file".to_string())]);
    // An unterminated comment swallows the file: no further complaint about `end`.
    assert_eq!(diags("theory T imports Main begin\n(* unclosed\nend\n"), vec![(2, "unterminated comment".to_string())]);
}

#[test]
fn outer_error_messages() {
    let w = |b: &str| diags(&wrap(b));
    assert_eq!(
        w("lemma foo:\nlemma \"x\""),
        vec![(3, "expected the statement of the lemma, found `lemma`".to_string())]
    );
    assert_eq!(w("datatype = A"), vec![(2, "expected one of a name, a type variable or `(`, found `=`".to_string())]);
    assert_eq!(
        w("fun f :: \"nat\" \"f x = x\""),
        vec![(2, "expected one of `(`, `where` or `and`, found `\"f x = x\"`".to_string())]
    );
    assert_eq!(
        w("quickcheck[random size = 3]"),
        vec![(2, "expected one of `=`, `]` or `,`, found `size`".to_string())]
    );
    assert_eq!(w("lemma \"(x\""), vec![(2, "expected `)` or `,`, found the end of the term".to_string())]);
    assert_eq!(w("lemma \"f x) = y\""), vec![(2, "unbalanced `)`: no `(` is open here".to_string())]);
    assert_eq!(w("lemma \"f x] = y\""), vec![(2, "unbalanced `]`: no `[` is open here".to_string())]);
    assert_eq!(w("value \"''abc''\""), vec![(2, "string literals (`''x''`) are not supported".to_string())]);
    assert_eq!(w("value \"x '' y\""), vec![(2, "string literals (`''x''`) are not supported".to_string())]);
    assert_eq!(w("value \"x ' y\""), vec![(2, "unexpected character `'`".to_string())]);
    assert_eq!(w("lemma \"x ∶ A\""), vec![(2, "unexpected character `∶`".to_string())]);
    assert_eq!(w("lemma \"x \\<foo> A\""), vec![(2, "unknown symbol `\\<foo>`".to_string())]);
    // The error span of an unexpected end is the closing quote.
    let text = wrap("lemma \"(x\"");
    let p = parse_theory(&text);
    let d = &p.diagnostics[0];
    assert_eq!(&text[d.primary.span.range()], "\"");
    assert_eq!(d.primary.span.start as usize, text.rfind('"').unwrap_or(0));
    let text = wrap("lemma ‹(x›");
    let d = parse_theory(&text).diagnostics.remove(0);
    assert_eq!(&text[d.primary.span.range()], "›");
}

// ---------------------------------------------------------------- recovery and command kinds

fn kinds_of(text: &str) -> Vec<String> {
    parse_theory(text)
        .theory
        .commands
        .iter()
        .map(|c| match &c.kind {
            CommandKind::Value(t) => format!("value {}", sexp(t)),
            CommandKind::Ignored(i) => format!("ignored {}", i.name),
            CommandKind::Unsupported(i) => format!("unsupported {}", i.name),
            CommandKind::Skipped(i) => format!("skipped {}", i.name),
            CommandKind::Proof => "proof".to_string(),
            CommandKind::Inductive { .. } => "inductive".to_string(),
            CommandKind::Lemma(_) => "lemma".to_string(),
            other => unparsed(other).unwrap_or_else(|| format!("{other:?}").chars().take(12).collect()),
        })
        .collect()
}

/// `unparsed fun [f, g]` for a command that did not parse, `unparsed datatype ?` when what
/// it defines cannot be told.
fn unparsed(kind: &CommandKind) -> Option<String> {
    let CommandKind::Unparsed { keyword, defines } = kind else { return None };
    Some(match defines {
        Some(names) => {
            let names: Vec<&str> = names.iter().map(|n| n.name.as_str()).collect();
            format!("unparsed {} [{}]", keyword.name, names.join(", "))
        }
        None => format!("unparsed {} ?", keyword.name),
    })
}

#[test]
fn unterminated_comment_keeps_the_command_before_it() {
    let text = wrap("value \"1\"\n(* never closed\nvalue \"2\"");
    assert_eq!(diags(&text), vec![(3, "unterminated comment".to_string())]);
    assert_eq!(kinds_of(&text), vec!["value 1", "value 2"]);
    // Also within a command: the statement before the comment is read.
    let text = wrap("lemma \"x\" (* never closed\nvalue \"2\"");
    assert_eq!(kinds_of(&text), vec!["lemma", "value 2"]);
    let p = parse_theory(&text);
    let d = &p.diagnostics[0];
    assert_eq!(&text[d.primary.span.range()], "(*");
}

#[test]
fn unknown_command_in_the_first_column() {
    let text = wrap("value \"True\"\nfrobnicate x y\nvalue \"False\"");
    assert_eq!(diags(&text), vec![(3, "unknown command `frobnicate`".to_string())]);
    // An unknown command could define anything.
    assert_eq!(kinds_of(&text), vec!["value True", "unparsed frobnicate ?", "value False"]);
    let p = parse_theory(&text);
    assert_eq!(&text[p.diagnostics[0].primary.span.range()], "frobnicate");
    // Keywords and continuation lines in the first column stay with their command.
    let ok = [
        "fun f :: \"nat ⇒ nat\"\nwhere\n  \"f x = x\"",
        "datatype t =\nA | B",
        "datatype t = A\n| B",
        "lemma\nfoo: \"x\"\n  by simp",
        "lemma \"P x\"\nfor x :: nat\n  oops",
        "lemma foo:\nfixes x :: nat\nassumes \"x > 0\"\nshows \"x ≠ 0\"\n  by simp",
        "lemma \"x\"\n  by (simp add:\nfoo)",
        "abbreviation (input)\nfoo :: nat where \"foo ≡ 0\"",
    ];
    for body in ok {
        let text = wrap(body);
        assert!(parse_theory(&text).diagnostics.is_empty(), "{body}: {:?}", diags(&text));
    }
    // After a proof step too.
    let text = wrap("lemma \"x\"\n  by simp\nfrobnicate\nvalue \"1\"");
    assert_eq!(diags(&text), vec![(4, "unknown command `frobnicate`".to_string())]);
    assert_eq!(kinds_of(&text), vec!["lemma", "proof", "unparsed frobnicate ?", "value 1"]);
}

#[test]
fn ignored_commands_and_code_pred() {
    let text = wrap("lemma \"x\"\n  nitpick\n  sledgehammer\n  oops\nthm foo\nterm \"x\"\nprint_theorems\nfind_theorems \"_ + _\"\nexport_code f in Haskell");
    assert_eq!(
        kinds_of(&text),
        vec![
            "lemma",
            "ignored nitpick",
            "ignored sledgehammer",
            "proof",
            "ignored thm",
            "ignored term",
            "ignored print_theorems",
            "ignored find_theorems",
            "ignored export_code"
        ]
    );
    assert!(parse_theory(&text).diagnostics.is_empty());
    let text = wrap("inductive ev :: \"nat ⇒ bool\" where\n  \"ev 0\"\ncode_pred ev .\nvalue \"ev 4\"");
    assert!(parse_theory(&text).diagnostics.is_empty(), "{:?}", diags(&text));
    assert_eq!(kinds_of(&text), vec!["inductive", "proof", "proof", "value (ev 4)"]);
    // A theory may be named like a command.
    let th = theory("theory code_pred imports Main begin\nend\n");
    assert_eq!(th.name.name, "code_pred");
}

#[test]
fn byte_order_mark_is_skipped() {
    let text = format!("\u{feff}{}", wrap("value \"1\""));
    assert_eq!(kinds_of(&text), vec!["value 1"]);
    assert!(parse_theory(&text).diagnostics.is_empty());
}

// ---------------------------------------------------------------- term forms

#[test]
fn lambda_body_takes_the_constraint() {
    assert_eq!(t("λ_. 0::nat"), t("λ_. (0::nat)"));
    assert_eq!(t("(λ_. 0::nat)"), t("(λ_. (0::nat))"));
    assert_eq!(t("map (λx. x + 1::nat) xs"), t("map (λx. (x + 1::nat)) xs"));
    assert_eq!(t("λx. λy. y::nat"), t("λx. λy. (y::nat)"));
    assert_eq!(t("f ∘ λx. x::nat"), t("f ∘ λx. (x::nat)"));
    // A parenthesised λ is closed: the constraint is on it.
    assert_eq!(t("(λ_. 0) :: nat ⇒ nat"), t("((λ_. 0) :: nat ⇒ nat)"));
    assert!(t("(λ_. 0) :: nat ⇒ nat").contains("λ"));
    let s = "(λ_. 0) :: nat ⇒ nat";
    let term = parse_term(s, 0).unwrap_or_else(|d| panic!("{}", d.message));
    assert!(matches!(term.kind, TermKind::Typed(..)));
    // ∀, ∃, if and let bodies have priority 10 in Isabelle: the constraint is outside.
    let term = parse_term("∀x. P x :: bool", 0).unwrap_or_else(|d| panic!("{}", d.message));
    assert!(matches!(term.kind, TermKind::Typed(..)));
    // The λ's span reaches the end of the type.
    let s = "λ_. 0::nat";
    let term = parse_term(s, 0).unwrap_or_else(|d| panic!("{}", d.message));
    assert_eq!(term.span, Span::new(0, s.len()));
    match &term.kind {
        TermKind::Lambda(_, b) => {
            assert!(matches!(b.kind, TermKind::Typed(..)));
            assert_eq!(&s[b.span.range()], "0::nat");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn list_update_syntax() {
    assert_eq!(t("xs[i := x]"), "(list_update xs i x)");
    assert_eq!(t("xs[i := x, j := y]"), "(list_update (list_update xs i x) j y)");
    // The update binds tighter than application, as in Isabelle.
    assert_eq!(t("f xs[0 := 1]"), "(f (list_update xs 0 1))");
    assert_eq!(t("(f xs)[0 := 1]"), "(list_update (f xs) 0 1)");
    assert_eq!(t("[1, 2][0 := 3] ! 0"), t("(list_update [1, 2] 0 3) ! 0"));
    // A list argument is still a list argument.
    assert_eq!(t("f [i]"), "(f [i])");
    let s = "xs[i := x]";
    let term = parse_term(s, 0).unwrap_or_else(|d| panic!("{}", d.message));
    assert_eq!(term.span, Span::new(0, s.len()));
}

#[test]
fn bounded_quantifiers_with_greater() {
    assert_eq!(t("∀x>n. P x"), t("∀x. x > n ⟶ P x"));
    assert_eq!(t("∀x≥n. P x"), t("∀x. x ≥ n ⟶ P x"));
    assert_eq!(t("∃x>n. P x"), t("∃x. x > n ∧ P x"));
    assert_eq!(t("∃x≥n. P x"), t("∃x. x ≥ n ∧ P x"));
    assert_eq!(t("∀x>2. ∃y≥x. y = x"), t("∀x. x > 2 ⟶ (∃y. y ≥ x ∧ y = x)"));
}

#[test]
fn set_intervals() {
    // Comprehensions over a variable no theory can write (`·x`), so `{x..y}` captures nothing.
    for (interval, compr) in [
        ("{m..<n}", "{x. m ≤ x ∧ x < n}"),
        ("{m..n}", "{x. m ≤ x ∧ x ≤ n}"),
        ("{m<..n}", "{x. m < x ∧ x ≤ n}"),
        ("{m<..<n}", "{x. m < x ∧ x < n}"),
        ("{..<n}", "{x. x < n}"),
        ("{..n}", "{x. x ≤ n}"),
        ("{m..}", "{x. m ≤ x}"),
        ("{m<..}", "{x. m < x}"),
        ("{a..<3::nat}", "{x. a ≤ x ∧ x < (3::nat)}"),
    ] {
        assert_eq!(t(interval), t(compr).replace('x', "·x"), "{interval}");
    }
    let s = "{..<n}";
    let term = parse_term(s, 0).unwrap_or_else(|d| panic!("{}", d.message));
    assert_eq!(term.span, Span::new(0, s.len()));
}

#[test]
fn precise_messages_for_common_mistakes() {
    let w = |b: &str| diags(&wrap(b));
    assert_eq!(
        w("fun f :: \"nat ⇒ nat\" where\n  \"f 0 = 0\" |\nvalue \"1\""),
        vec![(4, "expected another equation after `|`, found `value`".to_string())]
    );
    assert_eq!(
        w("fun g :: \"nat ⇒ nat\" where\n| \"g n = n\""),
        vec![(3, "unexpected `|` before the first equation".to_string())]
    );
    assert_eq!(
        w("lemma assumes \"A\"\n  oops"),
        vec![(3, "expected `shows` and the statement, found `oops`".to_string())]
    );
    assert_eq!(w("lemma foo:\n  oops"), vec![(3, "expected the statement of the lemma, found `oops`".to_string())]);
    // A file without a theory header says so.
    assert_eq!(diags("(* nothing *)\n"), vec![(1, "expected `theory`, found the end of the file".to_string())]);
}

#[test]
fn inductive_with_fixed_parameters() {
    let k = one(
        "inductive star :: \"('a ⇒ 'a ⇒ bool) ⇒ 'a ⇒ 'a ⇒ bool\" for r :: \"'a ⇒ 'a ⇒ bool\" where\n  refl: \"star r x x\"\n| \"r x y ⟹ star r y z ⟹ star r x z\"",
    );
    match k {
        CommandKind::Inductive { consts, intros } => {
            assert_eq!(consts.len(), 1);
            assert_eq!(consts[0].name.name, "star");
            assert_eq!(eq_sexps(&intros).len(), 2);
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(one("inductive p :: \"nat ⇒ bool\" for f where \"p 0\""), CommandKind::Inductive { .. }));
}

// ---------------------------------------------------------------- legacy and library syntax

#[test]
fn meta_forall_binds_over_meta_implication() {
    assert_eq!(t("⋀x. P x ⟹ Q x"), t("⋀x. (P x ⟹ Q x)"));
    assert_eq!(t("!!x y. [| A x; B y |] ==> C"), t("⋀x y. ⟦A x; B y⟧ ⟹ C"));
    assert_eq!(t("\\<And>x. A ⟹ ⋀y. B"), t("⋀x. (A ⟹ (⋀y. B))"));
    // Inside a term (after `∧`) the meta binder needs parentheses, as in Isabelle.
    assert!(parse_term("P ∧ ⋀x. Q", 0).is_err());
    assert_eq!(t("P ∧ (⋀x. Q x)"), t("P ∧ (∀x. Q x)"));
}

#[test]
fn legacy_op_is_an_operator_section() {
    assert_eq!(t("op + 1"), t("(+) 1"));
    assert_eq!(t("map (op =) xs"), t("map (=) xs"));
    assert_eq!(t("op ∘ f g"), t("(∘) f g"));
    assert_eq!(t("op o"), t("(∘)"));
    assert_eq!(t("op | a"), t("(∨) a"));
    assert_eq!(t("op --> a b"), t("(⟶) a b"));
    // Not before an operator, `op` is a name.
    assert_eq!(t("op x"), "(op x)");
    assert_eq!(t("f op"), "(f op)");
    // A text where `op` is a variable somewhere reads every `op` as that variable.
    assert_eq!(t("op = Plus ⟹ eval (BinOp op a b) = 0"), t("(op) = Plus ⟹ eval (BinOp (op) a b) = 0"));
    assert_eq!(super::inner_lexer::first_legacy_op("case op of Plus ⇒ op = x", 0), None);
    assert_eq!(
        super::inner_lexer::first_legacy_op("f x (op + 1)", 10),
        Some(Span::new(10 + "f x (".len(), 10 + "f x (op".len()))
    );
    assert_eq!(super::inner_lexer::first_legacy_op("f op x", 0), None);
}

#[test]
fn tree_notation() {
    assert_eq!(t("⟨⟩"), "Leaf");
    assert_eq!(t("⟨l, x, r⟩"), "(Node l x r)");
    assert_eq!(t("\\<langle>\\<langle>\\<rangle>, f x, ⟨⟩\\<rangle>"), "(Node Leaf (f x) Leaf)");
    // The names span the `⟨`, which tells the checker the notation was used.
    let src = "⟨a, b, c⟩";
    let term = parse_term(src, 0).expect("parses");
    let (head, args) = term.spine();
    assert_eq!(&src[head.span.range()], "⟨");
    assert_eq!(args.len(), 3);
    assert_eq!(&src[term.span.range()], src);
    assert_eq!(err("⟨a, b⟩").0, "expected `,`, found `⟩`");
}

fn warnings(text: &str) -> Vec<(String, String)> {
    parse_theory(text)
        .diagnostics
        .iter()
        .map(|d| (d.message.clone(), text[d.primary.span.range()].to_string()))
        .collect()
}

#[test]
fn legacy_outer_syntax_is_read_and_reported_once() {
    let text = "header {* H *}\ntheory T imports Main begin\ntypes 'a s = \"'a list\" t = nat\nfun f :: \"nat ⇒ nat\" where\n  \"f x = x\" -- \"c\"\nlemma \"f (op + 1 2) = 3\" -- {* c *} -- ‹c›\n  by simp\ntext {* more *}\nheader ‹again›\nend\n";
    let p = parse_theory(text);
    let kinds: Vec<String> =
        p.theory.commands.iter().map(|c| format!("{:?}", c.kind).chars().take(11).collect()).collect();
    assert_eq!(kinds, ["Text", "TypeSynonym", "TypeSynonym", "Fun { kind:", "Lemma(Lemma", "Proof", "Text", "Text"]);
    let ws = warnings(text);
    let spots: Vec<&str> = ws.iter().map(|(_, s)| s.as_str()).collect();
    assert_eq!(spots, ["header", "{* H *}", "types", "--", "op"]);
    assert!(ws.iter().all(|(m, _)| m.starts_with("legacy syntax: ")));
    // A `--` before no text stays in the command, where it is an error.
    let ws = warnings("theory T imports Main begin\nvalue \"1\" --\nend\n");
    assert_eq!(ws.len(), 1, "{ws:?}");
    assert_eq!(ws[0].1, "--");
}

#[test]
fn legacy_command_words_are_names_inside_commands() {
    let cs = cmds("fun header :: \"nat ⇒ nat\" where \"header n = n\"\ndefinition types :: nat where \"types = 1\"");
    assert_eq!(cs.len(), 2);
    assert!(matches!(&cs[0], CommandKind::Fun { consts, .. } if consts[0].name.name == "header"));
    assert!(matches!(&cs[1], CommandKind::Definition { decl: Some(d), .. } if d.name.name == "types"));
}

#[test]
fn skipped_commands_note_once_per_kind() {
    let text = wrap(
        "lemmas a = b\nlemmas c = d\nML ‹val x = \"lemma\"›\nbundle b begin\ntype_notation t (\"T\")\nend\nlemma \"A\" oops",
    );
    let p = parse_theory(&text);
    let notes: Vec<(String, Vec<String>)> = p
        .diagnostics
        .iter()
        .map(|d| {
            assert_eq!(d.severity, crate::diagnostic::Severity::Info);
            (d.message.clone(), d.notes.clone())
        })
        .collect();
    assert_eq!(notes[0].0, "`lemmas` is skipped");
    assert_eq!(notes[0].1[0], "1 more `lemmas` command in this file skipped as well");
    let names: Vec<&str> = notes.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(names, ["`lemmas` is skipped", "`ML` is skipped", "`bundle` is skipped", "`type_notation` is skipped"]);
    // The bundle's `end` does not end the theory: the lemma after it is read.
    assert!(p.theory.commands.iter().any(|c| matches!(c.kind, CommandKind::Lemma(_))));
}

#[test]
fn mistyped_command_suggests_and_drops_its_quickcheck() {
    let text = wrap("lemma a: \"A\" oops\nlema b: \"B\"\n  quickcheck\n  oops");
    let p = parse_theory(&text);
    assert_eq!(p.diagnostics.len(), 1);
    assert_eq!(p.diagnostics[0].message, "unknown command `lema`");
    assert_eq!(p.diagnostics[0].help, ["did you mean `lemma`?"]);
    assert!(!p.theory.commands.iter().any(|c| matches!(c.kind, CommandKind::Quickcheck(_))));
    // Far from every command: no suggestion.
    let p = parse_theory(&wrap("frobnicate x"));
    assert!(p.diagnostics[0].help.is_empty());
    // A quickcheck after a command that failed to parse is dropped too.
    let p = parse_theory(&wrap("lemma a: \"A\" oops\nfun f where \"f x = \"\nquickcheck"));
    assert!(!p.theory.commands.iter().any(|c| matches!(c.kind, CommandKind::Quickcheck(_))));
}

// ---------------------------------------------------------------- relation and map notations

#[test]
fn closures_and_converse_in_every_spelling() {
    let groups: &[(&[&str], &str)] = &[
        (&["r⇧+", "r\\<^sup>+", "r^+"], "(r ⇧+)"),
        (&["r⇧*", "r\\<^sup>*", "r^*"], "(r ⇧*)"),
        (&["r⇧=", "r\\<^sup>=", "r^="], "(r ⇧=)"),
        (&["r¯", "r\\<inverse>", "r^-1"], "(r ¯)"),
        (&["r⇧+⇧+", "r\\<^sup>+\\<^sup>+", "r^++"], "(r ⇧+⇧+)"),
        (&["r⇧*⇧*", "r\\<^sup>*\\<^sup>*", "r^**"], "(r ⇧*⇧*)"),
        (&["r⇧=⇧=", "r\\<^sup>=\\<^sup>=", "r^=="], "(r ⇧=⇧=)"),
        (&["r¯¯", "r\\<inverse>\\<inverse>", "r^--1"], "(r ¯¯)"),
    ];
    for (spellings, want) in groups {
        for s in *spellings {
            assert_eq!(t(s), *want, "spelling {s}");
        }
    }
}

#[test]
fn postfix_operators_bind_tightest_and_take_an_atom() {
    let cases = [
        // (_⇧*) [1000] 999: above every infix operator.
        ("(a, b) ∈ r⇧*", "(∈ (tuple a b) (r ⇧*))"),
        ("r⇧* O s¯", "(O (r ⇧*) (s ¯))"),
        ("r⇧+ ∪ s⇧=", "(∪ (r ⇧+) (s ⇧=))"),
        ("- r⇧*", "(neg (r ⇧*))"),
        ("xs ! i⇧*", "(! xs (i ⇧*))"),
        // Atoms: names, brackets, sets, parenthesised terms.
        ("(r O s)¯", "((O r s) ¯)"),
        ("(f r)⇧*", "((f r) ⇧*)"),
        ("f (r⇧*)", "(f (r ⇧*))"),
        ("(r¯)⇧*", "((r ¯) ⇧*)"),
        ("{(a, b)}⇧+", "({(tuple a b)} ⇧+)"),
    ];
    for (src, want) in cases {
        assert_eq!(t(src), want, "{src}");
    }
    // An application or a postfix term is not an operand: Isabelle rejects both.
    let (msg, at) = err("f r⇧*");
    assert_eq!((msg.as_str(), at.as_str()), ("`⇧*` cannot follow an application without parentheses", "⇧*"));
    let (msg, at) = err("r¯⇧*");
    assert_eq!((msg.as_str(), at.as_str()), ("`⇧*` cannot follow `¯` without parentheses", "⇧*"));
    // Nor may a postfix term be applied.
    assert!(parse_term("r⇧* x", 0).is_err());
}

#[test]
fn relcomp_and_map_add_have_isabelles_priorities() {
    let cases = [
        // relcomp: infixr 75, tighter than `∪` (65) and `∩` (70).
        ("r O s O t", "(O r (O s t))"),
        ("r O s ∪ t", "(∪ (O r s) t)"),
        ("r ∩ s O t", "(∩ r (O s t))"),
        ("x ∈ r O s", "(∈ x (O r s))"),
        ("r OO s", "(OO r s)"),
        // map_add: infixl 100; application binds tighter.
        ("m1 ++ m2 ++ m3", "(++ (++ m1 m2) m3)"),
        ("f m1 ++ g m2", "(++ (f m1) (g m2))"),
        ("(m1 ++ m2) x", "((++ m1 m2) x)"),
        ("(++)", "(λ [x y] (++ x y))"),
        ("(O)", "(λ [x y] (O x y))"),
    ];
    for (src, want) in cases {
        assert_eq!(t(src), want, "{src}");
    }
    // `O` is a delimiter, as in Isabelle with Main: never a name.
    assert!(parse_term("f O", 0).is_err());
    assert_eq!(t("Ok O Oa"), "(O Ok Oa)");
}

/// `¦x¦` is `abs x`: each bar read as opening or closing by what stands before it.
#[test]
fn absolute_value_bars() {
    assert_eq!(t("¦a¦ + ¦b - c¦"), t("abs a + abs (b - c)"));
    assert_eq!(t("f ¦x¦ y"), t("f (abs x) y"));
    assert_eq!(t("\\<bar>x\\<bar> ≤ ¦(x::int)¦ * 2"), t("abs x ≤ abs (x::int) * 2"));
    assert_eq!(t("¦¦x¦ - 1¦"), t("abs (abs x - 1)"));
}
