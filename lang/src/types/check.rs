//! Checking a theory command by command: datatypes (with the strict positivity and uniformity
//! checks), type synonyms, `fun`/`primrec`/`definition` groups, `inductive` predicates, lemmas
//! and `value` terms. A command with an error is reported and leaves the environment as it was,
//! so the rest of the file is checked as if it were absent.

use super::elab::{type_too_large, Elab, Mode, TyVars, GROUP_BASE, MAX_TYPE_SIZE, R};
use super::env::{Env, NameRef, TypeRef};
use super::hir::*;
use super::scope::Scope;
use super::ty::{Sort, Type, TypePrinter};
use super::unify::UnifyError;
use crate::diagnostic::Diagnostic;
use crate::span::Span;
use crate::syntax::ast;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

pub struct Checker<'s> {
    pub env: Env,
    /// The prelude's names; `None` while checking the prelude itself (then the names defined
    /// so far serve).
    pub prelude: Option<Arc<HashMap<Arc<str>, NameRef>>>,
    pub src: &'s str,
    pub diagnostics: Vec<Diagnostic>,
    pub lemmas: Vec<Lemma>,
    pub values: Vec<ValueTerm>,
    /// Constants defined by this file so far, with where: a second definition of one is an
    /// error (a definition may shadow the prelude's, as a theory may shadow an import's).
    pub defined_here: HashMap<Arc<str>, Span>,
    /// Types defined by this file so far (as written): a second definition of one is an
    /// error; one of an imported type's name hides it (`Env::shadows`).
    pub types_here: HashSet<Arc<str>>,
    /// The constants and datatypes the environment had before this file: those at these
    /// indices and after are the file's own (`imported`).
    first_const: usize,
    first_data: usize,
    /// The theory's name, which qualifies the name of a type that hides an imported one.
    pub theory: Arc<str>,
    /// Warnings found so far (errors travel as `Err`).
    pub warnings: Vec<Diagnostic>,
    /// What names that are not defined mean: imported Isabelle constants, failed definitions.
    pub scope: Scope,
}

impl<'s> Checker<'s> {
    pub fn new(env: Env, prelude: Option<Arc<HashMap<Arc<str>, NameRef>>>, src: &'s str) -> Checker<'s> {
        let (first_const, first_data) = (env.consts.len(), env.datas.len());
        Checker {
            env,
            prelude,
            src,
            diagnostics: Vec::new(),
            lemmas: Vec::new(),
            values: Vec::new(),
            defined_here: HashMap::new(),
            types_here: HashSet::new(),
            first_const,
            first_data,
            theory: Arc::from(""),
            warnings: Vec::new(),
            scope: Scope::default(),
        }
    }

    fn elab(&self, mode: Mode) -> Elab<'_> {
        let prelude = self.prelude.as_deref().unwrap_or(&self.env.names);
        Elab::new(&self.env, prelude, &self.scope, self.src, mode)
    }

    /// Checks one command; on error the environment is restored.
    pub fn command(&mut self, cmd: &ast::Command) -> R<()> {
        use ast::CommandKind as C;
        let mut terms: Vec<&ast::Term> = Vec::new();
        match &cmd.kind {
            C::Fun { equations, .. } => terms.extend(equations.iter().map(|e| &e.term)),
            C::Definition { equation, .. } => terms.push(&equation.term),
            C::Inductive { intros, .. } => terms.extend(intros.iter().map(|e| &e.term)),
            _ => {}
        }
        self.check_tree_notation(&terms)?;
        match &cmd.kind {
            C::Datatype(decls) => {
                // What `datatypes` may define: the types, their constructors and selectors.
                let types = decls.iter().map(|d| d.name.name.as_str());
                let ctors = decls.iter().flat_map(|d| &d.ctors);
                let names = ctors.clone().map(|c| c.name.name.as_str());
                let selectors =
                    ctors.flat_map(|c| &c.args).filter_map(|a| a.selector.as_ref()).map(|s| s.name.as_str());
                // A type that hides an imported one is saved under its qualified name too.
                let hiding: Vec<String> =
                    decls.iter().filter_map(|d| self.fresh_type_name(&d.name).ok()).map(|n| n.to_string()).collect();
                let saved = self.env.save(types.chain(hiding.iter().map(String::as_str)), names.chain(selectors));
                let r = self.datatypes(decls);
                match r {
                    Ok(()) => self.types_here.extend(decls.iter().map(|d| Arc::from(d.name.name.as_str()))),
                    Err(_) => self.env.restore(saved),
                }
                r
            }
            C::TypeSynonym { params, name, rhs } => self.synonym(params, name, rhs),
            C::Fun { kind, consts, equations } => {
                self.fun_group(consts, equations, cmd.span, *kind == ast::FunKind::Generated)
            }
            C::Definition { decl, equation } => {
                let consts: Vec<ast::ConstDecl> = decl.iter().cloned().collect();
                self.fun_group(&consts, std::slice::from_ref(equation), cmd.span, false)
            }
            C::Inductive { consts, intros } => self.inductive(consts, intros),
            C::Ignored(kw) => {
                self.warnings.push(
                    Diagnostic::warning(kw.span, format!("`{}` is ignored", kw.name))
                        .with_label("this command does not change the theory, and hol does not run it"),
                );
                Ok(())
            }
            C::Unsupported(kw) => Err(unsupported(kw, String::new())),
            C::Declares { keyword, consts, types } => {
                let names: Vec<String> = consts.iter().chain(types).map(|n| format!("`{}`", n.name)).collect();
                let hidden = if names.is_empty() {
                    String::new()
                } else {
                    format!("lemmas that use {} are not tested", names.join(", "))
                };
                Err(unsupported(keyword, hidden))
            }
            C::Locale { keyword, name } => {
                Err(unsupported(keyword, format!("lemmas in the context of `{}` are not tested", name.name)))
            }
            _ => Ok(()),
        }
    }

    /// HOL-Library.Tree's `⟨⟩` and `⟨l, x, r⟩` are read as the names `Leaf` and `Node`
    /// (spanning the `⟨`); where no such constructor is defined, the notation is an error
    /// that says where it comes from, never a free variable named `Leaf`.
    fn check_tree_notation(&self, terms: &[&ast::Term]) -> R<()> {
        let mut found: Option<&ast::Ident> = None;
        for t in terms {
            walk_names(t, &mut |id: &ast::Ident| {
                let written = self.src.get(id.span.range()).unwrap_or("");
                let notation = written.starts_with('⟨') || written.starts_with("\\<langle>");
                let defined = self.env.names.contains_key(id.name.as_str());
                // The first in the text, whatever order the walk takes.
                let earlier = found.is_none_or(|f| id.span.start < f.span.start);
                if earlier && notation && matches!(id.name.as_str(), "Leaf" | "Node") && !defined {
                    found = Some(id);
                }
            });
        }
        match found {
            None => Ok(()),
            Some(id) => {
                let shape = if id.name == "Leaf" { "`⟨⟩`" } else { "`⟨l, x, r⟩`" };
                Err(Diagnostic::error(id.span, format!("{shape} is HOL-Library.Tree's notation for `{}`, which is not defined", id.name))
                    .with_label(format!("`{}` is not defined here", id.name))
                    .with_help("import \"HOL-Library.Tree\", or define `datatype 'a tree = Leaf | Node \"'a tree\" 'a \"'a tree\"`"))
            }
        }
    }

    fn check_fresh_const(&self, name: &ast::Ident) -> R<()> {
        match self.defined_here.get(name.name.as_str()) {
            Some(first) => Err(Diagnostic::error(name.span, format!("`{}` is already defined", name.name))
                .with_label("second definition")
                .with_secondary(*first, "first defined here")),
            None => Ok(()),
        }
    }

    /// The name a new type `name` gets in `Env::types`: as written, or, when that names an
    /// imported type (the prelude's `list`, `option`), qualified by the theory's name
    /// (`mylist.list`), as Isabelle names a theory's type that hides an imported one.
    fn fresh_type_name(&self, name: &ast::Ident) -> R<Arc<str>> {
        let written = name.name.as_str();
        let taken = |n: &str| self.env.types.contains_key(n) || self.env.shadows.contains_key(n);
        let hides = !self.types_here.contains(written) && self.prelude.is_some() && !self.theory.is_empty();
        let internal: Arc<str> = match taken(written) {
            false => Arc::from(written),
            true if hides => Arc::from(format!("{}.{written}", self.theory)),
            true => return Err(already_defined_type(name)),
        };
        if internal.as_ref() != written && self.env.types.contains_key(internal.as_ref()) {
            return Err(already_defined_type(name));
        }
        Ok(internal)
    }

    /// Records that type `written` of this file is `internal` in `Env::types`.
    fn defined_type(&mut self, written: &str, internal: &Arc<str>) {
        if internal.as_ref() != written {
            self.env.shadows.insert(Arc::from(written), internal.clone());
        }
    }

    /// Whether `name` means something this file did not define (the prelude's, an
    /// import's): a failed definition of it hides that (`Scope::hidden`).
    pub fn imported(&self, name: &str) -> bool {
        match self.env.names.get(name) {
            None => false,
            Some(NameRef::Builtin(_)) => true,
            Some(NameRef::Const(id)) => (id.0 as usize) < self.first_const,
            Some(NameRef::Ctor(d, _)) => (d.0 as usize) < self.first_data,
        }
    }

    fn synonym(&mut self, params: &[ast::Ident], name: &ast::Ident, rhs: &ast::Type) -> R<()> {
        let internal = self.fresh_type_name(name)?;
        check_distinct(params.iter())?;
        let mut e = self.elab(Mode::Closed);
        for p in params {
            e.inf.param_sorts.insert(Arc::from(p.name.as_str()), Sort::new());
        }
        let ty = e.convert_type(rhs, TyVars::Flexible)?;
        if ty.larger_than(MAX_TYPE_SIZE) {
            return Err(type_too_large(rhs.span, format!("type synonym `{}`", name.name)));
        }
        let names: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
        check_type_params(&e, &ty, &names, rhs.span, &name.name)?;
        let params = params.iter().map(|p| Arc::from(p.name.as_str())).collect();
        self.env.types.insert(internal.clone(), TypeRef::Synonym(params, ty));
        self.defined_type(&name.name, &internal);
        self.types_here.insert(Arc::from(name.name.as_str()));
        Ok(())
    }

    /// Defines a group of datatypes. What it may change in the environment on the way, before
    /// an error takes it back, is what `command` saves: keep the two in step.
    fn datatypes(&mut self, decls: &[ast::DatatypeDecl]) -> R<()> {
        let names: Vec<&str> = decls.iter().map(|d| d.name.name.as_str()).collect();
        let mut ids = Vec::new();
        let first = self.env.datas.len() as u32;
        let group: Vec<DataIdx> = (first..first + decls.len() as u32).map(DataIdx).collect();
        // The group's names in `Env::types` (converted field types name them so).
        let mut internal: Vec<Arc<str>> = Vec::new();
        for (i, d) in decls.iter().enumerate() {
            if names[..i].contains(&d.name.name.as_str()) {
                return Err(already_defined_type(&d.name));
            }
            let name = self.fresh_type_name(&d.name)?;
            check_distinct(d.params.iter().map(|p| &p.name))?;
            let params: Vec<Arc<str>> = d.params.iter().map(|p| Arc::from(p.name.name.as_str())).collect();
            ids.push(self.env.add_data(DataDecl { name: name.clone(), params, ctors: vec![], group: group.clone() }));
            self.defined_type(&d.name.name, &name);
            internal.push(name);
        }
        let internal: Vec<&str> = internal.iter().map(|n| &**n).collect();
        let mut full = Vec::new();
        for d in decls {
            let mut e = self.elab(Mode::Closed);
            for p in &d.params {
                e.inf.param_sorts.insert(Arc::from(p.name.name.as_str()), Sort::new());
            }
            let mut ctors = Vec::new();
            // Names seen so far: a set, so that a datatype with n constructors costs n
            // look-ups, not n² comparisons (100,000 constructors took 20 s).
            let mut seen: HashSet<&str> = HashSet::with_capacity(d.ctors.len());
            for c in &d.ctors {
                let mut fields = Vec::new();
                for a in &c.args {
                    check_positive(&a.ty, &names, true, &c.name.name)?;
                    let ty = e.convert_type(&a.ty, TyVars::Flexible)?;
                    let params: Vec<&str> = d.params.iter().map(|p| p.name.name.as_str()).collect();
                    check_type_params(&e, &ty, &params, a.ty.span, &d.name.name)?;
                    check_uniform(&mut e, &a.ty, &ty, &names, &params, &d.name.name)?;
                    fields.push(ty);
                }
                if !seen.insert(c.name.name.as_str()) {
                    return Err(Diagnostic::error(
                        c.name.span,
                        format!("constructor `{}` is defined twice", c.name.name),
                    ));
                }
                ctors.push(CtorDecl { name: Arc::from(c.name.name.as_str()), fields });
            }
            full.push(ctors);
        }
        // Every datatype must have values: the least fixpoint of "some constructor has only
        // inhabited arguments", looking through nested types (`rose list` has `[]`).
        let mut known: Vec<&str> = Vec::new();
        loop {
            let before = known.len();
            for (name, ctors) in internal.iter().zip(&full) {
                if !known.contains(name)
                    && ctors.iter().any(|c| c.fields.iter().all(|f| self.inhabited(f, &internal, &known, 0)))
                {
                    known.push(name);
                }
            }
            if known.len() == before {
                break;
            }
        }
        if let Some((d, _)) = decls.iter().zip(&internal).find(|(_, n)| !known.contains(n)) {
            return Err(Diagnostic::error(
                d.name.span,
                format!(
                    "datatype `{}` has no values: every constructor needs a value of a type being defined",
                    d.name.name
                ),
            )
            .with_label("add a constructor whose arguments do not need this datatype"));
        }
        for (id, ctors) in ids.iter().zip(full) {
            let decl = Arc::make_mut(&mut self.env.datas[id.0 as usize]);
            decl.ctors = ctors;
            for (tag, c) in decl.ctors.iter().enumerate() {
                self.env.names.insert(c.name.clone(), NameRef::Ctor(*id, tag as u32));
            }
        }
        for (d, id) in decls.iter().zip(ids) {
            self.selectors(d, id)?;
        }
        Ok(())
    }

    /// Whether a constructor argument of type `t` can have a value, given the group's
    /// datatypes known to be inhabited so far.
    fn inhabited(&self, t: &Type, group: &[&str], known: &[&str], depth: u32) -> bool {
        match t {
            Type::Var(_) | Type::Param(_) => true,
            Type::Con(c, args) => match &**c {
                super::ty::FUN => self.inhabited(&args[1], group, known, depth),
                c if group.contains(&c) => known.contains(&c),
                c => match self.env.data_by_name(c) {
                    // A datatype defined earlier: one of its constructors with the arguments
                    // substituted (depth-bounded: earlier datatypes are inhabited on their own).
                    Some(d) if depth < 8 => {
                        let decl = self.env.data(d);
                        let map: HashMap<Arc<str>, Type> =
                            decl.params.iter().cloned().zip(args.iter().cloned()).collect();
                        decl.ctors.iter().any(|ctor| {
                            ctor.fields.iter().all(|f| self.inhabited(&f.subst_params(&map), group, known, depth + 1))
                        })
                    }
                    _ => true,
                },
            },
        }
    }

    /// Defines the selector functions named in a datatype (`Node (left: "'a tree") ...`):
    /// `left (Node l x r) = l`, underspecified on the other constructors.
    fn selectors(&mut self, d: &ast::DatatypeDecl, id: DataIdx) -> R<()> {
        let decl = self.env.data(id).clone();
        // In order of first use; `index` finds a selector's entry in constant time.
        let mut sels: Vec<(ast::Ident, Vec<(u32, usize)>)> = Vec::new();
        let mut index: HashMap<&str, usize> = HashMap::new();
        for (tag, c) in d.ctors.iter().enumerate() {
            for (i, a) in c.args.iter().enumerate() {
                let Some(sel) = &a.selector else { continue };
                match index.get(sel.name.as_str()) {
                    Some(&k) => sels[k].1.push((tag as u32, i)),
                    None => {
                        index.insert(sel.name.as_str(), sels.len());
                        sels.push((sel.clone(), vec![(tag as u32, i)]));
                    }
                }
            }
        }
        let data_ty = Type::Con(decl.name.clone(), decl.params.iter().map(|p| Type::Param(p.clone())).collect());
        for (sel, uses) in sels {
            self.check_fresh_const(&sel)?;
            let field_ty = decl.ctors[uses[0].0 as usize].fields[uses[0].1].clone();
            let mut locals = Vec::new();
            let mut equations = Vec::new();
            for (tag, i) in uses {
                let fields = &decl.ctors[tag as usize].fields;
                if fields[i] != field_ty {
                    return Err(Diagnostic::error(
                        sel.span,
                        format!("selector `{}` has arguments of different types", sel.name),
                    )
                    .with_label("used for arguments of different types"));
                }
                let base = locals.len() as LocalId;
                let subs = fields
                    .iter()
                    .enumerate()
                    .map(|(k, f)| {
                        locals.push(Local { name: Arc::from(format!("x{k}")), ty: f.clone() });
                        Pat { kind: PatKind::Var(base + k as LocalId), ty: f.clone(), span: sel.span }
                    })
                    .collect();
                let pat = Pat { kind: PatKind::Ctor(id, tag, subs), ty: data_ty.clone(), span: sel.span };
                let rhs = Term { kind: TermKind::Local(base + i as LocalId), ty: field_ty.clone(), span: sel.span };
                equations.push((vec![pat], rhs));
            }
            let scheme = Scheme {
                params: decl.params.iter().map(|p| (p.clone(), Sort::new())).collect(),
                ty: Type::fun(data_ty.clone(), field_ty),
            };
            let name: Arc<str> = Arc::from(sel.name.as_str());
            self.defined_here.insert(name.clone(), sel.span);
            self.env.add_const(ConstDef { name, scheme, kind: ConstKind::Equations { locals, equations, arity: 1 } });
        }
        Ok(())
    }

    /// Declares the group's constants in a fresh elaborator: declared types are fixed,
    /// undeclared ones inferred.
    fn declare_group<'a>(&'a self, e: &mut Elab<'a>, consts: &[ast::ConstDecl]) -> R<Vec<bool>> {
        let mut declared = Vec::new();
        for c in consts {
            self.check_fresh_const(&c.name)?;
            if e.group.iter().any(|(n, _)| **n == *c.name.name) {
                return Err(Diagnostic::error(c.name.span, format!("`{}` is declared twice", c.name.name)));
            }
            let ty = match &c.ty {
                Some(t) => e.convert_type(t, TyVars::Fixed)?,
                None => e.inf.fresh(Sort::new()),
            };
            declared.push(c.ty.is_some());
            e.group.push((Arc::from(c.name.name.as_str()), ty));
        }
        Ok(declared)
    }

    /// Checks a group of functions defined together; a `generated` one (see
    /// `FunKind::Generated`) is not the theory's own, so a later definition may hide it.
    fn fun_group(
        &mut self,
        consts: &[ast::ConstDecl],
        equations: &[ast::Equation],
        cmd_span: Span,
        generated: bool,
    ) -> R<()> {
        let mut e = self.elab(Mode::Closed);
        let mut declared = self.declare_group(&mut e, consts)?;
        let mut eqs: Vec<Vec<(Vec<Pat>, Term)>> = vec![Vec::new(); consts.len()];
        let mut arities: Vec<Option<(usize, Span)>> = vec![None; consts.len()];
        for eq in equations {
            let (lhs, rhs) = split_equation(&eq.term)?;
            let (mut head, mut args) = lhs.spine();
            // An infix notation on the left (`a dvd b = ...`) defines the notation's constant.
            let infix_name;
            if let ast::TermKind::BinOp(op, op_span, l, r) = &head.kind {
                if let Some(n) = infix_constant(*op) {
                    if args.is_empty() {
                        infix_name = ast::Term {
                            kind: ast::TermKind::Name(ast::Ident { name: n.to_string(), span: *op_span }),
                            span: *op_span,
                        };
                        head = &infix_name;
                        args = vec![&**l, &**r];
                    }
                }
            }
            let ast::TermKind::Name(name) = &head.kind else {
                return Err(Diagnostic::error(
                    lhs.span,
                    "the left-hand side of a defining equation must be the constant applied to patterns",
                )
                .with_label("not of the form `f p1 ... pn`"));
            };
            let idx = match e.group.iter().position(|(n, _)| **n == *name.name) {
                Some(i) => i,
                None if consts.is_empty() || (eqs.len() == e.group.len() && e.group.is_empty()) => {
                    // `definition "f x = ..."` without a declaration: the equation names it.
                    self.check_fresh_const(name)?;
                    let ty = e.inf.fresh(Sort::new());
                    e.group.push((Arc::from(name.name.as_str()), ty));
                    eqs.push(Vec::new());
                    arities.push(None);
                    declared.push(false);
                    e.group.len() - 1
                }
                None => {
                    let names: Vec<String> = e.group.iter().map(|(n, _)| format!("`{n}`")).collect();
                    return Err(Diagnostic::error(
                        name.span,
                        format!("this equation defines `{}`, but the command defines {}", name.name, names.join(", ")),
                    )
                    .with_label("not a constant of this command"));
                }
            };
            let (cname, cty) = e.group[idx].clone();
            let mut t = cty.clone();
            let mut bound = Vec::new();
            let mut pats = Vec::new();
            for (i, a) in args.iter().enumerate() {
                let t_now = e.inf.shallow(&t).clone();
                let (dom, cod) = match &t_now {
                    Type::Con(c, xs) if &**c == super::ty::FUN => (xs[0].clone(), xs[1].clone()),
                    Type::Var(_) if !declared[idx] => {
                        let a = e.inf.fresh(Sort::new());
                        let b = e.inf.fresh(Sort::new());
                        e.inf
                            .unify(&t_now, &Type::fun(a.clone(), b.clone()))
                            .map_err(|err| match err {
                                UnifyError::NoInstance(..) => e.sort_error(err, head.span, &format!("`{cname}`")),
                                _ => {
                                    let ty = e.show(&t_now);
                                    Diagnostic::error(lhs.span, format!("`{cname}` is used as a value of type `{ty}`, but this equation applies it to arguments"))
                                        .with_label("applied to arguments here")
                                }
                            })?;
                        (a, b)
                    }
                    _ => {
                        let ty = TypePrinter::default().print(&e.inf.resolve(&cty));
                        return Err(Diagnostic::error(
                            lhs.span,
                            format!(
                                "equation gives `{cname}` {} where its type allows {i}",
                                plural(args.len(), "argument")
                            ),
                        )
                        .with_label(format!("`{cname}` has type `{ty}`"))
                        .with_secondary(a.span, "one argument too many"));
                    }
                };
                pats.push(e.pat(a, &dom, &mut bound)?);
                t = cod;
            }
            match arities[idx] {
                None => arities[idx] = Some((args.len(), lhs.span)),
                Some((n, first)) if n != args.len() => {
                    return Err(Diagnostic::error(
                        lhs.span,
                        format!(
                            "equation gives `{cname}` {}, but an earlier equation gives it {n}",
                            plural(args.len(), "argument")
                        ),
                    )
                    .with_label("all equations of a function take the same number of arguments")
                    .with_secondary(first, "the earlier equation"));
                }
                _ => {}
            }
            let depth = e.scopes.len();
            e.scopes.extend(bound);
            let rhs_t = e.term(rhs);
            e.scopes.truncate(depth);
            let rhs_t = rhs_t?;
            e.expect(&rhs_t.ty, &t, rhs_t.span, &format!(", but the left-hand side has type `{}`", e.show(&t)))?;
            eqs[idx].push((pats, rhs_t));
        }
        for (i, (name, _)) in e.group.iter().enumerate() {
            if eqs[i].is_empty() {
                let span = consts.get(i).map_or(cmd_span, |c| c.name.span);
                return Err(
                    Diagnostic::error(span, format!("no equation defines `{name}`")).with_label("declared here")
                );
            }
        }
        // Generalize: the variables left in each constant's type become its parameters,
        // named after the fixed ones in order.
        let mut gen: HashMap<u32, Arc<str>> = HashMap::new();
        let mut fresh = FreshParams::default();
        e.inf.param_sorts.keys().for_each(|p| fresh.mark(p));
        let mut schemes = Vec::new();
        for (_, ty) in &e.group {
            let mut vars = Vec::new();
            e.free_vars(ty, &mut vars);
            for v in vars {
                gen.entry(v).or_insert_with(|| fresh.name());
            }
        }
        for (_, ty) in &e.group {
            let ty = e.finalize_type(ty, &gen);
            let mut ps = Vec::new();
            ty.params(&mut ps);
            let params = ps
                .into_iter()
                .map(|p| {
                    let sort = match gen.iter().find(|(_, n)| **n == p) {
                        Some((v, _)) => e.inf.sort_of_var(*v).clone(),
                        None => e.inf.param_sorts.get(&p).cloned().unwrap_or_default(),
                    };
                    (p, sort)
                })
                .collect();
            schemes.push(Scheme { params, ty });
        }
        let locals = e.finalize_locals(&gen);
        let base = self.env.consts.len() as u32;
        let mut defs = Vec::new();
        for (i, (name, _)) in e.group.iter().enumerate() {
            let mut equations = std::mem::take(&mut eqs[i]);
            for (pats, rhs) in equations.iter_mut() {
                pats.iter_mut().for_each(|p| e.finalize_pat(p, &gen));
                e.finalize_term(rhs, &gen)?;
                fix_group_refs(rhs, base, &schemes);
            }
            let arity = arities[i].map_or(0, |(n, _)| n);
            defs.push(ConstDef {
                name: name.clone(),
                scheme: schemes[i].clone(),
                kind: ConstKind::Equations { locals: locals.clone(), equations, arity },
            });
        }
        let spans: Vec<Span> = consts.iter().map(|c| c.name.span).collect();
        drop(e);
        for (i, d) in defs.into_iter().enumerate() {
            if !generated {
                self.defined_here.insert(d.name.clone(), spans.get(i).copied().unwrap_or(cmd_span));
            }
            self.env.add_const(d);
        }
        Ok(())
    }

    fn inductive(&mut self, consts: &[ast::ConstDecl], intros: &[ast::Equation]) -> R<()> {
        let mut e = self.elab(Mode::Free);
        let _ = self.declare_group(&mut e, consts)?;
        let mut clauses: Vec<Vec<HornClause>> = vec![Vec::new(); consts.len()];
        let mut pending = Vec::new();
        for intro in intros {
            e.locals.clear();
            e.frees.clear();
            let mut parts = Vec::new();
            flatten_meta_imp(&intro.term, &mut parts);
            let head_ast = parts.pop().expect("an intro has a conclusion");
            let mut premises = Vec::new();
            for p in &parts {
                let t = e.term(p)?;
                e.expect(&t.ty, &Type::bool(), t.span, ", but a premise must be `bool`")?;
                premises.push(t);
            }
            let (head, _) = head_ast.spine();
            let idx = match &head.kind {
                ast::TermKind::Name(n) => e.group.iter().position(|(g, _)| **g == *n.name),
                _ => None,
            };
            let Some(idx) = idx else {
                return Err(Diagnostic::error(
                    head_ast.span,
                    "the conclusion of an introduction rule must apply a predicate of this command",
                )
                .with_label("not a predicate being defined"));
            };
            let full = e.term(head_ast)?;
            e.expect(&full.ty, &Type::bool(), full.span, ", but an introduction rule concludes a `bool`")?;
            let args: Vec<Term> = full.spine().1.into_iter().cloned().collect();
            pending.push((idx, std::mem::take(&mut e.locals), args, premises));
        }
        let gen = HashMap::new();
        let schemes: Vec<Scheme> = e
            .group
            .iter()
            .map(|(_, ty)| {
                let ty = e.finalize_type(ty, &gen);
                let mut ps = Vec::new();
                ty.params(&mut ps);
                Scheme {
                    params: ps
                        .into_iter()
                        .map(|p| {
                            let s = e.inf.param_sorts.get(&p).cloned().unwrap_or_default();
                            (p, s)
                        })
                        .collect(),
                    ty,
                }
            })
            .collect();
        let base = self.env.consts.len() as u32;
        for (idx, locals, mut args, mut premises) in pending {
            e.locals = locals;
            let locals = e.finalize_locals(&gen);
            for t in args.iter_mut().chain(premises.iter_mut()) {
                e.finalize_term(t, &gen)?;
                fix_group_refs(t, base, &schemes);
            }
            clauses[idx].push(HornClause { locals, args, premises });
        }
        let names: Vec<Arc<str>> = e.group.iter().map(|(n, _)| n.clone()).collect();
        drop(e);
        for (c, name) in consts.iter().zip(&names) {
            self.defined_here.insert(name.clone(), c.name.span);
        }
        for (i, name) in names.into_iter().enumerate() {
            let kind = ConstKind::Inductive { clauses: std::mem::take(&mut clauses[i]) };
            self.env.add_const(ConstDef { name, scheme: schemes[i].clone(), kind });
        }
        Ok(())
    }

    /// Checks a lemma: one typed lemma per proposition, their indices in order.
    pub fn lemma(&mut self, l: &ast::Lemma, span: Span) -> R<Vec<usize>> {
        let terms: Vec<&ast::Term> = l.assumes.iter().map(|a| &a.term).chain(&l.shows).collect();
        self.check_tree_notation(&terms)?;
        let mut e = self.elab(Mode::Free);
        for f in &l.fixes {
            let ty = match &f.ty {
                Some(t) => e.convert_type(t, TyVars::Flexible)?,
                None => e.inf.fresh(Sort::new()),
            };
            let name: Arc<str> = Arc::from(f.name.name.as_str());
            let id = e.new_local(name.clone(), ty);
            e.frees.push((name, id));
        }
        let mut premises = Vec::new();
        for a in &l.assumes {
            let mut parts = Vec::new();
            flatten_meta_imp(&a.term, &mut parts);
            for p in parts {
                premises.push(self_bool(&mut e, p)?);
            }
        }
        // Each proposition (`lemma l: "A" "B"`, `shows "A" and "B"`) is a lemma of its own,
        // with its own premises (`A ⟹ B`), as Isabelle proves `l(1)`, `l(2)`; they are
        // checked together, so a free variable has one type in all of them.
        let mut props: Vec<(Vec<Term>, Term)> = Vec::new();
        for s in &l.shows {
            let mut parts = Vec::new();
            flatten_meta_imp(s, &mut parts);
            let Some(concl) = parts.pop() else {
                return Err(Diagnostic::error(s.span, "a lemma needs a statement"));
            };
            let mut own = Vec::new();
            for p in parts {
                own.push(self_bool(&mut e, p)?);
            }
            props.push((own, self_bool(&mut e, concl)?));
        }
        if props.is_empty() {
            return Err(Diagnostic::error(span, "a lemma needs a statement"));
        }
        // Type variables of the free variables become the lemma's parameters; annotated ones
        // keep the name the user gave them.
        let mut vars = Vec::new();
        let mut types: Vec<Type> = e.frees.iter().map(|(_, l)| e.locals[*l as usize].ty.clone()).collect();
        // Then every other type variable of the statement (`∀x y. x = y` is about any type,
        // not about `unit`).
        types.extend(e.locals.iter().map(|l| l.ty.clone()));
        for t in premises.iter().chain(props.iter().flat_map(|(own, c)| own.iter().chain(std::iter::once(c)))) {
            t.visit(&mut |s: &Term| types.push(s.ty.clone()));
        }
        e.free_vars_of(&types, &mut vars);
        let mut gen: HashMap<u32, Arc<str>> = HashMap::new();
        let mut fresh = FreshParams::default();
        let in_vars: HashSet<u32> = vars.iter().copied().collect();
        for (name, t) in &e.tyvars {
            if let Type::Var(v) = *e.inf.shallow(t) {
                if in_vars.contains(&v) {
                    gen.insert(v, name.clone());
                    fresh.mark(name);
                }
            }
        }
        for v in &vars {
            if !gen.contains_key(v) {
                gen.insert(*v, fresh.name());
            }
        }
        let params: Vec<(Arc<str>, Sort)> =
            vars.iter().map(|v| (gen[v].clone(), e.inf.sort_of_var(*v).clone())).collect();
        for p in premises.iter_mut() {
            e.finalize_term(p, &gen)?;
        }
        for (own, c) in props.iter_mut() {
            for p in own.iter_mut() {
                e.finalize_term(p, &gen)?;
            }
            e.finalize_term(c, &gen)?;
        }
        let locals = e.finalize_locals(&gen);
        let frees: Vec<LocalId> = e.frees.iter().map(|(_, l)| *l).collect();
        let typos = e.typo_warnings();
        self.warnings.extend(typos);
        let several = props.len() > 1;
        let name = l.name.as_ref().map(|n| Arc::from(n.name.as_str()));
        let mut indices = Vec::new();
        for (own, conclusion) in props {
            let all_premises: Vec<Term> = premises.iter().cloned().chain(own).collect();
            // Of several propositions, each is tested over the free variables it mentions
            // (or its premises do), not over the others'.
            let (frees, params) = if several {
                let mut used = HashSet::new();
                let mut mentioned: Vec<Arc<str>> = Vec::new();
                for t in all_premises.iter().chain(std::iter::once(&conclusion)) {
                    t.visit(&mut |s: &Term| {
                        s.ty.params(&mut mentioned);
                        match &s.kind {
                            TermKind::Local(id) => {
                                used.insert(*id);
                            }
                            TermKind::Const(_, inst) | TermKind::Ctor(_, _, inst) => {
                                inst.iter().for_each(|t| t.params(&mut mentioned))
                            }
                            _ => {}
                        }
                    });
                }
                let own_frees: Vec<LocalId> = frees.iter().copied().filter(|f| used.contains(f)).collect();
                // A type parameter stays if this proposition may mention it: in its terms, or
                // in the type of any local but the other propositions' free variables (bound
                // variables are locals too). The others would only multiply the instances.
                for (i, local) in locals.iter().enumerate() {
                    let other_free =
                        frees.iter().any(|f| *f as usize == i) && !own_frees.iter().any(|f| *f as usize == i);
                    if !other_free {
                        local.ty.params(&mut mentioned);
                    }
                }
                let params = params.iter().filter(|(p, _)| mentioned.contains(p)).cloned().collect();
                (own_frees, params)
            } else {
                (frees.clone(), params.clone())
            };
            self.lemmas.push(Lemma {
                name: name.clone(),
                params,
                locals: locals.clone(),
                frees,
                premises: all_premises,
                conclusion,
                span,
                code: false,
            });
            indices.push(self.lemmas.len() - 1);
        }
        Ok(indices)
    }

    pub fn value(&mut self, t: &ast::Term) -> R<usize> {
        self.check_tree_notation(&[t])?;
        let mut e = self.elab(Mode::Closed);
        e.closed_term = true;
        let mut term = e.term(t)?;
        // A type variable left where values are enumerated (a quantifier's variable, a set
        // comprehension, `UNIV`, equality of functions) would silently become `unit`: refuse.
        let mut undetermined = None;
        term.visit(&mut |s: &Term| {
            if undetermined.is_some() {
                return;
            }
            let (ty, what) = match &s.kind {
                TermKind::Quant(_, l, _, _) | TermKind::SetCompr(l, _, _) => {
                    (e.locals[*l as usize].ty.clone(), format!("`{}`", e.locals[*l as usize].name))
                }
                TermKind::Builtin(super::builtins::Builtin::Univ) => (s.ty.clone(), "`UNIV`".to_string()),
                TermKind::Builtin(super::builtins::Builtin::Eq) => {
                    let arg = match e.inf.resolve(&s.ty) {
                        Type::Con(_, args) => args.first().cloned(),
                        _ => None,
                    };
                    match arg {
                        Some(a @ Type::Con(..)) if a.is_con(super::ty::FUN) => {
                            (a, "the functions compared here".to_string())
                        }
                        _ => return,
                    }
                }
                _ => return,
            };
            let mut vars = Vec::new();
            e.free_vars(&ty, &mut vars);
            if !vars.is_empty() {
                undetermined = Some((s.span, e.show(&ty), what));
            }
        });
        if let Some((span, ty, what)) = undetermined {
            return Err(Diagnostic::error(span, format!("the type of {what} is not determined: it is `{ty}`"))
                .with_label("values of this type would have to be enumerated")
                .with_help("add a type annotation, e.g. `∀x::bool. ...` or `(UNIV :: bool set)`"));
        }
        // Shown as inferred, except that a numeral's type shows what it evaluates at (`nat`).
        let shown_type = {
            let mut vars = Vec::new();
            e.free_vars(&term.ty, &mut vars);
            let mut fresh = FreshParams::default();
            let mut shown = HashMap::new();
            for v in vars.into_iter().filter(|v| e.inf.sort_of_var(*v).is_empty()) {
                shown.insert(v, fresh.name());
            }
            TypePrinter::default().print(&e.finalize_type(&term.ty, &shown))
        };
        let gen = HashMap::new();
        e.finalize_term(&mut term, &gen)?;
        let locals = e.finalize_locals(&gen);
        self.values.push(ValueTerm { locals, term, span: t.span, shown_type });
        Ok(self.values.len() - 1)
    }
}

fn self_bool(e: &mut Elab<'_>, t: &ast::Term) -> R<Term> {
    let t = e.term(t)?;
    e.expect(&t.ty, &Type::bool(), t.span, ", but a statement must be `bool`")?;
    Ok(t)
}

/// `A ⟹ B ⟹ C` into `[A, B, C]`.
fn flatten_meta_imp<'a>(t: &'a ast::Term, out: &mut Vec<&'a ast::Term>) {
    match &t.kind {
        ast::TermKind::BinOp(ast::BinOp::MetaImp, _, a, b) => {
            out.push(a);
            flatten_meta_imp(b, out);
        }
        _ => out.push(t),
    }
}

/// `lhs = rhs`, `lhs ≡ rhs` or `lhs ⟷ rhs` at the top of an equation.
fn split_equation(t: &ast::Term) -> R<(&ast::Term, &ast::Term)> {
    match &t.kind {
        ast::TermKind::BinOp(ast::BinOp::Eq | ast::BinOp::Defeq | ast::BinOp::Iff, _, l, r) => Ok((l, r)),
        _ => Err(Diagnostic::error(t.span, "a defining equation must have the form `f p1 ... pn = t`")
            .with_label("not an equation")),
    }
}

/// The type variables of `ty` must be among `params` (the parameters of `owner`).
fn check_type_params(e: &Elab<'_>, ty: &Type, params: &[&str], span: Span, owner: &str) -> R<()> {
    let mut used = Vec::new();
    ty.params(&mut used);
    let mut vars = Vec::new();
    e.free_vars(ty, &mut vars);
    // Inference variables stand for type variables written in the type but not declared.
    let named_vars = e.tyvars.iter().filter(|(_, t)| matches!(t, Type::Var(v) if vars.contains(v))).map(|(n, _)| n);
    let unbound = used.iter().filter(|p| !params.contains(&&***p)).chain(named_vars).next();
    match unbound {
        Some(p) => Err(Diagnostic::error(span, format!("type variable `{p}` is not a parameter of `{owner}`"))
            .with_label(format!("`{p}` is not declared"))
            .with_help(format!("declare it: `('a, ...) {owner}` lists the parameters"))),
        None if !vars.is_empty() => {
            Err(Diagnostic::error(span, format!("a type variable here is not a parameter of `{owner}`"))
                .with_label("not declared"))
        }
        None => Ok(()),
    }
}

/// Type parameters of one command must be distinct.
fn check_distinct<'a>(params: impl Iterator<Item = &'a ast::Ident>) -> R<()> {
    let mut seen: Vec<&ast::Ident> = Vec::new();
    for p in params {
        if let Some(first) = seen.iter().find(|q| q.name == p.name) {
            return Err(Diagnostic::error(p.span, format!("type parameter `{}` is listed twice", p.name))
                .with_label("second occurrence")
                .with_secondary(first.span, "first occurrence"));
        }
        seen.push(p);
    }
    Ok(())
}

pub(super) fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// The prelude constant an infix notation stands for.
fn infix_constant(op: ast::BinOp) -> Option<&'static str> {
    Some(match op {
        ast::BinOp::Dvd => "dvd",
        ast::BinOp::Append => "append",
        ast::BinOp::Nth => "nth",
        ast::BinOp::Power => "power",
        ast::BinOp::Comp => "comp",
        ast::BinOp::Image => "image",
        ast::BinOp::RelComp => "relcomp",
        ast::BinOp::MapAdd => "map_add",
        ast::BinOp::Choose => "binomial",
        ast::BinOp::Cartesian => "Times",
        _ => return None,
    })
}

/// Names for type variables: `'a` … `'z`, `'a1` … `'z1`, `'a2` …, in order, skipping those
/// taken. A set, and a position that only moves on (every name before it is taken), so n
/// names cost n steps: scanning from `'a` through a list for each name cost n³, and a
/// `value` of a type with 10,000 variables took minutes.
#[derive(Default)]
struct FreshParams {
    taken: HashSet<Arc<str>>,
    next: usize,
}

impl FreshParams {
    /// `name` is taken (a type variable written in the text).
    fn mark(&mut self, name: &Arc<str>) {
        self.taken.insert(name.clone());
    }

    /// The first name not taken, which is taken from now on.
    fn name(&mut self) -> Arc<str> {
        loop {
            let i = self.next;
            self.next += 1;
            let letter = (b'a' + (i % 26) as u8) as char;
            let name: Arc<str> = if i < 26 { format!("'{letter}") } else { format!("'{letter}{}", i / 26) }.into();
            if self.taken.insert(name.clone()) {
                return name;
            }
        }
    }
}

/// Replaces the group placeholders by the constants' real ids, at the identity instance.
fn fix_group_refs(t: &mut Term, base: u32, schemes: &[Scheme]) {
    match &mut t.kind {
        TermKind::Const(id, inst) if id.0 >= GROUP_BASE => {
            let i = (id.0 - GROUP_BASE) as usize;
            *id = ConstId(base + i as u32);
            *inst = schemes[i].params.iter().map(|(p, _)| Type::Param(p.clone())).collect();
        }
        TermKind::Const(..) | TermKind::Local(_) | TermKind::Ctor(..) | TermKind::Builtin(_) | TermKind::Num(_) => {}
        TermKind::App(f, x) => {
            fix_group_refs(f, base, schemes);
            fix_group_refs(x, base, schemes);
        }
        TermKind::Lambda(_, b) => fix_group_refs(b, base, schemes),
        TermKind::Let(_, a, b) => {
            fix_group_refs(a, base, schemes);
            fix_group_refs(b, base, schemes);
        }
        TermKind::If(c, a, b) => {
            fix_group_refs(c, base, schemes);
            fix_group_refs(a, base, schemes);
            fix_group_refs(b, base, schemes);
        }
        TermKind::Case(s, arms) => {
            fix_group_refs(s, base, schemes);
            arms.iter_mut().for_each(|(_, r)| fix_group_refs(r, base, schemes));
        }
        TermKind::Quant(_, _, bound, body) => {
            if let Some(Bound::In(a) | Bound::Less(a) | Bound::LessEq(a)) = bound {
                fix_group_refs(a, base, schemes);
            }
            fix_group_refs(body, base, schemes);
        }
        TermKind::SetCompr(_, dom, body) => {
            if let Some(d) = dom {
                fix_group_refs(d, base, schemes);
            }
            fix_group_refs(body, base, schemes);
        }
    }
}

/// The datatypes being defined may occur only positively (never left of `⇒`) in their own
/// constructors' arguments.
fn check_positive(t: &ast::Type, names: &[&str], positive: bool, ctor: &str) -> R<()> {
    match &t.kind {
        ast::TypeKind::Var(_) => Ok(()),
        ast::TypeKind::Fun(a, b) => {
            check_positive(a, names, false, ctor)?;
            check_positive(b, names, positive, ctor)
        }
        ast::TypeKind::App(n, args) => {
            if !positive && names.contains(&n.name.as_str()) {
                return Err(Diagnostic::error(
                    n.span,
                    format!("datatype `{}` occurs non-positively (left of `⇒`) in its constructor `{ctor}`", n.name),
                )
                .with_label("a datatype may not occur left of `⇒` in its own constructors")
                .with_note("such a datatype has no set-theoretic model, so Isabelle rejects it too"));
            }
            args.iter().try_for_each(|a| check_positive(a, names, positive, ctor))
        }
    }
}

/// The datatypes being defined (`group`) may recur only uniformly, as Isabelle's datatype
/// package requires: inside the constructors of `owner` (with parameters `params`), every
/// occurrence of one of them is applied to exactly `params`, in order. A nonuniform
/// occurrence (`('a × 'a) nest` in `'a nest`) would give the datatype infinitely many
/// instances, and lowering one would never end. `field` is the argument as written, `ty` as
/// converted (synonyms expanded), which decides; the text only locates the occurrence.
fn check_uniform(
    e: &mut Elab<'_>,
    field: &ast::Type,
    ty: &Type,
    group: &[&str],
    params: &[&str],
    owner: &str,
) -> R<()> {
    let uniform = |t: &Type| match t {
        Type::Con(_, args) => {
            args.len() == params.len()
                && args.iter().zip(params).all(|(a, p)| matches!(a, Type::Param(q) if **q == **p))
        }
        _ => true,
    };
    let Some(bad) = nonuniform_occurrence(ty, group, &uniform) else { return Ok(()) };
    // The first occurrence in the text that is nonuniform once converted (a synonym may
    // make `'a id t` uniform).
    let mut stack = vec![field];
    let mut found = None;
    while let Some(t) = stack.pop() {
        match &t.kind {
            ast::TypeKind::Var(_) => {}
            ast::TypeKind::Fun(a, b) => stack.extend([&**b, &**a]),
            ast::TypeKind::App(n, args) => {
                if group.contains(&n.name.as_str()) {
                    if let Ok(c) = e.convert_type(t, TyVars::Flexible) {
                        if !uniform(&c) {
                            found = Some((t.span, c));
                            break;
                        }
                    }
                }
                stack.extend(args.iter().rev());
            }
        }
    }
    let (span, bad) = found.unwrap_or((field.span, bad));
    let Type::Con(name, args) = &bad else { return Ok(()) };
    let mut printer = TypePrinter::default();
    let shown = printer.print(&bad);
    let d = if args.len() == params.len() {
        let expected = printer.print(&Type::Con(name.clone(), params.iter().map(|p| Type::param(p)).collect()));
        let label = if **name == *owner {
            format!("must be `{expected}`: a datatype recurs only at its own parameters, in order")
        } else {
            format!(
                "must be `{expected}`: datatypes defined together recur only at the parameters of `{owner}`, in order"
            )
        };
        Diagnostic::error(span, format!("`{shown}` is a nonuniform recursive occurrence of `{name}`")).with_label(label)
    } else {
        Diagnostic::error(span, format!("`{shown}` is a nonuniform recursive occurrence of `{name}`")).with_label(
            format!(
                "`{name}` takes {}, but `{owner}` has {}: datatypes defined together recur only at the same parameters",
                plural(args.len(), "parameter"),
                plural(params.len(), "parameter")
            ),
        )
    };
    Err(d.with_note("Isabelle rejects nonuniform recursion too: such a datatype can have infinitely many instances"))
}

/// An occurrence in `t` of a datatype of `group` that is not `uniform`.
fn nonuniform_occurrence(t: &Type, group: &[&str], uniform: &impl Fn(&Type) -> bool) -> Option<Type> {
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        if let Type::Con(c, args) = t {
            if group.contains(&&**c) && !uniform(t) {
                return Some(t.clone());
            }
            stack.extend(args.iter());
        }
    }
    None
}

/// The error for a command outside the subset at its keyword; `hidden` says what the
/// rest of the file does not get (empty: nothing).
fn unsupported(keyword: &ast::Ident, hidden: String) -> Diagnostic {
    let note = match hidden.as_str() {
        "" => "the rest of the file is still checked".to_string(),
        _ => format!("the rest of the file is still checked; {hidden}"),
    };
    Diagnostic::error(keyword.span, format!("`{}` is not supported", keyword.name))
        .with_label("hol reads a subset of Isabelle's theory language")
        .with_note(note)
}

/// Calls `f` on every name in a surface term (bound or free, patterns included).
fn walk_names<'t>(t: &'t ast::Term, f: &mut impl FnMut(&'t ast::Ident)) {
    use ast::TermKind as K;
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        match &t.kind {
            K::Name(id) => f(id),
            K::Num(_) | K::Wildcard => {}
            K::App(a, b) | K::BinOp(_, _, a, b) | K::SetCompr(a, b) => stack.extend([&**a, &**b]),
            K::UnOp(_, _, a) | K::Typed(a, _) => stack.push(a),
            K::Lambda(ps, b) => {
                stack.extend(ps.iter());
                stack.push(b);
            }
            K::Quant { bound, body, .. } => {
                if let Some(ast::QuantBound::In(b) | ast::QuantBound::Less(b) | ast::QuantBound::LessEq(b)) = bound {
                    stack.push(b);
                }
                stack.push(body);
            }
            K::If(a, b, c) => stack.extend([&**a, &**b, &**c]),
            K::Let(bs, b) | K::Case(b, bs) | K::Update(b, bs) => {
                stack.extend(bs.iter().flat_map(|(p, v)| [p, v]));
                stack.push(b);
            }
            K::Tuple(ts) | K::List(ts) | K::SetLit(ts) => stack.extend(ts.iter()),
            K::ListCompr(h, qs) => {
                stack.push(h);
                for q in qs {
                    match q {
                        ast::Qualifier::Generator(p, e) => stack.extend([p, e]),
                        ast::Qualifier::Guard(g) => stack.push(g),
                    }
                }
            }
            K::Range { from, to, .. } => stack.extend([&**from, &**to]),
        }
    }
}

fn already_defined_type(name: &ast::Ident) -> Diagnostic {
    Diagnostic::error(name.span, format!("type `{}` is already defined", name.name)).with_label("choose another name")
}
