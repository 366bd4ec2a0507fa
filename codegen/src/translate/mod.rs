//! Core IR → Cranelift IR.
//!
//! Every top-level function becomes a `tail`-convention function `(ctx, args...) -> word`, so
//! calls in tail position are `return_call`s and self-recursive loops run in constant stack.
//! Each function also gets a closure entry `(ctx, cell, args_ptr) -> word` in the platform
//! convention (used by `FunRef` closures, by `rt_apply`, and as the entry from Rust); each
//! `Lambda` becomes such an entry of its own, reading its captured variables from the cell.
//!
//! A function that no function calls by name (an entry point) is compiled as its closure
//! entry directly. A self call in tail position is a jump back to the top of the function.
//! The entries that `call_graph` picks spend fuel (calling `rt_tick` when a chunk runs out),
//! count depth and check the stack pointer; the jumps back spend fuel. Failures set
//! `ctx.status` and branch to the function's fail block, which returns a dummy; every call
//! site checks the status afterwards.
//!
//! `ProgramCompiler` (`program`) drives the whole program; `FunctionTranslator` (`function`)
//! translates one Cranelift function, its methods spread over the modules below by concept.

mod allocation;
mod calls;
mod case_dispatch;
mod closures;
mod compare;
mod continuation;
mod expr;
mod function;
mod guards;
mod level_loop;
mod limits;
mod partial;
mod primitives;
mod program;
mod quantifiers;
mod sets;

pub(crate) use compare::compares_structurally;
pub(crate) use limits::{too_large_why, Budget};
pub use limits::{CodegenError, Interpreted, COMPILE_MAX_NODES, OPTIMISE_MAX_NODES};
pub(crate) use program::ProgramCompiler;

use closures::PendingLambda;
use continuation::Continuation;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{Function, InstBuilder, MemFlagsData, Value};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use function::FunctionTranslator;

/// The flags of every load and store compiled code makes: `trusted` (aligned, never
/// trapping), as they all reach arena cells, the run context or argument arrays.
fn mem_flags() -> MemFlagsData {
    MemFlagsData::trusted()
}

/// A builder for `func`, in its entry block, with the function's parameters.
fn start_function<'a>(
    func: &'a mut Function,
    fctx: &'a mut FunctionBuilderContext,
) -> (FunctionBuilder<'a>, Vec<Value>) {
    let mut builder = FunctionBuilder::new(func, fctx);
    let entry = builder.create_block();
    builder.append_block_params_for_function_params(entry);
    builder.switch_to_block(entry);
    let params = builder.block_params(entry).to_vec();
    (builder, params)
}

/// The `n` words at `ptr + from` (bytes), one after another.
fn load_words(builder: &mut FunctionBuilder, ptr: Value, n: usize, from: i32) -> Vec<Value> {
    (0..n).map(|k| builder.ins().load(I64, mem_flags(), ptr, from + (8 * k) as i32)).collect()
}
