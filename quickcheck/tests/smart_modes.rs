//! Mode analysis (`quickcheck::smart::modes`) on small relations, and the plans run
//! (`quickcheck::smart::enumerate`): the data flow chosen for
//! `sorted` run backwards (lists built from a sorted tail, the head generated and checked),
//! `append` splitting a known list, and `length` building lists of a known length.

use lang::core::horn::Rel;
use lang::core::ir::FunId;
use quickcheck::smart::modes::{print_plans, Mode, Modes};

/// Functions over lists (`sorted'`, `app`, `len`, `hd'`), shared with `lang`'s Horn clause test.
pub(crate) const THEORY: &str = include_str!("../../tests/support/relations.thy");

fn plans_of(name: &str, mode: Mode) -> String {
    let th = lang::check_theory(THEORY);
    let c = th.lower_conjecture(0, &[]);
    let f = (0..c.program.funs.len()).map(|i| FunId(i as u32)).find(|f| c.program.fun(*f).name == name).unwrap();
    let mut modes = Modes::new(&c.program);
    let plans = modes.plans(Rel::Fun(f), mode).expect("a plan").to_vec();
    print_plans(&c.program, Rel::Fun(f), mode, &plans)
}

#[test]
fn sorted_backwards_builds_from_a_sorted_tail() {
    let text = plans_of("sorted'", Mode(0b10));
    assert_eq!(text, "\
sorted'[o, i]:
  clause 1: match v5 = True; build v0 = Nil
  clause 2: match v5 = True; build v2 = Nil; generate v1; build v0 = Cons(v1, v2)
  clause 3: sorted'[o, i](Cons(v3, v4), v5); build v2 = Cons(v3, v4); generate v1; True := le[nat](v1, v3); build v0 = Cons(v1, v2)
  clause 4: match v5 = False; generate v1; generate v3; False := le[nat](v1, v3); generate v4; build v2 = Cons(v3, v4); build v0 = Cons(v1, v2)
");
}

#[test]
fn append_backwards_splits_a_known_list() {
    let text = plans_of("app", Mode(0b100));
    assert_eq!(
        text,
        "\
app[o, o, i]:
  clause 1: match v4 = v1; build v0 = Nil
  clause 2: match v4 = Cons(v2, v5); app[o, o, i](v3, v1, v5); build v0 = Cons(v2, v3)
"
    );
}

#[test]
fn length_backwards_builds_lists_of_that_length() {
    let text = plans_of("len", Mode(0b10));
    assert_eq!(
        text,
        "\
len[o, i]:
  clause 1: match v3 = 0; build v0 = Nil
  clause 2: match v3 = Suc(v4); len[o, i](v2, v4); generate v1; build v0 = Cons(v1, v2)
"
    );
}

mod enumerate {
    //! The plans run (`quickcheck::smart::enumerate`): what they produce is exactly what
    //! brute force over the same element values finds.

    use super::THEORY;
    use lang::core::ir::{FunId, Program, Ty};
    use lang::interp::{Limits, Value};
    use quickcheck::smart::enumerate::{Enumerator, Flow};
    use quickcheck::smart::modes::Mode;
    use quickcheck::space::Spaces;
    use std::collections::BTreeSet;

    fn program() -> Program {
        lang::check_theory(THEORY).lower_conjecture(0, &[]).program
    }

    fn fun(p: &Program, name: &str) -> FunId {
        (0..p.funs.len()).map(|i| FunId(i as u32)).find(|f| p.fun(*f).name == name).unwrap()
    }

    fn list(xs: &[Value]) -> Value {
        xs.iter().rev().fold(Value::nullary(0), |t, x| Value::ctor(1, vec![x.clone(), t]))
    }

    /// Every list of at most `n` elements drawn from `elems`.
    fn lists(elems: &[Value], n: usize) -> Vec<Vec<Value>> {
        let mut out = vec![vec![]];
        let mut last = vec![vec![]];
        for _ in 0..n {
            last = last.iter().flat_map(|l| elems.iter().map(move |e| [l.clone(), vec![e.clone()]].concat())).collect();
            out.extend(last.clone());
        }
        out
    }

    fn produced(p: &Program, name: &str, mode: Mode, args: &[Option<Value>], depth: u32) -> Vec<Vec<Value>> {
        let e = Enumerator::new(p, lang::core::horn::Rel::Fun(fun(p, name)), mode).expect("a plan");
        let mut out = Vec::new();
        e.session().run(lang::core::horn::Rel::Fun(fun(p, name)), mode, args, depth, &|| false, &mut |t| {
            out.push(t.to_vec());
            Flow::Continue
        });
        out
    }

    #[test]
    fn sorted_lists_exactly() {
        let p = program();
        let space = Spaces::new(&p).space(&Ty::Nat, 3).unwrap();
        let elems: Vec<Value> = (0..space.count()).map(|i| space.value(i)).collect();
        let mut sizes = Vec::new();
        for depth in 0..4u32 {
            let got = produced(&p, "sorted'", Mode(0b10), &[None, Some(Value::Bool(true))], depth);
            let got_set: BTreeSet<String> = got.iter().map(|t| format!("{:?}", t[0])).collect();
            assert_eq!(got_set.len(), got.len(), "a list produced twice at depth {depth}");
            let want: BTreeSet<String> = lists(&elems, depth as usize + 1)
                .into_iter()
                .map(|l| list(&l))
                .filter(|l| {
                    lang::interp::call(&p, fun(&p, "sorted'"), vec![l.clone()], &Limits::default())
                        == Ok(Value::Bool(true))
                })
                .map(|l| format!("{l:?}"))
                .collect();
            assert_eq!(got_set, want, "depth {depth}");
            sizes.push(got.len());
        }
        // Growing with the depth: sorted lists of at most 1, 2, 3 and 4 elements.
        assert!(sizes.windows(2).all(|w| w[0] < w[1]) && sizes[0] > 1, "{sizes:?}");
        eprintln!("sorted lists by depth: {sizes:?}");
    }

    #[test]
    fn append_splits_and_length_builds() {
        let p = program();
        let zs = list(&[Value::nat(1), Value::nat(2), Value::nat(3)]);
        let splits = produced(&p, "app", Mode(0b100), &[None, None, Some(zs.clone())], 5);
        assert_eq!(splits.len(), 4, "{splits:?}");
        for s in &splits {
            let r = lang::interp::call(&p, fun(&p, "app"), vec![s[0].clone(), s[1].clone()], &Limits::default());
            assert_eq!(r, Ok(zs.clone()));
        }
        let space = Spaces::new(&p).space(&Ty::Nat, 3).unwrap();
        let two = produced(&p, "len", Mode(0b10), &[None, Some(Value::nat(2))], 5);
        assert_eq!(two.len() as u64, space.count() * space.count(), "{two:?}");
    }

    /// Run with every parameter known (the result as output), each function's clauses give
    /// exactly its value, by one clause; nothing where it is undefined (`hd' []`).
    #[test]
    fn clauses_compute_what_the_functions_compute() {
        let p = program();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let mut checked = 0;
        for name in ["sorted'", "app", "len", "hd'"] {
            let f = fun(&p, name);
            let arity = p.fun(f).params.len();
            let mode = Mode((1 << arity) - 1);
            for _ in 0..200 {
                let args: Vec<Value> =
                    (0..arity).map(|_| list(&(0..next(5)).map(|_| Value::nat(next(4))).collect::<Vec<_>>())).collect();
                let want = lang::interp::call(&p, f, args.clone(), &Limits::default()).ok();
                let inputs: Vec<Option<Value>> = args.iter().cloned().map(Some).chain(std::iter::once(None)).collect();
                let got: Vec<Value> =
                    produced(&p, name, mode, &inputs, 0).into_iter().map(|t| t[arity].clone()).collect();
                match &want {
                    Some(w) => assert_eq!(got, vec![w.clone()], "{name} on {args:?}"),
                    None => assert!(got.is_empty(), "{name} on {args:?}: {got:?} where it is undefined"),
                }
                checked += 1;
            }
        }
        assert_eq!(checked, 800);
    }
}
