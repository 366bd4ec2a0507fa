//! Values and types in Isabelle theory syntax, as counterexamples and `value` results are
//! shown: `[3, 2, 1]`, `(1, 2)`, `(a, b, c)`, `()`, `{1, 2}`, `- {1}`, `UNIV`,
//! `Node (Leaf 1) 2 Twig`, `Some (-4)`, `a1`, functions as `(λ_. 0)(1 := 2)` (tabulated with
//! the most frequent value as default when the domain is finite), `<function>` otherwise.
//!
//! The value printer works from an explicit task stack, so the depth of the data never
//! becomes depth of the machine stack.

use super::eval::Run;
use crate::core::ir::{DataDef, Ty};
use crate::value::Hole;
use crate::value::{Closure, Value};
use std::fmt::Write;

/// The most of a value `print` writes. Values share their parts, so one that is cheap to
/// build (`let x = t in N x x`, 40 times) can be exponentially long as text; past this it
/// is cut (32 MiB: a list of a million numbers prints whole), so printing costs bounded
/// time and memory.
pub const MAX_PRINTED: usize = 32 << 20;

enum Task<'t> {
    Str(&'static str),
    Text(String),
    /// A value, whether it stands as an argument of an application (then anything that is
    /// not atomic needs parentheses), and whether it is part of a tabulated function, so
    /// canonical already: a function of functions is tabulated once, at its top, not again
    /// at every level (which cost the cube of its depth).
    Val(Value, &'t Ty, bool, bool),
}

fn is_list(d: &DataDef) -> bool {
    d.name == "list"
        && d.ctors.len() == 2
        && d.ctors[0].name == "Nil"
        && d.ctors[0].fields.is_empty()
        && d.ctors[1].name == "Cons"
        && d.ctors[1].fields.len() == 2
}

fn is_pair(d: &DataDef) -> bool {
    d.name == "prod" && d.ctors.len() == 1 && d.ctors[0].name == "Pair" && d.ctors[0].fields.len() == 2
}

impl<'p> Run<'_, 'p> {
    /// `v` of type `ty` in theory syntax, cut after `MAX_PRINTED` bytes.
    pub fn print(&mut self, v: &Value, ty: &Ty) -> String {
        self.print_named(v, ty, &|_| None)
    }

    /// `v` of type `ty` with its holes named by `names` (a generalized counterexample's
    /// variables: `x # x # _`); a hole it does not name prints as `_`.
    pub fn print_named(&mut self, v: &Value, ty: &Ty, names: &dyn Fn(&Hole) -> Option<String>) -> String {
        let mut out = String::new();
        let mut tasks = vec![Task::Val(v.clone(), ty, false, false)];
        while let Some(t) = tasks.pop() {
            if out.len() > MAX_PRINTED {
                out.truncate(out.floor_char_boundary(MAX_PRINTED));
                let _ = write!(out, " … (cut: longer than {MAX_PRINTED} bytes)");
                break;
            }
            match t {
                Task::Str(s) => out.push_str(s),
                Task::Text(s) => out.push_str(&s),
                Task::Val(v, ty, arg, canonical) => self.print_one(v, ty, arg, canonical, names, &mut tasks, &mut out),
            }
        }
        out
    }

    /// Prints what is atomic about `v` to `out` and pushes the rest as tasks (in reverse).
    /// (One argument per part of the printer's state: bundling them would only rename them.)
    #[allow(clippy::too_many_arguments)]
    fn print_one<'t>(
        &mut self,
        v: Value,
        ty: &'t Ty,
        arg: bool,
        canonical: bool,
        names: &dyn Fn(&Hole) -> Option<String>,
        tasks: &mut Vec<Task<'t>>,
        out: &mut String,
    ) where
        'p: 't,
    {
        let p = self.code.prog;
        // Pushes `items` as `open item, item, ... close`.
        let seq = |tasks: &mut Vec<Task<'t>>, open: &'static str, close: &'static str, items: Vec<(Value, &'t Ty)>| {
            tasks.push(Task::Str(close));
            let n = items.len();
            for (i, (v, t)) in items.into_iter().rev().enumerate() {
                tasks.push(Task::Val(v, t, false, canonical));
                if i + 1 < n {
                    tasks.push(Task::Str(", "));
                }
            }
            tasks.push(Task::Str(open));
        };
        match (&v, ty) {
            (Value::Bool(b), _) => out.push_str(if *b { "True" } else { "False" }),
            // A hole of a partial value (narrowing's partial counterexamples): `_`, or
            // `Suc (Suc _)` for a `nat` known to be at least 2.
            (Value::Hole(h), _) if let Some(name) = names(h) => out.push_str(&name),
            (Value::Hole(h), _) => {
                let k = h.suc as usize;
                if k > 0 && arg {
                    out.push('(');
                }
                out.push_str(&"Suc (".repeat(k.saturating_sub(1)));
                out.push_str(if k > 0 { "Suc _" } else { "_" });
                out.push_str(&")".repeat(k.saturating_sub(1)));
                if k > 0 && arg {
                    out.push(')');
                }
            }
            (Value::Int(i), _) => {
                if arg && i.is_negative() {
                    let _ = write!(out, "({i})");
                } else {
                    let _ = write!(out, "{i}");
                }
            }
            (Value::Set(s), Ty::Set(elem)) => {
                if s.compl && s.elems.is_empty() {
                    out.push_str("UNIV");
                    return;
                }
                if s.compl {
                    out.push_str(if arg { "(- " } else { "- " });
                    if arg {
                        tasks.push(Task::Str(")"));
                    }
                }
                seq(tasks, "{", "}", s.elems.iter().map(|x| (x.clone(), &**elem)).collect());
            }
            (Value::Ctor(tag, fields), Ty::Data(id)) if (id.0 as usize) < p.datas.len() => {
                let d = p.data(*id);
                let Some(ctor) = d.ctors.get(*tag as usize) else {
                    let _ = write!(out, "{v:?}");
                    return;
                };
                if is_list(d) {
                    let elem_ty = &d.ctors[1].fields[0];
                    let mut items = Vec::new();
                    let mut cur = v.clone();
                    loop {
                        let next = match &cur {
                            Value::Ctor(1, f) if f.len() == 2 => {
                                items.push((f[0].clone(), elem_ty));
                                f[1].clone()
                            }
                            _ => break,
                        };
                        cur = next;
                    }
                    if let Value::Hole(h) = &cur {
                        // A partial list (narrowing): `a # b # _`; a generalization's: `a # xs`.
                        if arg {
                            tasks.push(Task::Str(")"));
                        }
                        tasks.push(Task::Text(names(h).unwrap_or_else(|| "_".into())));
                        for (x, t) in items.into_iter().rev() {
                            tasks.push(Task::Str(" # "));
                            tasks.push(Task::Val(x, t, true, canonical));
                        }
                        if arg {
                            tasks.push(Task::Str("("));
                        }
                        return;
                    }
                    seq(tasks, "[", "]", items);
                } else if is_pair(d) {
                    let mut items = Vec::new();
                    let (mut cur, mut cur_ty) = (v.clone(), ty);
                    while let Ty::Data(cid) = cur_ty {
                        let cd = p.data(*cid);
                        match &cur {
                            Value::Ctor(0, f) if is_pair(cd) && f.len() == 2 => {
                                items.push((f[0].clone(), &cd.ctors[0].fields[0]));
                                let next = f[1].clone();
                                cur = next;
                                cur_ty = &cd.ctors[0].fields[1];
                            }
                            _ => break,
                        }
                    }
                    items.push((cur, cur_ty));
                    seq(tasks, "(", ")", items);
                } else if d.name == "unit" && fields.is_empty() {
                    out.push_str("()");
                } else if fields.is_empty() {
                    out.push_str(&ctor.name);
                } else if crate::syntax::record_ext_fields(&ctor.name).is_some() {
                    // A record, its extensions' fields inline: `⦇xpos = 1, ypos = 2, colour =
                    // Red⦈`; a rest that is no record's is `… = a1`, and `()` is left out.
                    let mut items: Vec<(String, Value, &Ty)> = Vec::new();
                    let (mut cur, mut cur_ty) = (v.clone(), ty);
                    while let (Value::Ctor(0, f), Ty::Data(cid)) = (&cur, cur_ty) {
                        let c = &p.data(*cid).ctors[0];
                        let Some(names) = crate::syntax::record_ext_fields(&c.name) else { break };
                        if f.len() != names.len() + 1 || c.fields.len() != f.len() {
                            break;
                        }
                        items.extend(
                            names.iter().zip(f.iter().zip(&c.fields)).map(|(n, (x, t))| (n.to_string(), x.clone(), t)),
                        );
                        let next = (f[names.len()].clone(), &c.fields[names.len()]);
                        (cur, cur_ty) = next;
                    }
                    let unit = matches!(cur_ty, Ty::Data(cid) if p.data(*cid).name == "unit");
                    if !unit {
                        items.push(("…".to_string(), cur, cur_ty));
                    }
                    out.push('⦇');
                    tasks.push(Task::Str("⦈"));
                    for (i, (name, x, t)) in items.into_iter().enumerate().rev() {
                        tasks.push(Task::Val(x, t, false, canonical));
                        tasks.push(Task::Text(format!("{}{name} = ", if i > 0 { ", " } else { "" })));
                    }
                } else {
                    if arg {
                        out.push('(');
                        tasks.push(Task::Str(")"));
                    }
                    out.push_str(&ctor.name);
                    for (x, t) in fields.iter().zip(&ctor.fields).rev() {
                        tasks.push(Task::Val(x.clone(), t, true, canonical));
                        tasks.push(Task::Str(" "));
                    }
                }
            }
            (Value::Fun(_), Ty::Fun(dom, cod)) => {
                let finite = !canonical && self.code.ty(dom).univ(p).is_some();
                let map = if finite { self.tabulate(&v, dom, cod).ok() } else { Some(v.clone()) };
                // What a tabulation returns is canonical to the bottom.
                let canonical = canonical || finite;
                let Some(Value::Fun(c)) = map else {
                    out.push_str("<function>");
                    return;
                };
                let Closure::Map { default, entries } = &*c else {
                    out.push_str("<function>");
                    return;
                };
                let wrap = arg && !entries.is_empty();
                if wrap {
                    out.push('(');
                    tasks.push(Task::Str(")"));
                }
                out.push_str("(λ_. ");
                if !entries.is_empty() {
                    tasks.push(Task::Str(")"));
                    for (i, (k, x)) in entries.iter().enumerate().rev() {
                        tasks.push(Task::Val(x.clone(), cod, false, canonical));
                        tasks.push(Task::Str(" := "));
                        tasks.push(Task::Val(k.clone(), dom, false, canonical));
                        if i > 0 {
                            tasks.push(Task::Str(", "));
                        }
                    }
                    tasks.push(Task::Str("("));
                }
                tasks.push(Task::Str(")"));
                tasks.push(Task::Val(default.clone(), cod, false, canonical));
            }
            _ => tasks.push(Task::Text(format!("{v:?}"))),
        }
    }
}
