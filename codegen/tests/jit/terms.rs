//! Random well-typed closed IR terms over `bool`, `nat`, `int`, `nat list`, `nat set` and
//! `nat ⇒ nat`-style functions (literals past 64 bits, arithmetic, comparisons, `If`, `Let`,
//! `Case`, `NatCase`, calls of prelude functions, `Lambda`, `FunRef`, partial and full
//! `Apply`, set operations, quantifiers over sets, comprehensions): the JIT agrees with the
//! interpreter on each.

use crate::common::{check_closed, compare, with_main, with_main_of, Tally};
use crate::gen::Rng;
use lang::core::ir::{Alt, CtorRef, DataId, Expr, FunId, Lit, NumTy, Prim, Program, Quant, Ty, VarId};
use lang::core::print::print_expr;
use lang::interp::{Demand, Hole, Interp, Limits, Value};
use num_bigint::{BigInt, BigUint};

struct G<'p> {
    p: &'p Program,
    list: DataId,
    next_var: u32,
    r: Rng,
}

fn nn() -> Ty {
    Ty::fun(Ty::Nat, Ty::Nat)
}

fn nat_set() -> Ty {
    Ty::Set(Box::new(Ty::Nat))
}

impl G<'_> {
    fn lt(&self) -> Ty {
        Ty::Data(self.list)
    }

    fn fresh(&mut self) -> VarId {
        self.next_var += 1;
        VarId(self.next_var - 1)
    }

    fn supported(&self, t: &Ty) -> bool {
        *t == Ty::Bool
            || *t == Ty::Nat
            || *t == Ty::Int
            || *t == self.lt()
            || *t == nn()
            || *t == Ty::fun(Ty::Nat, nn())
            || *t == nat_set()
    }

    fn nat_lit(&mut self) -> Expr {
        let n: BigUint = match self.r.below(12) {
            0 => BigUint::from(u64::MAX) - BigUint::from(self.r.below(3)),
            1 => BigUint::from(i64::MAX as u64) - BigUint::from(self.r.below(3)),
            _ => BigUint::from(self.r.below(6)),
        };
        Expr::Lit(Lit::Nat(n))
    }

    fn int_lit(&mut self) -> Expr {
        let n: BigInt = match self.r.below(12) {
            0 => BigInt::from(i64::MIN) + BigInt::from(self.r.below(3)),
            1 => BigInt::from(i64::MAX) - BigInt::from(self.r.below(3)),
            _ => BigInt::from(self.r.below(9) as i64 - 4),
        };
        Expr::Lit(Lit::Int(n))
    }

    fn var_of(&mut self, env: &[(VarId, Ty)], t: &Ty) -> Option<Expr> {
        let vs: Vec<VarId> = env.iter().filter(|(_, u)| u == t).map(|(v, _)| *v).collect();
        if vs.is_empty() {
            None
        } else {
            Some(Expr::Var(vs[self.r.below(vs.len() as u64) as usize]))
        }
    }

    fn leaf(&mut self, t: &Ty, env: &[(VarId, Ty)]) -> Expr {
        if self.r.chance(2) {
            if let Some(v) = self.var_of(env, t) {
                return v;
            }
        }
        match t {
            Ty::Bool => Expr::Lit(Lit::Bool(self.r.chance(2))),
            Ty::Nat => self.nat_lit(),
            Ty::Int => self.int_lit(),
            Ty::Fun(a, b) => {
                let v = self.fresh();
                let mut env2 = env.to_vec();
                env2.push((v, (**a).clone()));
                let body = self.leaf(b, &env2);
                Expr::Lambda(vec![(v, (**a).clone())], Box::new(body))
            }
            Ty::Set(e) => Expr::Prim(Prim::SetEmpty((**e).clone()), vec![]),
            _ => Expr::Ctor(CtorRef { data: self.list, tag: 0 }, vec![]),
        }
    }

    fn calls_returning(&self, t: &Ty) -> Vec<FunId> {
        (0..self.p.funs.len())
            .map(|i| FunId(i as u32))
            .filter(|f| {
                let fd = self.p.fun(*f);
                fd.ret == *t && !fd.params.is_empty() && fd.params.iter().all(|(_, u)| self.supported(u))
            })
            .collect()
    }

    fn expr(&mut self, t: &Ty, depth: u32, env: &[(VarId, Ty)]) -> Expr {
        if depth == 0 {
            return self.leaf(t, env);
        }
        let d = depth - 1;
        match self.r.below(12) {
            0 => {
                let c = self.expr(&Ty::Bool, d, env);
                Expr::If(Box::new(c), Box::new(self.expr(t, d, env)), Box::new(self.expr(t, d, env)))
            }
            1 => {
                let u = [Ty::Nat, Ty::Int, self.lt(), nn()][self.r.below(4) as usize].clone();
                let rhs = self.expr(&u, d, env);
                let v = self.fresh();
                let mut env2 = env.to_vec();
                env2.push((v, u.clone()));
                Expr::Let(v, u, Box::new(rhs), Box::new(self.expr(t, d, &env2)))
            }
            2 => {
                let scrut = self.expr(&self.lt(), d, env);
                let (x, xs) = (self.fresh(), self.fresh());
                let mut env2 = env.to_vec();
                env2.push((x, Ty::Nat));
                env2.push((xs, self.lt()));
                let cons = Alt { tag: 1, binders: vec![x, xs], body: self.expr(t, d, &env2) };
                let nil = self.expr(t, d, env);
                let (alts, default) = if self.r.chance(2) {
                    (vec![Alt { tag: 0, binders: vec![], body: nil }, cons], None)
                } else {
                    (vec![cons], Some(Box::new(nil)))
                };
                Expr::Case { scrut: Box::new(scrut), data: self.list, alts, default }
            }
            3 => {
                let scrut = self.expr(&Ty::Nat, d, env);
                let v = self.fresh();
                let zero = self.expr(t, d, env);
                let mut env2 = env.to_vec();
                env2.push((v, Ty::Nat));
                Expr::NatCase {
                    scrut: Box::new(scrut),
                    zero: Box::new(zero),
                    pred: v,
                    succ: Box::new(self.expr(t, d, &env2)),
                }
            }
            4 | 5 => {
                let fs = self.calls_returning(t);
                if fs.is_empty() {
                    return self.specific(t, d, env);
                }
                let f = fs[self.r.below(fs.len() as u64) as usize];
                let ptys: Vec<Ty> = self.p.fun(f).params.iter().map(|(_, u)| u.clone()).collect();
                Expr::Call(f, ptys.iter().map(|u| self.expr(u, d, env)).collect())
            }
            6 if !matches!(t, Ty::Fun(..)) => {
                // (λx. body) a, or a function value applied.
                let f = self.expr(&Ty::fun(Ty::Nat, t.clone()), d, env);
                Expr::Apply(Box::new(f), vec![self.expr(&Ty::Nat, d, env)])
            }
            7 if *t == Ty::Nat || *t == Ty::Bool => {
                let f = self.expr(&Ty::fun(Ty::Nat, nn()), d, env);
                let a = self.expr(&Ty::Nat, d, env);
                let b = self.expr(&Ty::Nat, d, env);
                let f = if *t == Ty::Nat { f } else { return self.specific(t, d, env) };
                Expr::Apply(Box::new(f), vec![a, b])
            }
            _ => self.specific(t, d, env),
        }
    }

    /// Forms specific to the type.
    fn specific(&mut self, t: &Ty, d: u32, env: &[(VarId, Ty)]) -> Expr {
        let lt = self.lt();
        let two = |g: &mut Self, u: &Ty| vec![g.expr(u, d, env), g.expr(u, d, env)];
        match t {
            Ty::Bool => match self.r.below(9) {
                6 => Expr::Prim(
                    Prim::SetMember(Ty::Nat),
                    vec![self.expr(&Ty::Nat, d, env), self.expr(&nat_set(), d, env)],
                ),
                7 => {
                    let ops = [Prim::Eq(nat_set()), Prim::Lt(nat_set()), Prim::Le(nat_set())];
                    Expr::Prim(ops[self.r.below(3) as usize].clone(), two(self, &nat_set()))
                }
                8 => {
                    let domain = self.expr(&nat_set(), d, env);
                    let v = self.fresh();
                    let mut env2 = env.to_vec();
                    env2.push((v, Ty::Nat));
                    let q = [Quant::All, Quant::Ex, Quant::Ex1][self.r.below(3) as usize];
                    let body = self.expr(&Ty::Bool, d, &env2);
                    Expr::Quant { q, var: v, ty: Ty::Nat, domain: Some(Box::new(domain)), body: Box::new(body) }
                }
                4 => {
                    let v = self.fresh();
                    let mut env2 = env.to_vec();
                    env2.push((v, Ty::Bool));
                    let q = [Quant::All, Quant::Ex, Quant::Ex1][self.r.below(3) as usize];
                    let body = self.expr(&Ty::Bool, d, &env2);
                    Expr::Quant { q, var: v, ty: Ty::Bool, domain: None, body: Box::new(body) }
                }
                0 => Expr::Prim(Prim::Not, vec![self.expr(&Ty::Bool, d, env)]),
                1 => {
                    let u = [Ty::Nat, Ty::Int, lt.clone(), Ty::Bool][self.r.below(4) as usize].clone();
                    Expr::Prim(Prim::Eq(u.clone()), two(self, &u))
                }
                2 => {
                    let u = [Ty::Nat, Ty::Int, lt.clone(), Ty::Bool][self.r.below(4) as usize].clone();
                    Expr::Prim(Prim::Lt(u.clone()), two(self, &u))
                }
                3 => {
                    let u = [Ty::Nat, Ty::Int, lt.clone()][self.r.below(3) as usize].clone();
                    Expr::Prim(Prim::Le(u.clone()), two(self, &u))
                }
                _ => self.leaf(t, env),
            },
            Ty::Nat => {
                let op = match self.r.below(8) {
                    0 => Prim::Add(NumTy::Nat),
                    1 => Prim::Sub(NumTy::Nat),
                    2 => Prim::Mul(NumTy::Nat),
                    3 => Prim::Div(NumTy::Nat),
                    4 => Prim::Mod(NumTy::Nat),
                    5 => return Expr::Prim(Prim::Suc, vec![self.expr(&Ty::Nat, d, env)]),
                    6 => return Expr::Prim(Prim::NatOfInt, vec![self.expr(&Ty::Int, d, env)]),
                    _ => return self.leaf(t, env),
                };
                Expr::Prim(op, two(self, &Ty::Nat))
            }
            Ty::Int => {
                let op = match self.r.below(8) {
                    0 => Prim::Add(NumTy::Int),
                    1 => Prim::Sub(NumTy::Int),
                    2 => Prim::Mul(NumTy::Int),
                    3 => Prim::Div(NumTy::Int),
                    4 => Prim::Mod(NumTy::Int),
                    5 => return Expr::Prim(Prim::Neg, vec![self.expr(&Ty::Int, d, env)]),
                    6 => return Expr::Prim(Prim::IntOfNat, vec![self.expr(&Ty::Nat, d, env)]),
                    _ => return self.leaf(t, env),
                };
                Expr::Prim(op, two(self, &Ty::Int))
            }
            Ty::Set(_) => match self.r.below(6) {
                0 => Expr::Prim(Prim::SetInsert(Ty::Nat), vec![self.expr(&Ty::Nat, d, env), self.expr(t, d, env)]),
                1 => Expr::Prim(Prim::SetUnion(Ty::Nat), two(self, t)),
                2 => Expr::Prim(Prim::SetInter(Ty::Nat), two(self, t)),
                3 => Expr::Prim(Prim::SetDiff(Ty::Nat), two(self, t)),
                4 => {
                    let domain = self.expr(t, d, env);
                    let v = self.fresh();
                    let mut env2 = env.to_vec();
                    env2.push((v, Ty::Nat));
                    let body = self.expr(&Ty::Bool, d, &env2);
                    Expr::SetCompr { var: v, ty: Ty::Nat, domain: Some(Box::new(domain)), body: Box::new(body) }
                }
                _ => self.leaf(t, env),
            },
            Ty::Fun(a, b) => match self.r.below(3) {
                0 => {
                    let v = self.fresh();
                    let mut env2 = env.to_vec();
                    env2.push((v, (**a).clone()));
                    let body = self.expr(b, d, &env2);
                    Expr::Lambda(vec![(v, (**a).clone())], Box::new(body))
                }
                1 if **b == Ty::Nat => {
                    // Partial application of a two-argument function.
                    let f = self.expr(&Ty::fun(Ty::Nat, nn()), d, env);
                    Expr::Apply(Box::new(f), vec![self.expr(&Ty::Nat, d, env)])
                }
                _ => {
                    let fs: Vec<FunId> = (0..self.p.funs.len())
                        .map(|i| FunId(i as u32))
                        .filter(|f| {
                            let fd = self.p.fun(*f);
                            let mut u = fd.ret.clone();
                            for (_, pt) in fd.params.iter().rev() {
                                u = Ty::fun(pt.clone(), u);
                            }
                            !fd.params.is_empty() && u == *t
                        })
                        .collect();
                    if fs.is_empty() {
                        self.leaf(t, env)
                    } else {
                        Expr::FunRef(fs[self.r.below(fs.len() as u64) as usize])
                    }
                }
            },
            _ => {
                if self.r.chance(3) {
                    self.leaf(t, env)
                } else {
                    let x = self.expr(&Ty::Nat, d, env);
                    let xs = self.expr(t, d, env);
                    Expr::Ctor(CtorRef { data: self.list, tag: 1 }, vec![x, xs])
                }
            }
        }
    }
}

const THEORY: &str = r#"theory R imports Main begin
definition add :: "nat ⇒ nat ⇒ nat" where "add x y = x + y"
definition twice :: "(nat ⇒ nat) ⇒ nat ⇒ nat" where "twice f x = f (f x)"
value "(rev :: nat list ⇒ nat list)"
value "(append :: nat list ⇒ nat list ⇒ nat list)"
value "(map :: (nat ⇒ nat) ⇒ nat list ⇒ nat list)"
value "(foldr :: (nat ⇒ nat ⇒ nat) ⇒ nat list ⇒ nat ⇒ nat)"
value "(length :: nat list ⇒ nat)"
value "(sum_list :: nat list ⇒ nat)"
value "(nth :: nat list ⇒ nat ⇒ nat)"
value "(hd :: nat list ⇒ nat)"
value "(sorted :: nat list ⇒ bool)"
value "(add :: nat ⇒ nat ⇒ nat)"
value "(twice :: (nat ⇒ nat) ⇒ nat ⇒ nat)"
value "(gcd :: int ⇒ int ⇒ int)"
end"#;

/// The program of `THEORY`'s values (the functions random terms call), its `nat list`
/// type, and the limits a random term runs with.
fn program_of_theory() -> (Program, DataId, Limits) {
    let mut th = lang::check_theory(THEORY);
    assert!(th.diagnostics.is_empty(), "{:?}", th.diagnostics);
    let mut p = Program::default();
    for i in 0..th.items.len() {
        p = th.lower_value(i).0.clone();
    }
    let list = DataId(
        p.datas.iter().position(|d| d.name == "list" && d.args == vec![Ty::Nat]).expect("nat list instantiated") as u32,
    );
    (p, list, Limits { fuel: 100_000, max_depth: 10_000, deadline: None })
}

#[test]
fn random_terms_agree() {
    let (p, list, limits) = program_of_theory();
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    for seed in 0..400u64 {
        let mut g = G { p: &p, list, next_var: 0, r: Rng::new(seed) };
        let t = [Ty::Bool, Ty::Nat, Ty::Int, Ty::Data(list)][(seed % 4) as usize].clone();
        let depth = 1 + (seed % 5) as u32;
        let e = g.expr(&t, depth, &[]);
        let (q, main) = with_main(&p, e.clone(), t, g.next_var);
        match check_closed(&q, main, &limits) {
            Ok(v) => tally.add(v),
            Err(msg) => failures.push(format!("seed {seed}: {}\n{msg}", print_expr(&q, &e))),
        }
        if failures.len() >= 3 {
            break;
        }
    }
    eprintln!("random terms: {tally:?}");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(tally.agree >= 200, "{tally:?}");
}

/// `v` (of type `ty`) with some parts made partial: holes (`nat` ones with `Suc`s above
/// them), and computations stuck on a hole.
fn partial(p: &Program, v: Value, ty: &Ty, r: &mut Rng, next: &mut u32) -> Value {
    if r.chance(4) {
        let id = if r.chance(5) { 0 } else { *next };
        *next += 1;
        if r.chance(5) {
            return Value::Stuck(Demand { hole: Hole::new(id), whole: r.chance(2) });
        }
        let suc = if *ty == Ty::Nat { r.below(3) as u32 } else { 0 };
        return Value::Hole(Hole { id, suc });
    }
    match (v, ty) {
        (Value::Ctor(tag, fields), Ty::Data(d)) if !fields.is_empty() => {
            let ftys = p.data(*d).ctors[tag as usize].fields.clone();
            let fields = fields.iter().zip(&ftys).map(|(f, t)| partial(p, f.clone(), t, r, next)).collect();
            Value::ctor(tag, fields)
        }
        (v, _) => v,
    }
}

/// The same random terms with free variables, compiled for narrowing (`Jit::narrowing`) and
/// run on partial values: compiled code gives the interpreter's value (stuck parts
/// included), or demands the hole the interpreter demands, or hands the case over.
#[test]
fn random_terms_on_partial_values_agree() {
    let (p, list, limits) = program_of_theory();
    let (mut tally, mut demands) = (Tally::default(), 0);
    let mut failures = Vec::new();
    for seed in 0..600u64 {
        let env: Vec<(VarId, Ty)> = vec![
            (VarId(0), Ty::Nat),
            (VarId(1), Ty::Data(list)),
            (VarId(2), Ty::Int),
            (VarId(3), Ty::Bool),
            (VarId(4), nat_set()),
        ];
        let mut g = G { p: &p, list, next_var: env.len() as u32, r: Rng::new(seed) };
        let t = [Ty::Bool, Ty::Nat, Ty::Int, Ty::Data(list)][(seed % 4) as usize].clone();
        let depth = 1 + (seed % 5) as u32;
        let e = g.expr(&t, depth, &env);
        let (q, main) = with_main_of(&p, env.clone(), e.clone(), t.clone(), g.next_var);
        let mut jit = match codegen::Jit::narrowing(&q, None) {
            Ok(j) => j,
            Err(err) => {
                failures.push(format!("seed {seed}: does not compile: {err}"));
                continue;
            }
        };
        let mut interp = Interp::partial(&q);
        let mut r = Rng::new(seed ^ 0x5eed);
        for _ in 0..8 {
            let mut next = 1;
            let args: Vec<Value> = env
                .iter()
                .map(|(_, ty)| {
                    let v = crate::gen::value(&q, ty, 3, &mut r).expect("a generator");
                    partial(&q, v, ty, &mut r, &mut next)
                })
                .collect();
            let j = jit.call(main, &args, &limits);
            demands += usize::from(matches!(j, Err(codegen::JitOutcome::Need(_))));
            let i = interp.call(main, args.clone(), &limits);
            match compare(&q, &t, j, i) {
                Ok(v) => tally.add(v),
                Err(msg) => failures.push(format!(
                    "seed {seed}, arguments {}:\n{}\n{msg}",
                    args.iter()
                        .zip(&env)
                        .map(|(a, (_, ty))| lang::interp::print_value(&q, a, ty))
                        .collect::<Vec<_>>()
                        .join(", "),
                    print_expr(&q, &e)
                )),
            }
        }
        if failures.len() >= 3 {
            break;
        }
    }
    eprintln!("random terms on partial values: {tally:?}, {demands} demands");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(tally.agree >= 2000 && demands >= 500, "{tally:?}, {demands} demands");
}
