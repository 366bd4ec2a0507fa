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
use std::rc::Rc;

/// Per-body lowering state: the instance's type substitution and where each local lives.
pub(crate) struct Cx<'a> {
    pub subst: HashMap<Rc<str>, Ty>,
    pub locals: &'a [hir::Local],
    pub vars: HashMap<LocalId, VarId>,
    pub next: u32,
    /// Name of the function being lowered, for `Undef::Match`.
    pub fname: Rc<str>,
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
    env: Rc<Env>,
    prelude: Rc<HashMap<Rc<str>, NameRef>>,
    pub program: Program,
    funs: HashMap<(ConstId, Vec<Ty>), FunId>,
    preds: HashMap<(ConstId, Vec<Ty>), PredId>,
    datas: HashMap<(DataIdx, Vec<Ty>), DataId>,
    pending: Vec<(FunId, ConstId, Vec<Ty>)>,
    pending_preds: Vec<(PredId, ConstId, Vec<Ty>)>,
    /// Whether functions with code equations get a code version (`Program::code`).
    pub use_code_equations: bool,
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
    pub fn new(env: Rc<Env>, prelude: Rc<HashMap<Rc<str>, NameRef>>) -> Lowerer {
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
        }
    }

    pub fn env(&self) -> &Env {
        &self.env
    }

    // ---- types ---------------------------------------------------------------------------

    pub fn ty(&mut self, t: &Type, subst: &HashMap<Rc<str>, Ty>) -> Ty {
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
        let subst: HashMap<Rc<str>, Ty> = decl.params.iter().cloned().zip(args).collect();
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
        let fid = FunId(self.program.funs.len() as u32);
        let name = self.instance_name(id, &tys);
        self.program.funs.push(FunDef {
            name,
            params: vec![],
            ret: Ty::Bool,
            body: Expr::Undefined(Undef::Undefined),
            num_vars: 0,
        });
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

    fn scheme_subst(&self, scheme: &hir::Scheme, tys: &[Ty]) -> HashMap<Rc<str>, Ty> {
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
        name: &Rc<str>,
        subst: &HashMap<Rc<str>, Ty>,
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
        subst: HashMap<Rc<str>, Ty>,
        term: &Term,
    ) -> FunId {
        let mut cx = Cx { subst, locals, vars: HashMap::new(), next: 0, fname: Rc::from(name), in_case: false };
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
                if let Some(e) = self.quant_over_list(cx, *q, *l, bound.as_ref(), body) {
                    return e;
                }
                let ty = self.local_ty(cx, *l);
                let (domain, guard) = self.bound(cx, bound.as_ref(), &ty);
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
                let domain = dom.as_ref().map(|d| Box::new(self.expr(cx, d)));
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
                    let upt = self.prelude_fun("upt", vec![]);
                    let set = self.prelude_fun("set", vec![Ty::Nat]);
                    match (upt, set) {
                        (Some(upt), Some(set)) => {
                            let list = Expr::Call(upt, vec![Expr::Lit(Lit::Nat(BigUint::from(0u32))), hi]);
                            (Some(Expr::Call(set, vec![list])), None)
                        }
                        _ => (None, Some((true, hi))),
                    }
                } else {
                    (None, Some((strict, n)))
                }
            }
        }
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
        crate::interp::free_vars(&pred, &mut vec![var.0], &mut free);
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
            Builtin::EmptySet => Expr::Prim(Prim::SetEmpty(elem(ret)), es),
            Builtin::Univ => Expr::Prim(Prim::SetUniv(elem(ret)), es),
            Builtin::Insert => Expr::Prim(Prim::SetInsert(arg0), es),
            Builtin::Member => Expr::Prim(Prim::SetMember(arg0), es),
            Builtin::Union => Expr::Prim(Prim::SetUnion(elem(&arg0)), es),
            Builtin::Inter => Expr::Prim(Prim::SetInter(elem(&arg0)), es),
            Builtin::SubsetEq => Expr::Prim(Prim::Le(arg0), es),
            Builtin::SetToList => Expr::Prim(Prim::SetToList(ret.clone()), es),
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
