//! The guards that keep a run bounded, at the places `call_graph` picks: fuel spent in
//! chunks (`rt_tick` refills a chunk and checks the deadline), the depth counter, and the
//! stack-pointer check against the current thread's stack.

use super::FunctionTranslator;
use crate::runtime::{OFF_DEPTH, OFF_FUEL, OFF_MAX_DEPTH, OFF_STACK_LIMIT, ST_STACK, ST_TOO_DEEP};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::InstBuilder;

impl FunctionTranslator<'_, '_, '_> {
    /// Fuel, depth and stack checks on entry.
    pub fn entry_guards(&mut self) {
        self.spend_fuel();
        let d = self.load_ctx(OFF_DEPTH);
        let d = self.builder.ins().iadd_imm_s(d, 1);
        self.store_ctx(OFF_DEPTH, d);
        let max = self.load_ctx(OFF_MAX_DEPTH);
        let deep = self.builder.ins().icmp(IntCC::SignedGreaterThan, d, max);
        self.fail_if(deep, ST_TOO_DEEP);
        let sp = self.builder.ins().get_stack_pointer(I64);
        let lim = self.load_ctx(OFF_STACK_LIMIT);
        let low = self.builder.ins().icmp(IntCC::UnsignedLessThan, sp, lim);
        self.fail_if(low, ST_STACK);
    }

    /// One unit of fuel; `rt_tick` (through `tick_stub`) refills the chunk or ends the run.
    pub fn spend_fuel(&mut self) {
        let fuel = match self.fuel {
            Some(v) => self.builder.use_var(v),
            None => self.load_ctx(OFF_FUEL),
        };
        let fuel = self.builder.ins().iadd_imm_s(fuel, -1);
        match self.fuel {
            Some(v) => self.builder.def_var(v, fuel),
            None => self.store_ctx(OFF_FUEL, fuel),
        }
        let empty = self.builder.ins().icmp_imm_s(IntCC::SignedLessThan, fuel, 0);
        let tick = self.builder.create_block();
        let cont = self.builder.create_block();
        self.builder.ins().brif(empty, tick, &[], cont, &[]);
        self.builder.switch_to_block(tick);
        self.builder.set_cold_block(tick);
        if let Some(v) = self.fuel {
            self.store_ctx(OFF_FUEL, fuel);
            let f = self.func_ref(self.compiler.runtime.tick_stub);
            self.builder.ins().call(f, &[self.ctx]);
            let refilled = self.load_ctx(OFF_FUEL);
            self.builder.def_var(v, refilled);
        } else {
            let f = self.func_ref(self.compiler.runtime.tick_stub);
            self.builder.ins().call(f, &[self.ctx]);
        }
        self.fail_on_status_else(cont);
        self.builder.switch_to_block(cont);
    }

    /// Gives back the depth `entry_guards` took, before a return or a tail call.
    pub fn leave_depth(&mut self) {
        if !self.guarded {
            return;
        }
        let d = self.load_ctx(OFF_DEPTH);
        let d = self.builder.ins().iadd_imm_s(d, -1);
        self.store_ctx(OFF_DEPTH, d);
    }
}
