//! The functions Isabelle's datatype package generates for a datatype, as ordinary
//! function definitions: the case combinator `case_t`, and for a datatype with type
//! parameters its set functions (`set_t`, or `set1_t`, `set2_t`, ... for several) and its
//! map function `map_t`.
//!
//! They are commands of kind [`FunKind::Generated`] at the span of the datatype's name, so
//! they fail with the datatype and a theory's own definition of the same name hides them.
//! A set or map function is generated only where every field's type is one hol can walk:
//! a parameter, a type without parameters, a datatype of the same declaration, and lists,
//! options and pairs of those; otherwise the name stays one hol does not support.

use super::ast::*;
use crate::span::Span;

/// The generated functions of one `datatype` command (its declarations are mutually
/// recursive, so each kind of function is one group over all of them): the case
/// combinators, and with `bnf` the set and map functions.
pub fn datatype_functions(decls: &[DatatypeDecl], bnf: bool) -> Vec<CommandKind> {
    let Some(first) = decls.first() else { return Vec::new() };
    // A case combinator takes a function per constructor, and there is a set function per
    // parameter: beyond these sizes the names stay unsupported, so that what a command
    // costs stays in proportion to its text (`tests/fixtures/limits/`).
    let ctors: usize = decls.iter().map(|d| d.ctors.len()).sum();
    if ctors > MAX_CONSTRUCTORS {
        return Vec::new();
    }
    let g = Gen { sp: first.name.span, decls };
    let mut out = vec![g.case_combinators()];
    let params = first.params.len();
    let same_params = decls.iter().all(|d| d.params.len() == params);
    if bnf && params > 0 && params <= MAX_PARAMETERS && same_params {
        // All or none: a field hol cannot walk (a function, whose domain's parameters are
        // dead) changes how Isabelle numbers the set functions.
        let sets: Option<Vec<CommandKind>> = (0..params).map(|k| g.set_functions(k)).collect();
        if let (Some(sets), Some(map)) = (sets, g.map_functions()) {
            out.extend(sets);
            out.push(map);
        }
    }
    out
}

const MAX_CONSTRUCTORS: usize = 256;
const MAX_PARAMETERS: usize = 8;
/// How deep in a field's type (`'a list option list ...`) the functions look.
const MAX_NESTING: usize = 16;

struct Gen<'a> {
    sp: Span,
    decls: &'a [DatatypeDecl],
}

impl Gen<'_> {
    fn term(&self, kind: TermKind) -> Term {
        Term { kind, span: self.sp }
    }

    fn name(&self, n: &str) -> Term {
        self.term(TermKind::Name(Ident { name: n.to_string(), span: self.sp }))
    }

    fn app(&self, f: Term, args: impl IntoIterator<Item = Term>) -> Term {
        args.into_iter().fold(f, |f, a| self.term(TermKind::App(Box::new(f), Box::new(a))))
    }

    fn bin(&self, op: BinOp, l: Term, r: Term) -> Term {
        self.term(TermKind::BinOp(op, self.sp, Box::new(l), Box::new(r)))
    }

    fn lambda(&self, params: Vec<Term>, body: Term) -> Term {
        self.term(TermKind::Lambda(params, Box::new(body)))
    }

    fn case(&self, scrutinee: Term, arms: Vec<(Term, Term)>) -> Term {
        self.term(TermKind::Case(Box::new(scrutinee), arms))
    }

    /// `f p = rhs` as a defining equation.
    fn equation(&self, lhs: Term, rhs: Term) -> Equation {
        Equation { name: None, term: self.bin(BinOp::Eq, lhs, rhs) }
    }

    fn group(&self, names: Vec<String>, equations: Vec<Equation>) -> CommandKind {
        let consts =
            names.into_iter().map(|n| ConstDecl { name: Ident { name: n, span: self.sp }, ty: None }).collect();
        CommandKind::Fun { kind: FunKind::Generated, consts, equations }
    }

    /// A constructor applied to fresh variables `x1 ... xn`, and those variables' names.
    fn ctor_pattern(&self, c: &CtorDecl) -> (Term, Vec<String>) {
        let vars: Vec<String> = (1..=c.args.len()).map(|i| format!("x{i}")).collect();
        (self.app(self.name(&c.name.name), vars.iter().map(|v| self.name(v))), vars)
    }

    /// `case_t f1 ... fm x = (case x of C1 x1 ... ⇒ f1 x1 ... | ...)`.
    fn case_combinators(&self) -> CommandKind {
        let mut names = Vec::new();
        let mut equations = Vec::new();
        for d in self.decls {
            let name = format!("case_{}", d.name.name);
            let fs: Vec<String> = (1..=d.ctors.len()).map(|i| format!("f{i}")).collect();
            let arms = d
                .ctors
                .iter()
                .zip(&fs)
                .map(|(c, f)| {
                    let (pat, vars) = self.ctor_pattern(c);
                    (pat, self.app(self.name(f), vars.iter().map(|v| self.name(v))))
                })
                .collect();
            let lhs = self.app(self.name(&name), fs.iter().map(|f| self.name(f)).chain([self.name("x")]));
            equations.push(self.equation(lhs, self.case(self.name("x"), arms)));
            names.push(name);
        }
        self.group(names, equations)
    }

    /// The declaration of this group that `ty` is (with the group's own parameters).
    fn own(&self, ty: &Type) -> Option<&DatatypeDecl> {
        let TypeKind::App(n, args) = &ty.kind else { return None };
        let d = self.decls.iter().find(|d| d.name.name == n.name)?;
        let same = args.len() == d.params.len()
            && args
                .iter()
                .zip(&d.params)
                .all(|(a, p)| matches!(&a.kind, TypeKind::Var(v) if v.name.name == p.name.name));
        same.then_some(d)
    }

    fn mentions_params(&self, ty: &Type) -> bool {
        match &ty.kind {
            TypeKind::Var(_) => true,
            TypeKind::App(_, args) => args.iter().any(|a| self.mentions_params(a)),
            TypeKind::Fun(a, b) => self.mentions_params(a) || self.mentions_params(b),
        }
    }

    /// The elements for parameter `k` in a value `x` of type `ty`, as a set term; `None`
    /// where nothing is there, `Err` where hol cannot walk the type.
    fn set_of(&self, k: usize, ty: &Type, x: Term, depth: usize) -> Result<Option<Term>, ()> {
        let param = &self.decls[0].params[k].name.name;
        if !self.mentions_params(ty) {
            return Ok(None);
        }
        if depth > MAX_NESTING {
            return Err(());
        }
        if let Some(d) = self.own(ty) {
            return Ok(Some(self.app(self.name(&set_name(d, k)), [x])));
        }
        let y = format!("y{depth}");
        match &ty.kind {
            TypeKind::Var(v) if &v.name.name == param => Ok(Some(self.term(TermKind::SetLit(vec![x])))),
            TypeKind::Var(_) => Ok(None),
            TypeKind::App(n, args) => match (n.name.as_str(), &args[..]) {
                ("list", [elem]) => {
                    let Some(part) = self.set_of(k, elem, self.name(&y), depth + 1)? else { return Ok(None) };
                    // foldr (λy acc. part ∪ acc) x {}
                    let acc = format!("acc{depth}");
                    let step = self
                        .lambda(vec![self.name(&y), self.name(&acc)], self.bin(BinOp::Union, part, self.name(&acc)));
                    Ok(Some(self.app(self.name("foldr"), [step, x, self.term(TermKind::SetLit(Vec::new()))])))
                }
                ("option", [elem]) => {
                    let Some(part) = self.set_of(k, elem, self.name(&y), depth + 1)? else { return Ok(None) };
                    let none = (self.name("None"), self.term(TermKind::SetLit(Vec::new())));
                    let some = (self.app(self.name("Some"), [self.name(&y)]), part);
                    Ok(Some(self.case(x, vec![none, some])))
                }
                ("prod", [a, b]) => {
                    let (p, q) = (format!("p{depth}"), format!("q{depth}"));
                    let l = self.set_of(k, a, self.name(&p), depth + 1)?;
                    let r = self.set_of(k, b, self.name(&q), depth + 1)?;
                    let body = match (l, r) {
                        (Some(l), Some(r)) => self.bin(BinOp::Union, l, r),
                        (Some(s), None) | (None, Some(s)) => s,
                        (None, None) => return Ok(None),
                    };
                    let pat = self.term(TermKind::Tuple(vec![self.name(&p), self.name(&q)]));
                    Ok(Some(self.case(x, vec![(pat, body)])))
                }
                _ => Err(()),
            },
            TypeKind::Fun(..) => Err(()),
        }
    }

    /// `set_t (C x1 ... xn) = part1 ∪ ... ∪ partn` for parameter `k`, for every declaration.
    fn set_functions(&self, k: usize) -> Option<CommandKind> {
        let mut names = Vec::new();
        let mut equations = Vec::new();
        for d in self.decls {
            let name = set_name(d, k);
            for c in &d.ctors {
                let (pat, vars) = self.ctor_pattern(c);
                let mut parts = Vec::new();
                for (a, v) in c.args.iter().zip(&vars) {
                    parts.extend(self.set_of(k, &a.ty, self.name(v), 0).ok()?);
                }
                let rhs = parts
                    .into_iter()
                    .reduce(|l, r| self.bin(BinOp::Union, l, r))
                    .unwrap_or_else(|| self.term(TermKind::SetLit(Vec::new())));
                equations.push(self.equation(self.app(self.name(&name), [pat]), rhs));
            }
            names.push(name);
        }
        Some(self.group(names, equations))
    }

    /// `x` of type `ty` with `f1 ... fn` applied to the elements of the parameters.
    fn map_of(&self, fs: &[String], ty: &Type, x: Term, depth: usize) -> Result<Term, ()> {
        if !self.mentions_params(ty) {
            return Ok(x);
        }
        if depth > MAX_NESTING {
            return Err(());
        }
        if let Some(d) = self.own(ty) {
            let f = self.name(&format!("map_{}", d.name.name));
            return Ok(self.app(f, fs.iter().map(|f| self.name(f)).chain([x])));
        }
        let y = format!("y{depth}");
        match &ty.kind {
            TypeKind::Var(v) => {
                let k = self.decls[0].params.iter().position(|p| p.name.name == v.name.name).ok_or(())?;
                Ok(self.app(self.name(&fs[k]), [x]))
            }
            TypeKind::App(n, args) => match (n.name.as_str(), &args[..]) {
                ("list" | "option", [elem]) => {
                    let f = self.lambda(vec![self.name(&y)], self.map_of(fs, elem, self.name(&y), depth + 1)?);
                    let map = if n.name == "list" { "map" } else { "map_option" };
                    Ok(self.app(self.name(map), [f, x]))
                }
                ("prod", [a, b]) => {
                    let (p, q) = (format!("p{depth}"), format!("q{depth}"));
                    let l = self.map_of(fs, a, self.name(&p), depth + 1)?;
                    let r = self.map_of(fs, b, self.name(&q), depth + 1)?;
                    let pat = self.term(TermKind::Tuple(vec![self.name(&p), self.name(&q)]));
                    Ok(self.case(x, vec![(pat, self.term(TermKind::Tuple(vec![l, r])))]))
                }
                _ => Err(()),
            },
            TypeKind::Fun(..) => Err(()),
        }
    }

    /// `map_t f1 ... fn (C x1 ... xm) = C (map x1) ... (map xm)`, for every declaration.
    fn map_functions(&self) -> Option<CommandKind> {
        let fs: Vec<String> = (1..=self.decls[0].params.len()).map(|i| format!("f{i}")).collect();
        let mut names = Vec::new();
        let mut equations = Vec::new();
        for d in self.decls {
            let name = format!("map_{}", d.name.name);
            for c in &d.ctors {
                let (pat, vars) = self.ctor_pattern(c);
                let mut args = Vec::new();
                for (a, v) in c.args.iter().zip(&vars) {
                    args.push(self.map_of(&fs, &a.ty, self.name(v), 0).ok()?);
                }
                let lhs = self.app(self.name(&name), fs.iter().map(|f| self.name(f)).chain([pat]));
                equations.push(self.equation(lhs, self.app(self.name(&c.name.name), args)));
            }
            names.push(name);
        }
        Some(self.group(names, equations))
    }
}

/// `set_t` for a datatype with one parameter, `set1_t`, `set2_t`, ... for several.
fn set_name(d: &DatatypeDecl, k: usize) -> String {
    if d.params.len() == 1 {
        format!("set_{}", d.name.name)
    } else {
        format!("set{}_{}", k + 1, d.name.name)
    }
}
