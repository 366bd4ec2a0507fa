//! Set primitives: calls of `rt_set` (or `rt_set_scalar`, when elements order as words)
//! on set cells `[complement: 0/1, n, elements ascending...]`; `{}` is one shared read-only
//! cell. Over finite element types `UNIV` and `- A` are handed over, and over element types
//! holding functions or sets every operation is. In narrowing mode the operands are demanded
//! first, as the interpreter demands them (over scalar elements; others are handed over).

use super::compare::compares_structurally;
use super::{mem_flags, FunctionTranslator};
use crate::holes::DemandKind;
use crate::runtime::{
    EMPTY_SET, SET_COMPL, SET_DIFF, SET_EMPTY, SET_INSERT, SET_INTER, SET_MEMBER, SET_TO_LIST, SET_UNION, SET_UNIV,
    ST_NOT_SUPPORTED,
};
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{InstBuilder, Value};
use lang::core::cardinality::cardinality;
use lang::core::ir::{Prim, Ty};

impl FunctionTranslator<'_, '_, '_> {
    /// The set primitive `p` on the words `vals`.
    pub fn set_prim(&mut self, p: &Prim, vals: &[Value]) -> Value {
        if self.narrowing() && !self.demand_set_operands(p, vals) {
            return self.fail_with(ST_NOT_SUPPORTED);
        }
        match p {
            Prim::SetEmpty(t) => self.call_set_helper(SET_EMPTY, t, &[]),
            Prim::SetUniv(t) if cardinality(self.compiler.program, t).is_some() => {
                // Over a finite type `UNIV` is finite: its universe cell, read-only.
                match self.compiler.universe(t) {
                    Some((cell, _)) => self.builder.ins().iconst(I64, cell as i64),
                    None => self.fail_with(ST_NOT_SUPPORTED),
                }
            }
            Prim::SetCompl(t) if cardinality(self.compiler.program, t).is_some() => {
                // Over a finite type the interpreter keeps a complement finite by enumeration.
                self.fail_with(ST_NOT_SUPPORTED)
            }
            Prim::SetUniv(t) => self.call_set_helper(SET_UNIV, t, &[]),
            Prim::SetCompl(t) => self.call_set_helper(SET_COMPL, t, vals),
            Prim::SetInsert(t) => self.call_set_helper(SET_INSERT, t, vals),
            Prim::SetMember(t) => self.call_set_helper(SET_MEMBER, t, vals),
            Prim::SetUnion(t) => self.call_set_helper(SET_UNION, t, vals),
            Prim::SetInter(t) => self.call_set_helper(SET_INTER, t, vals),
            Prim::SetDiff(t) => self.call_set_helper(SET_DIFF, t, vals),
            Prim::SetFinite(t) => {
                if cardinality(self.compiler.program, t).is_some() {
                    // Every set over a finite type is finite (and compiled code never holds
                    // a complement over one: `UNIV` and `-` there go to the interpreter).
                    self.builder.ins().iconst(I64, 1)
                } else {
                    // Word 0 of a set cell is its complement flag (0 or 1); over an infinite
                    // type a set is finite exactly when it is not a complement.
                    let complement = self.builder.ins().load(I64, mem_flags(), vals[0], 0);
                    self.builder.ins().bxor_imm_u(complement, 1)
                }
            }
            Prim::SetToList(list_ty) => {
                let elem = match list_ty {
                    Ty::Data(d) => self.compiler.program.data(*d).ctors.get(1).and_then(|c| c.fields.first()).cloned(),
                    _ => None,
                };
                match elem {
                    Some(e) => self.call_set_helper(SET_TO_LIST, &e, vals),
                    None => self.fail_with(ST_NOT_SUPPORTED),
                }
            }
            _ => unreachable!("not a set primitive: {p:?}"),
        }
    }

    /// Narrowing mode: demands the operands of set primitive `p` as the interpreter does
    /// (any hole in an operand of a binary one, its first; the operand of a unary one, as
    /// `blocked`), so that the operation itself runs on total words. A set compiled code
    /// built holds no partial word (its elements were demanded), so a set operand is
    /// partial only at its top; an element is when its type is scalar, otherwise a hole
    /// may hide inside it: `false`, the primitive is left to the interpreter.
    fn demand_set_operands(&mut self, p: &Prim, vals: &[Value]) -> bool {
        let (elem, binary) = match p {
            Prim::SetEmpty(_) | Prim::SetUniv(_) => return true,
            Prim::SetInsert(t) | Prim::SetMember(t) => {
                if !self.orders_as_i64(t) {
                    return false;
                }
                self.demand_if_partial(vals[0], t, DemandKind::FirstHole);
                let set = Ty::Set(Box::new(t.clone()));
                self.demand_if_partial(vals[1], &set, DemandKind::FirstHole);
                return true;
            }
            Prim::SetUnion(t) | Prim::SetInter(t) | Prim::SetDiff(t) => (t, true),
            Prim::SetCompl(t) | Prim::SetFinite(t) => (t, false),
            // The list type's element type does not matter: a set operand is partial at its
            // top only, and no `int` is involved in its word's test.
            Prim::SetToList(t) => (t, false),
            _ => unreachable!("not a set primitive: {p:?}"),
        };
        let set = Ty::Set(Box::new(elem.clone()));
        let kind = if binary { DemandKind::FirstHole } else { DemandKind::Whole };
        for v in vals {
            self.demand_if_partial(*v, &set, kind);
        }
        true
    }

    /// Calls `rt_set` for a set operation on elements of type `elem` (handed over when the
    /// elements contain functions or sets).
    pub fn call_set_helper(&mut self, op: i64, elem: &Ty, vals: &[Value]) -> Value {
        if !compares_structurally(self.compiler.program, elem) {
            return self.fail_with(ST_NOT_SUPPORTED);
        }
        if op == SET_EMPTY {
            // One shared read-only cell: `{}` allocates nothing.
            return self.builder.ins().iconst(I64, EMPTY_SET.as_ptr() as i64);
        }
        let opv = self.builder.ins().iconst(I64, op);
        let z = self.builder.ins().iconst(I64, 0);
        let a = vals.first().copied().unwrap_or(z);
        let b = vals.get(1).copied().unwrap_or(z);
        let r = if self.orders_as_i64(elem) {
            let helper = self.func_ref(self.compiler.runtime.set_scalar);
            self.call_out(helper, &[self.ctx, opv, a, b])
        } else {
            let i = self.compiler.compared_type_index(elem);
            let iv = self.builder.ins().iconst(I64, i);
            let helper = self.func_ref(self.compiler.runtime.set);
            self.call_out(helper, &[self.ctx, opv, a, b, iv])
        };
        self.check_status();
        r
    }

    /// Whether words of `ty` order as `i64`: numbers, booleans, and datatypes of nullary
    /// constructors only (immediates `(tag << 1) | 1`).
    fn orders_as_i64(&self, ty: &Ty) -> bool {
        match ty {
            Ty::Bool | Ty::Nat | Ty::Int => true,
            Ty::Data(d) => self.compiler.program.data(*d).ctors.iter().all(|c| c.fields.is_empty()),
            _ => false,
        }
    }
}
