//! Allocation in the arena from compiled code: bump allocation with the out-of-memory
//! check, and constructor cells `[tag: u32, arity: u32][field0]...`.

use super::{mem_flags, FunctionTranslator};
use crate::runtime::{OFF_HEAP, OFF_HEAP_END, ST_OUT_OF_MEMORY};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{InstBuilder, Value};

impl FunctionTranslator<'_, '_, '_> {
    /// A constructor cell of `n` fields, the first ones `vals` (the rest left open).
    pub fn ctor_cell(&mut self, tag: u32, n: usize, vals: &[Value]) -> Value {
        let p = self.alloc(1 + n);
        let header = self.builder.ins().iconst(I64, crate::layout::cell_header(tag, n) as i64);
        self.builder.ins().store(mem_flags(), header, p, 0);
        for (i, v) in vals.iter().enumerate() {
            self.builder.ins().store(mem_flags(), *v, p, (8 * (i + 1)) as i32);
        }
        p
    }

    /// Bump allocation of `words` words from the arena.
    pub fn alloc(&mut self, words: usize) -> Value {
        self.take_arena_room(|tr, p| tr.builder.ins().iadd_imm_s(p, (8 * words) as i64))
    }

    /// Takes arena room from the fill level `p` up to `end(p)`, or fails out of memory;
    /// returns `p`.
    pub fn take_arena_room(&mut self, end: impl FnOnce(&mut Self, Value) -> Value) -> Value {
        let p = match self.heap {
            Some(h) => self.builder.use_var(h),
            None => self.load_ctx(OFF_HEAP),
        };
        let np = end(self, p);
        let limit = self.load_ctx(OFF_HEAP_END);
        let over = self.builder.ins().icmp(IntCC::UnsignedGreaterThan, np, limit);
        self.fail_if(over, ST_OUT_OF_MEMORY);
        match self.heap {
            Some(h) => self.builder.def_var(h, np),
            None => self.store_ctx(OFF_HEAP, np),
        }
        p
    }
}
