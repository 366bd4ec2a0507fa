//! Translation of core IR bodies into the interpreter's own tree (`Node`), once per function
//! and interpreter: literals and constant constructor terms become ready values, case
//! alternatives a table indexed by tag, primitives are specialised by type (structural
//! equality where the type allows it), `λ`s get their captured variables computed, and
//! inductive predicates' clauses become patterns and goals for checking mode. Ill-formed IR
//! (wrong arities, unknown ids, variables out of range) becomes a `Node::Error` that fails
//! with `NotExecutable` if it is ever reached, never a panic.

use super::types::{TyInfo, Types};
use crate::core::ir::{free_vars, Expr, FunId, InductiveDef, Lit, NumTy, PredId, Prim, Program, Quant, Ty, Undef};
use crate::stack;
use crate::value::Int;
use crate::value::Value;
use std::cell::OnceCell;
use std::collections::BTreeSet;
use std::rc::Rc;

/// The largest `k` of a head term `n + k` read as `Suc^k n` (larger ones are checked after
/// `n` is bound, as other head terms are).
const MAX_SUC_PATTERN: u8 = 64;

/// The compiled form of a `λ`: the values of `captures` are copied into the closure when it
/// is created; applying it builds a frame of `num_vars` slots (the enclosing function's).
pub struct LambdaCode {
    pub(crate) params: Box<[u32]>,
    pub(crate) captures: Box<[u32]>,
    pub(crate) num_vars: usize,
    pub(crate) body: Node,
}

pub(crate) struct FunCode {
    pub arity: usize,
    pub num_vars: usize,
    pub params: Box<[u32]>,
    /// Parameter `i` is variable `i`: arguments are already in place in a new frame.
    pub params_in_place: bool,
    pub body: Node,
}

pub(crate) struct CaseAlt {
    pub binders: Box<[u32]>,
    pub body: Node,
}

pub(crate) enum Op {
    Add,
    Sub(NumTy),
    Mul,
    Div,
    Mod,
    Neg,
    Suc,
    IntOfNat,
    NatOfInt,
    Not,
    /// Equality and order where the structural ones are the HOL ones.
    EqPlain,
    LtPlain,
    LePlain,
    Eq(Rc<TyInfo>),
    Lt(Rc<TyInfo>),
    Le(Rc<TyInfo>),
    // Set operations, with the element type.
    SetEmpty,
    SetUniv(Rc<TyInfo>),
    SetInsert(Rc<TyInfo>),
    SetMember(Rc<TyInfo>),
    SetUnion(Rc<TyInfo>),
    SetInter(Rc<TyInfo>),
    SetDiff(Rc<TyInfo>),
    SetCompl(Rc<TyInfo>),
    /// The tags of `Nil` and `Cons` of the result list type.
    SetToList {
        nil: u32,
        cons: u32,
    },
    /// `finite`; `infinite` says whether the element type is infinite (decided once here).
    SetFinite {
        infinite: bool,
    },
}

pub(crate) enum Node {
    Var(u32),
    Const(Value),
    Ctor(u32, Box<[Node]>),
    Call(FunId, Box<[Node]>),
    Prim1(Op, Box<Node>),
    Prim2(Op, Box<Node>, Box<Node>),
    Prim0(Op),
    FunRef(FunId),
    Apply(Box<Node>, Box<[Node]>),
    Lambda(Rc<LambdaCode>),
    Let(u32, Box<Node>, Box<Node>),
    If(Box<Node>, Box<Node>, Box<Node>),
    /// `alts[tag]`; `None` entries go to `default`.
    Case {
        scrut: Box<Node>,
        alts: Box<[Option<CaseAlt>]>,
        default: Option<Box<Node>>,
    },
    NatCase {
        scrut: Box<Node>,
        zero: Box<Node>,
        pred: u32,
        succ: Box<Node>,
    },
    Quant {
        q: Quant,
        var: u32,
        ty: Rc<TyInfo>,
        domain: Option<Box<Node>>,
        body: Box<Node>,
    },
    SetCompr {
        var: u32,
        ty: Rc<TyInfo>,
        domain: Option<Box<Node>>,
        body: Box<Node>,
    },
    Pred(PredId, Box<[Node]>),
    Undefined(Undef),
    /// Ill-formed IR, reported as `NotExecutable` when reached.
    Error(String),
}

/// A pattern of a clause head in checking mode.
pub(crate) enum Pat {
    /// A clause variable: binds it, or compares with its value when already bound.
    Var(u32, Rc<TyInfo>),
    Const(Value),
    Ctor(u32, Box<[Pat]>),
    /// `Suc p` against a `nat`.
    Suc(Box<Pat>),
    /// Any other term: evaluated once the variables in `vars` are bound and compared.
    Expr {
        node: Node,
        vars: Box<[u32]>,
        ty: Rc<TyInfo>,
    },
}

pub(crate) struct Goal {
    pub node: Node,
    /// Clause variables occurring in the goal.
    pub vars: Box<[u32]>,
    /// For a premise `v = t` (or `t = v`): `v`, `t` and the variables of `t`, so that an
    /// unbound `v` can be computed instead of enumerated.
    pub bind: Option<(u32, Node, Box<[u32]>)>,
    /// For a premise `p a b` (an inductive predicate on arguments): each argument's clause
    /// variables, so that an argument built from known ones is known (`(c, s)` of
    /// `big_step (c, s) t`); empty otherwise.
    pub arg_vars: Box<[Box<[u32]>]>,
}

pub(crate) struct ClauseCode {
    pub num_vars: usize,
    /// Type of each clause variable, by id.
    pub var_tys: Box<[Option<Rc<TyInfo>>]>,
    pub head: Box<[Pat]>,
    pub premises: Box<[Goal]>,
}

pub(crate) struct PredCode {
    pub name: String,
    pub clauses: Box<[ClauseCode]>,
}

/// The compiled code of one program, filled in on demand.
pub(crate) struct Code<'p> {
    pub prog: &'p Program,
    pub types: Types,
    funs: Box<[OnceCell<FunCode>]>,
    preds: Box<[OnceCell<PredCode>]>,
    /// Values may hold holes anywhere (`partial`), not only at the top.
    pub partial: bool,
}

impl<'p> Code<'p> {
    pub fn new(prog: &'p Program) -> Code<'p> {
        Code {
            prog,
            types: Types::default(),
            funs: prog.funs.iter().map(|_| OnceCell::new()).collect(),
            preds: prog.inductives.iter().map(|_| OnceCell::new()).collect(),
            partial: false,
        }
    }

    pub fn ty(&self, ty: &Ty) -> Rc<TyInfo> {
        self.types.get(self.prog, ty)
    }

    /// The compiled function; `None` for an unknown id.
    pub fn fun(&self, f: FunId) -> Option<&FunCode> {
        let cell = self.funs.get(f.0 as usize)?;
        Some(cell.get_or_init(|| self.compile_fun(f)))
    }

    pub fn pred(&self, p: PredId) -> Option<&PredCode> {
        let cell = self.preds.get(p.0 as usize)?;
        Some(cell.get_or_init(|| self.compile_pred(&self.prog.inductives[p.0 as usize])))
    }

    fn compile_fun(&self, f: FunId) -> FunCode {
        let def = self.prog.fun(f);
        let num_vars = def.num_vars as usize;
        let params: Box<[u32]> = def.params.iter().map(|(v, _)| v.0).collect();
        let mut c = Compiler { code: self, num_vars };
        let body = if let Some(v) = params.iter().find(|v| **v as usize >= num_vars) {
            Node::Error(format!("ill-formed IR: parameter v{v} of `{}` out of range", def.name))
        } else {
            c.expr(&def.body)
        };
        let params_in_place = params.iter().enumerate().all(|(i, v)| *v as usize == i);
        FunCode { arity: params.len(), num_vars, params, params_in_place, body }
    }

    /// Compiles a closed term evaluated in a frame of `num_vars` slots.
    pub fn compile_root(&self, e: &Expr, num_vars: usize) -> Node {
        Compiler { code: self, num_vars }.expr(e)
    }

    fn compile_pred(&self, def: &InductiveDef) -> PredCode {
        let clauses = def
            .clauses
            .iter()
            .map(|cl| {
                let num_vars = cl.num_vars as usize;
                let mut var_tys: Vec<Option<Rc<TyInfo>>> = vec![None; num_vars];
                for (v, ty) in &cl.vars {
                    if let Some(slot) = var_tys.get_mut(v.0 as usize) {
                        *slot = Some(self.ty(ty));
                    }
                }
                let mut c = Compiler { code: self, num_vars };
                let head = if cl.head.len() == def.params.len() {
                    cl.head.iter().zip(&def.params).map(|(t, ty)| c.pat(t, ty, &var_tys)).collect()
                } else {
                    let msg = format!("ill-formed IR: a clause of `{}` has the wrong number of arguments", def.name);
                    let ty = self.ty(&Ty::Bool);
                    vec![Pat::Expr { node: Node::Error(msg), vars: Box::new([]), ty }].into_boxed_slice()
                };
                let premises = cl.premises.iter().map(|e| c.goal(e)).collect();
                ClauseCode { num_vars, var_tys: var_tys.into_boxed_slice(), head, premises }
            })
            .collect();
        PredCode { name: def.name.clone(), clauses }
    }
}

struct Compiler<'a, 'p> {
    code: &'a Code<'p>,
    num_vars: usize,
}

fn boxed(n: Node) -> Box<Node> {
    Box::new(n)
}

impl Compiler<'_, '_> {
    fn expr(&mut self, e: &Expr) -> Node {
        match stack::grow(|| self.expr_here(e)) {
            Some(n) => n,
            None => Node::Error("expression nested too deeply".into()),
        }
    }

    fn exprs(&mut self, es: &[Expr]) -> Box<[Node]> {
        es.iter().map(|e| self.expr(e)).collect()
    }

    fn var(&self, v: u32) -> Result<u32, Node> {
        if (v as usize) < self.num_vars {
            Ok(v)
        } else {
            Err(Node::Error(format!("ill-formed IR: variable v{v} out of range")))
        }
    }

    fn expr_here(&mut self, e: &Expr) -> Node {
        let p = self.code.prog;
        match e {
            Expr::Var(v) => self.var(v.0).map_or_else(|e| e, Node::Var),
            Expr::Lit(l) => Node::Const(match l {
                Lit::Bool(b) => Value::Bool(*b),
                Lit::Nat(n) => Value::Int(Int::from(n)),
                Lit::Int(i) => Value::Int(Int::from(i.clone())),
            }),
            Expr::Ctor(c, args) => {
                let Some(def) = p.datas.get(c.data.0 as usize).and_then(|d| d.ctors.get(c.tag as usize)) else {
                    return Node::Error(format!("ill-formed IR: unknown constructor {}/{}", c.data.0, c.tag));
                };
                if def.fields.len() != args.len() {
                    return Node::Error(format!("ill-formed IR: `{}` applied to {} arguments", def.name, args.len()));
                }
                let args = self.exprs(args);
                if args.iter().all(|a| matches!(a, Node::Const(_))) {
                    let vals = args
                        .into_vec()
                        .into_iter()
                        .map(|a| match a {
                            Node::Const(v) => v,
                            _ => unreachable!(),
                        })
                        .collect();
                    Node::Const(Value::ctor(c.tag, vals))
                } else {
                    Node::Ctor(c.tag, args)
                }
            }
            Expr::Call(f, args) => match p.funs.get(f.0 as usize) {
                Some(def) if def.params.len() == args.len() => Node::Call(*f, self.exprs(args)),
                Some(def) => Node::Error(format!(
                    "ill-formed IR: `{}` called with {} arguments, it has {}",
                    def.name,
                    args.len(),
                    def.params.len()
                )),
                None => Node::Error(format!("ill-formed IR: unknown function {}", f.0)),
            },
            Expr::Prim(prim, args) => self.prim(prim, args),
            Expr::FunRef(f) => match p.funs.get(f.0 as usize) {
                Some(_) => Node::FunRef(*f),
                None => Node::Error(format!("ill-formed IR: unknown function {}", f.0)),
            },
            Expr::Apply(f, args) => Node::Apply(boxed(self.expr(f)), self.exprs(args)),
            Expr::Lambda(params, body) => {
                let ps: Vec<u32> = params.iter().map(|(v, _)| v.0).collect();
                if let Some(v) = ps.iter().find(|v| **v as usize >= self.num_vars) {
                    return Node::Error(format!("ill-formed IR: variable v{v} out of range"));
                }
                let mut free = BTreeSet::new();
                let mut bound = ps.clone();
                free_vars(body, &mut bound, &mut free);
                let captures: Box<[u32]> = free.into_iter().filter(|v| (*v as usize) < self.num_vars).collect();
                let body = self.expr(body);
                Node::Lambda(Rc::new(LambdaCode { params: ps.into(), captures, num_vars: self.num_vars, body }))
            }
            Expr::Let(v, _, rhs, body) => match self.var(v.0) {
                Ok(v) => Node::Let(v, boxed(self.expr(rhs)), boxed(self.expr(body))),
                Err(e) => e,
            },
            Expr::If(c, t, f) => Node::If(boxed(self.expr(c)), boxed(self.expr(t)), boxed(self.expr(f))),
            Expr::Case { scrut, data, alts, default } => {
                let Some(def) = p.datas.get(data.0 as usize) else {
                    return Node::Error(format!("ill-formed IR: unknown datatype {}", data.0));
                };
                let mut table: Vec<Option<CaseAlt>> = (0..def.ctors.len()).map(|_| None).collect();
                for alt in alts {
                    let Some(slot) = table.get_mut(alt.tag as usize) else {
                        return Node::Error(format!("ill-formed IR: case on `{}` with tag {}", def.name, alt.tag));
                    };
                    if slot.is_some() {
                        continue; // the first alternative for a tag wins
                    }
                    if let Some(v) = alt.binders.iter().find(|v| v.0 as usize >= self.num_vars) {
                        return Node::Error(format!("ill-formed IR: variable v{} out of range", v.0));
                    }
                    let binders = alt.binders.iter().map(|v| v.0).collect();
                    *slot = Some(CaseAlt { binders, body: self.expr(&alt.body) });
                }
                let default = default.as_ref().map(|d| boxed(self.expr(d)));
                Node::Case { scrut: boxed(self.expr(scrut)), alts: table.into(), default }
            }
            Expr::NatCase { scrut, zero, pred, succ } => match self.var(pred.0) {
                Ok(pred) => Node::NatCase {
                    scrut: boxed(self.expr(scrut)),
                    zero: boxed(self.expr(zero)),
                    pred,
                    succ: boxed(self.expr(succ)),
                },
                Err(e) => e,
            },
            Expr::Quant { q, var, ty, domain, body } => match self.var(var.0) {
                Ok(var) => Node::Quant {
                    q: *q,
                    var,
                    ty: self.code.ty(ty),
                    domain: domain.as_ref().map(|d| boxed(self.expr(d))),
                    body: boxed(self.expr(body)),
                },
                Err(e) => e,
            },
            Expr::SetCompr { var, ty, domain, body } => match self.var(var.0) {
                Ok(var) => Node::SetCompr {
                    var,
                    ty: self.code.ty(ty),
                    domain: domain.as_ref().map(|d| boxed(self.expr(d))),
                    body: boxed(self.expr(body)),
                },
                Err(e) => e,
            },
            Expr::Pred(id, args) => match p.inductives.get(id.0 as usize) {
                Some(def) if def.params.len() == args.len() => Node::Pred(*id, self.exprs(args)),
                Some(def) => Node::Error(format!("ill-formed IR: `{}` applied to {} arguments", def.name, args.len())),
                None => Node::Error(format!("ill-formed IR: unknown inductive predicate {}", id.0)),
            },
            Expr::Undefined(u) => Node::Undefined(u.clone()),
        }
    }

    fn prim(&mut self, prim: &Prim, args: &[Expr]) -> Node {
        let ty = |t: &Ty| self.code.ty(t);
        let op = match prim {
            Prim::Add(_) => Op::Add,
            Prim::Sub(t) => Op::Sub(*t),
            Prim::Mul(_) => Op::Mul,
            Prim::Div(_) => Op::Div,
            Prim::Mod(_) => Op::Mod,
            Prim::Neg => Op::Neg,
            Prim::Suc => Op::Suc,
            Prim::IntOfNat => Op::IntOfNat,
            Prim::NatOfInt => Op::NatOfInt,
            Prim::Not => Op::Not,
            Prim::Eq(t) => {
                let i = ty(t);
                if i.has_fun {
                    Op::Eq(i)
                } else {
                    Op::EqPlain
                }
            }
            Prim::Lt(t) => {
                let i = ty(t);
                if i.plain_order {
                    Op::LtPlain
                } else {
                    Op::Lt(i)
                }
            }
            Prim::Le(t) => {
                let i = ty(t);
                if i.plain_order {
                    Op::LePlain
                } else {
                    Op::Le(i)
                }
            }
            Prim::SetEmpty(_) => Op::SetEmpty,
            Prim::SetUniv(t) => Op::SetUniv(ty(t)),
            Prim::SetInsert(t) => Op::SetInsert(ty(t)),
            Prim::SetMember(t) => Op::SetMember(ty(t)),
            Prim::SetUnion(t) => Op::SetUnion(ty(t)),
            Prim::SetInter(t) => Op::SetInter(ty(t)),
            Prim::SetDiff(t) => Op::SetDiff(ty(t)),
            Prim::SetCompl(t) => Op::SetCompl(ty(t)),
            Prim::SetToList(t) => {
                let tags = match t {
                    Ty::Data(d) => {
                        let ctors = &self.code.prog.data(*d).ctors;
                        let tag = |name: &str| ctors.iter().position(|c| c.name == name).map(|i| i as u32);
                        tag("Nil").zip(tag("Cons"))
                    }
                    _ => None,
                };
                match tags {
                    Some((nil, cons)) => Op::SetToList { nil, cons },
                    None => return Node::Error("ill-formed IR: set_to_list needs a list type".into()),
                }
            }
            Prim::SetFinite(t) => Op::SetFinite { infinite: super::cardinality(self.code.prog, t).is_none() },
        };
        let arity = match op {
            Op::SetEmpty | Op::SetUniv(_) => 0,
            Op::Neg
            | Op::Suc
            | Op::IntOfNat
            | Op::NatOfInt
            | Op::Not
            | Op::SetCompl(_)
            | Op::SetToList { .. }
            | Op::SetFinite { .. } => 1,
            _ => 2,
        };
        if args.len() != arity {
            return Node::Error(format!("ill-formed IR: {prim:?} applied to {} arguments", args.len()));
        }
        match args {
            [] => Node::Prim0(op),
            [a] => Node::Prim1(op, boxed(self.expr(a))),
            [a, b] => Node::Prim2(op, boxed(self.expr(a)), boxed(self.expr(b))),
            _ => unreachable!("arity checked above"),
        }
    }

    /// A clause head term at type `ty` as a pattern.
    fn pat(&mut self, e: &Expr, ty: &Ty, var_tys: &[Option<Rc<TyInfo>>]) -> Pat {
        let p = self.code.prog;
        match e {
            Expr::Var(v) => {
                if v.0 as usize >= self.num_vars {
                    let node = Node::Error(format!("ill-formed IR: variable v{} out of range", v.0));
                    return Pat::Expr { node, vars: Box::new([]), ty: self.code.ty(ty) };
                }
                let t = var_tys.get(v.0 as usize).cloned().flatten().unwrap_or_else(|| self.code.ty(ty));
                Pat::Var(v.0, t)
            }
            Expr::Lit(_) => match self.expr(e) {
                Node::Const(v) => Pat::Const(v),
                n => self.expr_pat(n, e, ty),
            },
            Expr::Ctor(c, args) if matches!(ty, Ty::Data(d) if *d == c.data) => {
                match p.datas.get(c.data.0 as usize).and_then(|d| d.ctors.get(c.tag as usize)) {
                    Some(def) if def.fields.len() == args.len() => {
                        let fields = def.fields.clone();
                        Pat::Ctor(c.tag, args.iter().zip(&fields).map(|(a, t)| self.pat(a, t, var_tys)).collect())
                    }
                    _ => {
                        let n = self.expr(e);
                        self.expr_pat(n, e, ty)
                    }
                }
            }
            Expr::Prim(Prim::Suc, args) if args.len() == 1 => Pat::Suc(Box::new(self.pat(&args[0], &Ty::Nat, var_tys))),
            // `n + 2` (or `2 + n`) at `nat` is `Suc (Suc n)`: checking mode then finds `n`
            // from the argument (`ev (n + 2)`, as Programming and Proving writes it), where
            // a check would have to enumerate `n` over all of `nat`.
            Expr::Prim(Prim::Add(NumTy::Nat), args) if args.len() == 2 => {
                let small = |e: &Expr| match e {
                    Expr::Lit(Lit::Nat(n)) => u8::try_from(n).ok().filter(|k| *k <= MAX_SUC_PATTERN).map(i64::from),
                    _ => None,
                };
                match (small(&args[0]), small(&args[1])) {
                    (_, Some(k)) => self.sucs(k, &args[0], var_tys),
                    (Some(k), None) => self.sucs(k, &args[1], var_tys),
                    (None, None) => {
                        let n = self.expr(e);
                        self.expr_pat(n, e, ty)
                    }
                }
            }
            _ => {
                let n = self.expr(e);
                self.expr_pat(n, e, ty)
            }
        }
    }

    /// `Suc^k` of head term `e` (a `nat`) as a pattern.
    fn sucs(&mut self, k: i64, e: &Expr, var_tys: &[Option<Rc<TyInfo>>]) -> Pat {
        (0..k).fold(self.pat(e, &Ty::Nat, var_tys), |p, _| Pat::Suc(Box::new(p)))
    }

    fn expr_pat(&mut self, node: Node, e: &Expr, ty: &Ty) -> Pat {
        let mut free = BTreeSet::new();
        free_vars(e, &mut Vec::new(), &mut free);
        let vars = free.into_iter().filter(|v| (*v as usize) < self.num_vars).collect();
        Pat::Expr { node, vars, ty: self.code.ty(ty) }
    }

    fn goal(&mut self, e: &Expr) -> Goal {
        let mut free = BTreeSet::new();
        free_vars(e, &mut Vec::new(), &mut free);
        let bind = match e {
            Expr::Prim(Prim::Eq(_), args) if args.len() == 2 => match (&args[0], &args[1]) {
                (Expr::Var(v), t) | (t, Expr::Var(v)) if (v.0 as usize) < self.num_vars => {
                    let mut tv = BTreeSet::new();
                    free_vars(t, &mut Vec::new(), &mut tv);
                    if tv.contains(&v.0) {
                        None
                    } else {
                        let tv = tv.into_iter().filter(|v| (*v as usize) < self.num_vars).collect();
                        Some((v.0, self.expr(t), tv))
                    }
                }
                _ => None,
            },
            _ => None,
        };
        let vars = free.into_iter().filter(|v| (*v as usize) < self.num_vars).collect();
        let arg_vars: Box<[Box<[u32]>]> = match e {
            Expr::Pred(_, args) => args
                .iter()
                .map(|a| {
                    let mut free = BTreeSet::new();
                    free_vars(a, &mut Vec::new(), &mut free);
                    free.into_iter().filter(|v| (*v as usize) < self.num_vars).collect()
                })
                .collect(),
            _ => Box::default(),
        };
        Goal { node: self.expr(e), vars, bind, arg_vars }
    }
}
