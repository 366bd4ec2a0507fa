//! Elaboration of surface terms into typed terms: name resolution (locals, constants,
//! constructors, builtins, and in lemmas free variables), Hindley–Milner inference with
//! sorts, desugaring of the notations (operators, lists, sets, comprehensions, updates) into
//! constants of the prelude, and the final resolution of every type.

use super::builtins::Builtin;
use super::classes;
use super::env::{Env, NameRef, TypeRef};
use super::hir::Quant;
use super::hir::*;
use super::isabelle::Catalog;
use super::scope::{Scope, Unknown};
use super::ty::{Sort, Type, TypePrinter};
use super::unify::{Infer, UnifyError};
use crate::diagnostic::Diagnostic;
use crate::span::Span;
use crate::syntax::ast;
use crate::syntax::edit_distance;
use num_bigint::BigInt;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

pub type R<T> = Result<T, Diagnostic>;

/// Names bound by a pattern, not yet in scope.
pub type Bindings = Vec<(Arc<str>, LocalId)>;

/// Constants of the definition group being checked are referred to by placeholder ids at
/// and above this base until they get their real ids (`Elab::fix_group_refs`).
pub const GROUP_BASE: u32 = 1 << 30;

/// The error for `what` (`type \`t\``, `type synonym \`t\``) past `MAX_TYPE_SIZE` nodes.
pub fn type_too_large(span: Span, what: String) -> Diagnostic {
    Diagnostic::error(
        span,
        format!("{what} is too large: more than {MAX_TYPE_SIZE} parts once its synonyms are expanded"),
    )
    .with_label("this type")
    .with_help("hol expands type synonyms; use a datatype to name a large type")
}

/// The most digits a numeral may have: reading one costs the square of its length.
pub const MAX_NUMERAL_DIGITS: usize = 100_000;

/// The value of a numeral written with `digits`.
fn numeral(digits: &str, span: Span) -> R<BigInt> {
    if digits.len() > MAX_NUMERAL_DIGITS {
        return Err(Diagnostic::error(
            span,
            format!("numeral too long: {} digits, more than the {MAX_NUMERAL_DIGITS} hol reads", digits.len()),
        )
        .with_label("this numeral"));
    }
    digits.parse().map_err(|_| Diagnostic::error(span, "malformed numeral"))
}

/// The most nodes a type may have once its synonyms are expanded (the largest types of real
/// theories have a few dozen).
pub const MAX_TYPE_SIZE: usize = 10_000;

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Unknown names are errors (definitions, `value`).
    Closed,
    /// Unknown names become free variables (lemmas, introduction rules).
    Free,
}

/// How type variables in a written type are read.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum TyVars {
    /// As fixed parameters of the signature being declared.
    Fixed,
    /// As the signature's parameters where declared, otherwise as inference variables shared
    /// by name within the command.
    Flexible,
}

pub struct Elab<'e> {
    pub env: &'e Env,
    /// The prelude's constants by name, for notations (`@` is always the prelude's `append`).
    pub prelude: &'e HashMap<Arc<str>, NameRef>,
    pub src: &'e str,
    pub inf: Infer,
    pub locals: Vec<Local>,
    pub scopes: Vec<(Arc<str>, LocalId)>,
    pub mode: Mode,
    pub tyvars: HashMap<Arc<str>, Type>,
    pub frees: Vec<(Arc<str>, LocalId)>,
    /// Where each free variable that was not declared (`fixes`) is first used.
    pub free_uses: Vec<(LocalId, Span)>,
    /// The constants being defined, with their (monomorphic while checking) types.
    pub group: Vec<(Arc<str>, Type)>,
    /// Checking a `value` term (for the message about free variables).
    pub closed_term: bool,
    /// What names that are not defined mean (`scope`).
    pub scope: &'e Scope,
}

fn num_class(n: &BigInt) -> &'static str {
    if *n == BigInt::from(0) {
        "zero"
    } else if *n == BigInt::from(1) {
        "one"
    } else {
        "numeral"
    }
}

impl<'e> Elab<'e> {
    pub fn new(
        env: &'e Env,
        prelude: &'e HashMap<Arc<str>, NameRef>,
        scope: &'e Scope,
        src: &'e str,
        mode: Mode,
    ) -> Elab<'e> {
        Elab {
            env,
            prelude,
            src,
            inf: Infer::new(env.datatype_names.clone()),
            locals: Vec::new(),
            scopes: Vec::new(),
            mode,
            tyvars: HashMap::new(),
            frees: Vec::new(),
            free_uses: Vec::new(),
            group: Vec::new(),
            closed_term: false,
            scope,
        }
    }

    // ---- helpers -------------------------------------------------------------------------

    fn snippet(&self, span: Span) -> Option<&str> {
        let s = self.src.get(span.range())?;
        (s.chars().count() <= 40 && !s.contains('\n')).then_some(s)
    }

    fn quoted(&self, span: Span) -> String {
        match self.snippet(span) {
            Some(s) => format!("`{s}`"),
            None => "this term".to_string(),
        }
    }

    pub fn show2(&self, a: &Type, b: &Type) -> (String, String) {
        let mut p = TypePrinter::default();
        let a = p.print(&self.inf.resolve(a));
        let b = p.print(&self.inf.resolve(b));
        (a, b)
    }

    pub fn show(&self, a: &Type) -> String {
        TypePrinter::default().print(&self.inf.resolve(a))
    }

    /// `found` would have to equal `expected`, which contains it: an infinite type.
    pub fn occurs_error(&self, found: &Type, expected: &Type, span: Span) -> Diagnostic {
        let (f, e) = self.show2(found, expected);
        Diagnostic::error(span, format!("type mismatch: {} would need an infinite type", self.quoted(span)))
            .with_label(format!("`{f}` would have to equal `{e}`, which contains it"))
            .with_note("a function applied to itself, or a list containing itself, has no type in HOL")
    }

    pub fn sort_error(&self, e: UnifyError, span: Span, what: &str) -> Diagnostic {
        match e {
            UnifyError::NoInstance(t, class) => {
                let t = TypePrinter::default().print(&t);
                Diagnostic::error(span, format!("type `{t}` is not of sort `{class}`"))
                    .with_label(format!("{what} needs a type of sort `{class}`"))
            }
            UnifyError::Occurs => Diagnostic::error(span, "type mismatch: this would need an infinite type")
                .with_label("the type would contain itself"),
            UnifyError::Mismatch => Diagnostic::error(span, "type mismatch"),
        }
    }

    /// Unifies `found` (the type of the term at `span`) with `expected`, or reports both.
    pub fn expect(&mut self, found: &Type, expected: &Type, span: Span, context: &str) -> R<()> {
        match self.inf.unify(found, expected) {
            Ok(()) => Ok(()),
            Err(UnifyError::Occurs) => Err(self.occurs_error(found, expected, span)),
            Err(UnifyError::Mismatch) => {
                let (f, e) = self.show2(found, expected);
                Err(Diagnostic::error(span, format!("type mismatch: expected `{e}`, found `{f}`"))
                    .with_label(format!("{} has type `{f}`{context}", self.quoted(span))))
            }
            Err(e) => Err(self.sort_error(e, span, &self.quoted(span))),
        }
    }

    pub fn new_local(&mut self, name: Arc<str>, ty: Type) -> LocalId {
        self.locals.push(Local { name, ty });
        self.locals.len() as LocalId - 1
    }

    fn lookup_local(&self, name: &str) -> Option<LocalId> {
        self.scopes.iter().rev().find(|(n, _)| &**n == name).map(|(_, l)| *l)
    }

    pub fn instantiate(&mut self, scheme: &Scheme) -> (Type, Vec<Type>) {
        let mut map = HashMap::new();
        let mut inst = Vec::new();
        for (p, sort) in &scheme.params {
            let v = self.inf.fresh(sort.clone());
            map.insert(p.clone(), v.clone());
            inst.push(v);
        }
        (scheme.ty.subst_params(&map), inst)
    }

    fn mk(&self, kind: TermKind, ty: Type, span: Span) -> Term {
        Term { kind, ty, span }
    }

    fn name_ref_term(&mut self, r: NameRef, span: Span) -> Term {
        match r {
            NameRef::Const(id) => {
                let scheme = self.env.konst(id).scheme.clone();
                let (ty, inst) = self.instantiate(&scheme);
                self.mk(TermKind::Const(id, inst), ty, span)
            }
            NameRef::Ctor(d, tag) => {
                let scheme = self.env.ctor_scheme(d, tag);
                let (ty, inst) = self.instantiate(&scheme);
                self.mk(TermKind::Ctor(d, tag, inst), ty, span)
            }
            NameRef::Builtin(b) => self.builtin(b, span),
        }
    }

    pub fn builtin(&mut self, b: Builtin, span: Span) -> Term {
        let (ty, _) = self.instantiate(&b.scheme());
        self.mk(TermKind::Builtin(b), ty, span)
    }

    /// A prelude constant or constructor used by a notation.
    /// The error for a notation of Isabelle's whose constant hol does not have (`r⇧*⇧*` is
    /// `rtranclp`): the notation always means that constant, so it is never read otherwise.
    fn unsupported_notation(&self, constant: &str, span: Span) -> Diagnostic {
        let written = self.snippet(span).unwrap_or(constant).to_string();
        let owner = super::isabelle::Catalog::exporter(&self.scope.isabelle, constant)
            .map_or_else(String::new, |t| format!(" of {}", super::scope::shown(t)));
        Diagnostic::error(
            span,
            format!(
                "`{written}` is Isabelle's notation for `{constant}`, a constant{owner} that hol does not support yet"
            ),
        )
        .with_label("not supported yet")
    }

    fn prelude_term(&mut self, name: &str, span: Span) -> R<Term> {
        match self.prelude.get(name) {
            Some(r) => Ok(self.name_ref_term(*r, span)),
            None => {
                Err(Diagnostic::error(span, format!("this notation needs `{name}` from the prelude, which is missing")))
            }
        }
    }

    /// `f x` with the types checked; `what` names the function in messages.
    pub fn app(&mut self, f: Term, x: Term) -> R<Term> {
        let span = f.span.to(x.span);
        let ft = self.inf.shallow(&f.ty).clone();
        let res = match ft {
            Type::Con(ref c, ref args) if &**c == super::ty::FUN => {
                let (a, b) = (args[0].clone(), args[1].clone());
                if let Err(e) = self.inf.unify(&x.ty, &a) {
                    return Err(match e {
                        UnifyError::NoInstance(..) => self.sort_error(e, x.span, &self.quoted(x.span)),
                        UnifyError::Occurs => self.occurs_error(&x.ty, &a, x.span),
                        _ => {
                            let (found, exp) = self.show2(&x.ty, &a);
                            Diagnostic::error(x.span, format!("type mismatch: expected `{exp}`, found `{found}`"))
                                .with_label(format!("{} has type `{found}`", self.quoted(x.span)))
                                .with_secondary(
                                    f.span,
                                    format!("{} expects an argument of type `{exp}`", self.quoted(f.span)),
                                )
                        }
                    });
                }
                b
            }
            Type::Var(_) => {
                let res = self.inf.fresh(Sort::new());
                let want = Type::fun(x.ty.clone(), res.clone());
                self.expect(&f.ty, &want, f.span, ", which is applied to an argument here")?;
                res
            }
            other => {
                let t = TypePrinter::default().print(&self.inf.resolve(&other));
                return Err(Diagnostic::error(
                    x.span,
                    format!("too many arguments: {} has type `{t}`, which is not a function", self.quoted(f.span)),
                )
                .with_label("this argument is one too many")
                .with_secondary(f.span, format!("this has type `{t}`")));
            }
        };
        Ok(self.mk(TermKind::App(Box::new(f), Box::new(x)), res, span))
    }

    fn app2(&mut self, f: Term, a: Term, b: Term) -> R<Term> {
        let fa = self.app(f, a)?;
        self.app(fa, b)
    }

    // ---- types ---------------------------------------------------------------------------

    pub fn convert_type(&mut self, t: &ast::Type, vars: TyVars) -> R<Type> {
        match &t.kind {
            ast::TypeKind::Var(tv) => {
                let name: Arc<str> = Arc::from(tv.name.name.as_str());
                let mut sort = Sort::new();
                for c in &tv.sort {
                    if !classes::is_class(&c.name) {
                        return Err(Diagnostic::error(c.span, format!("unknown class `{}`", c.name))
                            .with_label("not a class hol knows"));
                    }
                    sort.push(Arc::from(c.name.as_str()));
                }
                if vars == TyVars::Fixed || self.inf.param_sorts.contains_key(&name) {
                    let entry = self.inf.param_sorts.entry(name.clone()).or_default();
                    for c in sort {
                        if !entry.contains(&c) {
                            entry.push(c);
                        }
                    }
                    return Ok(Type::Param(name));
                }
                let ty = match self.tyvars.get(&name) {
                    Some(t) => t.clone(),
                    None => {
                        let v = self.inf.fresh(Sort::new());
                        self.tyvars.insert(name, v.clone());
                        v
                    }
                };
                for c in sort {
                    self.inf.require(&ty, &c).map_err(|e| self.sort_error(e, t.span, "this type variable"))?;
                }
                Ok(ty)
            }
            ast::TypeKind::Fun(a, b) => Ok(Type::fun(self.convert_type(a, vars)?, self.convert_type(b, vars)?)),
            ast::TypeKind::App(name, args) => {
                if let Some(d) = self.record_parent_error(name, args.len()) {
                    return Err(d);
                }
                let args = args.iter().map(|a| self.convert_type(a, vars)).collect::<R<Vec<_>>>()?;
                let arity_error = |expected: usize| {
                    Diagnostic::error(
                        name.span,
                        format!(
                            "type `{}` takes {expected} argument{}, but {} {} given",
                            name.name,
                            if expected == 1 { "" } else { "s" },
                            args.len(),
                            if args.len() == 1 { "was" } else { "were" }
                        ),
                    )
                    .with_label("wrong number of type arguments")
                };
                // A qualified type name (`List.list`) means its base name, as for constants.
                // A name a theory's own type hides means that type; one its failed definition
                // would have hidden means that failure.
                if self.scope.hidden_types.contains(name.name.as_str()) {
                    if let Some(d) = self.scope.failed_type(&name.name, name.span) {
                        return Err(d);
                    }
                }
                let written = self.env.shadows.get(name.name.as_str()).map_or(name.name.as_str(), |t| &**t);
                let base = match written.rsplit_once('.') {
                    Some((q, b)) if !q.is_empty() && !b.is_empty() && !self.env.types.contains_key(written) => b,
                    _ => written,
                };
                match self.env.types.get(base) {
                    Some(TypeRef::Base(n)) => {
                        if *n != args.len() {
                            return Err(arity_error(*n));
                        }
                        Ok(Type::con(&name.name, args))
                    }
                    Some(TypeRef::Data(d)) => {
                        let decl = self.env.data(*d);
                        if decl.params.len() != args.len() {
                            return Err(arity_error(decl.params.len()));
                        }
                        Ok(Type::Con(decl.name.clone(), args.into()))
                    }
                    Some(TypeRef::Synonym(params, rhs)) => {
                        if params.len() != args.len() {
                            return Err(arity_error(params.len()));
                        }
                        let map = params.iter().cloned().zip(args).collect();
                        let expanded = rhs.subst_params(&map);
                        // Synonyms can double a type at each step (`t2 = t1 × t1`); every
                        // later stage walks types as trees, so an exponential one would
                        // stall the checker for minutes before any limit applies.
                        if expanded.larger_than(MAX_TYPE_SIZE) {
                            return Err(type_too_large(t.span, format!("type `{}`", name.name)));
                        }
                        Ok(expanded)
                    }
                    None => {
                        if let Some(d) = self.scope.failed_type(base, name.span) {
                            return Err(d);
                        }
                        let names: Vec<&str> = self.env.types.keys().map(|k| &**k).collect();
                        let mut d = Diagnostic::error(name.span, format!("unknown type `{}`", name.name))
                            .with_label("no type of this name");
                        if matches!(name.name.as_str(), "string" | "char" | "String.literal") {
                            d = d.with_note("Isabelle's characters and strings (HOL.String) are not supported: a datatype of names (`datatype vname = X | Y`) can stand in");
                        } else if let Some(s) = suggest(&name.name, names.into_iter()) {
                            d = d.with_help(format!("a type with a similar name exists: `{s}`"));
                        }
                        Err(d)
                    }
                }
            }
        }
    }

    /// The parent of a record extension (`record cpoint = point + ...`, which stands for
    /// `point_scheme` at `point`'s span, `syntax::record_commands`) that is no record, or
    /// a record given the wrong number of type arguments: an error about the parent as
    /// written.
    fn record_parent_error(&self, name: &ast::Ident, arity: usize) -> Option<Diagnostic> {
        let parent = name.name.strip_suffix("_scheme")?;
        if self.src.get(name.span.range()) != Some(parent) {
            return None;
        }
        match self.env.types.get(name.name.as_str()) {
            Some(TypeRef::Synonym(params, _)) if params.len() == arity => None,
            Some(TypeRef::Synonym(params, _)) => {
                // The scheme's parameters: the record's, then its rest's.
                let own = &params[..params.len() - 1];
                let (expected, given) = (own.len(), arity - 1);
                let d = Diagnostic::error(
                    name.span,
                    format!(
                        "record `{parent}` takes {expected} type argument{}, but {given} {} given",
                        if expected == 1 { "" } else { "s" },
                        if given == 1 { "was" } else { "were" }
                    ),
                );
                let written = match own {
                    [one] => one.to_string(),
                    _ => format!("({})", own.join(", ")),
                };
                Some(
                    d.with_label("wrong number of type arguments")
                        .with_help(format!("write the parent with its arguments, as `\"{written} {parent}\" + ...`")),
                )
            }
            _ if let Some(d) = self.scope.failed_type(parent, name.span) => Some(d),
            _ => {
                let d = Diagnostic::error(name.span, format!("`{parent}` is not a record, so no record can extend it"))
                    .with_label("not a record of this theory");
                Some(match suggest(parent, self.record_levels().map(|(n, _)| n)) {
                    Some(s) => d.with_help(format!("a record with a similar name exists: `{s}`")),
                    None => d.with_help("a record extends a record declared before it with `record`"),
                })
            }
        }
    }

    // ---- terms ---------------------------------------------------------------------------

    fn name(&mut self, id: &ast::Ident, span: Span) -> R<Term> {
        let written = id.name.as_str();
        if let Some(b) = QUALIFIED_BUILTINS.iter().find(|(q, _)| *q == written).map(|(_, b)| *b) {
            return Ok(self.builtin(b, span));
        }
        // A qualified name (`List.rev`, `Lists.app`) means the constant of its base name
        // (theories are not namespaces here), unless Isabelle's theory of that name has
        // another constant so named (`Set.filter`: `Catalog::qualifier_fits`); one that names
        // no constant is an error (`scope`), never a variable. Qualified by one of Isabelle's
        // theories, it is the prelude's constant even where the theory defines its own of
        // that name (`Set.insert` beside a user's `insert` on lists).
        let name = match written.rsplit_once('.') {
            Some((qual, base))
                if !qual.is_empty()
                    && !base.is_empty()
                    && !self.env.names.contains_key(written)
                    && Catalog::qualifier_fits(&self.scope.isabelle, qual, base) =>
            {
                if Catalog::names_theory(&self.scope.isabelle, qual) {
                    if let Some(r) = self.prelude.get(base) {
                        return Ok(self.name_ref_term(*r, span));
                    }
                }
                if self.env.names.contains_key(base) || self.group.iter().any(|(n, _)| &**n == base) {
                    base
                } else {
                    written
                }
            }
            _ => written,
        };
        if name == written {
            if let Some(l) = self.lookup_local(name) {
                let ty = self.locals[l as usize].ty.clone();
                return Ok(self.mk(TermKind::Local(l), ty, span));
            }
        }
        if let Some(i) = self.group.iter().position(|(n, _)| &**n == name) {
            let ty = self.group[i].1.clone();
            return Ok(self.mk(TermKind::Const(ConstId(GROUP_BASE + i as u32), vec![]), ty, span));
        }
        // An imported name that a failed definition of the theory's own would have hidden
        // means that failure (`scope.unknown`), not the import; qualified, the import.
        if let Some(r) = self.env.names.get(name).filter(|_| name != written || !self.scope.hidden.contains(name)) {
            return Ok(self.name_ref_term(*r, span));
        }
        if let Some(d) = self.record_syntax_error(name, span) {
            return Err(d);
        }
        if let Unknown::Error(d) = self.scope.unknown(name, span, self.mode == Mode::Free) {
            return Err(d);
        }
        if self.mode == Mode::Free && !name.is_empty() {
            let l = match self.frees.iter().find(|(n, _)| &**n == name) {
                Some((_, l)) => *l,
                None => {
                    let ty = self.inf.fresh(Sort::new());
                    let l = self.new_local(Arc::from(name), ty);
                    self.frees.push((Arc::from(name), l));
                    self.free_uses.push((l, span));
                    l
                }
            };
            let ty = self.locals[l as usize].ty.clone();
            return Ok(self.mk(TermKind::Local(l), ty, span));
        }
        let mut d =
            Diagnostic::error(span, format!("undefined constant `{name}`")).with_label("not defined before this point");
        let candidates = self
            .env
            .all_names()
            .chain(self.group.iter().map(|(n, _)| &**n))
            .chain(self.scopes.iter().map(|(n, _)| &**n));
        if let Some(s) = suggest(name, candidates) {
            d = d.with_help(format!("a constant with a similar name exists: `{s}`"));
        } else if self.closed_term {
            d = d.with_note("`value` evaluates closed terms: free variables may stand only in lemmas");
        }
        Err(d)
    }

    /// The extension datatypes of the records in scope (`syntax::record_commands`): each
    /// record's name and the fields it adds, the latest first.
    fn record_levels(&self) -> impl Iterator<Item = (&str, Vec<&str>)> + '_ {
        self.env.datas.iter().rev().filter_map(|d| match d.ctors.as_slice() {
            [c] => {
                let fields = crate::syntax::record_ext_fields(&c.name)?;
                Some((d.name.strip_suffix("_ext").unwrap_or(&d.name), fields))
            }
            _ => None,
        })
    }

    /// A record term `⦇xpos = a, ypos = b, colour = c⦈` (the parser's record constructor
    /// applied to the values) as Isabelle reads it: the extension constructors of the
    /// records that add these fields, each holding the next, and `()` at the end,
    /// `⦇xpos, ypos, …⦈ a b (⦇colour, …⦈ c ())`. `None` when `t` is not a record term; an
    /// error when no records have these fields in this order. Terms and patterns alike.
    /// With it, the type of the record the innermost adds (`record_type`).
    fn record_term(&mut self, t: &ast::Term) -> Option<R<(ast::Term, Option<Type>)>> {
        // Every application comes here: the head is looked at before anything is allocated.
        let mut head = t;
        while let ast::TermKind::App(f, _) = &head.kind {
            head = f;
        }
        let ast::TermKind::Name(id) = &head.kind else { return None };
        let fields = crate::syntax::record_fields(&id.name)?;
        let (head, args) = t.spine();
        if fields.len() != args.len() {
            return None;
        }
        // The levels, outermost first: each the extension constructor and how many fields.
        let mut levels: Vec<(String, usize)> = Vec::new();
        let mut records: Vec<String> = Vec::new();
        let mut at = 0;
        while at < fields.len() {
            let level = self.record_levels().find(|(_, added)| added.first() == Some(&fields[at]));
            match level {
                Some((record, added)) if fields[at..].starts_with(&added) => {
                    records.push(record.to_string());
                    levels.push((crate::syntax::record_ext_constructor(&added), added.len()));
                    at += added.len();
                }
                _ => return Some(Err(self.record_syntax_error(&id.name, head.span).expect("a record term"))),
            }
        }
        // The levels must be a record and its ancestors, outermost first.
        let innermost = records.last().expect("a field").clone();
        if self.record_ancestry(&innermost).as_ref() != Some(&records) {
            return Some(Err(self.record_syntax_error(&id.name, head.span).expect("a record term")));
        }
        let ty = self.record_type(&innermost);
        let node = |kind| ast::Term { kind, span: t.span };
        let mut rest = node(ast::TermKind::Tuple(Vec::new()));
        for (ctor, n) in levels.iter().rev() {
            at -= n;
            let name = ast::Term {
                kind: ast::TermKind::Name(ast::Ident { name: ctor.clone(), span: id.span }),
                span: head.span,
            };
            let values = args[at..at + n].iter().map(|a| (*a).clone()).chain([rest]);
            rest = values.fold(name, |f, x| node(ast::TermKind::App(Box::new(f), Box::new(x))));
        }
        Some(Ok((rest, ty)))
    }

    /// Record `name` and the records it extends, outermost first (`point`, `cpoint`), read
    /// off its type synonym's extension datatypes.
    fn record_ancestry(&self, name: &str) -> Option<Vec<String>> {
        let Some(TypeRef::Synonym(_, rhs)) = self.env.types.get(name) else { return None };
        let mut out = Vec::new();
        let mut cur = rhs;
        while let Type::Con(c, args) = cur {
            let (Some(record), Some(rest)) = (c.strip_suffix("_ext"), args.last()) else { break };
            out.push(record.to_string());
            cur = rest;
        }
        Some(out)
    }

    /// The type of record `name` (its type synonym) with fresh type variables for its
    /// parameters: a record term is one, its parameters the same at every level (an
    /// extension's datatype has them all, used or not).
    fn record_type(&mut self, name: &str) -> Option<Type> {
        let Some(TypeRef::Synonym(params, rhs)) = self.env.types.get(name) else { return None };
        let (params, rhs) = (params.clone(), rhs.clone());
        let map = params.into_iter().map(|p| (p, self.inf.fresh(Sort::new()))).collect();
        Some(rhs.subst_params(&map))
    }

    /// A record term `⦇x = a, y = b⦈` or update `r⦇z := c⦈` whose fields no record has, in
    /// that order: an error that says which record was meant (never a free variable).
    fn record_syntax_error(&self, name: &str, span: Span) -> Option<Diagnostic> {
        // Each record with all its fields, its ancestors' first.
        let records = || {
            self.record_levels().filter_map(|(record, _)| {
                let levels = self.record_ancestry(record)?;
                let fields = levels.iter().map(|l| self.record_levels().find(|(r, _)| r == l).map(|(_, f)| f));
                Some((record, fields.collect::<Option<Vec<_>>>()?.concat()))
            })
        };
        if let Some(given) = crate::syntax::record_fields(name) {
            let listed = |fields: &[&str]| fields.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", ");
            let what = match given.as_slice() {
                [one] => format!("no record has just the field `{one}`"),
                _ => format!("no record has the fields {}, in this order", listed(&given)),
            };
            let mut d = Diagnostic::error(span, what).with_label("not a record of this theory");
            let has = |fields: &[&str], f: &str| fields.contains(&f);
            if let Some((record, fields)) = records().find(|(_, fields)| given.iter().all(|g| has(fields, g))) {
                let missing: Vec<&str> = fields.iter().copied().filter(|f| !has(&given, f)).collect();
                d = d.with_help(if missing.is_empty() {
                    format!("record `{record}` has them in the order {}", listed(&fields))
                } else {
                    format!("record `{record}` also needs {} (its fields: {})", listed(&missing), listed(&fields))
                });
            }
            return Some(d);
        }
        // `r⦇z := c⦈` names `z_update` at the field's name.
        let field = name.strip_suffix("_update")?;
        if self.src.get(span.range()) != Some(field) {
            return None;
        }
        let mut d = Diagnostic::error(span, format!("no record has the field `{field}`"))
            .with_label("not a field of a record of this theory");
        let all: Vec<String> = records().flat_map(|(_, fields)| fields).map(str::to_owned).collect();
        if let Some(s) = suggest(field, all.iter().map(String::as_str)) {
            d = d.with_help(format!("a field with a similar name exists: `{s}`"));
        }
        Some(d)
    }

    pub fn term(&mut self, t: &ast::Term) -> R<Term> {
        use ast::TermKind as K;
        let span = t.span;
        match &t.kind {
            K::Name(id) => self.name(id, span),
            K::Num(digits) => {
                let n = numeral(digits, span)?;
                let ty = self.inf.fresh(vec![Arc::from(num_class(&n))]);
                Ok(self.mk(TermKind::Num(n), ty, span))
            }
            K::Wildcard => {
                Err(Diagnostic::error(span, "`_` may only stand in a pattern").with_label("not a pattern position"))
            }
            K::App(..) if let Some(record) = self.record_term(t) => {
                let (record, ty) = record?;
                let record = self.term(&record)?;
                if let Some(ty) = ty {
                    self.expect(&record.ty, &ty, span, "")?;
                }
                Ok(record)
            }
            K::App(f, x) => {
                let f = self.term(f)?;
                let x = self.term(x)?;
                self.app(f, x)
            }
            K::Lambda(params, body) => self.lambda(params, body, span),
            K::Quant { q, binders, bound, body } => self.quant(*q, binders, bound.as_ref(), body, span),
            K::If(c, a, b) => {
                let c = self.term(c)?;
                self.expect(&c.ty, &Type::bool(), c.span, ", but a condition must be `bool`")?;
                let a = self.term(a)?;
                let b = self.term(b)?;
                self.expect(&b.ty, &a.ty, b.span, ", but the `then` branch has another type")?;
                let ty = a.ty.clone();
                Ok(self.mk(TermKind::If(Box::new(c), Box::new(a), Box::new(b)), ty, span))
            }
            K::Let(binds, body) => self.let_(binds, body, span),
            K::Case(scrut, arms) => {
                let scrut = self.term(scrut)?;
                let ty = self.inf.fresh(Sort::new());
                let mut out = Vec::new();
                for (p, rhs) in arms {
                    let depth = self.scopes.len();
                    let mut bound = Vec::new();
                    let pat = self.pat(p, &scrut.ty, &mut bound)?;
                    self.scopes.extend(bound);
                    let rhs = self.term(rhs)?;
                    self.scopes.truncate(depth);
                    self.expect(&rhs.ty, &ty, rhs.span, ", but an earlier case has another type")?;
                    out.push((pat, rhs));
                }
                Ok(self.mk(TermKind::Case(Box::new(scrut), out), ty, span))
            }
            K::BinOp(op, op_span, l, r) => self.binop(*op, *op_span, l, r, span),
            K::UnOp(op, op_span, x) => {
                let f = match op {
                    ast::UnOp::Not => self.builtin(Builtin::Not, *op_span),
                    ast::UnOp::Neg => self.builtin(Builtin::Uminus, *op_span),
                    ast::UnOp::Trancl => self.prelude_term("trancl", *op_span)?,
                    ast::UnOp::Rtrancl => self.prelude_term("rtrancl", *op_span)?,
                    ast::UnOp::Reflcl => self.prelude_term("reflcl", *op_span)?,
                    ast::UnOp::Converse => self.prelude_term("converse", *op_span)?,
                    ast::UnOp::Tranclp => self.prelude_term("tranclp", *op_span)?,
                    ast::UnOp::Rtranclp => self.prelude_term("rtranclp", *op_span)?,
                    ast::UnOp::Reflclp => return Err(self.unsupported_notation("reflclp", *op_span)),
                    ast::UnOp::Conversep => return Err(self.unsupported_notation("conversep", *op_span)),
                };
                let x = self.term(x)?;
                let mut r = self.app(f, x)?;
                r.span = span;
                Ok(r)
            }
            K::Tuple(xs) => {
                if xs.is_empty() {
                    return self.prelude_term("Unity", span);
                }
                let mut items = xs.iter().map(|x| self.term(x)).collect::<R<Vec<_>>>()?;
                let mut acc = items.pop().expect("tuple has components");
                while let Some(x) = items.pop() {
                    let pair = self.prelude_term("Pair", span)?;
                    acc = self.app2(pair, x, acc)?;
                }
                acc.span = span;
                Ok(acc)
            }
            K::List(xs) => {
                let items = xs.iter().map(|x| self.term(x)).collect::<R<Vec<_>>>()?;
                self.list_of(items, span)
            }
            K::ListCompr(head, quals) => {
                let depth = self.scopes.len();
                let r = self.compr(head, quals, span);
                self.scopes.truncate(depth);
                r
            }
            K::Range { from, to, exclusive } => {
                let a = self.term(from)?;
                let b = self.term(to)?;
                let f =
                    if *exclusive { self.prelude_term("upt", span)? } else { self.builtin(Builtin::RangeIncl, span) };
                let mut r = self.app2(f, a, b)?;
                r.span = span;
                Ok(r)
            }
            K::SetLit(xs) => {
                let mut acc = self.builtin(Builtin::EmptySet, span);
                for x in xs.iter().rev() {
                    let x = self.term(x)?;
                    let ins = self.builtin(Builtin::Insert, span);
                    acc = self.app2(ins, x, acc)?;
                }
                acc.span = span;
                Ok(acc)
            }
            K::SetCompr(pat, body) => self.set_compr(pat, body, span),
            K::Update(f, pairs) => {
                let mut acc = self.term(f)?;
                for (x, y) in pairs {
                    let upd = self.prelude_term("fun_upd", span)?;
                    let x = self.term(x)?;
                    let y = self.term(y)?;
                    let a = self.app(upd, acc)?;
                    acc = self.app2(a, x, y)?;
                }
                acc.span = span;
                Ok(acc)
            }
            K::Typed(x, ty) => {
                let mut x = self.term(x)?;
                let ty = self.convert_type(ty, TyVars::Flexible)?;
                self.expect(&x.ty, &ty, x.span, ", not the annotated type")?;
                // The term as written, constraint (and parentheses) included: an application
                // of it then spans `is_ord (t :: nat tree)`, not `is_ord (t`.
                x.span = span;
                Ok(x)
            }
        }
    }

    fn list_of(&mut self, items: Vec<Term>, span: Span) -> R<Term> {
        let mut acc = self.prelude_term("Nil", span)?;
        for x in items.into_iter().rev() {
            let cons = self.prelude_term("Cons", span)?;
            acc = self.app2(cons, x, acc)?;
        }
        acc.span = span;
        Ok(acc)
    }

    /// Binds a λ/quantifier variable: a plain name (optionally typed) becomes a local; any
    /// other pattern becomes a fresh local matched by a `case` around the body.
    fn binder_pattern(&mut self, p: &ast::Term) -> R<(LocalId, Option<Pat>, Bindings)> {
        match &p.kind {
            ast::TermKind::Name(id) if !self.is_pattern_constant(&id.name) => {
                let ty = self.inf.fresh(Sort::new());
                let l = self.new_local(Arc::from(id.name.as_str()), ty);
                Ok((l, None, vec![(Arc::from(id.name.as_str()), l)]))
            }
            ast::TermKind::Typed(inner, ty) if matches!(&inner.kind, ast::TermKind::Name(id) if !self.is_pattern_constant(&id.name)) =>
            {
                let ast::TermKind::Name(id) = &inner.kind else { unreachable!() };
                let ty = self.convert_type(ty, TyVars::Flexible)?;
                let l = self.new_local(Arc::from(id.name.as_str()), ty);
                Ok((l, None, vec![(Arc::from(id.name.as_str()), l)]))
            }
            _ => {
                let ty = self.inf.fresh(Sort::new());
                let l = self.new_local(Arc::from("_p"), ty.clone());
                let mut bound = Vec::new();
                let pat = self.pat(p, &ty, &mut bound)?;
                Ok((l, Some(pat), bound))
            }
        }
    }

    fn is_pattern_constant(&self, name: &str) -> bool {
        matches!(
            self.env.names.get(name),
            Some(NameRef::Ctor(..)) | Some(NameRef::Builtin(Builtin::True | Builtin::False))
        )
    }

    fn wrap_case(&mut self, l: LocalId, pat: Option<Pat>, body: Term) -> Term {
        match pat {
            None => body,
            Some(p) => {
                let ty = self.locals[l as usize].ty.clone();
                let scrut = self.mk(TermKind::Local(l), ty, p.span);
                let bty = body.ty.clone();
                let span = body.span;
                self.mk(TermKind::Case(Box::new(scrut), vec![(p, body)]), bty, span)
            }
        }
    }

    fn lambda(&mut self, params: &[ast::Term], body: &ast::Term, span: Span) -> R<Term> {
        let depth = self.scopes.len();
        let mut binders = Vec::new();
        for p in params {
            let (l, pat, bound) = self.binder_pattern(p)?;
            self.scopes.extend(bound);
            binders.push((l, pat));
        }
        let mut body = self.term(body)?;
        self.scopes.truncate(depth);
        for (l, pat) in binders.into_iter().rev() {
            body = self.wrap_case(l, pat, body);
            let ty = Type::fun(self.locals[l as usize].ty.clone(), body.ty.clone());
            body = self.mk(TermKind::Lambda(l, Box::new(body)), ty, span);
        }
        Ok(body)
    }

    fn quant(
        &mut self,
        q: ast::Quantifier,
        binders: &[ast::Binder],
        bound: Option<&ast::QuantBound>,
        body: &ast::Term,
        span: Span,
    ) -> R<Term> {
        let q = match q {
            ast::Quantifier::All => Quant::All,
            ast::Quantifier::Ex => Quant::Ex,
            ast::Quantifier::Ex1 => Quant::Ex1,
        };
        let depth = self.scopes.len();
        let mut vars = Vec::new();
        for b in binders {
            let ty = match &b.ty {
                Some(t) => self.convert_type(t, TyVars::Flexible)?,
                None => self.inf.fresh(Sort::new()),
            };
            // The bound is evaluated outside the binder.
            let bnd = match bound {
                None => None,
                Some(ast::QuantBound::In(a)) => {
                    let a = self.term(a)?;
                    self.expect(&a.ty, &Type::set(ty.clone()), a.span, ", but it bounds the quantified variable")?;
                    Some(Bound::In(Box::new(a)))
                }
                Some(ast::QuantBound::Less(n)) | Some(ast::QuantBound::LessEq(n)) => {
                    let n_t = self.term(n)?;
                    self.expect(&n_t.ty, &ty, n_t.span, ", but it bounds the quantified variable")?;
                    self.inf.require(&ty, &Arc::from("ord")).map_err(|e| self.sort_error(e, n_t.span, "a bound"))?;
                    Some(if matches!(bound, Some(ast::QuantBound::Less(_))) {
                        Bound::Less(Box::new(n_t))
                    } else {
                        Bound::LessEq(Box::new(n_t))
                    })
                }
            };
            let name: Arc<str> = Arc::from(b.name.name.as_str());
            let l = self.new_local(name.clone(), ty);
            self.scopes.push((name, l));
            vars.push((l, bnd));
        }
        let mut body = self.term(body)?;
        self.expect(&body.ty, &Type::bool(), body.span, ", but a quantifier's body must be `bool`")?;
        self.scopes.truncate(depth);
        for (l, bnd) in vars.into_iter().rev() {
            body = self.mk(TermKind::Quant(q, l, bnd, Box::new(body)), Type::bool(), span);
        }
        Ok(body)
    }

    fn let_(&mut self, binds: &[(ast::Term, ast::Term)], body: &ast::Term, span: Span) -> R<Term> {
        let depth = self.scopes.len();
        let mut steps = Vec::new();
        for (p, t) in binds {
            let t = self.term(t)?;
            let (l, pat, bound) = self.binder_pattern(p)?;
            self.expect(&t.ty, &self.locals[l as usize].ty.clone(), t.span, ", but the pattern has another type")?;
            self.scopes.extend(bound);
            steps.push((l, pat, t));
        }
        let mut body = self.term(body)?;
        self.scopes.truncate(depth);
        for (l, pat, t) in steps.into_iter().rev() {
            body = self.wrap_case(l, pat, body);
            let ty = body.ty.clone();
            body = self.mk(TermKind::Let(l, Box::new(t), Box::new(body)), ty, span);
        }
        Ok(body)
    }

    /// `[head. quals]` as `concat`/`map`/`filter`/`if` of the prelude.
    fn compr(&mut self, head: &ast::Term, quals: &[ast::Qualifier], span: Span) -> R<Term> {
        let Some((first, rest)) = quals.split_first() else {
            let h = self.term(head)?;
            return self.list_of(vec![h], span);
        };
        match first {
            ast::Qualifier::Guard(g) => {
                let g = self.term(g)?;
                self.expect(&g.ty, &Type::bool(), g.span, ", but a guard must be `bool`")?;
                let then = self.compr(head, rest, span)?;
                let nil = self.prelude_term("Nil", span)?;
                self.expect(&nil.ty, &then.ty, span, "")?;
                let ty = then.ty.clone();
                Ok(self.mk(TermKind::If(Box::new(g), Box::new(then), Box::new(nil)), ty, span))
            }
            ast::Qualifier::Generator(p, src) => {
                let src = self.term(src)?;
                let depth = self.scopes.len();
                let (l, pat, bound) = self.binder_pattern(p)?;
                let elem = self.locals[l as usize].ty.clone();
                self.expect(&src.ty, &Type::list(elem.clone()), src.span, ", but a generator draws from a list")?;
                self.scopes.extend(bound);
                // `[x ← xs. P x]` and `[f x. x ← xs]`: filter and map, not concat.
                let guards_only = rest.iter().all(|q| matches!(q, ast::Qualifier::Guard(_)));
                let head_is_var = pat.is_none()
                    && matches!(&head.kind, ast::TermKind::Name(id) if self.lookup_local(&id.name) == Some(l));
                let refutable = pat.as_ref().is_some_and(|p| !self.irrefutable(p));
                let result = if guards_only && head_is_var && !rest.is_empty() {
                    let mut cond: Option<Term> = None;
                    for q in rest {
                        let ast::Qualifier::Guard(g) = q else { unreachable!() };
                        let g = self.term(g)?;
                        self.expect(&g.ty, &Type::bool(), g.span, ", but a guard must be `bool`")?;
                        cond = Some(match cond {
                            None => g,
                            Some(c) => {
                                let and = self.builtin(Builtin::And, span);
                                self.app2(and, c, g)?
                            }
                        });
                    }
                    let cond = cond.expect("at least one guard");
                    let cond = self.wrap_case(l, None, cond);
                    let lam_ty = Type::fun(elem, Type::bool());
                    let lam = self.mk(TermKind::Lambda(l, Box::new(cond)), lam_ty, span);
                    let filter = self.prelude_term("filter", span)?;
                    self.app2(filter, lam, src)?
                } else if rest.is_empty() && !refutable {
                    let h = self.term(head)?;
                    let h = self.wrap_case(l, pat, h);
                    let lam_ty = Type::fun(elem, h.ty.clone());
                    let lam = self.mk(TermKind::Lambda(l, Box::new(h)), lam_ty, span);
                    let map = self.prelude_term("map", span)?;
                    self.app2(map, lam, src)?
                } else {
                    let inner = if rest.is_empty() {
                        let h = self.term(head)?;
                        self.list_of(vec![h], span)?
                    } else {
                        self.compr(head, rest, span)?
                    };
                    // Isabelle's `listcomp` translation: an element a refutable pattern
                    // does not match contributes nothing (`case x of p ⇒ ... | _ ⇒ []`),
                    // where a λ with that pattern would be undefined on it.
                    let inner = match pat {
                        Some(p) if refutable => {
                            let nil = self.prelude_term("Nil", span)?;
                            self.expect(&nil.ty, &inner.ty, span, "")?;
                            let scrut = self.mk(TermKind::Local(l), elem.clone(), p.span);
                            let wild = Pat { kind: PatKind::Wild, ty: elem.clone(), span: p.span };
                            let ty = inner.ty.clone();
                            let arms = vec![(p, inner), (wild, nil)];
                            self.mk(TermKind::Case(Box::new(scrut), arms), ty, span)
                        }
                        pat => self.wrap_case(l, pat, inner),
                    };
                    let lam_ty = Type::fun(elem, inner.ty.clone());
                    let lam = self.mk(TermKind::Lambda(l, Box::new(inner)), lam_ty, span);
                    let map = self.prelude_term("map", span)?;
                    let mapped = self.app2(map, lam, src)?;
                    let concat = self.prelude_term("concat", span)?;
                    self.app(concat, mapped)?
                };
                self.scopes.truncate(depth);
                let mut result = result;
                result.span = span;
                Ok(result)
            }
        }
    }

    /// Whether a pattern matches every value of its type: variables, `_`, and constructors
    /// of one-constructor datatypes (tuples) of such patterns. Isabelle's list comprehension
    /// tests only tuple patterns this way; for other one-constructor datatypes the `_`
    /// arm it would add is never reached, so the meaning is the same.
    fn irrefutable(&self, p: &Pat) -> bool {
        let mut stack = vec![p];
        while let Some(p) = stack.pop() {
            match &p.kind {
                PatKind::Var(_) | PatKind::Wild => {}
                PatKind::Ctor(d, _, args) if self.env.datas.get(d.0 as usize).is_some_and(|d| d.ctors.len() == 1) => {
                    stack.extend(args)
                }
                PatKind::Ctor(..) | PatKind::Num(_) | PatKind::Suc(_) | PatKind::Bool(_) => return false,
            }
        }
        true
    }

    fn set_compr(&mut self, pat: &ast::Term, body: &ast::Term, span: Span) -> R<Term> {
        let depth = self.scopes.len();
        let (l, p, bound) = self.binder_pattern(pat)?;
        // `{x. x ∈ A ∧ P}`: A is the domain, so the comprehension is finite.
        let mut domain = None;
        let mut rest = Some(body);
        if p.is_none() {
            let var = &self.locals[l as usize].name.clone();
            let is_var = |t: &ast::Term| matches!(&t.kind, ast::TermKind::Name(id) if *id.name == **var);
            match &body.kind {
                ast::TermKind::BinOp(ast::BinOp::In, _, x, a) if is_var(x) => {
                    domain = Some(&**a);
                    rest = None;
                }
                ast::TermKind::BinOp(ast::BinOp::And, _, lhs, r) => {
                    if let ast::TermKind::BinOp(ast::BinOp::In, _, x, a) = &lhs.kind {
                        if is_var(x) {
                            domain = Some(&**a);
                            rest = Some(&**r);
                        }
                    }
                }
                _ => {}
            }
        }
        let elem = self.locals[l as usize].ty.clone();
        let domain = match domain {
            Some(a) => {
                let a = self.term(a)?;
                self.expect(&a.ty, &Type::set(elem.clone()), a.span, ", but it is the domain of the comprehension")?;
                Some(Box::new(a))
            }
            None => None,
        };
        self.scopes.extend(bound);
        let body = match rest {
            Some(b) => {
                let b = self.term(b)?;
                self.expect(&b.ty, &Type::bool(), b.span, ", but a set comprehension's condition must be `bool`")?;
                b
            }
            None => self.builtin(Builtin::True, span),
        };
        self.scopes.truncate(depth);
        let body = self.wrap_case(l, p, body);
        Ok(self.mk(TermKind::SetCompr(l, domain, Box::new(body)), Type::set(elem), span))
    }

    fn binop(&mut self, op: ast::BinOp, op_span: Span, l: &ast::Term, r: &ast::Term, span: Span) -> R<Term> {
        use ast::BinOp as B;
        let builtin = |b: Builtin| Ok::<_, Diagnostic>(Head::Builtin(b));
        let head = match op {
            B::Defeq => {
                return Err(Diagnostic::error(op_span, "`≡` may only stand at the top of a definition")
                    .with_label("not in a definition"))
            }
            B::MetaImp | B::Imp => builtin(Builtin::Imp)?,
            B::Iff => builtin(Builtin::Eq)?,
            B::Or => builtin(Builtin::Or)?,
            B::And => builtin(Builtin::And)?,
            B::Eq | B::Neq => builtin(Builtin::Eq)?,
            B::Lt | B::Gt => builtin(Builtin::Less)?,
            B::Le | B::Ge => builtin(Builtin::LessEq)?,
            B::In | B::NotIn => builtin(Builtin::Member)?,
            B::SubsetEq => builtin(Builtin::SubsetEq)?,
            B::Subset => builtin(Builtin::Subset)?,
            B::Dvd => Head::Prelude("dvd"),
            B::Cons => Head::Prelude("Cons"),
            B::Append => Head::Prelude("append"),
            B::Plus => builtin(Builtin::Plus)?,
            B::Minus => builtin(Builtin::Minus)?,
            B::Times => builtin(Builtin::Times)?,
            B::Div => builtin(Builtin::Div)?,
            B::Mod => builtin(Builtin::Mod)?,
            B::Union => builtin(Builtin::Union)?,
            B::Inter => builtin(Builtin::Inter)?,
            B::Power => Head::Prelude("power"),
            B::Nth => Head::Prelude("nth"),
            B::Comp => Head::Prelude("comp"),
            B::Image => Head::Prelude("image"),
            B::RelComp => Head::Prelude("relcomp"),
            B::MapAdd => Head::Prelude("map_add"),
            B::FunPow => Head::Prelude("funpow"),
            B::Choose => Head::Prelude("binomial"),
            B::Cartesian => Head::Prelude("Times"),
            B::RelCompp => return Err(self.unsupported_notation("relcompp", op_span)),
        };
        let mut f = match head {
            Head::Builtin(b) => self.builtin(b, op_span),
            Head::Prelude(n) => self.prelude_term(n, op_span)?,
        };
        f.span = op_span;
        let lt = self.term(l)?;
        let rt = self.term(r)?;
        // Same-typed operands: report a mismatch between the two sides, naming both types.
        let same_typed = matches!(
            op,
            B::Eq
                | B::Neq
                | B::Iff
                | B::Lt
                | B::Gt
                | B::Le
                | B::Ge
                | B::Plus
                | B::Minus
                | B::Times
                | B::Div
                | B::Mod
                | B::Union
                | B::Inter
                | B::SubsetEq
                | B::Subset
                | B::Dvd
                | B::Append
                | B::MapAdd
        );
        if same_typed {
            if let Err(e) = self.inf.unify(&lt.ty, &rt.ty) {
                if let UnifyError::NoInstance(..) = e {
                    return Err(self.sort_error(e, span, "this operator"));
                }
                let (a, b) = self.show2(&lt.ty, &rt.ty);
                let sym = self.snippet(op_span).unwrap_or("operator").to_string();
                return Err(Diagnostic::error(
                    rt.span,
                    format!("type mismatch: the two sides of `{sym}` have types `{a}` and `{b}`"),
                )
                .with_label(format!("{} has type `{b}`", self.quoted(rt.span)))
                .with_secondary(lt.span, format!("{} has type `{a}`", self.quoted(lt.span))));
            }
        }
        if op == B::Iff {
            self.expect(&lt.ty, &Type::bool(), lt.span, ", but `⟷` relates two `bool`s")?;
        }
        // `a > b` is `b < a`; `f ^^ n` is `funpow n f`.
        let (a, b) = if matches!(op, B::Gt | B::Ge | B::FunPow) { (rt, lt) } else { (lt, rt) };
        let mut t = self.app2(f, a, b)?;
        t.span = span;
        if matches!(op, B::Neq | B::NotIn) {
            let not = self.builtin(Builtin::Not, op_span);
            t = self.app(not, t)?;
            t.span = span;
        }
        Ok(t)
    }

    // ---- patterns ------------------------------------------------------------------------

    /// Elaborates a pattern of type `expected`; the variables it binds are pushed to `bound`
    /// (not yet in scope).
    pub fn pat(&mut self, p: &ast::Term, expected: &Type, bound: &mut Vec<(Arc<str>, LocalId)>) -> R<Pat> {
        use ast::TermKind as K;
        let span = p.span;
        let mk = |kind, ty| Pat { kind, ty, span };
        match &p.kind {
            K::Wildcard => Ok(mk(PatKind::Wild, expected.clone())),
            K::Typed(x, ty) => {
                let ty = self.convert_type(ty, TyVars::Flexible)?;
                self.expect(&ty, expected, span, ", but the pattern must have another type")?;
                self.pat(x, expected, bound)
            }
            K::Num(digits) => {
                let n = numeral(digits, span)?;
                self.inf
                    .require(expected, &Arc::from(num_class(&n)))
                    .map_err(|e| self.sort_error(e, span, "a numeral"))?;
                Ok(mk(PatKind::Num(n), expected.clone()))
            }
            K::UnOp(ast::UnOp::Neg, _, x) if matches!(x.kind, K::Num(_)) => {
                let K::Num(digits) = &x.kind else { unreachable!() };
                let n = numeral(digits, span)?;
                self.expect(&Type::int(), expected, span, "")?;
                Ok(mk(PatKind::Num(-n), expected.clone()))
            }
            K::Tuple(xs) if xs.is_empty() => self.ctor_pat("Unity", &[], expected, span, bound),
            K::Tuple(xs) => {
                if xs.len() == 1 {
                    return self.pat(&xs[0], expected, bound);
                }
                // (a, b, c) = Pair a (Pair b c)
                let (first, rest) = xs.split_first().expect("nonempty");
                let rest_term = ast::Term {
                    kind: if rest.len() == 1 { rest[0].kind.clone() } else { K::Tuple(rest.to_vec()) },
                    span: rest[0].span.to(rest[rest.len() - 1].span),
                };
                self.ctor_pat("Pair", &[first, &rest_term], expected, span, bound)
            }
            K::List(xs) => {
                if xs.is_empty() {
                    return self.ctor_pat("Nil", &[], expected, span, bound);
                }
                let (first, rest) = xs.split_first().expect("nonempty");
                let tail = ast::Term {
                    kind: K::List(rest.to_vec()),
                    span: rest.first().map_or(span, |r| r.span.to(rest[rest.len() - 1].span)),
                };
                self.ctor_pat("Cons", &[first, &tail], expected, span, bound)
            }
            K::BinOp(ast::BinOp::Cons, _, x, xs) => self.ctor_pat("Cons", &[x, xs], expected, span, bound),
            K::App(..) if let Some(record) = self.record_term(p) => {
                let (record, ty) = record?;
                let record = self.pat(&record, expected, bound)?;
                if let Some(ty) = ty {
                    self.expect(&record.ty, &ty, span, "")?;
                }
                Ok(record)
            }
            K::Name(_) | K::App(..) => {
                let (head, args) = p.spine();
                let K::Name(id) = &head.kind else {
                    return Err(not_a_pattern(span));
                };
                match self.env.names.get(id.name.as_str()) {
                    Some(NameRef::Ctor(d, tag)) => self.ctor_pat_ref(*d, *tag, &id.name, &args, expected, span, bound),
                    Some(NameRef::Builtin(Builtin::True)) if args.is_empty() => {
                        self.expect(&Type::bool(), expected, span, "")?;
                        Ok(mk(PatKind::Bool(true), Type::bool()))
                    }
                    Some(NameRef::Builtin(Builtin::False)) if args.is_empty() => {
                        self.expect(&Type::bool(), expected, span, "")?;
                        Ok(mk(PatKind::Bool(false), Type::bool()))
                    }
                    Some(NameRef::Builtin(Builtin::Suc)) if args.len() == 1 => {
                        self.expect(&Type::nat(), expected, span, "")?;
                        let inner = self.pat(args[0], &Type::nat(), bound)?;
                        Ok(mk(PatKind::Suc(Box::new(inner)), Type::nat()))
                    }
                    _ if args.is_empty() => {
                        let name: Arc<str> = Arc::from(id.name.as_str());
                        if bound.iter().any(|(n, _)| *n == name) {
                            return Err(Diagnostic::error(
                                span,
                                format!("variable `{name}` occurs twice in this pattern"),
                            )
                            .with_label("second occurrence"));
                        }
                        let l = self.new_local(name.clone(), expected.clone());
                        bound.push((name, l));
                        Ok(mk(PatKind::Var(l), expected.clone()))
                    }
                    _ => Err(Diagnostic::error(
                        head.span,
                        format!("`{}` is not a constructor, so it cannot be applied in a pattern", id.name),
                    )
                    .with_label("patterns are built from constructors, variables, numerals and `_`")),
                }
            }
            _ => Err(not_a_pattern(span)),
        }
    }

    fn ctor_pat(
        &mut self,
        ctor: &str,
        args: &[&ast::Term],
        expected: &Type,
        span: Span,
        bound: &mut Vec<(Arc<str>, LocalId)>,
    ) -> R<Pat> {
        match self.prelude.get(ctor) {
            Some(NameRef::Ctor(d, tag)) => self.ctor_pat_ref(*d, *tag, ctor, args, expected, span, bound),
            _ => Err(Diagnostic::error(
                span,
                format!("this pattern needs the constructor `{ctor}` from the prelude, which is missing"),
            )),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn ctor_pat_ref(
        &mut self,
        d: DataIdx,
        tag: u32,
        name: &str,
        args: &[&ast::Term],
        expected: &Type,
        span: Span,
        bound: &mut Vec<(Arc<str>, LocalId)>,
    ) -> R<Pat> {
        let scheme = self.env.ctor_scheme(d, tag);
        let (ty, _) = self.instantiate(&scheme);
        let mut fields = Vec::new();
        let mut t = ty;
        while let Type::Con(c, a) = &t {
            if &**c != super::ty::FUN {
                break;
            }
            fields.push(a[0].clone());
            let next = a[1].clone();
            t = next;
        }
        let n = self.env.data(d).ctors[tag as usize].fields.len();
        if args.len() != n {
            return Err(Diagnostic::error(
                span,
                format!(
                    "constructor `{name}` takes {n} argument{} but the pattern gives it {}",
                    if n == 1 { "" } else { "s" },
                    args.len()
                ),
            )
            .with_label("wrong number of arguments"));
        }
        self.expect(&t, expected, span, ", but the pattern must have another type")?;
        let mut subs = Vec::new();
        for (a, fty) in args.iter().zip(fields) {
            subs.push(self.pat(a, &fty, bound)?);
        }
        Ok(Pat { kind: PatKind::Ctor(d, tag, subs), ty: t, span })
    }

    // ---- final resolution ----------------------------------------------------------------

    /// Replaces inference variables: those in `gen` by the named parameter, the others by a
    /// default type that meets their sort (`nat` for numeric sorts, `int` where negation is
    /// needed, `unit` otherwise).
    pub fn finalize_type(&self, t: &Type, gen: &HashMap<u32, Arc<str>>) -> Type {
        self.finalize_memo(t, gen, &mut FinalMemo::default())
    }

    /// `finalize_type` with the result for each inference variable computed once and shared
    /// (`memo`): the types of a term's subterms are mostly variables bound to one another,
    /// and expanding each afresh costs the square of the term's depth.
    fn finalize_memo(&self, t: &Type, gen: &HashMap<u32, Arc<str>>, memo: &mut FinalMemo) -> Type {
        self.finalized(t, gen, memo).unwrap_or_else(|| t.clone())
    }

    /// `t` finalized, or `None` when it has no inference variable (it stays as it is, shared:
    /// most types of a definition's subterms are already whole).
    fn finalized(&self, t: &Type, gen: &HashMap<u32, Arc<str>>, memo: &mut FinalMemo) -> Option<Type> {
        match t {
            Type::Var(v) => {
                if let Some(done) = memo.get(v) {
                    return Some(done.clone());
                }
                let done = match self.inf.shallow(t) {
                    Type::Var(w) => match gen.get(w) {
                        Some(p) => Type::Param(p.clone()),
                        None => self.default_type(self.inf.sort_of_var(*w)),
                    },
                    bound => self.finalize_memo(bound, gen, memo),
                };
                memo.insert(*v, done.clone());
                Some(done)
            }
            Type::Param(_) => None,
            Type::Con(c, args) => {
                // Built only from the first argument that changes on.
                let mut out: Option<Vec<Type>> = None;
                for (i, a) in args.iter().enumerate() {
                    match (self.finalized(a, gen, memo), &mut out) {
                        (Some(done), Some(out)) => out.push(done),
                        (Some(done), None) => {
                            let mut v = Vec::with_capacity(args.len());
                            v.extend_from_slice(&args[..i]);
                            v.push(done);
                            out = Some(v);
                        }
                        (None, Some(out)) => out.push(a.clone()),
                        (None, None) => {}
                    }
                }
                out.map(|v| Type::Con(c.clone(), v.into()))
            }
        }
    }

    pub fn default_type(&self, sort: &Sort) -> Type {
        let needs = |c: &str| sort.iter().all(|s| classes::instance(c, 0, s, false).is_some());
        if sort.is_empty() {
            Type::con(super::ty::UNIT, vec![])
        } else if needs("nat") {
            Type::nat()
        } else if needs("int") {
            Type::int()
        } else if needs("bool") {
            Type::bool()
        } else {
            Type::con(super::ty::UNIT, vec![])
        }
    }

    /// Collects the unresolved inference variables of `t`, in order.
    pub fn free_vars(&self, t: &Type, out: &mut Vec<u32>) {
        // Each bound variable is looked through once: types shared through variables can be
        // exponentially larger as trees (`id id … id`).
        fn go(e: &Elab, t: &Type, out: &mut Vec<u32>, seen: &mut HashSet<u32>) {
            let mut t = t;
            while let Type::Var(v) = t {
                match e.inf.binding(*v) {
                    Some(u) if seen.insert(*v) => t = u,
                    Some(_) => return,
                    None => {
                        if !out.contains(v) {
                            out.push(*v)
                        }
                        return;
                    }
                }
            }
            if let Type::Con(_, args) = t {
                args.iter().for_each(|a| go(e, a, out, seen));
            }
        }
        go(self, t, out, &mut HashSet::new())
    }

    /// The free inference variables of many types at once, in order of first appearance, as
    /// `free_vars` on each in turn would give them, with each bound variable looked through
    /// once in all: the subterms of a term nested n deep (a tuple of n `None`s) have types
    /// that share their parts through variables, and walking each whole cost n² steps.
    pub fn free_vars_of<'t>(&self, types: impl IntoIterator<Item = &'t Type>, out: &mut Vec<u32>) {
        let mut found: HashSet<u32> = out.iter().copied().collect();
        let mut seen = HashSet::new();
        let mut stack: Vec<&Type> = Vec::new();
        for t in types {
            stack.push(t);
            while let Some(t) = stack.pop() {
                let mut t = t;
                while let Type::Var(v) = t {
                    match self.inf.binding(*v) {
                        Some(u) if seen.insert(*v) => t = u,
                        Some(_) => break,
                        None => {
                            if found.insert(*v) {
                                out.push(*v)
                            }
                            break;
                        }
                    }
                }
                if let Type::Con(_, args) = t {
                    stack.extend(args.iter().rev());
                }
            }
        }
    }

    /// Finalizes every type in `t`. An error when one of them is too large to work with:
    /// a function that pairs its argument with itself doubles the type at each application
    /// (`dup (dup … x)`), and every later stage walks types as trees.
    pub fn finalize_term(&self, t: &mut Term, gen: &HashMap<u32, Arc<str>>) -> R<()> {
        let mut memo = FinalMemo::default();
        let mut too_large = false;
        t.rewrite(
            &mut |ty| {
                if let Some(done) = self.finalized(ty, gen, &mut memo) {
                    *ty = done;
                }
                too_large = too_large || ty.larger_than(MAX_TYPE_SIZE);
            },
            &mut |_| {},
        );
        if too_large {
            return Err(Diagnostic::error(
                t.span,
                format!("a type in this term is too large: more than {MAX_TYPE_SIZE} parts"),
            )
            .with_label("in this term")
            .with_help("a function that pairs or lists its argument doubles the type at each nested application"));
        }
        Ok(())
    }

    pub fn finalize_pat(&self, p: &mut Pat, gen: &HashMap<u32, Arc<str>>) {
        let mut memo = FinalMemo::default();
        p.rewrite(
            &mut |ty| {
                if let Some(done) = self.finalized(ty, gen, &mut memo) {
                    *ty = done;
                }
            },
            &mut |_| {},
        );
    }

    pub fn finalize_locals(&self, gen: &HashMap<u32, Arc<str>>) -> Vec<Local> {
        self.locals.iter().map(|l| Local { name: l.name.clone(), ty: self.finalize_type(&l.ty, gen) }).collect()
    }
}

/// What each inference variable finalized to (`Elab::finalize_memo`); keyed by variable
/// numbers, which need no protection from chosen collisions.
type FinalMemo = rustc_hash::FxHashMap<u32, Type>;

enum Head {
    Builtin(Builtin),
    Prelude(&'static str),
}

impl Elab<'_> {
    /// Warnings for free variables named like a constant whose type fits where the variable
    /// stands (`contnts xs` beside `contents`): probably a typo, which would make the lemma
    /// about a variable that any value satisfies or refutes. Call once the lemma is elaborated.
    pub fn typo_warnings(&mut self) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for (l, span) in self.free_uses.clone() {
            let name = self.locals[l as usize].name.clone();
            let ty = self.locals[l as usize].ty.clone();
            let mut close: Vec<(usize, Arc<str>, NameRef)> = self
                .env
                .names
                .iter()
                .filter_map(|(c, r)| variable_typo_distance(&name, c).map(|d| (d, c.clone(), *r)))
                .collect();
            close.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
            for (_, constant, r) in close {
                let saved = self.inf.clone();
                let c = self.name_ref_term(r, span);
                let fits = self.inf.unify(&c.ty, &ty).is_ok();
                self.inf = saved;
                if fits {
                    out.push(
                        Diagnostic::warning(span, format!("`{name}` is a free variable: did you mean `{constant}`?"))
                            .with_label("a variable of the lemma, since no constant has this name")
                            .with_help(format!("the constant `{constant}` has a close name and a type that fits here")),
                    );
                    break;
                }
            }
        }
        out
    }
}

/// The edit distance between a free variable's name and a constant's, when it is close
/// enough to warn: never for names under four characters (`xs`, `n`, `t`), one edit for
/// names under seven, two beyond.
fn variable_typo_distance(name: &str, constant: &str) -> Option<usize> {
    let limit = match name.chars().count() {
        0..=3 => return None,
        4..=6 => 1,
        _ => 2,
    };
    let d = edit_distance(name, constant);
    (d > 0 && d <= limit).then_some(d)
}

fn not_a_pattern(span: Span) -> Diagnostic {
    Diagnostic::error(span, "this is not a pattern")
        .with_label("patterns are built from constructors, variables, numerals and `_`")
}

/// Qualified names of Isabelle constants that hol has as builtins under another name.
const QUALIFIED_BUILTINS: &[(&str, Builtin)] = &[("Set.member", Builtin::Member), ("HOL.eq", Builtin::Eq)];

/// The closest name within edit distance 2 (and less than half the name), if any.
pub fn suggest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<String> {
    // One edit in a short name, two in a long one; none for names of one or two letters
    // (any other short name would be "close").
    let limit = match name.chars().count() {
        0..=2 => return None,
        3..=5 => 1,
        _ => 2,
    };
    candidates
        .filter(|c| *c != name)
        .map(|c| (edit_distance(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1)))
        .map(|(_, c)| c.to_string())
}
