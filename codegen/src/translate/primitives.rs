//! Primitive operations (`Prim`) on words: arithmetic, whose results past 64 bits end the
//! run as `Overflow` (the interpreter takes the case), division through `rt_divmod`, and
//! equality and order on numbers, booleans and datatypes (a compiled comparison per
//! datatype); the set primitives are in `sets`.

use super::compare::compares_structurally;
use super::FunctionTranslator;
use crate::holes::DemandKind;
use crate::runtime::{PARTIAL_INT, PARTIAL_SCALAR, SET_EQ, SET_LE, SET_LT, ST_NOT_SUPPORTED, ST_OVERFLOW};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{InstBuilder, Value};
use lang::core::ir::{Expr, NumTy, Prim, Ty};

impl FunctionTranslator<'_, '_, '_> {
    pub fn translate_prim(&mut self, p: &Prim, args: &[Expr]) -> Value {
        let vals: Vec<Value> = args.iter().map(|a| self.translate_expr(a)).collect();
        if self.narrowing() {
            if let Some(v) = self.partial_prim(p, &vals) {
                return v;
            }
            let r = self.total_prim(p, &vals);
            return match p {
                Prim::Add(NumTy::Int) | Prim::Sub(NumTy::Int) | Prim::Mul(NumTy::Int) | Prim::Neg => self.int_result(r),
                Prim::Div(NumTy::Int) | Prim::Mod(NumTy::Int) => self.int_result(r),
                _ => r,
            };
        }
        self.total_prim(p, &vals)
    }

    /// Narrowing mode: the partial words among the operands of `p` demanded as the
    /// interpreter demands them, or the whole primitive where it decides on partial words
    /// itself (`Suc`, comparisons). `None`: the operands are total, go on with `total_prim`.
    fn partial_prim(&mut self, p: &Prim, vals: &[Value]) -> Option<Value> {
        let operand = |p: &Prim| match p {
            Prim::Not => Ty::Bool,
            Prim::Neg | Prim::NatOfInt => Ty::Int,
            _ => Ty::Nat,
        };
        match p {
            Prim::Suc => Some(self.partial_suc(vals[0])),
            Prim::Not | Prim::Neg | Prim::IntOfNat | Prim::NatOfInt => {
                self.demand_if_partial(vals[0], &operand(p), DemandKind::Whole);
                None
            }
            Prim::Add(t) | Prim::Sub(t) | Prim::Mul(t) | Prim::Div(t) | Prim::Mod(t) => {
                let ty = match t {
                    NumTy::Nat => Ty::Nat,
                    NumTy::Int => Ty::Int,
                };
                for v in vals {
                    self.demand_if_partial(*v, &ty, DemandKind::FirstHole);
                }
                None
            }
            Prim::Eq(t) | Prim::Lt(t) | Prim::Le(t) => Some(self.partial_comparison(p, t, vals)),
            _ => None,
        }
    }

    /// `=`, `<` or `≤` in narrowing mode. On words of types that order as words, and on
    /// sets (a set compiled code holds is partial only at its top: `demand_set_operands`),
    /// compared directly unless one is partial; partial ones, and values of other types,
    /// by `rt_partial_compare`, as the interpreter compares partial values; except that a
    /// partial set under `⊂`/`⊆` is demanded, as the interpreter demands it.
    fn partial_comparison(&mut self, p: &Prim, t: &Ty, vals: &[Value]) -> Value {
        let op = match p {
            Prim::Eq(_) => 0,
            Prim::Lt(_) => 1,
            _ => 2,
        };
        let (scalar, set) = match t {
            Ty::Bool | Ty::Nat | Ty::Int => (true, false),
            Ty::Data(d) => (self.compiler.program.data(*d).ctors.iter().all(|c| c.fields.is_empty()), false),
            Ty::Set(e) => (false, compares_structurally(self.compiler.program, e)),
            _ => (false, false),
        };
        if !scalar && !set && !compares_structurally(self.compiler.program, t) {
            return self.fail_with(ST_NOT_SUPPORTED);
        }
        // Partial only at the top: decided on the words (`holes::compare_scalar_words`).
        let flags = match t {
            Ty::Int => PARTIAL_SCALAR | PARTIAL_INT,
            _ if scalar || set => PARTIAL_SCALAR,
            _ => 0,
        };
        let ty_index = if flags == 0 { self.compiler.compared_type_index(t) } else { 0 };
        let slow_call = |this: &mut Self| {
            let f = this.func_ref(this.compiler.runtime.partial_compare);
            let (o, ti) = (this.builder.ins().iconst(I64, op | flags), this.builder.ins().iconst(I64, ty_index));
            let call = this.builder.ins().call(f, &[this.ctx, o, vals[0], vals[1], ti]);
            let r = this.builder.inst_results(call)[0];
            this.check_status();
            r
        };
        if flags == 0 {
            return slow_call(self);
        }
        let (slow, fast, join) =
            (self.builder.create_block(), self.builder.create_block(), self.builder.create_block());
        self.builder.append_block_param(join, I64);
        let pa = self.is_partial(vals[0], t);
        let pb = self.is_partial(vals[1], t);
        let any = self.builder.ins().bor(pa, pb);
        self.builder.ins().brif(any, slow, &[], fast, &[]);
        self.builder.switch_to_block(slow);
        self.builder.set_cold_block(slow);
        if set && op != 0 {
            let w = self.builder.ins().select(pa, vals[0], vals[1]);
            self.demand(w, DemandKind::FirstHole);
        } else {
            let r = slow_call(self);
            self.builder.ins().jump(join, &[r.into()]);
        }
        self.builder.switch_to_block(fast);
        let r = self.comparison(p, t, vals);
        self.builder.ins().jump(join, &[r.into()]);
        self.builder.switch_to_block(join);
        self.builder.block_params(join)[0]
    }

    /// `p` on total words.
    fn total_prim(&mut self, p: &Prim, vals: &[Value]) -> Value {
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
            Prim::Eq(t) | Prim::Lt(t) | Prim::Le(t) => self.comparison(p, t, vals),
            Prim::SetEmpty(_)
            | Prim::SetUniv(_)
            | Prim::SetCompl(_)
            | Prim::SetInsert(_)
            | Prim::SetMember(_)
            | Prim::SetUnion(_)
            | Prim::SetInter(_)
            | Prim::SetDiff(_)
            | Prim::SetFinite(_)
            | Prim::SetToList(_) => self.set_prim(p, vals),
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
