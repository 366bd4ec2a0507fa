//! Where a value goes (`Continuation`: returned, or passed to a merge block), and the
//! translation of an expression straight into its continuation: control forms (`If`,
//! `Let`, `Case`, `NatCase`) pass it into their branches, so calls there stay in tail
//! position.

use super::{mem_flags, FunctionTranslator};
use crate::call_graph::cons_to_self;
use crate::holes::DemandKind;
use crate::runtime::ST_NOT_SUPPORTED;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{Block, InstBuilder, Value};
use lang::core::ir::{Expr, Ty};

/// Where the value of an expression goes: returned from the function, or passed to a merge
/// block.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Continuation {
    Return,
    Merge(Block),
}

impl FunctionTranslator<'_, '_, '_> {
    pub fn return_value(&mut self, v: Value) {
        self.write_back_registers();
        self.leave_depth();
        self.builder.ins().return_(&[v]);
    }

    /// Whether delivering to `k` fills the current body's destination (`Destination`).
    pub fn fills_destination(&self, k: Continuation) -> bool {
        self.current_body.as_ref().is_some_and(|body| body.continuation == k && body.destination.is_some())
    }

    pub fn deliver(&mut self, v: Value, k: Continuation) {
        let destination =
            self.current_body.as_ref().and_then(|body| body.destination.as_ref().filter(|_| body.continuation == k));
        let v = match destination {
            // The value goes into the hole of the last cell built, or into the slot when no
            // cell was; the function's value is the slot.
            Some(d) => {
                let (hole, slot) = (d.hole, d.result_slot);
                let at = self.builder.use_var(hole);
                self.builder.ins().store(mem_flags(), v, at, 0);
                self.builder.ins().stack_load(I64, I64, slot, 0)
            }
            None => v,
        };
        match k {
            Continuation::Return => self.return_value(v),
            Continuation::Merge(m) => {
                self.builder.ins().jump(m, &[v.into()]);
            }
        }
    }

    /// Translates `e` and sends its value to `k`; control forms pass `k` into their branches.
    pub fn translate_tail(&mut self, e: &Expr, k: Continuation) {
        if self.compiler.stack_low() {
            // Nested deeper than this thread's stack allows: the rest runs in the interpreter.
            self.compiler.truncated = true;
            let v = self.fail_with(ST_NOT_SUPPORTED);
            return self.deliver(v, k);
        }
        match e {
            Expr::If(c, t, f) if self.is_parallel_if(t, f) => self.parallel_if(c, t, f, k),
            Expr::If(c, t, f) => {
                let condition = self.translate_expr(c);
                self.demand_if_partial(condition, &Ty::Bool, DemandKind::Shape);
                let (then_block, else_block) = (self.builder.create_block(), self.builder.create_block());
                self.builder.ins().brif(condition, then_block, &[], else_block, &[]);
                self.builder.switch_to_block(then_block);
                self.translate_tail(t, k);
                self.builder.switch_to_block(else_block);
                self.translate_tail(f, k);
            }
            Expr::Let(v, _, rhs, body) => {
                let x = self.translate_lazy(rhs);
                self.bind(*v, x);
                self.translate_tail(body, k);
            }
            Expr::Case { scrut, data, alts, default } => {
                let v = self.translate_expr(scrut);
                self.translate_case(v, *data, alts, default.as_deref(), k);
            }
            Expr::NatCase { scrut, zero, pred, succ } => {
                let v = self.translate_expr(scrut);
                let (zero_block, succ_block) = (self.builder.create_block(), self.builder.create_block());
                let p = if self.narrowing() {
                    let p = self.builder.append_block_param(succ_block, I64);
                    self.partial_nat_case(v, zero_block, succ_block);
                    self.builder.switch_to_block(succ_block);
                    p
                } else {
                    self.builder.ins().brif(v, succ_block, &[], zero_block, &[]);
                    self.builder.switch_to_block(succ_block);
                    self.builder.ins().iadd_imm_s(v, -1)
                };
                self.bind(*pred, p);
                self.translate_tail(succ, k);
                self.builder.switch_to_block(zero_block);
                self.translate_tail(zero, k);
            }
            Expr::Call(f, args)
                if self.current_body.as_ref().is_some_and(|body| body.function == *f && body.continuation == k) =>
            {
                self.self_tail_call(args)
            }
            Expr::Ctor(..)
                if self.current_body.as_ref().is_some_and(|body| {
                    body.continuation == k && body.destination.is_some() && cons_to_self(e, body.function)
                }) =>
            {
                self.build_to_self(e)
            }
            // Inlined straight into `k` unless a body on the way fills a destination first.
            Expr::Call(f, args)
                if self.inlines_call(*f)
                    && !self.compiler.calls.builds_to_self[f.0 as usize]
                    && !self.fills_destination(k) =>
            {
                self.inline_call(*f, args, k)
            }
            Expr::Call(f, args)
                if self.tail_calls && matches!(k, Continuation::Return) && !self.fills_destination(k) =>
            {
                self.tail_call(*f, args)
            }
            _ => {
                let v = self.translate_expr(e);
                self.deliver(v, k);
            }
        }
    }
}
