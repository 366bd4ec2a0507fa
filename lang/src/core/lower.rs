//! Lowering of the typed theory into the core IR. Demand-driven monomorphization: a constant
//! or datatype is instantiated at the concrete types it is used at, once per instance, when
//! something that is lowered refers to it. Overloaded builtins become the primitive of their
//! instance type (`-` on `nat` truncates, on sets it is difference); `∧`/`∨`/`⟶` become
//! `If` so evaluation short-circuits; partial applications of constructors, builtins and
//! predicates are η-expanded.

use super::ir::*;
use super::matching;
use crate::types::builtins::Builtin;
use crate::types::env::{Env, NameRef, TypeRef};
use crate::types::hir::{self, Bound, ConstId, ConstKind, DataIdx, LocalId, Term, TermKind};
use crate::types::ty::{self, Type};
use num_bigint::{BigInt, BigUint};
use std::collections::HashMap;
use std::sync::Arc;

/// Per-body lowering state: the instance's type substitution and where each local lives.
pub(crate) struct Cx<'a> {
    pub subst: HashMap<Arc<str>, Ty>,
    pub locals: &'a [hir::Local],
    pub vars: HashMap<LocalId, VarId>,
    pub next: u32,
    /// Name of the function being lowered, for `Undef::Match`.
    pub fname: Arc<str>,
    /// Set while compiling the arms of a `case` expression (not a function's equations).
    pub in_case: bool,
}

impl Cx<'_> {
    pub fn fresh(&mut self) -> VarId {
        self.next += 1;
        VarId(self.next - 1)
    }

    /// The variable of local `l`, allocated on first use.
    pub fn var(&mut self, l: LocalId) -> VarId {
        if let Some(v) = self.vars.get(&l) {
            return *v;
        }
        let v = self.fresh();
        self.vars.insert(l, v);
        v
    }

    /// Gives local `l` a new variable (a binder).
    pub fn bind(&mut self, l: LocalId) -> VarId {
        let v = self.fresh();
        self.vars.insert(l, v);
        v
    }
}

pub struct Lowerer {
    env: Arc<Env>,
    prelude: Arc<HashMap<Arc<str>, NameRef>>,
    pub program: Program,
    funs: HashMap<(ConstId, Vec<Ty>), FunId>,
    preds: HashMap<(ConstId, Vec<Ty>), PredId>,
    datas: HashMap<(DataIdx, Vec<Ty>), DataId>,
    pending: Vec<(FunId, ConstId, Vec<Ty>)>,
    pending_preds: Vec<(PredId, ConstId, Vec<Ty>)>,
    /// Whether functions with code equations get a code version (`Program::code`).
    pub use_code_equations: bool,
    /// The size functions built so far (`size_fun`), and `size` on `bool`.
    sizes: HashMap<(DataId, Vec<SizeFn>), FunId>,
    size_bool: Option<FunId>,
    /// The membership functions of set-valued definitions built so far (`member_fun`);
    /// `None` for a constant whose definition has no membership rule.
    members: HashMap<(ConstId, Vec<Ty>), Option<FunId>>,
}

/// The size function of a type at one place in a datatype, as Isabelle's datatype package
/// builds it (`bnf_lfp_size.ML`, `mk_size_of_typ`): `Zero` is `λ_. 0`, `Data(d, fs)` is
/// the generic `size_t f1 .. fn` of the datatype instance `d`, where `fs` are the size
/// functions of its type arguments. The overloaded `size` of an instance is
/// `Data(d, [Zero, ..])`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum SizeFn {
    Zero,
    Data(DataId, Vec<SizeFn>),
}

/// Prints an IR type compactly for instance names: `nat`, `list[nat]`, `nat=>bool`.
fn ty_name(p: &Program, t: &Ty) -> String {
    match t {
        Ty::Bool => "bool".into(),
        Ty::Nat => "nat".into(),
        Ty::Int => "int".into(),
        Ty::Set(e) => format!("set[{}]", ty_name(p, e)),
        Ty::Fun(a, b) => format!("({}=>{})", ty_name(p, a), ty_name(p, b)),
        Ty::Data(d) => {
            let dd = p.data(*d);
            if dd.args.is_empty() {
                dd.name.clone()
            } else {
                let args: Vec<String> = dd.args.iter().map(|a| ty_name(p, a)).collect();
                format!("{}[{}]", dd.name, args.join(","))
            }
        }
    }
}

impl Lowerer {
    /// Appends a function whose body comes later (callers may refer to it meanwhile, as
    /// recursion needs), and returns its id.
    fn reserve_fun(&mut self, name: String, params: Vec<(VarId, Ty)>, ret: Ty) -> FunId {
        let fid = FunId(self.program.funs.len() as u32);
        let num_vars = params.len() as u32;
        self.program.funs.push(FunDef { name, params, ret, body: Expr::Undefined(Undef::Undefined), num_vars });
        fid
    }

    pub fn new(env: Arc<Env>, prelude: Arc<HashMap<Arc<str>, NameRef>>) -> Lowerer {
        Lowerer {
            env,
            prelude,
            program: Program::default(),
            funs: HashMap::new(),
            preds: HashMap::new(),
            datas: HashMap::new(),
            pending: Vec::new(),
            pending_preds: Vec::new(),
            use_code_equations: true,
            sizes: HashMap::new(),
            size_bool: None,
            members: HashMap::new(),
        }
    }

    pub fn env(&self) -> &Env {
        &self.env
    }

    // ---- types ---------------------------------------------------------------------------

    pub fn ty(&mut self, t: &Type, subst: &HashMap<Arc<str>, Ty>) -> Ty {
        match t {
            Type::Param(p) => match subst.get(p) {
                Some(t) => t.clone(),
                None => self.unit(),
            },
            Type::Var(_) => self.unit(),
            Type::Con(c, args) => match &**c {
                ty::BOOL => Ty::Bool,
                ty::NAT => Ty::Nat,
                ty::INT => Ty::Int,
                ty::FUN => Ty::fun(self.ty(&args[0], subst), self.ty(&args[1], subst)),
                ty::SET => Ty::set(self.ty(&args[0], subst)),
                name => match self.env.types.get(name) {
                    Some(TypeRef::Data(d)) => {
                        let d = *d;
                        let args: Vec<Ty> = args.iter().map(|a| self.ty(a, subst)).collect();
                        Ty::Data(self.data(d, args))
                    }
                    _ => self.unit(),
                },
            },
        }
    }

    fn unit(&mut self) -> Ty {
        match self.env.data_by_name(ty::UNIT) {
            Some(d) => Ty::Data(self.data(d, vec![])),
            None => Ty::Bool,
        }
    }

    /// The instance of datatype `d` at `args`.
    pub fn data(&mut self, d: DataIdx, args: Vec<Ty>) -> DataId {
        if let Some(id) = self.datas.get(&(d, args.clone())) {
            return *id;
        }
        let decl = self.env.data(d).clone();
        let id = DataId(self.program.datas.len() as u32);
        self.program.datas.push(DataDef { name: decl.name.to_string(), args: args.clone(), ctors: vec![] });
        self.datas.insert((d, args.clone()), id);
        let subst: HashMap<Arc<str>, Ty> = decl.params.iter().cloned().zip(args).collect();
        let ctors = decl
            .ctors
            .iter()
            .map(|c| CtorDef {
                name: c.name.to_string(),
                fields: c.fields.iter().map(|f| self.ty(f, &subst)).collect(),
            })
            .collect();
        self.program.datas[id.0 as usize].ctors = ctors;
        id
    }

    /// The instance of datatype `name` (a prelude or user datatype) at `args`, if it exists.
    pub fn data_by_name(&mut self, name: &str, args: Vec<Ty>) -> Option<DataId> {
        let d = self.env.data_by_name(name)?;
        Some(self.data(d, args))
    }

    // ---- functions -----------------------------------------------------------------------

    fn instance_name(&self, id: ConstId, tys: &[Ty]) -> String {
        let name = &self.env.konst(id).name;
        if tys.is_empty() {
            name.to_string()
        } else {
            let args: Vec<String> = tys.iter().map(|t| ty_name(&self.program, t)).collect();
            format!("{name}[{}]", args.join(","))
        }
    }

    /// The instance of constant `id` at `tys` (one per scheme parameter); lowered by `drain`.
    pub fn fun(&mut self, id: ConstId, tys: Vec<Ty>) -> FunId {
        if let Some(f) = self.funs.get(&(id, tys.clone())) {
            return *f;
        }
        let fid = self.reserve_fun(self.instance_name(id, &tys), vec![], Ty::Bool);
        self.funs.insert((id, tys.clone()), fid);
        // Fill in the signature now so callers can see the arity; the body comes later.
        let def = self.env.consts[id.0 as usize].clone();
        if let ConstKind::Equations { arity, .. } = &def.kind {
            let subst = self.scheme_subst(&def.scheme, &tys);
            let full = self.ty(&def.scheme.ty, &subst);
            let (args, ret) = full.uncurry();
            let (args, ret): (Vec<Ty>, Ty) = {
                let n = (*arity).min(args.len());
                let rest: Vec<Ty> = args[n..].iter().map(|t| (*t).clone()).collect();
                let ret = rest.into_iter().rev().fold(ret.clone(), |acc, a| Ty::fun(a, acc));
                (args[..n].iter().map(|t| (*t).clone()).collect(), ret)
            };
            let f = &mut self.program.funs[fid.0 as usize];
            f.params = args.into_iter().enumerate().map(|(i, t)| (VarId(i as u32), t)).collect();
            f.ret = ret;
        }
        self.pending.push((fid, id, tys));
        fid
    }

    fn pred(&mut self, id: ConstId, tys: Vec<Ty>) -> PredId {
        if let Some(p) = self.preds.get(&(id, tys.clone())) {
            return *p;
        }
        let pid = PredId(self.program.inductives.len() as u32);
        let name = self.instance_name(id, &tys);
        let def = self.env.consts[id.0 as usize].clone();
        let subst = self.scheme_subst(&def.scheme, &tys);
        let full = self.ty(&def.scheme.ty, &subst);
        let params = full.uncurry().0.into_iter().cloned().collect();
        self.program.inductives.push(InductiveDef { name, params, clauses: vec![] });
        self.preds.insert((id, tys.clone()), pid);
        self.pending_preds.push((pid, id, tys));
        pid
    }

    fn scheme_subst(&self, scheme: &hir::Scheme, tys: &[Ty]) -> HashMap<Arc<str>, Ty> {
        scheme.params.iter().map(|(p, _)| p.clone()).zip(tys.iter().cloned()).collect()
    }

    /// Lowers every instance requested so far (and what those request in turn).
    pub fn drain(&mut self) {
        loop {
            if let Some((fid, id, tys)) = self.pending.pop() {
                self.lower_fun(fid, id, tys);
            } else if let Some((pid, id, tys)) = self.pending_preds.pop() {
                self.lower_pred(pid, id, tys);
            } else {
                break;
            }
        }
    }

    fn lower_fun(&mut self, fid: FunId, id: ConstId, tys: Vec<Ty>) {
        let def = self.env.consts[id.0 as usize].clone();
        let ConstKind::Equations { locals, equations, .. } = &def.kind else { return };
        let subst = self.scheme_subst(&def.scheme, &tys);
        let params = self.program.funs[fid.0 as usize].params.clone();
        let (body, num_vars) = self.equations(&def.name, &subst, locals, equations, &params);
        let f = &mut self.program.funs[fid.0 as usize];
        f.body = body;
        f.num_vars = num_vars;
        let code = if self.use_code_equations { self.env.code.get(&id).cloned() } else { None };
        if let Some(code) = code {
            // The code version, under the definition's name so an unmatched case reads the
            // same.
            let (body, num_vars) = self.equations(&def.name, &subst, &code.locals, &code.equations, &params);
            let f = &self.program.funs[fid.0 as usize];
            let version = FunDef { name: format!("{}.code", f.name), params, ret: f.ret.clone(), body, num_vars };
            self.program.code.push((fid, FunId(self.program.funs.len() as u32)));
            self.program.funs.push(version);
        }
    }

    /// Equations `name p1 .. pn = rhs` (first match wins) compiled over `params`: the body
    /// and its number of variables.
    fn equations(
        &mut self,
        name: &Arc<str>,
        subst: &HashMap<Arc<str>, Ty>,
        locals: &[hir::Local],
        equations: &[(Vec<hir::Pat>, Term)],
        params: &[(VarId, Ty)],
    ) -> (Expr, u32) {
        let mut cx = Cx {
            subst: subst.clone(),
            locals,
            vars: HashMap::new(),
            next: params.len() as u32,
            fname: name.clone(),
            in_case: false,
        };
        let rows = equations.iter().map(|(pats, rhs)| matching::Row::new(pats.clone(), rhs)).collect();
        let body = matching::compile(self, &mut cx, params.to_vec(), rows);
        (body, cx.next)
    }

    fn lower_pred(&mut self, pid: PredId, id: ConstId, tys: Vec<Ty>) {
        let def = self.env.consts[id.0 as usize].clone();
        let ConstKind::Inductive { clauses } = &def.kind else { return };
        let subst = self.scheme_subst(&def.scheme, &tys);
        let mut out = Vec::new();
        for c in clauses {
            let mut cx = Cx {
                subst: subst.clone(),
                locals: &c.locals,
                vars: HashMap::new(),
                next: 0,
                fname: def.name.clone(),
                in_case: false,
            };
            for l in 0..c.locals.len() as u32 {
                cx.var(l);
            }
            let head = c.args.iter().map(|a| self.expr(&mut cx, a)).collect();
            let premises = c.premises.iter().map(|p| self.expr(&mut cx, p)).collect();
            let vars = (0..c.locals.len() as u32)
                .map(|l| (cx.vars[&l], self.ty(&c.locals[l as usize].ty, &cx.subst)))
                .collect();
            out.push(Clause { vars, head, premises, num_vars: cx.next });
        }
        self.program.inductives[pid.0 as usize].clauses = out;
    }

    /// Lowers a closed term (a `value`, or a lemma part over `params`) into a new top-level
    /// function named `name` whose parameters are the given locals.
    pub fn lower_body(
        &mut self,
        name: &str,
        locals: &[hir::Local],
        params: &[LocalId],
        subst: HashMap<Arc<str>, Ty>,
        term: &Term,
    ) -> FunId {
        let mut cx = Cx { subst, locals, vars: HashMap::new(), next: 0, fname: Arc::from(name), in_case: false };
        let mut ps = Vec::new();
        for l in params {
            let v = cx.bind(*l);
            ps.push((v, self.ty(&locals[*l as usize].ty, &cx.subst)));
        }
        let body = self.expr(&mut cx, term);
        let ret = self.ty(&term.ty, &cx.subst);
        let fid = FunId(self.program.funs.len() as u32);
        self.program.funs.push(FunDef { name: name.to_string(), params: ps, ret, body, num_vars: cx.next });
        self.drain();
        fid
    }

    // ---- terms ---------------------------------------------------------------------------

    pub(crate) fn local_ty(&mut self, cx: &Cx, l: LocalId) -> Ty {
        self.ty(&cx.locals[l as usize].ty, &cx.subst)
    }

    pub(crate) fn expr(&mut self, cx: &mut Cx, t: &Term) -> Expr {
        match &t.kind {
            TermKind::App(..) => {
                let (head, args) = t.spine();
                self.apply(cx, head, &args)
            }
            TermKind::Local(l) => Expr::Var(cx.var(*l)),
            TermKind::Const(..) | TermKind::Ctor(..) | TermKind::Builtin(_) => self.apply(cx, t, &[]),
            TermKind::Num(n) => self.num(n, &t.ty, cx),
            TermKind::Lambda(..) => {
                let mut params = Vec::new();
                let mut body = t;
                while let TermKind::Lambda(l, b) = &body.kind {
                    let ty = self.local_ty(cx, *l);
                    params.push((cx.bind(*l), ty));
                    body = b;
                }
                Expr::Lambda(params, Box::new(self.expr(cx, body)))
            }
            TermKind::Let(l, a, b) => {
                let a = self.expr(cx, a);
                let ty = self.local_ty(cx, *l);
                let v = cx.bind(*l);
                Expr::Let(v, ty, Box::new(a), Box::new(self.expr(cx, b)))
            }
            TermKind::If(c, a, b) => {
                Expr::If(Box::new(self.expr(cx, c)), Box::new(self.expr(cx, a)), Box::new(self.expr(cx, b)))
            }
            TermKind::Case(s, arms) => {
                let sty = self.ty(&s.ty, &cx.subst);
                let rows = arms.iter().map(|(p, rhs)| matching::Row::new(vec![p.clone()], rhs)).collect();
                let outer = std::mem::replace(&mut cx.in_case, true);
                let e = if let TermKind::Local(l) = s.kind {
                    let v = cx.var(l);
                    matching::compile(self, cx, vec![(v, sty)], rows)
                } else {
                    let se = self.expr(cx, s);
                    let v = cx.fresh();
                    let body = matching::compile(self, cx, vec![(v, sty.clone())], rows);
                    Expr::Let(v, sty, Box::new(se), Box::new(body))
                };
                cx.in_case = outer;
                e
            }
            TermKind::Quant(q, l, bound, body) => {
                // Unbounded over an infinite type, its guard may bound it (`core::guards`).
                let guarded_form;
                let ty = self.local_ty(cx, *l);
                let (bound, body) = match bound {
                    None if super::cardinality::cardinality(&self.program, &ty).is_none() => {
                        guarded_form = super::guards::guarded(*q, *l, body, ty == Ty::Nat);
                        match &guarded_form {
                            Some((b, t)) => (Some(b), t),
                            None => (None, &**body),
                        }
                    }
                    _ => (bound.as_ref(), &**body),
                };
                if let Some(e) = self.quant_over_list(cx, *q, *l, bound, body) {
                    return e;
                }
                let (domain, guard) = self.bound(cx, bound, &ty);
                let var = cx.bind(*l);
                let mut b = self.expr(cx, body);
                if let Some((strict, n)) = guard {
                    let cmp = if strict { Prim::Lt(ty.clone()) } else { Prim::Le(ty.clone()) };
                    let g = Expr::Prim(cmp, vec![Expr::Var(var), n]);
                    b = match q {
                        Quant::All => Expr::If(Box::new(g), Box::new(b), Box::new(Expr::Lit(Lit::Bool(true)))),
                        _ => Expr::If(Box::new(g), Box::new(b), Box::new(Expr::Lit(Lit::Bool(false)))),
                    };
                }
                Expr::Quant { q: *q, var, ty, domain: domain.map(Box::new), body: Box::new(b) }
            }
            TermKind::SetCompr(l, dom, body) => {
                let ty = self.local_ty(cx, *l);
                let domain = match dom {
                    Some(d) => Some(Box::new(self.expr(cx, d))),
                    None => self.bounded_range(cx, *l, &ty, body).map(Box::new),
                };
                let var = cx.bind(*l);
                Expr::SetCompr { var, ty, domain, body: Box::new(self.expr(cx, body)) }
            }
        }
    }

    /// A bounded quantifier's domain; `∀x<n` over `nat` ranges over `{0..<n}`, over other
    /// types it becomes a guard `(strict, n)` on the body.
    fn bound(&mut self, cx: &mut Cx, bound: Option<&Bound>, ty: &Ty) -> (Option<Expr>, Option<(bool, Expr)>) {
        match bound {
            None => (None, None),
            Some(Bound::In(a)) => (Some(self.expr(cx, a)), None),
            Some(Bound::Less(n)) | Some(Bound::LessEq(n)) => {
                let strict = matches!(bound, Some(Bound::Less(_)));
                let n = self.expr(cx, n);
                if *ty == Ty::Nat {
                    let hi = if strict { n } else { Expr::Prim(Prim::Suc, vec![n]) };
                    match self.range_set("upt", Ty::Nat, Expr::Lit(Lit::Nat(BigUint::from(0u32))), hi.clone()) {
                        Some(range) => (Some(range), None),
                        None => (None, Some((true, hi))),
                    }
                } else {
                    (None, Some((strict, n)))
                }
            }
        }
    }

    /// The finite range that bounds a comprehension `{x. … ∧ x < e ∧ …}` over `nat` (an
    /// upper bound among the conjuncts; a lower one too over `int`), as its domain: the
    /// same set (the body stays the filter), but enumerable, so `card {x. x < n ∧ P x}`
    /// and the intervals `{..<n}`, `{a<..b}` (comprehensions, `syntax::construct`) run.
    /// `None` when the bounds do not make it finite: it stays a predicate, whose membership
    /// is decided and whose enumeration is not executable.
    fn bounded_range(&mut self, cx: &mut Cx, l: LocalId, ty: &Ty, body: &Term) -> Option<Expr> {
        if !matches!(ty, Ty::Nat | Ty::Int) {
            return None;
        }
        let (mut lower, mut upper) = (None, None);
        for c in conjuncts(body) {
            let (head, args) = c.spine();
            let strict = match head.kind {
                TermKind::Builtin(Builtin::Less) => true,
                TermKind::Builtin(Builtin::LessEq) => false,
                _ => continue,
            };
            let [a, b] = args[..] else { continue };
            let is_x = |t: &Term| matches!(t.kind, TermKind::Local(v) if v == l);
            let mentions_x = |t: &Term| {
                let mut found = false;
                t.visit(&mut |u| found |= matches!(u.kind, TermKind::Local(v) if v == l));
                found
            };
            if is_x(a) && !mentions_x(b) && upper.is_none() {
                upper = Some((strict, b));
            } else if is_x(b) && !mentions_x(a) && lower.is_none() {
                lower = Some((strict, a));
            }
        }
        let (up_strict, up) = upper?;
        let one = |t: &Ty| match t {
            Ty::Int => Expr::Lit(Lit::Int(BigInt::from(1))),
            _ => Expr::Lit(Lit::Nat(BigUint::from(1u32))),
        };
        if *ty == Ty::Nat {
            // `set (upt lo hi)`, hi exclusive.
            let hi = self.expr(cx, up);
            let hi = if up_strict { hi } else { Expr::Prim(Prim::Suc, vec![hi]) };
            let lo = match lower {
                None => Expr::Lit(Lit::Nat(BigUint::from(0u32))),
                Some((strict, lo)) => {
                    let lo = self.expr(cx, lo);
                    if strict {
                        Expr::Prim(Prim::Suc, vec![lo])
                    } else {
                        lo
                    }
                }
            };
            return self.range_set("upt", Ty::Nat, lo, hi);
        }
        // `set (upto lo hi)`, both inclusive.
        let (lo_strict, lo) = lower?;
        let (lo, hi) = (self.expr(cx, lo), self.expr(cx, up));
        let lo = if lo_strict { Expr::Prim(Prim::Add(NumTy::Int), vec![lo, one(ty)]) } else { lo };
        let hi = if up_strict { Expr::Prim(Prim::Sub(NumTy::Int), vec![hi, one(ty)]) } else { hi };
        self.range_set("upto", Ty::Int, lo, hi)
    }

    /// `set (range lo hi)` over `ty`, with the prelude's `upt` (nat, `hi` exclusive) or
    /// `upto` (int, inclusive): the domain of bounded quantifiers and comprehensions.
    fn range_set(&mut self, range: &str, ty: Ty, lo: Expr, hi: Expr) -> Option<Expr> {
        let (range, set) = (self.prelude_fun(range, vec![])?, self.prelude_fun("set", vec![ty])?);
        Some(Expr::Call(set, vec![Expr::Call(range, vec![lo, hi])]))
    }

    /// `∀x∈set xs. P` and `∃x∈set xs. P` walk the list instead of building the set (the
    /// same truth value; Isabelle's own code equations do the same): as a helper function of
    /// their own, `walk c1 .. cn (x # ys) = (if P then walk c1 .. cn ys else False)` over the
    /// variables `P` captures, so each step is a direct (tail) call; or, when a captured
    /// variable's type is not known here, as `list_all (λx. P) xs` / `list_ex`. `None` when
    /// the bound is not `set` of a list.
    fn quant_over_list(
        &mut self,
        cx: &mut Cx,
        q: Quant,
        l: LocalId,
        bound: Option<&Bound>,
        body: &Term,
    ) -> Option<Expr> {
        let Some(Bound::In(dom)) = bound else { return None };
        let (walker, all) = match q {
            Quant::All => ("list_all", true),
            Quant::Ex => ("list_ex", false),
            Quant::Ex1 => return None,
        };
        let (head, args) = dom.spine();
        let TermKind::Const(id, _) = &head.kind else { return None };
        if args.len() != 1 || !matches!(self.prelude.get("set"), Some(NameRef::Const(set)) if set == id) {
            return None;
        }
        let Ty::Data(list_data) = self.ty(&args[0].ty, &cx.subst) else { return None };
        let is_list = {
            let c = &self.program.data(list_data).ctors;
            c.len() == 2 && c[0].fields.is_empty() && c[1].fields.len() == 2
        };
        let ty = self.local_ty(cx, l);
        let list = self.expr(cx, args[0]);
        let var = cx.bind(l);
        let pred = self.expr(cx, body);
        let mut free = std::collections::BTreeSet::new();
        super::ir::free_vars(&pred, &mut vec![var.0], &mut free);
        let mut captured = Vec::new();
        for v in &free {
            let local = cx.vars.iter().find(|(_, x)| x.0 == *v).map(|(l, _)| *l);
            match local {
                Some(lv) => captured.push((VarId(*v), self.local_ty(cx, lv))),
                None => break,
            }
        }
        if !is_list || captured.len() != free.len() {
            let f = self.prelude_fun(walker, vec![ty.clone()])?;
            return Some(Expr::Call(f, vec![Expr::Lambda(vec![(var, ty)], Box::new(pred)), list]));
        }
        let (xs, ys) = (cx.fresh(), cx.fresh());
        let fid = FunId(self.program.funs.len() as u32);
        let mut rec_args: Vec<Expr> = captured.iter().map(|(v, _)| Expr::Var(*v)).collect();
        rec_args.push(Expr::Var(ys));
        let recur = Expr::Call(fid, rec_args);
        let step = if all {
            Expr::If(Box::new(pred), Box::new(recur), Box::new(Expr::Lit(Lit::Bool(false))))
        } else {
            Expr::If(Box::new(pred), Box::new(Expr::Lit(Lit::Bool(true))), Box::new(recur))
        };
        let walk = Expr::Case {
            scrut: Box::new(Expr::Var(xs)),
            data: list_data,
            alts: vec![
                Alt { tag: 0, binders: vec![], body: Expr::Lit(Lit::Bool(all)) },
                Alt { tag: 1, binders: vec![var, ys], body: step },
            ],
            default: None,
        };
        let mut params = captured.clone();
        params.push((xs, Ty::Data(list_data)));
        let n = self.program.funs.iter().filter(|f| f.name.starts_with(&*cx.fname)).count();
        self.program.funs.push(FunDef {
            name: format!("{}.{walker}{n}", cx.fname),
            params,
            ret: Ty::Bool,
            body: walk,
            num_vars: cx.next,
        });
        let mut call_args: Vec<Expr> = captured.iter().map(|(v, _)| Expr::Var(*v)).collect();
        call_args.push(list);
        Some(Expr::Call(fid, call_args))
    }

    /// `x ∈ set xs` as `member xs x`, walking the list instead of building the set (Isabelle's
    /// code generator does the same); `None` when the set is not `set` of a list.
    fn member_of_list(&mut self, cx: &mut Cx, x: &Term, dom: &Term) -> Option<Expr> {
        let (head, args) = dom.spine();
        let TermKind::Const(id, _) = &head.kind else { return None };
        if args.len() != 1 || !matches!(self.prelude.get("set"), Some(NameRef::Const(set)) if set == id) {
            return None;
        }
        let ty = self.ty(&x.ty, &cx.subst);
        let member = self.prelude_fun("member", vec![ty])?;
        let (x, xs) = (self.expr(cx, x), self.expr(cx, args[0]));
        Some(Expr::Call(member, vec![xs, x]))
    }

    fn prelude_fun(&mut self, name: &str, tys: Vec<Ty>) -> Option<FunId> {
        match self.prelude.get(name) {
            Some(NameRef::Const(id)) => Some(self.fun(*id, tys)),
            _ => None,
        }
    }

    fn num(&mut self, n: &BigInt, ty: &Type, cx: &Cx) -> Expr {
        match self.ty(ty, &cx.subst) {
            Ty::Int => Expr::Lit(Lit::Int(n.clone())),
            _ => match n.to_biguint() {
                Some(u) => Expr::Lit(Lit::Nat(u)),
                None => Expr::Lit(Lit::Int(n.clone())),
            },
        }
    }

    /// `head args`, saturating known callees.
    fn apply(&mut self, cx: &mut Cx, head: &Term, args: &[&Term]) -> Expr {
        match &head.kind {
            TermKind::Const(id, inst) => {
                let tys: Vec<Ty> = inst.iter().map(|t| self.ty(t, &cx.subst)).collect();
                let def = self.env.consts[id.0 as usize].clone();
                match &def.kind {
                    ConstKind::Equations { arity, .. } => {
                        let fid = self.fun(*id, tys);
                        let args: Vec<Expr> = args.iter().map(|a| self.expr(cx, a)).collect();
                        call_with_arity(fid, *arity, args)
                    }
                    ConstKind::Inductive { .. } => {
                        let pid = self.pred(*id, tys);
                        let n = self.program.inductive(pid).params.len();
                        self.saturate(cx, head, args, n, move |_, es| Expr::Pred(pid, es))
                    }
                }
            }
            TermKind::Ctor(d, tag, inst) => {
                let tys: Vec<Ty> = inst.iter().map(|t| self.ty(t, &cx.subst)).collect();
                let data = self.data(*d, tys);
                let c = CtorRef { data, tag: *tag };
                let n = self.program.ctor(c).fields.len();
                self.saturate(cx, head, args, n, move |_, es| Expr::Ctor(c, es))
            }
            TermKind::Builtin(b) => {
                let b = *b;
                if let (Builtin::Member, [x, dom]) = (b, args) {
                    if let Some(e) = self.member_of_list(cx, x, dom) {
                        return e;
                    }
                    if self.has_member_rule(dom, 0) {
                        let ty = self.ty(&x.ty, &cx.subst);
                        let xe = self.expr(cx, x);
                        let v = cx.fresh();
                        let body = self.member_expr(cx, v, &ty, dom);
                        return Expr::Let(v, ty, Box::new(xe), Box::new(body));
                    }
                }
                let fty = self.ty(&head.ty, &cx.subst);
                self.saturate(cx, head, args, b.arity(), move |lw, es| lw.prim(b, &fty, es))
            }
            _ => {
                let f = self.expr(cx, head);
                if args.is_empty() {
                    return f;
                }
                let args = args.iter().map(|a| self.expr(cx, a)).collect();
                Expr::Apply(Box::new(f), args)
            }
        }
    }

    /// Applies a callee of arity `n` via `build` when saturated, η-expanding otherwise (the
    /// given arguments are bound first, so they are evaluated once).
    fn saturate(
        &mut self,
        cx: &mut Cx,
        head: &Term,
        args: &[&Term],
        n: usize,
        build: impl FnOnce(&mut Lowerer, Vec<Expr>) -> Expr,
    ) -> Expr {
        let mut es: Vec<Expr> = args.iter().map(|a| self.expr(cx, a)).collect();
        if es.len() >= n {
            let rest = es.split_off(n);
            let e = build(self, es);
            return if rest.is_empty() { e } else { Expr::Apply(Box::new(e), rest) };
        }
        let fty = self.ty(&head.ty, &cx.subst);
        let (arg_tys, _) = fty.uncurry();
        let arg_tys: Vec<Ty> = arg_tys.into_iter().cloned().collect();
        let mut lets = Vec::new();
        let mut call_args = Vec::new();
        for (i, e) in es.into_iter().enumerate() {
            let v = cx.fresh();
            lets.push((v, arg_tys[i].clone(), e));
            call_args.push(Expr::Var(v));
        }
        let mut params = Vec::new();
        for t in &arg_tys[call_args.len()..n] {
            let v = cx.fresh();
            params.push((v, t.clone()));
            call_args.push(Expr::Var(v));
        }
        let mut e = Expr::Lambda(params, Box::new(build(self, call_args)));
        for (v, t, a) in lets.into_iter().rev() {
            e = Expr::Let(v, t, Box::new(a), Box::new(e));
        }
        e
    }

    /// A saturated builtin at function type `fty`.
    fn prim(&mut self, b: Builtin, fty: &Ty, mut es: Vec<Expr>) -> Expr {
        let (args, ret) = fty.uncurry();
        let arg0 = args.first().map(|t| (*t).clone()).unwrap_or_else(|| ret.clone());
        let elem = |t: &Ty| match t {
            Ty::Set(e) => (**e).clone(),
            other => other.clone(),
        };
        let num = |t: &Ty| if *t == Ty::Int { NumTy::Int } else { NumTy::Nat };
        let lit = |b: bool| Box::new(Expr::Lit(Lit::Bool(b)));
        let mut two = || {
            let y = es.pop().expect("binary builtin");
            let x = es.pop().expect("binary builtin");
            (x, y)
        };
        match b {
            Builtin::True => Expr::Lit(Lit::Bool(true)),
            Builtin::False => Expr::Lit(Lit::Bool(false)),
            Builtin::Undefined => Expr::Undefined(Undef::Undefined),
            Builtin::Not => Expr::Prim(Prim::Not, es),
            Builtin::And => {
                let (x, y) = two();
                Expr::If(Box::new(x), Box::new(y), lit(false))
            }
            Builtin::Or => {
                let (x, y) = two();
                Expr::If(Box::new(x), lit(true), Box::new(y))
            }
            Builtin::Imp => {
                let (x, y) = two();
                Expr::If(Box::new(x), Box::new(y), lit(true))
            }
            Builtin::Eq => Expr::Prim(Prim::Eq(arg0), es),
            Builtin::Less => Expr::Prim(Prim::Lt(arg0), es),
            Builtin::LessEq => Expr::Prim(Prim::Le(arg0), es),
            Builtin::Plus => Expr::Prim(Prim::Add(num(&arg0)), es),
            Builtin::Times => Expr::Prim(Prim::Mul(num(&arg0)), es),
            Builtin::Div => Expr::Prim(Prim::Div(num(&arg0)), es),
            Builtin::Mod => Expr::Prim(Prim::Mod(num(&arg0)), es),
            Builtin::Minus => match &arg0 {
                Ty::Set(e) => Expr::Prim(Prim::SetDiff((**e).clone()), es),
                t => Expr::Prim(Prim::Sub(num(t)), es),
            },
            Builtin::Uminus => match (&arg0, es.pop().expect("unary builtin")) {
                (Ty::Set(e), x) => Expr::Prim(Prim::SetCompl((**e).clone()), vec![x]),
                (_, Expr::Lit(Lit::Int(n))) => Expr::Lit(Lit::Int(-n)),
                (_, x) => Expr::Prim(Prim::Neg, vec![x]),
            },
            Builtin::Suc => Expr::Prim(Prim::Suc, es),
            Builtin::IntOfNat => Expr::Prim(Prim::IntOfNat, es),
            Builtin::NatOfInt => Expr::Prim(Prim::NatOfInt, es),
            Builtin::OfNat if *ret == Ty::Int => Expr::Prim(Prim::IntOfNat, es),
            Builtin::OfNat => es.pop().expect("unary builtin"),
            Builtin::EmptySet => Expr::Prim(Prim::SetEmpty(elem(ret)), es),
            Builtin::Univ => Expr::Prim(Prim::SetUniv(elem(ret)), es),
            Builtin::Insert => Expr::Prim(Prim::SetInsert(arg0), es),
            Builtin::Member => Expr::Prim(Prim::SetMember(arg0), es),
            Builtin::Union => Expr::Prim(Prim::SetUnion(elem(&arg0)), es),
            Builtin::Inter => Expr::Prim(Prim::SetInter(elem(&arg0)), es),
            Builtin::SubsetEq => Expr::Prim(Prim::Le(arg0), es),
            Builtin::SetToList => Expr::Prim(Prim::SetToList(ret.clone()), es),
            Builtin::Finite => Expr::Prim(Prim::SetFinite(elem(&arg0)), es),
            Builtin::Size => {
                let x = es.pop().expect("unary builtin");
                self.size_of(&arg0, x)
            }
            Builtin::Subset => Expr::Prim(Prim::Lt(arg0), es),
            Builtin::RangeIncl => {
                let (m, n) = two();
                if arg0 == Ty::Int {
                    match self.prelude_fun("upto", vec![]) {
                        Some(f) => Expr::Call(f, vec![m, n]),
                        None => Expr::Undefined(Undef::Match("upto".into())),
                    }
                } else {
                    match self.prelude_fun("upt", vec![]) {
                        Some(f) => Expr::Call(f, vec![m, Expr::Prim(Prim::Suc, vec![n])]),
                        None => Expr::Undefined(Undef::Match("upt".into())),
                    }
                }
            }
        }
    }
}

/// A call of a known function of the given arity with any number of arguments.
fn call_with_arity(fid: FunId, arity: usize, mut args: Vec<Expr>) -> Expr {
    if arity == 0 {
        let c = Expr::Call(fid, vec![]);
        return if args.is_empty() { c } else { Expr::Apply(Box::new(c), args) };
    }
    if args.len() >= arity {
        let rest = args.split_off(arity);
        let c = Expr::Call(fid, args);
        return if rest.is_empty() { c } else { Expr::Apply(Box::new(c), rest) };
    }
    if args.is_empty() {
        Expr::FunRef(fid)
    } else {
        Expr::Apply(Box::new(Expr::FunRef(fid)), args)
    }
}

// ---- size ----------------------------------------------------------------------------------

impl Lowerer {
    /// `size x` at type `ty`: the identity on `nat`, 0 on `bool`, the datatype package's size
    /// function on a datatype. Other types are not of class `size`, which type checking
    /// enforces; should one get here, it is undefined rather than a wrong number.
    fn size_of(&mut self, ty: &Ty, x: Expr) -> Expr {
        match ty {
            Ty::Nat => x,
            Ty::Bool => {
                // A function (not a literal) so that `x` is still evaluated, as every
                // argument is.
                let f = match self.size_bool {
                    Some(f) => f,
                    None => {
                        let f = FunId(self.program.funs.len() as u32);
                        self.program.funs.push(FunDef {
                            name: "size[bool]".into(),
                            params: vec![(VarId(0), Ty::Bool)],
                            ret: Ty::Nat,
                            body: Expr::Lit(Lit::Nat(BigUint::from(0u32))),
                            num_vars: 1,
                        });
                        self.size_bool = Some(f);
                        f
                    }
                };
                Expr::Call(f, vec![x])
            }
            Ty::Data(d) => {
                let zeros = vec![SizeFn::Zero; self.program.data(*d).args.len()];
                let f = self.size_fun(*d, zeros);
                Expr::Call(f, vec![x])
            }
            _ => Expr::Undefined(Undef::Match("size".into())),
        }
    }

    /// The declaration (index and instance substitution) of the datatype instance `d`.
    fn data_decl_of(&self, d: DataId) -> Option<(DataIdx, HashMap<Arc<str>, Ty>)> {
        let (idx, args) = self.datas.iter().find(|(_, id)| **id == d).map(|(k, _)| k.clone())?;
        let decl = self.env.data(idx);
        Some((idx, decl.params.iter().cloned().zip(args).collect()))
    }

    /// The generic size function `size_t f1 .. fn` of datatype instance `d` with the size
    /// functions `fs` of its type arguments (Isabelle's `bnf_lfp_size.ML`): a constructor
    /// counts 0 when none of its arguments mentions a type parameter or a datatype of the
    /// same `datatype` command, and otherwise 1 plus the sizes of those arguments, an
    /// argument of a parameter's type measured by that parameter's function, a recursive
    /// or nested one (`'a tree list`) by the size function of its type. Arguments of other
    /// types (`nat`, `bool list`, sets, functions) count 0.
    fn size_fun(&mut self, d: DataId, fs: Vec<SizeFn>) -> FunId {
        if let Some(f) = self.sizes.get(&(d, fs.clone())) {
            return *f;
        }
        let ty_text = ty_name(&self.program, &Ty::Data(d));
        let name = if fs.iter().all(|f| *f == SizeFn::Zero) {
            format!("size[{ty_text}]")
        } else {
            format!("size_{}[{ty_text}]#{}", self.program.data(d).name, self.sizes.len())
        };
        let fid = self.reserve_fun(name, vec![(VarId(0), Ty::Data(d))], Ty::Nat);
        self.sizes.insert((d, fs.clone()), fid);
        let Some((idx, subst)) = self.data_decl_of(d) else {
            self.program.funs[fid.0 as usize].body = Expr::Undefined(Undef::Match("size".into()));
            return fid;
        };
        let decl = self.env.data(idx).clone();
        let mut next = 1u32;
        let mut alts = Vec::new();
        for (tag, ctor) in decl.ctors.iter().enumerate() {
            let binders: Vec<VarId> = ctor
                .fields
                .iter()
                .map(|_| {
                    next += 1;
                    VarId(next - 1)
                })
                .collect();
            let mut relevant = false;
            let mut summands = Vec::new();
            for (field, v) in ctor.fields.iter().zip(&binders) {
                if let Some(sf) = self.size_contribution(&decl, &fs, &subst, field) {
                    relevant = true;
                    if let SizeFn::Data(fd, ffs) = sf {
                        let f = self.size_fun(fd, ffs);
                        summands.push(Expr::Call(f, vec![Expr::Var(*v)]));
                    }
                }
            }
            let nat = |n: u32| Expr::Lit(Lit::Nat(BigUint::from(n)));
            let body = if relevant {
                summands.into_iter().rev().fold(nat(1), |acc, s| Expr::Prim(Prim::Add(NumTy::Nat), vec![s, acc]))
            } else {
                nat(0)
            };
            alts.push(Alt { tag: tag as u32, binders, body });
        }
        let f = &mut self.program.funs[fid.0 as usize];
        f.body = Expr::Case { scrut: Box::new(Expr::Var(VarId(0))), data: d, alts, default: None };
        f.num_vars = next;
        fid
    }

    /// Whether a constructor argument of (declared) type `field` counts towards the size
    /// (`Some`), and by which size function.
    fn size_contribution(
        &mut self,
        decl: &hir::DataDecl,
        fs: &[SizeFn],
        subst: &HashMap<Arc<str>, Ty>,
        field: &Type,
    ) -> Option<SizeFn> {
        match field {
            Type::Param(_) => Some(self.size_fn_of(decl, fs, subst, field)),
            Type::Con(name, _) if self.in_group(decl, name) => Some(self.size_fn_of(decl, fs, subst, field)),
            Type::Con(name, args) => {
                let mentions = args.iter().any(|a| self.mentions_param_or_group(decl, a));
                (mentions && self.env.data_by_name(name).is_some()).then(|| self.size_fn_of(decl, fs, subst, field))
            }
            Type::Var(_) => None,
        }
    }

    /// Isabelle's `mk_size_of_typ`: the size function of a type inside a datatype's
    /// declaration.
    fn size_fn_of(&mut self, decl: &hir::DataDecl, fs: &[SizeFn], subst: &HashMap<Arc<str>, Ty>, t: &Type) -> SizeFn {
        match t {
            Type::Param(p) => match decl.params.iter().position(|q| q == p) {
                Some(i) => fs.get(i).cloned().unwrap_or(SizeFn::Zero),
                None => SizeFn::Zero,
            },
            Type::Con(name, args)
                if self.env.data_by_name(name).is_some()
                    && (self.in_group(decl, name) || args.iter().any(|a| self.mentions_param_or_group(decl, a))) =>
            {
                let inner: Vec<SizeFn> = args.iter().map(|a| self.size_fn_of(decl, fs, subst, a)).collect();
                match self.ty(t, subst) {
                    Ty::Data(d) => SizeFn::Data(d, inner),
                    _ => SizeFn::Zero,
                }
            }
            _ => SizeFn::Zero,
        }
    }

    fn in_group(&self, decl: &hir::DataDecl, name: &str) -> bool {
        self.env.data_by_name(name).is_some_and(|d| decl.group.contains(&d))
    }

    /// Isabelle's `exists_subtype_in (As @ Cs)`.
    fn mentions_param_or_group(&self, decl: &hir::DataDecl, t: &Type) -> bool {
        match t {
            Type::Param(_) => true,
            Type::Var(_) => false,
            Type::Con(name, args) => {
                self.in_group(decl, name) || args.iter().any(|a| self.mentions_param_or_group(decl, a))
            }
        }
    }
}

// ---- membership ----------------------------------------------------------------------------

/// How deep `has_member_rule` looks through definitions (a recursive one stops there).
const MEMBER_RULE_DEPTH: u32 = 8;

impl Lowerer {
    /// Whether `x ∈ dom` is better decided by Isabelle's membership rules than by building
    /// the set: `dom` is a comprehension `{y. P y}` (`x ∈ {y. P y} = P x`, `mem_Collect_eq`),
    /// a union or intersection with such a part, or a constant defined by one equation
    /// `c a1 .. an = S` (applied to all its arguments) whose `S` is one. The rules decide
    /// membership in sets that cannot be built, such as `(5, 5) ∈ Id ∪ trancl {}` over
    /// `nat` or `x ∈ dom m` for a map over an infinite type, and give the same truth value
    /// wherever the set can be built.
    fn has_member_rule(&self, dom: &Term, depth: u32) -> bool {
        if depth > MEMBER_RULE_DEPTH {
            return false;
        }
        if let TermKind::SetCompr(..) = dom.kind {
            return true;
        }
        let (head, args) = dom.spine();
        match &head.kind {
            TermKind::Builtin(Builtin::Union | Builtin::Inter) if args.len() == 2 => {
                args.iter().any(|a| self.has_member_rule(a, depth + 1))
            }
            TermKind::Const(id, _) => {
                self.set_definition(*id, args.len()).is_some_and(|(_, _, rhs)| self.has_member_rule(rhs, depth + 1))
            }
            _ => false,
        }
    }

    /// The single equation `c p1 .. pn = rhs` of constant `id` when its patterns are all
    /// variables (or `_`) and `n` arguments saturate it: its locals, patterns and `rhs`.
    fn set_definition(&self, id: ConstId, nargs: usize) -> Option<(&[hir::Local], &[hir::Pat], &Term)> {
        let ConstKind::Equations { locals, equations, arity } = &self.env.konst(id).kind else { return None };
        let [(pats, rhs)] = equations.as_slice() else { return None };
        let plain = pats.iter().all(|p| matches!(p.kind, hir::PatKind::Var(_) | hir::PatKind::Wild));
        (plain && *arity == nargs).then_some((locals.as_slice(), pats.as_slice(), rhs))
    }

    /// `v ∈ dom`, where `v` holds the element (of type `ty`), by the rules of
    /// `has_member_rule`; parts without a rule are built and tested as sets.
    fn member_expr(&mut self, cx: &mut Cx, v: VarId, ty: &Ty, dom: &Term) -> Expr {
        let f = || Box::new(Expr::Lit(Lit::Bool(false)));
        let t = || Box::new(Expr::Lit(Lit::Bool(true)));
        if let TermKind::SetCompr(l, domain, body) = &dom.kind {
            let lty = self.local_ty(cx, *l);
            let var = cx.bind(*l);
            let mut e = self.expr(cx, body);
            if let Some(d) = domain {
                let inside = self.member_expr(cx, var, &lty, d);
                e = Expr::If(Box::new(inside), Box::new(e), f());
            }
            return Expr::Let(var, lty, Box::new(Expr::Var(v)), Box::new(e));
        }
        let (head, args) = dom.spine();
        match &head.kind {
            TermKind::Builtin(b @ (Builtin::Union | Builtin::Inter)) if args.len() == 2 => {
                let a = self.member_expr(cx, v, ty, args[0]);
                let c = self.member_expr(cx, v, ty, args[1]);
                return match b {
                    Builtin::Union => Expr::If(Box::new(a), t(), Box::new(c)),
                    _ => Expr::If(Box::new(a), Box::new(c), f()),
                };
            }
            TermKind::Const(id, inst) if self.has_member_rule(dom, 0) => {
                let tys: Vec<Ty> = inst.iter().map(|t| self.ty(t, &cx.subst)).collect();
                if let Some(fid) = self.member_fun(*id, tys) {
                    let mut es: Vec<Expr> = args.iter().map(|a| self.expr(cx, a)).collect();
                    es.push(Expr::Var(v));
                    return Expr::Call(fid, es);
                }
            }
            TermKind::Const(id, _)
                if args.len() == 1 && matches!(self.prelude.get("set"), Some(NameRef::Const(set)) if set == id) =>
            {
                if let Some(member) = self.prelude_fun("member", vec![ty.clone()]) {
                    let xs = self.expr(cx, args[0]);
                    return Expr::Call(member, vec![xs, Expr::Var(v)]);
                }
            }
            _ => {}
        }
        let set = self.expr(cx, dom);
        Expr::Prim(Prim::SetMember(ty.clone()), vec![Expr::Var(v), set])
    }

    /// `c.member a1 .. an x = (x ∈ rhs)` for a constant `c a1 .. an = rhs` that
    /// `set_definition` accepts, at the instance `tys`, with `x ∈ rhs` by `member_expr`.
    fn member_fun(&mut self, id: ConstId, tys: Vec<Ty>) -> Option<FunId> {
        if let Some(f) = self.members.get(&(id, tys.clone())) {
            return *f;
        }
        let def = self.env.consts[id.0 as usize].clone();
        let Some((locals, pats, rhs)) = ({
            let ConstKind::Equations { arity, .. } = &def.kind else { return None };
            self.set_definition(id, *arity).map(|(l, p, r)| (l.to_vec(), p.to_vec(), r.clone()))
        }) else {
            self.members.insert((id, tys), None);
            return None;
        };
        let subst = self.scheme_subst(&def.scheme, &tys);
        let Ty::Set(elem) = self.ty(&rhs.ty, &subst) else {
            self.members.insert((id, tys), None);
            return None;
        };
        let elem = (*elem).clone();
        let fid = self.reserve_fun(format!("{}.member", self.instance_name(id, &tys)), vec![], Ty::Bool);
        self.members.insert((id, tys), Some(fid));
        let mut cx =
            Cx { subst, locals: &locals, vars: HashMap::new(), next: 0, fname: def.name.clone(), in_case: false };
        let mut params = Vec::new();
        for p in &pats {
            let ty = self.ty(&p.ty, &cx.subst);
            let v = match p.kind {
                hir::PatKind::Var(l) => cx.bind(l),
                _ => cx.fresh(),
            };
            params.push((v, ty));
        }
        let x = cx.fresh();
        params.push((x, elem.clone()));
        let body = self.member_expr(&mut cx, x, &elem, &rhs);
        let f = &mut self.program.funs[fid.0 as usize];
        f.params = params;
        f.body = body;
        f.num_vars = cx.next;
        Some(fid)
    }
}

/// The conjuncts of `t` (`A ∧ B ∧ C`: A, B, C; any other term: itself).
fn conjuncts(t: &Term) -> Vec<&Term> {
    let mut out = Vec::new();
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        let (head, args) = t.spine();
        match (&head.kind, &args[..]) {
            (TermKind::Builtin(Builtin::And), [a, b]) => stack.extend([*b, *a]),
            _ => out.push(t),
        }
    }
    out
}
