//! IR types in Isabelle's theory syntax, as counterexamples, instances and `value` results
//! show them: `nat list`, `nat × bool`, `nat ⇒ bool`, `a3 set`, `(nat, bool) map`.

use super::ir::{Program, Ty};
use std::fmt::Write;

/// A type in theory syntax: `nat list`, `nat × bool`, `nat ⇒ bool`, `a3 set`.
pub fn print_type(p: &Program, ty: &Ty) -> String {
    let mut out = String::new();
    type_at(p, ty, 0, &mut out);
    out
}

/// Precedences: 0 anywhere, 1 left of `⇒`, 2 operand of `+`, 3 operand of `×`, 4 argument
/// of a postfix type constructor.
fn type_at(p: &Program, ty: &Ty, prec: u8, out: &mut String) {
    let paren = |need: u8, out: &mut String, f: &mut dyn FnMut(&mut String)| {
        if prec > need {
            out.push('(');
            f(out);
            out.push(')');
        } else {
            f(out);
        }
    };
    match ty {
        Ty::Bool => out.push_str("bool"),
        Ty::Nat => out.push_str("nat"),
        Ty::Int => out.push_str("int"),
        Ty::Fun(a, b) => paren(0, out, &mut |out| {
            type_at(p, a, 1, out);
            out.push_str(" ⇒ ");
            type_at(p, b, 0, out);
        }),
        Ty::Set(a) => {
            type_at(p, a, 4, out);
            out.push_str(" set");
        }
        Ty::Data(id) => {
            let Some(d) = p.datas.get(id.0 as usize) else {
                let _ = write!(out, "?data{}", id.0);
                return;
            };
            match (d.name.as_str(), &d.args[..]) {
                ("prod", [a, b]) => paren(2, out, &mut |out| {
                    type_at(p, a, 3, out);
                    out.push_str(" × ");
                    type_at(p, b, 2, out);
                }),
                ("sum", [a, b]) => paren(1, out, &mut |out| {
                    type_at(p, a, 2, out);
                    out.push_str(" + ");
                    type_at(p, b, 1, out);
                }),
                (_, []) => out.push_str(&d.name),
                (_, [a]) => {
                    type_at(p, a, 4, out);
                    out.push(' ');
                    out.push_str(&d.name);
                }
                (_, args) => {
                    out.push('(');
                    for (i, a) in args.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        type_at(p, a, 0, out);
                    }
                    out.push_str(") ");
                    out.push_str(&d.name);
                }
            }
        }
    }
}
