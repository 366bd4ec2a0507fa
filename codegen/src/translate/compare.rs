//! Structural equality and order on datatype words: the compiled comparison of each
//! datatype (`ProgramCompiler::compare_function`), a word's constructor tag, and which types
//! compare structurally at all.

use super::limits::{module_error, CodegenError};
use super::{mem_flags, start_function, ProgramCompiler};
use crate::runtime::OFF_STACK_LIMIT;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{AbiParam, Block, FuncRef, Function, InstBuilder, Signature, Value};
use cranelift_codegen::isa::CallConv;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Switch};
use cranelift_module::{FuncId, Linkage, Module};
use lang::core::ir::{DataId, Program, Ty};
use std::collections::{BTreeSet, HashMap};

impl ProgramCompiler<'_> {
    /// The compiled comparison `(ctx, a, b) -> -1/0/1` of two words of datatype `d` (whose
    /// values hold no functions or sets), declared on first use and compiled at the end.
    pub(super) fn compare_function(&mut self, d: DataId) -> Result<FuncId, CodegenError> {
        if let Some(id) = self.compare_functions.get(&d) {
            return Ok(*id);
        }
        let mut s = Signature::new(CallConv::Tail);
        for _ in 0..3 {
            s.params.push(AbiParam::new(I64));
        }
        s.returns.push(AbiParam::new(I64));
        let id = self.module.declare_function(&format!("cmp{}", d.0), Linkage::Local, &s).map_err(module_error)?;
        self.compare_functions.insert(d, id);
        self.pending_compares.push(d);
        Ok(id)
    }

    /// The body of `compare_function(d)`: the order of `cmp_words` (tags, then fields left
    /// to right), with identical words equal at once, scalar fields compared inline, the
    /// last field continued with a tail call (so lists compare in constant stack), and other
    /// datatype fields by calls. Near the end of the stack it hands the pair to the
    /// iterative `rt_cmp`.
    pub(super) fn compile_compare(
        &mut self,
        d: DataId,
        func: &mut Function,
        fctx: &mut FunctionBuilderContext,
    ) -> Result<(), CodegenError> {
        let ty_index = self.compared_type_index(&Ty::Data(d));
        let prog = self.program;
        let (mut builder, params) = start_function(func, fctx);
        let mut refs: HashMap<FuncId, FuncRef> = HashMap::new();
        let (ctx, x0, y0) = (params[0], params[1], params[2]);
        // Returns `v` from a fresh block, branched to when `cond` holds; continues after.
        let ret_if = |builder: &mut FunctionBuilder, cond: Value, v: Option<Value>| {
            let (out, cont) = (builder.create_block(), builder.create_block());
            builder.ins().brif(cond, out, &[], cont, &[]);
            builder.switch_to_block(out);
            let v = v.unwrap_or_else(|| builder.ins().iconst(I64, 0));
            builder.ins().return_(&[v]);
            builder.switch_to_block(cont);
        };
        // -1 or 1 by `lt`.
        let sign = |builder: &mut FunctionBuilder, lt: Value| {
            let m1 = builder.ins().iconst(I64, -1);
            let p1 = builder.ins().iconst(I64, 1);
            builder.ins().select(lt, m1, p1)
        };
        let sp = builder.ins().get_stack_pointer(I64);
        let lim = builder.ins().load(I64, mem_flags(), ctx, OFF_STACK_LIMIT);
        let low = builder.ins().icmp(IntCC::UnsignedLessThan, sp, lim);
        let (slow, fast) = (builder.create_block(), builder.create_block());
        builder.ins().brif(low, slow, &[], fast, &[]);
        builder.switch_to_block(slow);
        let rt = *refs
            .entry(self.runtime.compare)
            .or_insert_with(|| self.module.declare_func_in_func(self.runtime.compare, builder.func));
        let iv = builder.ins().iconst(I64, ty_index);
        let call = builder.ins().call(rt, &[ctx, x0, y0, iv]);
        let r = builder.inst_results(call)[0];
        builder.ins().return_(&[r]);
        builder.switch_to_block(fast);
        // The last field of the same datatype (a list's tail) is compared by jumping back
        // here: a loop, in constant stack.
        let top = builder.create_block();
        let x = builder.append_block_param(top, I64);
        let y = builder.append_block_param(top, I64);
        builder.ins().jump(top, &[x0.into(), y0.into()]);
        builder.switch_to_block(top);
        let same = builder.ins().icmp(IntCC::Equal, x, y);
        ret_if(&mut builder, same, None);
        let tx = data_tag(&mut builder, prog, d, x);
        let ty = data_tag(&mut builder, prog, d, y);
        let ne = builder.ins().icmp(IntCC::NotEqual, tx, ty);
        let lt = builder.ins().icmp(IntCC::UnsignedLessThan, tx, ty);
        let r = sign(&mut builder, lt);
        ret_if(&mut builder, ne, Some(r));
        let mut sw = Switch::new();
        let ctors: Vec<(usize, Block)> = prog
            .data(d)
            .ctors
            .iter()
            .enumerate()
            .filter(|(_, c)| !c.fields.is_empty())
            .map(|(i, _)| (i, builder.create_block()))
            .collect();
        for (i, blk) in &ctors {
            sw.set_entry(*i as u128, *blk);
        }
        // Equal tags of a nullary constructor are equal immediates, caught above.
        let other = builder.create_block();
        sw.emit(&mut builder, tx, other);
        builder.switch_to_block(other);
        let z = builder.ins().iconst(I64, 0);
        builder.ins().return_(&[z]);
        for (i, blk) in ctors {
            builder.switch_to_block(blk);
            let fields = &prog.data(d).ctors[i].fields;
            for (k, fty) in fields.iter().enumerate() {
                let off = (8 * (k + 1)) as i32;
                let fx = builder.ins().load(I64, mem_flags(), x, off);
                let fy = builder.ins().load(I64, mem_flags(), y, off);
                match fty {
                    Ty::Data(e) if *e == d && k + 1 == fields.len() => {
                        builder.ins().jump(top, &[fx.into(), fy.into()]);
                        let dead = builder.create_block();
                        builder.switch_to_block(dead);
                    }
                    Ty::Data(e) if !prog.data(*e).ctors.iter().all(|c| c.fields.is_empty()) => {
                        let id = self.compare_function(*e)?;
                        let fr = *refs.entry(id).or_insert_with(|| self.module.declare_func_in_func(id, builder.func));
                        if k + 1 == fields.len() {
                            builder.ins().return_call(fr, &[ctx, fx, fy]);
                            let dead = builder.create_block();
                            builder.switch_to_block(dead);
                        } else {
                            let call = builder.ins().call(fr, &[ctx, fx, fy]);
                            let r = builder.inst_results(call)[0];
                            ret_if(&mut builder, r, Some(r));
                        }
                    }
                    // Numbers, booleans and immediates order as `i64`.
                    _ => {
                        let ne = builder.ins().icmp(IntCC::NotEqual, fx, fy);
                        let lt = builder.ins().icmp(IntCC::SignedLessThan, fx, fy);
                        let r = sign(&mut builder, lt);
                        ret_if(&mut builder, ne, Some(r));
                    }
                }
            }
            let z = builder.ins().iconst(I64, 0);
            builder.ins().return_(&[z]);
        }
        builder.seal_all_blocks();
        builder.finalize(self.module.target_config());
        Ok(())
    }
}

/// The constructor tag of a word of datatype `d`: immediates are `(tag << 1) | 1`, cells
/// start with the tag (as a 32-bit word).
fn data_tag(builder: &mut FunctionBuilder, prog: &Program, d: DataId, v: Value) -> Value {
    let d = prog.data(d);
    let any_nullary = d.ctors.iter().any(|c| c.fields.is_empty());
    let any_cell = d.ctors.iter().any(|c| !c.fields.is_empty());
    if !any_cell {
        builder.ins().ushr_imm_u(v, 1)
    } else if !any_nullary {
        builder.ins().uload32(mem_flags(), v, 0)
    } else {
        let (ib, cb, m) = (builder.create_block(), builder.create_block(), builder.create_block());
        builder.append_block_param(m, I64);
        let low = builder.ins().band_imm_u(v, 1);
        builder.ins().brif(low, ib, &[], cb, &[]);
        builder.switch_to_block(ib);
        let t = builder.ins().ushr_imm_u(v, 1);
        builder.ins().jump(m, &[t.into()]);
        builder.switch_to_block(cb);
        let t = builder.ins().uload32(mem_flags(), v, 0);
        builder.ins().jump(m, &[t.into()]);
        builder.switch_to_block(m);
        builder.block_params(m)[0]
    }
}

/// Whether equality and order at `t` are structural on words (no functions or sets inside).
pub(crate) fn compares_structurally(prog: &Program, t: &Ty) -> bool {
    let mut seen = BTreeSet::new();
    let mut work = vec![t];
    while let Some(t) = work.pop() {
        match t {
            Ty::Bool | Ty::Nat | Ty::Int => {}
            Ty::Fun(..) | Ty::Set(_) => return false,
            Ty::Data(d) => {
                if seen.insert(*d) {
                    for c in &prog.data(*d).ctors {
                        work.extend(c.fields.iter());
                    }
                }
            }
        }
    }
    true
}
