//! Primitive operations (`Prim`) on words: arithmetic, whose results past 64 bits end the
//! run as `Overflow` (the interpreter takes the case), division through `rt_divmod`, and
//! equality and order on numbers, booleans and datatypes (a compiled comparison per
//! datatype); the set primitives are in `sets`.

use super::compare::compares_structurally;
use super::FunctionTranslator;
use crate::runtime::{SET_EQ, SET_LE, SET_LT, ST_NOT_SUPPORTED, ST_OVERFLOW};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{InstBuilder, Value};
use lang::core::ir::{Expr, NumTy, Prim, Ty};

impl FunctionTranslator<'_, '_, '_> {
    pub fn translate_prim(&mut self, p: &Prim, args: &[Expr]) -> Value {
        let vals: Vec<Value> = args.iter().map(|a| self.translate_expr(a)).collect();
        match p {
            Prim::Add(_) => {
                let (r, o) = self.builder.ins().sadd_overflow(vals[0], vals[1]);
                self.fail_if(o, ST_OVERFLOW);
                r
            }
            Prim::Sub(NumTy::Nat) => {
                let lt = self.builder.ins().icmp(IntCC::SignedLessThan, vals[0], vals[1]);
                let d = self.builder.ins().isub(vals[0], vals[1]);
                let z = self.builder.ins().iconst(I64, 0);
                self.builder.ins().select(lt, z, d)
            }
            Prim::Sub(NumTy::Int) => {
                let (r, o) = self.builder.ins().ssub_overflow(vals[0], vals[1]);
                self.fail_if(o, ST_OVERFLOW);
                r
            }
            Prim::Mul(_) => {
                let (r, o) = self.builder.ins().smul_overflow(vals[0], vals[1]);
                self.fail_if(o, ST_OVERFLOW);
                r
            }
            Prim::Div(t) | Prim::Mod(t) => {
                let op = match (p, t) {
                    (Prim::Div(_), NumTy::Nat) => 0,
                    (Prim::Mod(_), NumTy::Nat) => 1,
                    (Prim::Div(_), NumTy::Int) => 2,
                    _ => 3,
                };
                let opv = self.builder.ins().iconst(I64, op);
                let rt_divmod = self.func_ref(self.compiler.runtime.divmod);
                let r = self.call_out(rt_divmod, &[self.ctx, vals[0], vals[1], opv]);
                self.check_status();
                r
            }
            Prim::Neg => {
                let min = self.builder.ins().icmp_imm_s(IntCC::Equal, vals[0], i64::MIN);
                self.fail_if(min, ST_OVERFLOW);
                self.builder.ins().ineg(vals[0])
            }
            Prim::Suc => {
                let one = self.builder.ins().iconst(I64, 1);
                let (r, o) = self.builder.ins().sadd_overflow(vals[0], one);
                self.fail_if(o, ST_OVERFLOW);
                r
            }
            Prim::IntOfNat => vals[0],
            Prim::NatOfInt => {
                let z = self.builder.ins().iconst(I64, 0);
                self.builder.ins().smax(vals[0], z)
            }
            Prim::Not => self.builder.ins().bxor_imm_u(vals[0], 1),
            Prim::Eq(t) | Prim::Lt(t) | Prim::Le(t) => self.comparison(p, t, &vals),
            Prim::SetEmpty(_)
            | Prim::SetUniv(_)
            | Prim::SetCompl(_)
            | Prim::SetInsert(_)
            | Prim::SetMember(_)
            | Prim::SetUnion(_)
            | Prim::SetInter(_)
            | Prim::SetDiff(_)
            | Prim::SetFinite(_)
            | Prim::SetToList(_) => self.set_prim(p, &vals),
        }
    }

    /// `=`, `<` or `≤` (`p`) at type `t` on the words `vals`.
    fn comparison(&mut self, p: &Prim, t: &Ty, vals: &[Value]) -> Value {
        let (direct, cc) = match p {
            Prim::Eq(_) => (IntCC::Equal, IntCC::Equal),
            Prim::Lt(_) => (IntCC::SignedLessThan, IntCC::SignedLessThan),
            _ => (IntCC::SignedLessThanOrEqual, IntCC::SignedLessThanOrEqual),
        };
        match t {
            Ty::Bool | Ty::Nat | Ty::Int => self.compare_as_bool(direct, vals[0], vals[1]),
            Ty::Data(d) if self.compiler.program.data(*d).ctors.iter().all(|c| c.fields.is_empty()) => {
                self.compare_as_bool(direct, vals[0], vals[1])
            }
            Ty::Set(e) => {
                let op = match p {
                    Prim::Eq(_) => SET_EQ,
                    Prim::Lt(_) => SET_LT,
                    _ => SET_LE,
                };
                let e = (**e).clone();
                self.call_set_helper(op, &e, vals)
            }
            Ty::Data(d) if compares_structurally(self.compiler.program, t) => {
                let id = match self.compiler.compare_function(*d) {
                    Ok(id) => id,
                    Err(_) => return self.fail_with(ST_NOT_SUPPORTED),
                };
                let compare = self.func_ref(id);
                let r = self.call_out(compare, &[self.ctx, vals[0], vals[1]]);
                let z = self.builder.ins().iconst(I64, 0);
                self.compare_as_bool(cc, r, z)
            }
            _ => self.fail_with(ST_NOT_SUPPORTED),
        }
    }
}
