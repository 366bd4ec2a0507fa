//! Expressions to values: one arm per IR variant, each handing its concept to the module
//! that owns it (calls, closures, primitives, quantifiers); control forms go through their
//! continuation (`translate_tail` into a merge block).

use super::{Continuation, FunctionTranslator};
use crate::runtime::{OFF_DETAIL, ST_NOT_SUPPORTED, ST_OVERFLOW, ST_UNDEFINED};
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{InstBuilder, Value};
use lang::core::ir::{Expr, Lit};
use num_traits::ToPrimitive;

impl FunctionTranslator<'_, '_, '_> {
    pub fn translate_expr(&mut self, e: &Expr) -> Value {
        if self.compiler.stack_low() {
            self.compiler.truncated = true;
            return self.fail_with(ST_NOT_SUPPORTED);
        }
        match e {
            Expr::Var(v) => self.use_var(*v),
            Expr::Lit(l) => {
                let n = match l {
                    Lit::Bool(b) => Some(*b as i64),
                    Lit::Nat(n) => n.to_i64(),
                    Lit::Int(i) => i.to_i64(),
                };
                match n {
                    // In narrowing mode the numbers that look like partial words (far
                    // below any a lemma writes) are left to the interpreter.
                    Some(n) if self.narrowing() && crate::holes::int_collides(n) => self.fail_with(ST_OVERFLOW),
                    Some(n) => self.builder.ins().iconst(I64, n),
                    None => self.fail_with(ST_OVERFLOW),
                }
            }
            Expr::Ctor(c, args) => {
                if args.is_empty() {
                    return self.builder.ins().iconst(I64, crate::layout::nullary_word(c.tag) as i64);
                }
                let vals: Vec<Value> = args.iter().map(|a| self.translate_lazy(a)).collect();
                self.ctor_cell(c.tag, vals.len(), &vals)
            }
            Expr::Call(f, args) => self.call(*f, args),
            Expr::Prim(p, args) => self.translate_prim(p, args),
            Expr::FunRef(f) => self.fun_ref(*f),
            Expr::Apply(f, args) => self.apply(f, args),
            Expr::Lambda(params, body) => self.lambda(params, body),
            Expr::If(..) | Expr::Case { .. } | Expr::NatCase { .. } => {
                let merge = self.builder.create_block();
                self.builder.append_block_param(merge, I64);
                self.translate_tail(e, Continuation::Merge(merge));
                self.builder.switch_to_block(merge);
                self.builder.block_params(merge)[0]
            }
            Expr::Let(v, _, rhs, body) => {
                let x = self.translate_lazy(rhs);
                self.bind(*v, x);
                self.translate_expr(body)
            }
            Expr::Undefined(u) => {
                let i = self.compiler.undef_index(u);
                let d = self.builder.ins().iconst(I64, i);
                self.store_ctx(OFF_DETAIL, d);
                self.fail_with(ST_UNDEFINED)
            }
            Expr::Quant { q, var, ty, domain: None, body } if self.enumerated_size(ty).is_some() => {
                let domain = self.enumerated_domain(ty);
                self.quantifier(*q, *var, domain, body)
            }
            Expr::Quant { q, var, ty, domain: None, body } if self.compiler.universe(ty).is_some() => {
                let domain = self.universe_domain(ty).expect("a universe");
                self.quantifier(*q, *var, domain, body)
            }
            Expr::Quant { q, var, ty, domain: Some(d), body } => {
                let domain = self.set_domain(d, ty);
                self.quantifier(*q, *var, domain, body)
            }
            Expr::SetCompr { var, ty, domain: None, body } if self.enumerated_size(ty).is_some() => {
                let domain = self.enumerated_domain(ty);
                self.comprehension(*var, domain, body)
            }
            Expr::SetCompr { var, ty, domain: None, body } if self.compiler.universe(ty).is_some() => {
                let domain = self.universe_domain(ty).expect("a universe");
                self.comprehension(*var, domain, body)
            }
            Expr::SetCompr { var, ty, domain: Some(d), body } => {
                let domain = self.set_domain(d, ty);
                self.comprehension(*var, domain, body)
            }
            Expr::Quant { .. } | Expr::SetCompr { .. } | Expr::Pred(..) => self.fail_with(ST_NOT_SUPPORTED),
        }
    }
}
