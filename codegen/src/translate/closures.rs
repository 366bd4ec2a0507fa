//! Function values: closure cells `[code, arity, ncaptured, captured...]` for `FunRef` and
//! `Lambda`, their application (`Apply`: the code called directly at exact arity, `rt_apply`
//! otherwise), and each λ compiled as a closure entry of its own.

use super::limits::CodegenError;
use super::{load_words, mem_flags, start_function, Continuation, FunctionTranslator, ProgramCompiler};
use crate::holes::DemandKind;
use crate::runtime::ST_NOT_SUPPORTED;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{InstBuilder, StackSlotData, StackSlotKind, UserFuncName, Value};
use cranelift_frontend::FunctionBuilderContext;
use cranelift_module::{FuncId, Linkage, Module};
use lang::core::ir::{free_vars, Expr, FunId, Ty, VarId};
use std::collections::BTreeSet;

/// A `Lambda` waiting to be compiled into its own closure entry.
pub(super) struct PendingLambda {
    id: FuncId,
    params: Vec<VarId>,
    captures: Vec<u32>,
    body: Expr,
}

impl ProgramCompiler<'_> {
    /// Compiles the λs met so far, each as a closure entry of its own (always guarded).
    pub(super) fn compile_lambdas(
        &mut self,
        cx: &mut cranelift_codegen::Context,
        fctx: &mut FunctionBuilderContext,
    ) -> Result<(), CodegenError> {
        let fcfg = self.module.target_config();
        while let Some(lambda) = self.pending_lambdas.pop() {
            cx.func.signature = self.closure_signature();
            cx.func.name = UserFuncName::user(1, lambda.id.as_u32());
            let (builder, params) = start_function(&mut cx.func, fctx);
            let mut tr = FunctionTranslator::new(self, builder, params[0], true, Some(&lambda.body), None);
            let captured = load_words(&mut tr.builder, params[1], lambda.captures.len(), 24);
            for (v, x) in lambda.captures.iter().zip(captured) {
                tr.bind(VarId(*v), x);
            }
            let args = load_words(&mut tr.builder, params[2], lambda.params.len(), 0);
            for (v, x) in lambda.params.iter().zip(args) {
                tr.bind(*v, x);
            }
            tr.entry_guards();
            tr.translate_tail(&lambda.body, Continuation::Return);
            tr.emit_fail_block();
            tr.builder.seal_all_blocks();
            tr.builder.finalize(fcfg);
            self.truncated = false;
            let nodes = lambda.body.count(&|_| true);
            self.define_function(lambda.id, cx, nodes, &"a λ")?;
        }
        Ok(())
    }
}

impl FunctionTranslator<'_, '_, '_> {
    /// A closure cell `[code, arity, ncaptured, captured...]`.
    fn closure_cell(&mut self, code: FuncId, arity: usize, captured: &[Value]) -> Value {
        let p = self.alloc(3 + captured.len());
        let code_ref = self.func_ref(code);
        let addr = self.builder.ins().func_addr(I64, code_ref);
        self.builder.ins().store(mem_flags(), addr, p, 0);
        let a = self.builder.ins().iconst(I64, arity as i64);
        self.builder.ins().store(mem_flags(), a, p, 8);
        let n = self.builder.ins().iconst(I64, captured.len() as i64);
        self.builder.ins().store(mem_flags(), n, p, 16);
        for (i, c) in captured.iter().enumerate() {
            self.builder.ins().store(mem_flags(), *c, p, (24 + 8 * i) as i32);
        }
        p
    }

    /// `f` as a value: a closure over its closure entry, capturing nothing.
    pub fn fun_ref(&mut self, f: FunId) -> Value {
        let arity = self.compiler.program.fun(f).params.len();
        let entry = self.compiler.closure_entries[f.0 as usize];
        self.closure_cell(entry, arity, &[])
    }

    /// `λparams. body`: a closure over a closure entry of its own (compiled after the
    /// current function), capturing the body's free variables.
    pub fn lambda(&mut self, params: &[(VarId, Ty)], body: &Expr) -> Value {
        let param_vars: Vec<VarId> = params.iter().map(|(v, _)| *v).collect();
        let mut free = BTreeSet::new();
        let mut bound: Vec<u32> = param_vars.iter().map(|v| v.0).collect();
        free_vars(body, &mut bound, &mut free);
        let captures: Vec<u32> = free.into_iter().collect();
        let sig = self.compiler.closure_signature();
        let name = format!("l{}", self.compiler.lambdas_declared);
        self.compiler.lambdas_declared += 1;
        let id = match self.compiler.module.declare_function(&name, Linkage::Local, &sig) {
            Ok(id) => id,
            Err(_) => return self.fail_with(ST_NOT_SUPPORTED),
        };
        let captured: Vec<Value> = captures.iter().map(|v| self.use_var(VarId(*v))).collect();
        self.compiler.pending_lambdas.push(PendingLambda { id, params: param_vars, captures, body: body.clone() });
        self.closure_cell(id, params.len(), &captured)
    }

    /// `f args` for a function value `f`.
    pub fn apply(&mut self, f: &Expr, args: &[Expr]) -> Value {
        let fv = self.translate_expr(f);
        let vals: Vec<Value> = args.iter().map(|a| self.translate_lazy(a)).collect();
        // A partial function word is demanded whole, after the arguments, as the
        // interpreter's `apply` does.
        self.demand_if_partial(fv, &Ty::Bool, DemandKind::Whole);
        let slot = self.builder.create_sized_stack_slot(StackSlotData::new(
            StackSlotKind::ExplicitSlot,
            8 * vals.len() as u32,
            3,
        ));
        for (i, v) in vals.iter().enumerate() {
            self.builder.ins().stack_store(I64, *v, slot, (8 * i) as i32);
        }
        let addr = self.builder.ins().stack_addr(I64, slot, 0);
        // Exact arity: call the closure's code directly; otherwise `rt_apply` builds
        // the partial application or applies the result to the remaining arguments.
        let (fast, slow, merge) =
            (self.builder.create_block(), self.builder.create_block(), self.builder.create_block());
        self.builder.append_block_param(merge, I64);
        self.write_back_registers();
        let arity = self.builder.ins().load(I64, mem_flags(), fv, 8);
        let exact = self.builder.ins().icmp_imm_s(IntCC::Equal, arity, vals.len() as i64);
        self.builder.ins().brif(exact, fast, &[], slow, &[]);
        self.builder.switch_to_block(fast);
        let code = self.builder.ins().load(I64, mem_flags(), fv, 0);
        let sig = self.builder.import_signature(self.compiler.closure_signature());
        let call = self.builder.ins().call_indirect(sig, code, &[self.ctx, fv, addr]);
        let r = self.builder.inst_results(call)[0];
        self.builder.ins().jump(merge, &[r.into()]);
        self.builder.switch_to_block(slow);
        let n = self.builder.ins().iconst(I64, vals.len() as i64);
        let rt_apply = self.func_ref(self.compiler.runtime.apply);
        let call = self.builder.ins().call(rt_apply, &[self.ctx, fv, addr, n]);
        let r = self.builder.inst_results(call)[0];
        self.builder.ins().jump(merge, &[r.into()]);
        self.builder.switch_to_block(merge);
        let r = self.builder.block_params(merge)[0];
        self.reload_registers();
        self.check_status();
        r
    }
}
