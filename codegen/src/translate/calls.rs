//! Calls of top-level functions by name: ordinary calls, tail calls (`return_call`), calls
//! inlined as the callee's body in place, and self calls in tail position, which jump back
//! to the top of the body, also under constructors (`x # f xs`), filling the last field of
//! the cell built before (a `Destination`).

use super::{mem_flags, Continuation, FunctionTranslator};
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{Block, InstBuilder, StackSlot, StackSlotData, StackSlotKind, Value};
use cranelift_frontend::Variable;
use lang::core::ir::{Expr, FunId, Program, VarId};

/// Inlined calls nest at most this deep.
pub(super) const MAX_INLINE_DEPTH: usize = 3;

/// The top-level function being translated, or being inlined, for self calls in tail
/// position.
pub(super) struct CurrentBody {
    pub function: FunId,
    /// The block after the entry guards: a self call in tail position jumps here.
    pub top: Block,
    pub params: Vec<VarId>,
    /// Where the body's value goes: a self call sent there is in tail position.
    pub continuation: Continuation,
    /// For a body that calls itself in tail position modulo constructors.
    pub destination: Option<Destination>,
}

/// Where the value of a body that builds cells around its self calls goes (`build_to_self`):
/// `hole` is the address of the hole to fill, first `result_slot`, then the last field of
/// the last cell built.
pub(super) struct Destination {
    pub hole: Variable,
    pub result_slot: StackSlot,
}

impl<'p> FunctionTranslator<'_, 'p, '_> {
    /// The call `f args`, its value the callee's: its body in place when it is inlined,
    /// otherwise a call of its entry.
    pub fn call(&mut self, f: FunId, args: &[Expr]) -> Value {
        if self.inlines_call(f) {
            let merge = self.builder.create_block();
            self.builder.append_block_param(merge, I64);
            self.inline_call(f, args, Continuation::Merge(merge));
            self.builder.switch_to_block(merge);
            return self.builder.block_params(merge)[0];
        }
        let mut vals = vec![self.ctx];
        for a in args {
            vals.push(self.translate_lazy(a));
        }
        let callee = self.func_ref(self.compiler.direct_entries[f.0 as usize]);
        let r = self.call_out(callee, &vals);
        self.check_status();
        r
    }

    /// The call `f args` in tail position of a `tail`-convention function: a `return_call`.
    pub fn tail_call(&mut self, f: FunId, args: &[Expr]) {
        let mut vals = vec![self.ctx];
        for a in args {
            vals.push(self.translate_lazy(a));
        }
        self.write_back_registers();
        self.leave_depth();
        let callee = self.func_ref(self.compiler.direct_entries[f.0 as usize]);
        self.builder.ins().return_call(callee, &vals);
        let dead = self.builder.create_block();
        self.builder.switch_to_block(dead);
        let z = self.builder.ins().iconst(I64, 0);
        self.builder.ins().return_(&[z]);
    }

    /// A self call in tail position: the arguments become the parameters, and the body
    /// starts again after spending fuel.
    pub fn self_tail_call(&mut self, args: &[Expr]) {
        let vals: Vec<Value> = args.iter().map(|a| self.translate_lazy(a)).collect();
        let body = self.current_body.as_ref().expect("a self call has a function");
        let (top, params) = (body.top, body.params.clone());
        for (v, val) in params.iter().zip(vals) {
            self.bind(*v, val);
        }
        self.spend_fuel();
        self.builder.ins().jump(top, &[]);
        let dead = self.builder.create_block();
        self.builder.switch_to_block(dead);
        let z = self.builder.ins().iconst(I64, 0);
        self.builder.ins().return_(&[z]);
    }

    /// `C a1 .. (C' b1 .. (f args))` in tail position of `f` (`cons_to_self`): builds the
    /// cells with their last field open, each stored into the hole before, and loops; the
    /// value that ends the loop fills the last hole (`deliver`). No cell is read before the
    /// function returns, so filling it late is not observable.
    pub fn build_to_self(&mut self, e: &Expr) {
        let hole = self
            .current_body
            .as_ref()
            .and_then(|body| body.destination.as_ref())
            .map(|d| d.hole)
            .expect("a destination");
        let mut cell = e;
        loop {
            let Expr::Ctor(c, args) = cell else { unreachable!("cons_to_self") };
            let (last, fields) = args.split_last().expect("cons_to_self: a field");
            let vals: Vec<Value> = fields.iter().map(|a| self.translate_expr(a)).collect();
            let p = self.ctor_cell(c.tag, args.len(), &vals);
            let at = self.builder.use_var(hole);
            self.builder.ins().store(mem_flags(), p, at, 0);
            let next_hole = self.builder.ins().iadd_imm_s(p, (8 * args.len()) as i64);
            self.builder.def_var(hole, next_hole);
            match last {
                Expr::Call(_, cargs) => return self.self_tail_call(cargs),
                inner => cell = inner,
            }
        }
    }

    /// The destination of `f`'s body, if it builds cells around self calls.
    fn destination_for(&mut self, f: FunId) -> Option<Destination> {
        if !self.compiler.calls.builds_to_self[f.0 as usize] {
            return None;
        }
        let result_slot = self.builder.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 8, 3));
        let hole = self.builder.declare_var(I64);
        let at = self.builder.ins().stack_addr(I64, result_slot, 0);
        self.builder.def_var(hole, at);
        Some(Destination { hole, result_slot })
    }

    /// Whether a call of `f` here is translated as `f`'s body in place (`inline_call`).
    pub fn inlines_call(&self, f: FunId) -> bool {
        self.inline_depth < MAX_INLINE_DEPTH && self.compiler.calls.inlined[f.0 as usize]
    }

    /// Starts `f`'s body here, its parameters bound to `vals`, its value going to `k`: from
    /// a block of its own, the top its self calls in tail position jump back to. Returns the
    /// body this one is in, if any.
    pub fn enter_body(&mut self, f: FunId, vals: Vec<Value>, k: Continuation) -> Option<CurrentBody> {
        let params: Vec<VarId> = self.compiler.program.fun(f).params.iter().map(|(v, _)| *v).collect();
        for (v, val) in params.iter().zip(vals) {
            self.bind(*v, val);
        }
        let destination = self.destination_for(f);
        let top = self.builder.create_block();
        self.builder.ins().jump(top, &[]);
        self.builder.switch_to_block(top);
        self.current_body.replace(CurrentBody { function: f, top, params, continuation: k, destination })
    }

    /// The call `f args` as `f`'s body in place, in a variable scope of its own, sending its
    /// value to `k`. Its self calls in tail position jump back to its top.
    pub fn inline_call(&mut self, f: FunId, args: &[Expr], k: Continuation) {
        let vals: Vec<Value> = args.iter().map(|a| self.translate_lazy(a)).collect();
        let program: &'p Program = self.compiler.program;
        let callee = program.fun(f);
        let outer_scope = std::mem::replace(&mut self.scope, self.next_scope);
        self.next_scope += 1;
        let outer = self.enter_body(f, vals, k);
        self.inline_depth += 1;
        self.translate_tail(&callee.body, k);
        self.inline_depth -= 1;
        self.current_body = outer;
        self.scope = outer_scope;
    }
}
