//! Level loops (`Jit::with_levels`, run by `Jit::run_rows`): a boolean function's body
//! inlined into a compiled loop over rows of arguments, so a case costs no call and no
//! entry from Rust.

use super::limits::{module_error, CodegenError};
use super::{load_words, start_function, Continuation, FunctionTranslator, ProgramCompiler};
use crate::runtime::{OFF_FUEL, OFF_FUEL_LEFT, OFF_HEAP};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{AbiParam, InstBuilder, Signature, UserFuncName};
use cranelift_frontend::FunctionBuilderContext;
use cranelift_module::{Linkage, Module};
use lang::core::ir::{Expr, FunId, Ty};

impl ProgramCompiler<'_> {
    /// Compiles the level loop of function `i` (a `LevelFn`): its body inlined into a loop
    /// over rows of arguments, each case starting from the arena fill level and
    /// fuel the loop was entered with. Only for boolean functions that are unguarded (not
    /// recursive) and without λs (which would be compiled again); others keep the loop in
    /// Rust.
    pub(super) fn define_level_loop(
        &mut self,
        cx: &mut cranelift_codegen::Context,
        fctx: &mut FunctionBuilderContext,
        i: usize,
    ) -> Result<(), CodegenError> {
        let f = &self.program.funs[i];
        let c = &self.calls;
        if f.ret != Ty::Bool
            || c.guarded[i]
            || c.guarded_closure_entry[i]
            || f.body.count(&|e| matches!(e, Expr::Lambda(..))) > 0
            || self.level_loops[i].is_some()
            || self.too_large(i)
        {
            return Ok(());
        }
        let mut sig = Signature::new(self.module.isa().default_call_conv());
        sig.params.extend([AbiParam::new(I64); 5]);
        sig.returns.push(AbiParam::new(I64));
        let id = self.module.declare_function(&format!("level{i}"), Linkage::Local, &sig).map_err(module_error)?;
        cx.func.signature = sig;
        cx.func.name = UserFuncName::user(4, id.as_u32());
        let fcfg = self.module.target_config();
        let (builder, params) = start_function(&mut cx.func, fctx);
        let (ctx, rows, n, width, stop_on) = (params[0], params[1], params[2], params[3], params[4]);
        let me = FunId(i as u32);
        let mut tr = FunctionTranslator::new(self, builder, ctx, false, Some(&f.body), Some(me));
        let case_index = tr.builder.declare_var(I64);
        let zero = tr.builder.ins().iconst(I64, 0);
        tr.builder.def_var(case_index, zero);
        // A case that sets a status leaves through the fail block with its index.
        tr.fail_value = Some(case_index);
        let heap0 = match tr.heap {
            Some(h) => tr.builder.use_var(h),
            None => tr.load_ctx(OFF_HEAP),
        };
        let fuel0 = match tr.fuel {
            Some(v) => tr.builder.use_var(v),
            None => tr.load_ctx(OFF_FUEL),
        };
        let left0 = tr.load_ctx(OFF_FUEL_LEFT);
        let stride = tr.builder.ins().ishl_imm_u(width, 3);
        let row_args = tr.builder.declare_var(I64);
        tr.builder.def_var(row_args, rows);
        let (head, case, stop, next) = (
            tr.builder.create_block(),
            tr.builder.create_block(),
            tr.builder.create_block(),
            tr.builder.create_block(),
        );
        tr.builder.ins().jump(head, &[]);
        tr.builder.switch_to_block(head);
        let k = tr.builder.use_var(case_index);
        let more = tr.builder.ins().icmp(IntCC::UnsignedLessThan, k, n);
        tr.builder.ins().brif(more, case, &[], stop, &[]);
        tr.builder.switch_to_block(case);
        let args = tr.builder.use_var(row_args);
        match tr.heap {
            Some(h) => tr.builder.def_var(h, heap0),
            None => tr.store_ctx(OFF_HEAP, heap0),
        }
        match tr.fuel {
            Some(v) => tr.builder.def_var(v, fuel0),
            None => tr.store_ctx(OFF_FUEL, fuel0),
        }
        tr.store_ctx(OFF_FUEL_LEFT, left0);
        let vals = load_words(&mut tr.builder, args, f.params.len(), 0);
        let merge = tr.builder.create_block();
        tr.builder.append_block_param(merge, I64);
        tr.enter_body(me, vals, Continuation::Merge(merge));
        tr.translate_tail(&f.body, Continuation::Merge(merge));
        tr.builder.switch_to_block(merge);
        let r = tr.builder.block_params(merge)[0];
        let hit = tr.builder.ins().icmp(IntCC::Equal, r, stop_on);
        tr.builder.ins().brif(hit, stop, &[], next, &[]);
        tr.builder.switch_to_block(next);
        let k = tr.builder.use_var(case_index);
        let k1 = tr.builder.ins().iadd_imm_s(k, 1);
        tr.builder.def_var(case_index, k1);
        let r = tr.builder.use_var(row_args);
        let r1 = tr.builder.ins().iadd(r, stride);
        tr.builder.def_var(row_args, r1);
        tr.builder.ins().jump(head, &[]);
        tr.builder.switch_to_block(stop);
        let k = tr.builder.use_var(case_index);
        tr.builder.ins().return_(&[k]);
        tr.emit_fail_block();
        tr.builder.seal_all_blocks();
        tr.builder.finalize(fcfg);
        self.truncated = false;
        self.define_function(id, cx, self.calls.compiled_size[i], &format_args!("level of {}", f.name))?;
        self.level_loops[i] = Some(id);
        Ok(())
    }
}
