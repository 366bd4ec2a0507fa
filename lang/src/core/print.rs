//! The text form of the core IR (read back by `core::parse`; `parse(print(p)) == p`).
//! It is what `hol check --dump-ir` shows and what IR-level tests are written in.
//!
//! ```text
//! ; a comment
//! data list[nat] = Nil | Cons(nat, list[nat])
//!
//! fun append[nat](v0: list[nat], v1: list[nat]) -> list[nat] =
//!   case v0 : list[nat] {
//!     Nil => v1
//!     Cons(v2, v3) => list[nat]::Cons(v2, @append[nat](v3, v1))
//!   }
//!
//! inductive even(nat) =
//!   | even(0)
//!   | forall v0: nat. even(suc(suc(v0))) <== pred even(v0)
//! ```
//!
//! Types: `bool`, `nat`, `int`, `set[nat]`, `(nat => bool)`, and datatypes by name and type
//! arguments (`list[nat]`, `a3`); when two datatypes share name and arguments, references
//! carry the index (`list#4[nat]`). Terms are prefix forms, so layout is free:
//! variables `v3`; literals `3` (nat), `-3i` (int), `True`; constructors `list[nat]::Nil`,
//! `list[nat]::Cons(v1, v2)`; calls `@f(a, b)` and function references `@f` (by index
//! `@#3` when names clash); primitives `add_nat(a, b)`, `sub_int`, `mul_*`, `div_*`, `mod_*`,
//! `neg`, `suc`, `int_of_nat`, `nat_of_int`, `not`, `eq[ty]`, `lt[ty]`, `le[ty]`,
//! `set_empty[ty]()`, `set_univ`, `set_insert`, `set_member`, `set_union`, `set_inter`,
//! `set_diff`, `set_compl` (the type is the element type); `apply(f, a, b)`;
//! `fn(v1: nat, v2: nat) => body`; `let v1: nat = e in body`; `if c then a else b`;
//! `case e : list[nat] { Nil => a  Cons(v1, v2) => b  _ => c }` and on nat
//! `case e : nat { 0 => a  Suc(v1) => b }`; `all v1: a3. body`, `ex v1: nat in s. body`,
//! `ex1`; `{v1: a3. body}`, `{v1: nat in s. body}`; `pred even(v0)`; `undefined`,
//! `undefined "hd"` (no equation of `hd` matched). A function's `vars N` is printed only when
//! `num_vars` is not one more than the largest variable it mentions. Names that are not
//! identifiers (optionally followed by a bracketed suffix, for function names) are quoted.

use super::ir::*;
use std::collections::HashMap;
use std::fmt::Write;

/// Words that cannot stand unquoted as a datatype name.
/// Names of primitives in the text form (`add_nat(..)`, `set_insert[ty](..)`).
pub(crate) const PRIM_NAMES: &[&str] = &[
    "add_nat",
    "add_int",
    "sub_nat",
    "sub_int",
    "mul_nat",
    "mul_int",
    "div_nat",
    "div_int",
    "mod_nat",
    "mod_int",
    "neg",
    "suc",
    "int_of_nat",
    "nat_of_int",
    "not",
    "eq",
    "lt",
    "le",
    "set_empty",
    "set_univ",
    "set_insert",
    "set_member",
    "set_union",
    "set_inter",
    "set_diff",
    "set_compl",
    "set_to_list",
    "set_finite",
];

/// Words of the text form that a name must not be printed as (it is quoted instead).
const KEYWORDS: &[&str] = &[
    "True",
    "False",
    "apply",
    "fn",
    "let",
    "in",
    "if",
    "then",
    "else",
    "case",
    "all",
    "ex",
    "ex1",
    "pred",
    "undefined",
    "vars",
    "forall",
    "data",
    "fun",
    "inductive",
    "bool",
    "nat",
    "int",
    "set",
    "Suc",
];

fn is_reserved(s: &str) -> bool {
    KEYWORDS.contains(&s) || PRIM_NAMES.contains(&s)
}

pub(crate) fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

pub(crate) fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '\''
}

pub(crate) fn is_ident(s: &str) -> bool {
    let mut cs = s.chars();
    matches!(cs.next(), Some(c) if is_ident_start(c)) && cs.all(is_ident_char) && s != "_"
}

fn is_var_name(s: &str) -> bool {
    s.len() > 1 && s.starts_with('v') && s[1..].bytes().all(|b| b.is_ascii_digit())
}

/// An identifier, optionally followed by one balanced bracket group ending the name.
pub(crate) fn is_raw_name(s: &str) -> bool {
    let end = s.find('[').unwrap_or(s.len());
    if !is_ident(&s[..end]) {
        return false;
    }
    let rest = &s[end..];
    if rest.is_empty() {
        return true;
    }
    let mut depth = 0i32;
    for (i, c) in rest.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 && i + 1 != rest.len() {
                    return false;
                }
            }
            '"' | '\n' | '\r' => return false,
            _ => {}
        }
        if depth <= 0 && c != ']' {
            return false;
        }
    }
    depth == 0
}

pub(crate) fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn name_or_quoted(s: &str, raw: bool) -> String {
    let ok = if raw { is_raw_name(s) } else { is_ident(s) && !is_reserved(s) && !is_var_name(s) };
    if ok {
        s.to_string()
    } else {
        quote(s)
    }
}

/// One more than the largest variable id mentioned in `e` (binders included), at least `n`.
pub(crate) fn vars_bound(e: &Expr, n: &mut u32) {
    let see = |v: &VarId, n: &mut u32| *n = (*n).max(v.0 + 1);
    match e {
        Expr::Var(v) => see(v, n),
        Expr::Lit(_) | Expr::FunRef(_) | Expr::Undefined(_) => {}
        Expr::Ctor(_, args) | Expr::Call(_, args) | Expr::Prim(_, args) | Expr::Pred(_, args) => {
            args.iter().for_each(|a| vars_bound(a, n))
        }
        Expr::Apply(f, args) => {
            vars_bound(f, n);
            args.iter().for_each(|a| vars_bound(a, n));
        }
        Expr::Lambda(ps, body) => {
            ps.iter().for_each(|(v, _)| see(v, n));
            vars_bound(body, n);
        }
        Expr::Let(v, _, a, b) => {
            see(v, n);
            vars_bound(a, n);
            vars_bound(b, n);
        }
        Expr::If(c, a, b) => {
            vars_bound(c, n);
            vars_bound(a, n);
            vars_bound(b, n);
        }
        Expr::Case { scrut, alts, default, .. } => {
            vars_bound(scrut, n);
            for alt in alts {
                alt.binders.iter().for_each(|v| see(v, n));
                vars_bound(&alt.body, n);
            }
            if let Some(d) = default {
                vars_bound(d, n);
            }
        }
        Expr::NatCase { scrut, zero, pred, succ } => {
            see(pred, n);
            vars_bound(scrut, n);
            vars_bound(zero, n);
            vars_bound(succ, n);
        }
        Expr::Quant { var, domain, body, .. } | Expr::SetCompr { var, domain, body, .. } => {
            see(var, n);
            if let Some(d) = domain {
                vars_bound(d, n);
            }
            vars_bound(body, n);
        }
    }
}

/// One more than the largest variable id mentioned in `e` (binders included): the
/// `num_vars` to evaluate a closed term with.
pub fn num_vars_of(e: &Expr) -> u32 {
    let mut n = 0;
    vars_bound(e, &mut n);
    n
}

pub(crate) fn fun_vars_bound(f: &FunDef) -> u32 {
    let mut n = 0;
    f.params.iter().for_each(|(v, _)| n = n.max(v.0 + 1));
    vars_bound(&f.body, &mut n);
    n
}

pub(crate) fn clause_vars_bound(c: &Clause) -> u32 {
    let mut n = 0;
    c.vars.iter().for_each(|(v, _)| n = n.max(v.0 + 1));
    c.head.iter().chain(&c.premises).for_each(|e| vars_bound(e, &mut n));
    n
}

/// Whether `e` has at most `budget` nodes and nothing printed on several lines.
fn is_small(e: &Expr, budget: &mut i32) -> bool {
    *budget -= 1;
    if *budget < 0 {
        return false;
    }
    match e {
        Expr::Var(_) | Expr::Lit(_) | Expr::FunRef(_) | Expr::Undefined(_) => true,
        Expr::Ctor(_, args) | Expr::Call(_, args) | Expr::Prim(_, args) | Expr::Pred(_, args) => {
            args.iter().all(|a| is_small(a, budget))
        }
        Expr::Apply(f, args) => is_small(f, budget) && args.iter().all(|a| is_small(a, budget)),
        Expr::Lambda(_, b) => is_small(b, budget),
        Expr::If(c, a, b) => is_small(c, budget) && is_small(a, budget) && is_small(b, budget),
        Expr::Quant { domain, body, .. } | Expr::SetCompr { domain, body, .. } => {
            domain.as_ref().is_none_or(|d| is_small(d, budget)) && is_small(body, budget)
        }
        Expr::Let(..) | Expr::Case { .. } | Expr::NatCase { .. } => false,
    }
}

/// Names for references, with indices where names clash.
struct Printer<'a> {
    p: &'a Program,
    data_clash: Vec<bool>,
    fun_clash: Vec<bool>,
    pred_clash: Vec<bool>,
    out: String,
}

fn clashes<K: std::hash::Hash + Eq>(keys: impl Iterator<Item = K>) -> Vec<bool> {
    let keys: Vec<K> = keys.collect();
    let mut count: HashMap<&K, usize> = HashMap::new();
    for k in &keys {
        *count.entry(k).or_default() += 1;
    }
    keys.iter().map(|k| count[k] > 1).collect()
}

impl<'a> Printer<'a> {
    fn new(p: &'a Program) -> Printer<'a> {
        Printer {
            p,
            data_clash: clashes(p.datas.iter().map(|d| (&d.name, &d.args))),
            fun_clash: clashes(p.funs.iter().map(|f| &f.name)),
            pred_clash: clashes(p.inductives.iter().map(|i| &i.name)),
            out: String::new(),
        }
    }

    fn ty(&mut self, t: &Ty) {
        match t {
            Ty::Bool => self.out.push_str("bool"),
            Ty::Nat => self.out.push_str("nat"),
            Ty::Int => self.out.push_str("int"),
            Ty::Set(e) => {
                self.out.push_str("set[");
                self.ty(e);
                self.out.push(']');
            }
            Ty::Fun(..) => {
                let (args, res) = t.uncurry();
                self.out.push('(');
                for a in args {
                    self.ty(a);
                    self.out.push_str(" => ");
                }
                self.ty(res);
                self.out.push(')');
            }
            Ty::Data(id) => self.data_ref(*id),
        }
    }

    fn data_ref(&mut self, id: DataId) {
        let Some(d) = self.p.datas.get(id.0 as usize) else {
            let _ = write!(self.out, "\"?\"#{}", id.0);
            return;
        };
        self.out.push_str(&name_or_quoted(&d.name, false));
        if self.data_clash[id.0 as usize] {
            let _ = write!(self.out, "#{}", id.0);
        }
        self.ty_args(&d.args);
    }

    /// Writes `items` separated by `, `.
    fn comma_list<T>(&mut self, items: &[T], mut each: impl FnMut(&mut Self, &T)) {
        for (i, x) in items.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            each(self, x);
        }
    }

    fn ty_args(&mut self, args: &[Ty]) {
        if !args.is_empty() {
            self.out.push('[');
            self.comma_list(args, |p, a| p.ty(a));
            self.out.push(']');
        }
    }

    fn fun_ref(&mut self, f: FunId) {
        match self.p.funs.get(f.0 as usize) {
            Some(def) if !self.fun_clash[f.0 as usize] => {
                let n = name_or_quoted(&def.name, true);
                self.out.push('@');
                self.out.push_str(&n);
            }
            _ => {
                let _ = write!(self.out, "@#{}", f.0);
            }
        }
    }

    fn pred_ref(&mut self, id: PredId) {
        match self.p.inductives.get(id.0 as usize) {
            Some(def) if !self.pred_clash[id.0 as usize] => {
                let n = name_or_quoted(&def.name, true);
                self.out.push_str(&n);
            }
            _ => {
                let _ = write!(self.out, "#{}", id.0);
            }
        }
    }

    fn ctor_name(&mut self, c: CtorRef) {
        let name = self.p.datas.get(c.data.0 as usize).and_then(|d| d.ctors.get(c.tag as usize)).map(|c| &c.name);
        let unique = name.is_some_and(|n| self.p.data(c.data).ctors.iter().filter(|k| &k.name == n).count() == 1);
        match name {
            Some(n) if unique && n != "_" => {
                let s = if is_ident(n) { n.clone() } else { quote(n) };
                self.out.push_str(&s);
            }
            _ => {
                let _ = write!(self.out, "#{}", c.tag);
            }
        }
    }

    fn nl(&mut self, ind: usize) {
        self.out.push('\n');
        for _ in 0..ind {
            self.out.push(' ');
        }
    }

    fn args(&mut self, args: &[Expr], ind: usize) {
        self.out.push('(');
        self.comma_list(args, |p, a| p.expr(a, ind));
        self.out.push(')');
    }

    /// `v: ty in domain. body` of a quantifier or a set comprehension.
    fn bound_body(&mut self, var: VarId, ty: &Ty, domain: Option<&Expr>, body: &Expr, ind: usize) {
        self.binder(var, ty);
        if let Some(d) = domain {
            self.out.push_str(" in ");
            self.expr(d, ind + 2);
        }
        self.out.push_str(". ");
        self.expr(body, ind + 2);
    }

    fn binder(&mut self, v: VarId, t: &Ty) {
        let _ = write!(self.out, "v{}: ", v.0);
        self.ty(t);
    }

    /// Writes `e` at the current position; continuation lines are indented by `ind`.
    fn expr(&mut self, e: &Expr, ind: usize) {
        match e {
            Expr::Var(v) => {
                let _ = write!(self.out, "v{}", v.0);
            }
            Expr::Lit(Lit::Bool(b)) => self.out.push_str(if *b { "True" } else { "False" }),
            Expr::Lit(Lit::Nat(n)) => {
                let _ = write!(self.out, "{n}");
            }
            Expr::Lit(Lit::Int(i)) => {
                let _ = write!(self.out, "{i}i");
            }
            Expr::Ctor(c, args) => {
                self.data_ref(c.data);
                self.out.push_str("::");
                self.ctor_name(*c);
                if !args.is_empty() {
                    self.args(args, ind);
                }
            }
            Expr::Call(f, args) => {
                self.fun_ref(*f);
                self.args(args, ind);
            }
            Expr::FunRef(f) => self.fun_ref(*f),
            Expr::Prim(prim, args) => {
                self.prim(prim);
                self.args(args, ind);
            }
            Expr::Apply(f, args) => {
                self.out.push_str("apply(");
                self.expr(f, ind);
                for a in args {
                    self.out.push_str(", ");
                    self.expr(a, ind);
                }
                self.out.push(')');
            }
            Expr::Lambda(params, body) => {
                self.out.push_str("fn(");
                self.comma_list(params, |p, (v, t)| p.binder(*v, t));
                self.out.push_str(") => ");
                self.expr(body, ind);
            }
            Expr::Let(v, t, rhs, body) => {
                self.out.push_str("let ");
                self.binder(*v, t);
                self.out.push_str(" = ");
                self.expr(rhs, ind + 2);
                self.out.push_str(" in");
                self.nl(ind);
                self.expr(body, ind);
            }
            Expr::If(c, a, b) => {
                if is_small(e, &mut 16) {
                    self.out.push_str("if ");
                    self.expr(c, ind + 2);
                    self.out.push_str(" then ");
                    self.expr(a, ind + 2);
                    self.out.push_str(" else ");
                    self.expr(b, ind + 2);
                } else {
                    self.out.push_str("if ");
                    self.expr(c, ind + 2);
                    self.out.push_str(" then");
                    self.nl(ind + 2);
                    self.expr(a, ind + 2);
                    self.nl(ind);
                    self.out.push_str("else");
                    self.nl(ind + 2);
                    self.expr(b, ind + 2);
                }
            }
            Expr::Case { scrut, data, alts, default } => {
                self.out.push_str("case ");
                self.expr(scrut, ind + 2);
                self.out.push_str(" : ");
                self.data_ref(*data);
                self.out.push_str(" {");
                for alt in alts {
                    self.nl(ind + 2);
                    self.ctor_name(CtorRef { data: *data, tag: alt.tag });
                    if !alt.binders.is_empty() {
                        self.out.push('(');
                        self.comma_list(&alt.binders, |p, v| {
                            let _ = write!(p.out, "v{}", v.0);
                        });
                        self.out.push(')');
                    }
                    self.out.push_str(" => ");
                    self.expr(&alt.body, ind + 4);
                }
                if let Some(d) = default {
                    self.nl(ind + 2);
                    self.out.push_str("_ => ");
                    self.expr(d, ind + 4);
                }
                self.nl(ind);
                self.out.push('}');
            }
            Expr::NatCase { scrut, zero, pred, succ } => {
                self.out.push_str("case ");
                self.expr(scrut, ind + 2);
                self.out.push_str(" : nat {");
                self.nl(ind + 2);
                self.out.push_str("0 => ");
                self.expr(zero, ind + 4);
                self.nl(ind + 2);
                let _ = write!(self.out, "Suc(v{}) => ", pred.0);
                self.expr(succ, ind + 4);
                self.nl(ind);
                self.out.push('}');
            }
            Expr::Quant { q, var, ty, domain, body } => {
                self.out.push_str(match q {
                    Quant::All => "all ",
                    Quant::Ex => "ex ",
                    Quant::Ex1 => "ex1 ",
                });
                self.bound_body(*var, ty, domain.as_deref(), body, ind);
            }
            Expr::SetCompr { var, ty, domain, body } => {
                self.out.push('{');
                self.bound_body(*var, ty, domain.as_deref(), body, ind);
                self.out.push('}');
            }
            Expr::Pred(id, args) => {
                self.out.push_str("pred ");
                self.pred_ref(*id);
                self.args(args, ind);
            }
            Expr::Undefined(Undef::Undefined) => self.out.push_str("undefined"),
            Expr::Undefined(Undef::Match(name)) => {
                self.out.push_str("undefined ");
                self.out.push_str(&quote(name));
            }
            Expr::Undefined(Undef::Case(name)) => {
                self.out.push_str("undefined case ");
                self.out.push_str(&quote(name));
            }
        }
    }

    fn prim(&mut self, prim: &Prim) {
        let num = |name: &str, t: &NumTy| {
            format!(
                "{name}_{}",
                match t {
                    NumTy::Nat => "nat",
                    NumTy::Int => "int",
                }
            )
        };
        let (name, ty) = match prim {
            Prim::Add(t) => (num("add", t), None),
            Prim::Sub(t) => (num("sub", t), None),
            Prim::Mul(t) => (num("mul", t), None),
            Prim::Div(t) => (num("div", t), None),
            Prim::Mod(t) => (num("mod", t), None),
            Prim::Neg => ("neg".into(), None),
            Prim::Suc => ("suc".into(), None),
            Prim::IntOfNat => ("int_of_nat".into(), None),
            Prim::NatOfInt => ("nat_of_int".into(), None),
            Prim::Not => ("not".into(), None),
            Prim::Eq(t) => ("eq".into(), Some(t)),
            Prim::Lt(t) => ("lt".into(), Some(t)),
            Prim::Le(t) => ("le".into(), Some(t)),
            Prim::SetEmpty(t) => ("set_empty".into(), Some(t)),
            Prim::SetUniv(t) => ("set_univ".into(), Some(t)),
            Prim::SetInsert(t) => ("set_insert".into(), Some(t)),
            Prim::SetMember(t) => ("set_member".into(), Some(t)),
            Prim::SetUnion(t) => ("set_union".into(), Some(t)),
            Prim::SetInter(t) => ("set_inter".into(), Some(t)),
            Prim::SetDiff(t) => ("set_diff".into(), Some(t)),
            Prim::SetCompl(t) => ("set_compl".into(), Some(t)),
            Prim::SetToList(t) => ("set_to_list".into(), Some(t)),
            Prim::SetFinite(t) => ("set_finite".into(), Some(t)),
        };
        self.out.push_str(&name);
        if let Some(t) = ty {
            self.out.push('[');
            self.ty(t);
            self.out.push(']');
        }
    }

    fn data_def(&mut self, d: &DataDef) {
        self.out.push_str("data ");
        self.out.push_str(&name_or_quoted(&d.name, false));
        self.ty_args(&d.args);
        self.out.push_str(" =");
        for (i, c) in d.ctors.iter().enumerate() {
            self.out.push_str(if i == 0 { " " } else { " | " });
            let s = if is_ident(&c.name) { c.name.clone() } else { quote(&c.name) };
            self.out.push_str(&s);
            if !c.fields.is_empty() {
                self.out.push('(');
                self.comma_list(&c.fields, |p, f| p.ty(f));
                self.out.push(')');
            }
        }
        self.out.push('\n');
    }

    fn fun_def(&mut self, f: &FunDef) {
        self.out.push_str("fun ");
        self.out.push_str(&name_or_quoted(&f.name, true));
        self.out.push('(');
        self.comma_list(&f.params, |p, (v, t)| p.binder(*v, t));
        self.out.push_str(") -> ");
        self.ty(&f.ret);
        if f.num_vars != fun_vars_bound(f) {
            let _ = write!(self.out, " vars {}", f.num_vars);
        }
        self.out.push_str(" =");
        if is_small(&f.body, &mut 12) {
            self.out.push(' ');
        } else {
            self.nl(2);
        }
        self.expr(&f.body, 2);
        self.out.push('\n');
    }

    fn inductive_def(&mut self, d: &InductiveDef) {
        self.out.push_str("inductive ");
        let name = name_or_quoted(&d.name, true);
        self.out.push_str(&name);
        self.out.push('(');
        self.comma_list(&d.params, |p, t| p.ty(t));
        self.out.push_str(") =");
        for c in &d.clauses {
            self.nl(2);
            self.out.push_str("| ");
            if !c.vars.is_empty() {
                self.out.push_str("forall ");
                self.comma_list(&c.vars, |p, (v, t)| p.binder(*v, t));
                self.out.push_str(". ");
            }
            self.out.push_str(&name);
            self.args(&c.head, 4);
            for (i, prem) in c.premises.iter().enumerate() {
                self.out.push_str(if i == 0 { " <== " } else { ", " });
                self.expr(prem, 4);
            }
            if c.num_vars != clause_vars_bound(c) {
                let _ = write!(self.out, " vars {}", c.num_vars);
            }
        }
        self.out.push('\n');
    }
}

/// The whole program in text form.
pub fn print_program(p: &Program) -> String {
    let mut pr = Printer::new(p);
    for d in &p.datas {
        pr.data_def(d);
    }
    for f in &p.funs {
        if !pr.out.is_empty() {
            pr.out.push('\n');
        }
        pr.fun_def(f);
    }
    for i in &p.inductives {
        if !pr.out.is_empty() {
            pr.out.push('\n');
        }
        pr.inductive_def(i);
    }
    pr.out
}

/// A term of `p` in text form.
pub fn print_expr(p: &Program, e: &Expr) -> String {
    let mut pr = Printer::new(p);
    pr.expr(e, 0);
    pr.out
}

/// A type of `p` in text form (`list[nat]`, `(nat => bool)`).
pub fn print_ty(p: &Program, t: &Ty) -> String {
    let mut pr = Printer::new(p);
    pr.ty(t);
    pr.out
}
