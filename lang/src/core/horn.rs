//! Functions and inductive predicates of the core IR as Horn clauses, for the smart
//! generators. A function `f p1 … pn` becomes the relation `f(p1, …, pn, result)`, so that
//! it can run backwards: with `result` known and the parameters unknown, the clauses say
//! how to build arguments that give it (`sorted(xs, True)` builds sorted lists,
//! `append(xs, ys, zs)` with `zs` known splits it). An inductive predicate's rules are its
//! clauses as they are (`Rel` names either kind).
//!
//! Each path through the body's `Case`, `NatCase` and `If` is one clause, so the clauses of a
//! function are disjoint (pattern matching was compiled into a decision tree): a value is
//! produced by one clause only, whatever overlaps the source equations had. (An inductive
//! predicate's rules may overlap: a tuple derived twice is produced twice.) A path ending in
//! `Undefined` has no clause (`hd []` relates to nothing, as in Isabelle's predicate
//! compiler). Nested calls are flattened into goals over fresh variables; constructors
//! (and `Suc`) stay patterns, so a mode analysis can run them either way. A boolean in tail
//! position that is an equality, a membership, an inductive predicate or a negation of a
//! relation gets a clause per truth value, so that when it must hold it unifies, enumerates
//! a set or runs the relation. Anything else (arithmetic, λs, quantifiers, a `case` inside
//! an argument) is a `Compute` goal, which runs only once its free variables are known
//! (functional mode).
//!
//! What it does not know: modes, search order, depth, and how goals run (the smart
//! generators' business, in `quickcheck`).

use super::ir::{CtorRef, Expr, FunId, Lit, PredId, Prim, Program, Ty, VarId};
use std::fmt::Write;

/// A term of a clause: variables, constructors, literals and `Suc`.
#[derive(Clone, Debug, PartialEq)]
pub enum Pattern {
    Var(VarId),
    Ctor(CtorRef, Vec<Pattern>),
    Lit(Lit),
    Suc(Box<Pattern>),
}

/// A goal of a clause's body.
#[derive(Clone, Debug, PartialEq)]
pub enum Goal {
    /// `var` and `pattern` are the same value: a match when `var` is known, a construction
    /// when the pattern's variables are.
    Unify(VarId, Pattern),
    /// The relation of `fun`: `fun args = result`.
    Call { fun: FunId, args: Vec<Pattern>, result: Pattern },
    /// The inductive predicate holds of `args`.
    Pred(PredId, Vec<Pattern>),
    /// `target` is the value of `expr`, computed from its free variables.
    Compute(Pattern, Expr),
    /// The value of `pattern` is an element of the set `var` (`x ∈ cards s g`): once the
    /// set is known, its elements can be enumerated.
    Member(Pattern, VarId),
}

/// One path of a function's body: `head` is the parameters' patterns and then the result's.
#[derive(Clone, Debug, PartialEq)]
pub struct HornClause {
    /// The clause's variables and their types: the parameters first.
    pub vars: Vec<(VarId, Ty)>,
    pub head: Vec<Pattern>,
    pub body: Vec<Goal>,
}

/// A relation of the clauses: a function's graph (its result the last argument) or an
/// inductive predicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rel {
    Fun(FunId),
    Pred(PredId),
}

impl Rel {
    /// The relation's name, as the program has it.
    pub fn name(self, prog: &Program) -> &str {
        match self {
            Rel::Fun(f) => &prog.fun(f).name,
            Rel::Pred(p) => &prog.inductive(p).name,
        }
    }

    /// Its number of arguments (a function's result included).
    pub fn arity(self, prog: &Program) -> usize {
        match self {
            Rel::Fun(f) => prog.fun(f).params.len() + 1,
            Rel::Pred(p) => prog.inductive(p).params.len(),
        }
    }

    /// The type of its argument `i` (a function's result last).
    pub fn arg_type(self, prog: &Program, i: usize) -> Option<&Ty> {
        match self {
            Rel::Fun(f) => {
                let def = prog.fun(f);
                def.params.get(i).map(|(_, t)| t).or((i == def.params.len()).then_some(&def.ret))
            }
            Rel::Pred(p) => prog.inductive(p).params.get(i),
        }
    }

    /// The relation's clauses (`clauses`, `pred_clauses`).
    pub fn clauses(self, prog: &Program) -> Vec<HornClause> {
        match self {
            Rel::Fun(f) => clauses(prog, f),
            Rel::Pred(p) => pred_clauses(prog, p),
        }
    }
}

/// The clauses of inductive predicate `p`: one per introduction rule, its head terms as
/// patterns (a term that is not a constructor term is computed by goals) and its premises
/// as goals that must hold.
pub fn pred_clauses(prog: &Program, p: PredId) -> Vec<HornClause> {
    let def = prog.inductive(p);
    let mut out = Vec::new();
    for rule in &def.clauses {
        let mut d = Derive { prog, next: rule.num_vars, vars: rule.vars.clone(), out: Vec::new() };
        let mut goals = Vec::new();
        let head: Vec<Pattern> = rule.head.iter().map(|t| d.pattern_of(t, &mut goals)).collect();
        let mut ok = true;
        for premise in &rule.premises {
            ok &= d.flatten(premise, &Pattern::Lit(Lit::Bool(true)), &mut goals);
        }
        if ok {
            d.finish(&head, goals);
            out.extend(d.out);
        }
    }
    out
}

/// The clauses of function `f` of `prog` (its body as `prog` has it: apply code equations
/// first to derive them from the code that compiled code runs).
pub fn clauses(prog: &Program, f: FunId) -> Vec<HornClause> {
    let def = prog.fun(f);
    let mut d = Derive { prog, next: def.num_vars, vars: def.params.clone(), out: Vec::new() };
    let result = d.fresh(def.ret.clone());
    let head: Vec<Pattern> =
        def.params.iter().map(|(v, _)| Pattern::Var(*v)).chain(std::iter::once(Pattern::Var(result))).collect();
    d.path(&def.body, &Pattern::Var(result), Vec::new(), &head);
    d.out
}

struct Derive<'p> {
    prog: &'p Program,
    next: u32,
    /// Every variable met so far, with its type (a clause keeps those its path binds).
    vars: Vec<(VarId, Ty)>,
    out: Vec<HornClause>,
}

impl Derive<'_> {
    fn fresh(&mut self, ty: Ty) -> VarId {
        let v = VarId(self.next);
        self.next += 1;
        self.vars.push((v, ty));
        v
    }

    fn ty_of(&self, v: VarId) -> Ty {
        self.vars.iter().find(|(w, _)| *w == v).map_or(Ty::Bool, |(_, t)| t.clone())
    }

    /// The clauses of the paths of `e` in tail position, its value being `result`, after
    /// the goals `goals`.
    fn path(&mut self, e: &Expr, result: &Pattern, goals: Vec<Goal>, head: &[Pattern]) {
        match e {
            Expr::Undefined(_) => {}
            Expr::Case { scrut, data, alts, default } => {
                let (v, goals) = self.var_of(scrut, goals);
                for alt in alts {
                    let fields = self.prog.data(*data).ctors[alt.tag as usize].fields.clone();
                    for (b, t) in alt.binders.iter().zip(fields) {
                        self.vars.push((*b, t));
                    }
                    let pat = Pattern::Ctor(
                        CtorRef { data: *data, tag: alt.tag },
                        alt.binders.iter().map(|b| Pattern::Var(*b)).collect(),
                    );
                    let mut g = goals.clone();
                    g.push(Goal::Unify(v, pat));
                    self.path(&alt.body, result, g, head);
                }
                if let Some(d) = default {
                    // The tags the alternatives leave, each with fresh fields.
                    let ctors = self.prog.data(*data).ctors.clone();
                    for (tag, c) in ctors.iter().enumerate() {
                        if alts.iter().any(|a| a.tag as usize == tag) {
                            continue;
                        }
                        let fields = c.fields.iter().map(|t| Pattern::Var(self.fresh(t.clone()))).collect();
                        let mut g = goals.clone();
                        g.push(Goal::Unify(v, Pattern::Ctor(CtorRef { data: *data, tag: tag as u32 }, fields)));
                        self.path(d, result, g, head);
                    }
                }
            }
            Expr::NatCase { scrut, zero, pred, succ } => {
                let (v, goals) = self.var_of(scrut, goals);
                let mut g = goals.clone();
                g.push(Goal::Unify(v, Pattern::Lit(Lit::Nat(0u32.into()))));
                self.path(zero, result, g, head);
                self.vars.push((*pred, Ty::Nat));
                let mut g = goals;
                g.push(Goal::Unify(v, Pattern::Suc(Box::new(Pattern::Var(*pred)))));
                self.path(succ, result, g, head);
            }
            Expr::If(_, t, f) if **t == Expr::Lit(Lit::Bool(true)) && **f == Expr::Lit(Lit::Bool(false)) => {
                // `if c then True else False` is a check wherever it stands: `core::fuse`
                // writes a call so when it must not run backwards (another goal builds
                // the value it would produce).
                let mut g = goals;
                if self.flatten(e, result, &mut g) {
                    self.finish(head, g);
                }
            }
            Expr::If(c, t, f) => {
                for (branch, truth) in [(t, true), (f, false)] {
                    let mut g = goals.clone();
                    self.flatten(c, &Pattern::Lit(Lit::Bool(truth)), &mut g);
                    self.path(branch, result, g, head);
                }
            }
            Expr::Let(v, ty, rhs, body) => {
                self.vars.push((*v, ty.clone()));
                let mut g = goals;
                self.flatten(rhs, &Pattern::Var(*v), &mut g);
                self.path(body, result, g, head);
            }
            leaf if matches!(result, Pattern::Var(_)) && self.decomposes(leaf) => {
                // A boolean leaf that decomposes (an equality, a negation): one clause per
                // truth value, so that with the result `True` the equality is a unification
                // that can build or split values (`s = s1 @ [e] @ s2` with `s` known splits
                // it) instead of a check that needs every variable first.
                let Pattern::Var(r) = result else { return };
                for truth in [true, false] {
                    let mut g = goals.clone();
                    g.push(Goal::Unify(*r, Pattern::Lit(Lit::Bool(truth))));
                    if self.flatten(leaf, &Pattern::Lit(Lit::Bool(truth)), &mut g) {
                        self.finish(head, g);
                    }
                }
            }
            leaf => {
                let mut g = goals;
                if self.flatten(leaf, result, &mut g) {
                    self.finish(head, g);
                }
            }
        }
    }

    /// A clause of `head` and `body`, with the variables it mentions.
    fn finish(&mut self, head: &[Pattern], body: Vec<Goal>) {
        let mut used: Vec<VarId> = Vec::new();
        let mut add = |v: VarId| {
            if !used.contains(&v) {
                used.push(v);
            }
        };
        head.iter().for_each(|p| pattern_vars(p, &mut add));
        for g in &body {
            match g {
                Goal::Unify(v, p) => {
                    add(*v);
                    pattern_vars(p, &mut add);
                }
                Goal::Call { args, result, .. } => {
                    args.iter().for_each(|p| pattern_vars(p, &mut add));
                    pattern_vars(result, &mut add);
                }
                Goal::Pred(_, args) => args.iter().for_each(|p| pattern_vars(p, &mut add)),
                Goal::Compute(p, e) => {
                    pattern_vars(p, &mut add);
                    expr_vars(e, &mut add);
                }
                Goal::Member(p, set) => {
                    pattern_vars(p, &mut add);
                    add(*set);
                }
            }
        }
        let vars = used.into_iter().map(|v| (v, self.ty_of(v))).collect();
        self.out.push(HornClause { vars, head: head.to_vec(), body });
    }

    /// The variable `e` is (a fresh one computed by new goals when `e` is not a variable).
    fn var_of(&mut self, e: &Expr, mut goals: Vec<Goal>) -> (VarId, Vec<Goal>) {
        if let Expr::Var(v) = e {
            return (*v, goals);
        }
        let ty = self.type_of(e);
        let v = self.fresh(ty);
        self.flatten(e, &Pattern::Var(v), &mut goals);
        (v, goals)
    }

    /// Goals that make `target` the value of `e`; `false` when `e` is undefined.
    fn flatten(&mut self, e: &Expr, target: &Pattern, goals: &mut Vec<Goal>) -> bool {
        match e {
            Expr::Undefined(_) => return false,
            Expr::Call(f, args) => {
                let args = args.iter().map(|a| self.pattern_of(a, goals)).collect();
                goals.push(Goal::Call { fun: *f, args, result: target.clone() });
            }
            Expr::Pred(p, args) if *target == Pattern::Lit(Lit::Bool(true)) => {
                let args = args.iter().map(|a| self.pattern_of(a, goals)).collect();
                goals.push(Goal::Pred(*p, args));
            }
            Expr::Prim(Prim::Not, args) if args.len() == 1 => match target {
                Pattern::Lit(Lit::Bool(b)) => return self.flatten(&args[0], &Pattern::Lit(Lit::Bool(!b)), goals),
                _ => goals.push(Goal::Compute(target.clone(), e.clone())),
            },
            Expr::Prim(Prim::Eq(ty), args)
                if args.len() == 2 && *target == Pattern::Lit(Lit::Bool(true)) && self.structural(ty) =>
            {
                // Equal values of a type compared structurally: one value, two patterns.
                let a = self.pattern_of(&args[0], goals);
                let b = self.pattern_of(&args[1], goals);
                self.unify(a, b, ty.clone(), goals);
            }
            Expr::Prim(Prim::SetMember(ty), args)
                if args.len() == 2 && *target == Pattern::Lit(Lit::Bool(true)) && self.structural(ty) =>
            {
                let x = self.pattern_of(&args[0], goals);
                let Pattern::Var(set) = self.pattern_of(&args[1], goals) else { return true };
                goals.push(Goal::Member(x, set));
            }
            Expr::Let(v, ty, rhs, body) => {
                // A `let` inside a goal (a specialised `map W xs` applies `W` as
                // `let x' = x in W x'`): its variable is bound by a goal of its own, so
                // the body stays a pattern that can run backwards.
                self.vars.push((*v, ty.clone()));
                return self.flatten(rhs, &Pattern::Var(*v), goals) && self.flatten(body, target, goals);
            }
            Expr::Var(_) | Expr::Lit(_) | Expr::Ctor(..) | Expr::Prim(Prim::Suc, _) => {
                let p = self.pattern_of(e, goals);
                let ty = self.type_of(e);
                self.unify(target.clone(), p, ty, goals);
            }
            e => goals.push(Goal::Compute(target.clone(), e.clone())),
        }
        true
    }

    /// Goals that make patterns `a` and `b` (of type `ty`) the same value.
    fn unify(&mut self, a: Pattern, b: Pattern, ty: Ty, goals: &mut Vec<Goal>) {
        match (a, b) {
            (Pattern::Var(v), p) | (p, Pattern::Var(v)) => goals.push(Goal::Unify(v, p)),
            (a, b) => {
                let v = self.fresh(ty);
                goals.push(Goal::Unify(v, b));
                goals.push(Goal::Unify(v, a));
            }
        }
    }

    /// Whether `e`, a boolean in tail position, is worth a clause per truth value: an
    /// equality that unifies, a membership that enumerates a set, an inductive predicate
    /// (a relation only when it holds), or a negation of something that runs as a relation.
    fn decomposes(&self, e: &Expr) -> bool {
        match e {
            Expr::Prim(Prim::Eq(ty) | Prim::SetMember(ty), args) => args.len() == 2 && self.structural(ty),
            Expr::Pred(..) => true,
            Expr::Prim(Prim::Not, args) => {
                args.len() == 1 && (matches!(args[0], Expr::Call(..)) || self.decomposes(&args[0]))
            }
            _ => false,
        }
    }

    fn structural(&self, ty: &Ty) -> bool {
        structural(self.prog, ty)
    }

    /// `e` as a pattern, flattening what is not a variable, literal, constructor or `Suc`
    /// into goals over fresh variables.
    fn pattern_of(&mut self, e: &Expr, goals: &mut Vec<Goal>) -> Pattern {
        match e {
            Expr::Var(v) => Pattern::Var(*v),
            Expr::Lit(l) => Pattern::Lit(l.clone()),
            Expr::Ctor(c, args) => Pattern::Ctor(*c, args.iter().map(|a| self.pattern_of(a, goals)).collect()),
            Expr::Prim(Prim::Suc, args) if args.len() == 1 => Pattern::Suc(Box::new(self.pattern_of(&args[0], goals))),
            e => {
                let v = self.fresh(self.type_of(e));
                // An undefined argument: the goal that computes it fails at run time.
                self.flatten(e, &Pattern::Var(v), goals);
                Pattern::Var(v)
            }
        }
    }

    /// The type of `e`, as far as a fresh variable for it needs one.
    fn type_of(&self, e: &Expr) -> Ty {
        match e {
            Expr::Var(v) => self.ty_of(*v),
            Expr::Lit(Lit::Bool(_)) => Ty::Bool,
            Expr::Lit(Lit::Nat(_)) => Ty::Nat,
            Expr::Lit(Lit::Int(_)) => Ty::Int,
            Expr::Ctor(c, _) => Ty::Data(c.data),
            Expr::Call(f, _) => self.prog.fun(*f).ret.clone(),
            Expr::Prim(p, args) => match p {
                Prim::Add(n) | Prim::Sub(n) | Prim::Mul(n) | Prim::Div(n) | Prim::Mod(n) => num(*n),
                Prim::Neg | Prim::IntOfNat => Ty::Int,
                Prim::Suc | Prim::NatOfInt => Ty::Nat,
                Prim::Not | Prim::Eq(_) | Prim::Lt(_) | Prim::Le(_) | Prim::SetMember(_) | Prim::SetFinite(_) => {
                    Ty::Bool
                }
                Prim::SetEmpty(t) | Prim::SetUniv(t) => Ty::set(t.clone()),
                Prim::SetToList(t) => t.clone(),
                Prim::SetInsert(_) | Prim::SetUnion(_) | Prim::SetInter(_) | Prim::SetDiff(_) | Prim::SetCompl(_) => {
                    args.last().map_or(Ty::Bool, |a| self.type_of(a))
                }
            },
            Expr::Let(_, _, _, body) => self.type_of(body),
            Expr::If(_, t, _) => self.type_of(t),
            Expr::Quant { .. } | Expr::Pred(..) => Ty::Bool,
            Expr::SetCompr { ty, .. } => Ty::set(ty.clone()),
            Expr::Lambda(params, body) => {
                params.iter().rev().fold(self.type_of(body), |r, (_, t)| Ty::fun(t.clone(), r))
            }
            Expr::FunRef(f) => {
                let def = self.prog.fun(*f);
                def.params.iter().rev().fold(def.ret.clone(), |r, (_, t)| Ty::fun(t.clone(), r))
            }
            Expr::Apply(g, args) => {
                let mut t = self.type_of(g);
                for _ in args {
                    if let Ty::Fun(_, r) = t {
                        t = *r;
                    }
                }
                t
            }
            Expr::Case { alts, default, .. } => {
                alts.first().map(|a| &a.body).or(default.as_deref()).map_or(Ty::Bool, |b| self.type_of(b))
            }
            Expr::NatCase { zero, .. } => self.type_of(zero),
            Expr::Undefined(_) => Ty::Bool,
        }
    }
}

fn num(n: super::ir::NumTy) -> Ty {
    match n {
        super::ir::NumTy::Nat => Ty::Nat,
        super::ir::NumTy::Int => Ty::Int,
    }
}

/// Whether the interpreter's equality at `ty` is equality of the values' structure, so
/// that it can be a unification or a match: no sets or functions inside (they compare
/// extensionally, and two representations of one function differ).
pub fn structural(prog: &Program, ty: &Ty) -> bool {
    fn go(prog: &Program, ty: &Ty, seen: &mut Vec<super::ir::DataId>) -> bool {
        match ty {
            Ty::Bool | Ty::Nat | Ty::Int => true,
            Ty::Fun(..) | Ty::Set(_) => false,
            Ty::Data(d) => {
                if seen.contains(d) {
                    return true;
                }
                seen.push(*d);
                prog.data(*d).ctors.iter().all(|c| c.fields.iter().all(|f| go(prog, f, seen)))
            }
        }
    }
    go(prog, ty, &mut Vec::new())
}

/// Calls `add` on every variable of `p`.
pub fn pattern_vars(p: &Pattern, add: &mut impl FnMut(VarId)) {
    match p {
        Pattern::Var(v) => add(*v),
        Pattern::Ctor(_, ps) => ps.iter().for_each(|p| pattern_vars(p, add)),
        Pattern::Suc(p) => pattern_vars(p, add),
        Pattern::Lit(_) => {}
    }
}

/// The variables `e` mentions (bound ones included: they are the clause's too).
fn expr_vars(e: &Expr, add: &mut impl FnMut(VarId)) {
    if let Expr::Var(v) = e {
        add(*v);
    }
    e.for_each_child(&mut |c, _| expr_vars(c, add));
}

/// The clauses in text form, one per line: `sorted(xs, r) :- xs = Nil, r = True.` (for
/// `verbose` output and tests).
pub fn print_clauses(prog: &Program, f: FunId, clauses: &[HornClause]) -> String {
    let name = prog.fun(f).name.clone();
    let mut out = String::new();
    for c in clauses {
        let head: Vec<String> = c.head.iter().map(|p| print_pattern(prog, p)).collect();
        let _ = write!(out, "{name}({})", head.join(", "));
        let body: Vec<String> = c.body.iter().map(|g| print_goal(prog, g)).collect();
        if !body.is_empty() {
            let _ = write!(out, " :- {}", body.join(", "));
        }
        out.push_str(".\n");
    }
    out
}

fn print_goal(prog: &Program, g: &Goal) -> String {
    let pats = |ps: &[Pattern]| ps.iter().map(|p| print_pattern(prog, p)).collect::<Vec<_>>().join(", ");
    match g {
        Goal::Unify(v, p) => format!("v{} = {}", v.0, print_pattern(prog, p)),
        Goal::Call { fun, args, result } => {
            format!("{}({}, {})", prog.fun(*fun).name, pats(args), print_pattern(prog, result))
        }
        Goal::Pred(p, args) => format!("{}({})", prog.inductives[p.0 as usize].name, pats(args)),
        Goal::Compute(p, e) => format!("{} := {}", print_pattern(prog, p), super::print::print_expr(prog, e)),
        Goal::Member(p, set) => format!("{} ∈ v{}", print_pattern(prog, p), set.0),
    }
}

/// `p` in text form: `Cons(v1, v2)`, `Suc(v3)`, `True`.
pub fn print_pattern(prog: &Program, p: &Pattern) -> String {
    match p {
        Pattern::Var(v) => format!("v{}", v.0),
        Pattern::Lit(Lit::Bool(b)) => if *b { "True" } else { "False" }.into(),
        Pattern::Lit(Lit::Nat(n)) => n.to_string(),
        Pattern::Lit(Lit::Int(n)) => n.to_string(),
        Pattern::Suc(p) => format!("Suc({})", print_pattern(prog, p)),
        Pattern::Ctor(c, ps) => {
            let name = &prog.data(c.data).ctors[c.tag as usize].name;
            if ps.is_empty() {
                name.clone()
            } else {
                format!("{name}({})", ps.iter().map(|p| print_pattern(prog, p)).collect::<Vec<_>>().join(", "))
            }
        }
    }
}
