//! Core IR → Cranelift IR: one `expr` arm per IR variant.
//!
//! Every top-level function becomes a `tail`-convention function `(ctx, args...) -> word`, so
//! calls in tail position are `return_call`s and self-recursive loops run in constant stack.
//! Each function also gets a closure entry `(ctx, cell, args_ptr) -> word` in the platform
//! convention (used by `FunRef` closures, by `rt_apply`, and as the entry from Rust); each
//! `Lambda` becomes such an entry of its own, reading its captured variables from the cell.
//!
//! A function that no function calls by name (an entry point) is compiled as its closure
//! entry directly. A self call in tail position is a jump back to the top of the function.
//! The entries that `call_graph` picks spend fuel (calling `rt_tick` when a chunk runs out), count depth and
//! check the stack pointer; the jumps back spend fuel. Failures set `ctx.status` and branch
//! to the function's `fail` block, which returns a dummy; every call site checks the status
//! afterwards.

use crate::call_graph::{self, cons_to_self, CallGraph};
use crate::runtime::*;
use cranelift_codegen::control::ControlPlane;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{
    AbiParam, Block, FuncRef, Function, InstBuilder, MemFlagsData, Signature, StackSlot, StackSlotData, StackSlotKind,
    UserFuncName, Value,
};
use cranelift_codegen::isa::{CallConv, OwnedTargetIsa};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Switch, Variable};
use cranelift_jit::JITModule;
use cranelift_module::{FuncId, Linkage, Module, ModuleReloc};
use lang::core::ir::free_vars;
use lang::core::ir::{Alt, DataId, Expr, FunId, Lit, NumTy, Prim, Program, Ty, Undef, VarId};
use num_traits::ToPrimitive;
use std::collections::{BTreeSet, HashMap};
use std::time::Instant;

/// Why compilation failed: Cranelift rejected a function, or the compilation's deadline
/// passed (`timed_out`; nothing is wrong with the program, the interpreter runs it).
#[derive(Debug)]
pub struct CodegenError {
    pub message: String,
    pub timed_out: bool,
}

impl CodegenError {
    pub fn new(message: impl Into<String>) -> CodegenError {
        CodegenError { message: message.into(), timed_out: false }
    }

    fn timeout() -> CodegenError {
        CodegenError { message: "compilation did not finish before its deadline".into(), timed_out: true }
    }
}

impl std::fmt::Display for CodegenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "codegen error: {}", self.message)
    }
}

impl std::error::Error for CodegenError {}

/// The imported runtime helpers.
struct Rt {
    tick: FuncId,
    /// `(ctx)` in the `preserve_all` convention: calls `rt_tick`. Hot loops call this one,
    /// so that the rare refill does not make them keep their values in callee-saved
    /// registers (saved and restored on every call) around an ordinary call.
    tick_stub: FuncId,
    apply: FuncId,
    divmod: FuncId,
    cmp: FuncId,
    set: FuncId,
    set_scalar: FuncId,
}

/// A `Lambda` waiting to be compiled into its own closure entry.
struct PendingLambda {
    id: FuncId,
    params: Vec<VarId>,
    captures: Vec<u32>,
    body: Expr,
}

/// State across the whole program.
pub(crate) struct Gen<'p> {
    pub module: JITModule,
    prog: &'p Program,
    funs: Vec<FuncId>,
    pub wraps: Vec<FuncId>,
    rt: Rt,
    pending: Vec<PendingLambda>,
    num_lambdas: usize,
    pub undefs: Vec<Undef>,
    pub cmp_tys: Vec<Ty>,
    /// The compiled structural comparison of each datatype that needs one (`cmp_fun`).
    cmp_funs: HashMap<DataId, FuncId>,
    pending_cmps: Vec<DataId>,
    calls: CallGraph,
    /// The compiled level loop of each function that has one (`define_level`).
    pub levels: Vec<Option<FuncId>>,
    budget: Budget,
    /// Translation stops recursing below this stack address (`stack_low`).
    stack_floor: u64,
    /// The current body hit `stack_floor`.
    truncated: bool,
    /// The functions left (wholly or partly) to the interpreter: those `compiled_program`
    /// left out, then the ones found here, in `FunId` order.
    pub interpreted: Vec<Interpreted>,
}

fn err(e: impl std::fmt::Debug) -> CodegenError {
    CodegenError::new(format!("{e:?}"))
}

/// Functions that compile to more IR nodes than this (`CallGraph::compiled_size`) are
/// compiled without Cranelift's optimisations: its e-graph pass grows faster than linearly
/// with a function's blocks (a chain of 4,000 numeral tests took three times as long as
/// unoptimised), while the functions people write stay far below.
pub const OPTIMISE_MAX_NODES: usize = 2_000;

/// Functions that compile to more IR nodes than this are not compiled at all: every case
/// that reaches one is handed to the interpreter (`JitOutcome::NotSupported`), so compile
/// time and memory stay bounded per function (unoptimised, about 0.1 s and 35 MB at the
/// limit on the 2-core VM; 4,000 numeral equations are 20,000 nodes).
pub const COMPILE_MAX_NODES: usize = 50_000;

/// Stack kept free below the translation's recursion (which follows the nesting of the
/// IR), above the margin `runtime::stack_limit` keeps for the Rust helpers: a body nested
/// deeper than the stack allows compiles the rest as a hand-over. Small, as tests compile
/// on threads of 1 MiB.
const TRANSLATE_STACK_MARGIN: u64 = 64 << 10;

/// A function compiled code does not run in full: the cases that reach it (or its part
/// that was not compiled) are handed to the interpreter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interpreted {
    /// The function's IR name (`f[nat]`).
    pub name: String,
    /// Its size in IR nodes, with the bodies inlined into it (`CallGraph::compiled_size`).
    pub nodes: usize,
    /// Why, in words.
    pub why: String,
}

/// `Interpreted::why` for a function of `nodes` IR nodes, past `COMPILE_MAX_NODES`.
pub(crate) fn too_large_why(nodes: usize) -> String {
    format!("it has {nodes} IR nodes, more than the {COMPILE_MAX_NODES} compiled code takes")
}

/// What compiling may cost: how `Gen` compiles each function is decided by its size, and
/// the whole compilation stops at `deadline`.
pub(crate) struct Budget {
    /// The target without Cranelift's optimisations (`OPTIMISE_MAX_NODES`).
    pub unoptimised: OwnedTargetIsa,
    pub deadline: Option<Instant>,
}

impl<'p> Gen<'p> {
    pub fn new(mut module: JITModule, prog: &'p Program, budget: Budget) -> Result<Gen<'p>, CodegenError> {
        let cc = module.isa().default_call_conv();
        let sig = |n: usize, conv: CallConv| {
            let mut s = Signature::new(conv);
            for _ in 0..n {
                s.params.push(AbiParam::new(I64));
            }
            s.returns.push(AbiParam::new(I64));
            s
        };
        let imp =
            |m: &mut JITModule, name: &str, n| m.declare_function(name, Linkage::Import, &sig(n, cc)).map_err(err);
        let rt = Rt {
            tick: imp(&mut module, "rt_tick", 1)?,
            tick_stub: {
                let mut s = Signature::new(CallConv::PreserveAll);
                s.params.push(AbiParam::new(I64));
                module.declare_function("tick_stub", Linkage::Local, &s).map_err(err)?
            },
            apply: imp(&mut module, "rt_apply", 4)?,
            divmod: imp(&mut module, "rt_divmod", 4)?,
            cmp: imp(&mut module, "rt_cmp", 4)?,
            set: imp(&mut module, "rt_set", 5)?,
            set_scalar: imp(&mut module, "rt_set_scalar", 4)?,
        };
        let calls = call_graph::analyse(prog);
        let mut funs = Vec::new();
        let mut wraps = Vec::new();
        for (i, f) in prog.funs.iter().enumerate() {
            let w = module.declare_function(&format!("w{i}"), Linkage::Local, &sig(3, cc)).map_err(err)?;
            wraps.push(w);
            // A function nobody calls by name is only its closure entry (`define_body`).
            funs.push(if calls.called[i] {
                let s = sig(1 + f.params.len(), CallConv::Tail);
                module.declare_function(&format!("f{i}"), Linkage::Local, &s).map_err(err)?
            } else {
                w
            });
        }
        Ok(Gen {
            module,
            prog,
            funs,
            wraps,
            rt,
            pending: Vec::new(),
            num_lambdas: 0,
            undefs: Vec::new(),
            cmp_tys: Vec::new(),
            cmp_funs: HashMap::new(),
            pending_cmps: Vec::new(),
            calls,
            levels: vec![None; prog.funs.len()],
            budget,
            stack_floor: stack_limit().saturating_add(TRANSLATE_STACK_MARGIN),
            truncated: false,
            interpreted: Vec::new(),
        })
    }

    /// Whether the translation's recursion has reached `stack_floor`.
    #[inline]
    fn stack_low(&self) -> bool {
        let here = 0u8;
        (std::hint::black_box(&here) as *const u8 as u64) < self.stack_floor
    }

    fn check_deadline(&self) -> Result<(), CodegenError> {
        match self.budget.deadline {
            Some(d) if Instant::now() >= d => Err(CodegenError::timeout()),
            _ => Ok(()),
        }
    }

    /// Whether function `i` is too large to compile (`COMPILE_MAX_NODES`).
    fn oversized(&self, i: usize) -> bool {
        self.calls.compiled_size[i] > COMPILE_MAX_NODES
    }

    /// Compiles the function in `cx` as `id`, optimised when it is at most
    /// `OPTIMISE_MAX_NODES` IR nodes, and clears `cx`. `what` names it in errors.
    fn define(
        &mut self,
        id: FuncId,
        cx: &mut cranelift_codegen::Context,
        nodes: usize,
        what: &dyn std::fmt::Display,
    ) -> Result<(), CodegenError> {
        let r = if nodes <= OPTIMISE_MAX_NODES {
            self.module.define_function(id, cx).map_err(|e| format!("{e:?}"))
        } else {
            self.define_unoptimised(id, cx)
        };
        self.module.clear_context(cx);
        r.map_err(|e| CodegenError::new(format!("{what}: {e}")))
    }

    /// `define` with the unoptimised target: compiled here and handed to the module as
    /// code and relocations, as `JITModule::define_function` does with its own target.
    fn define_unoptimised(&mut self, id: FuncId, cx: &mut cranelift_codegen::Context) -> Result<(), String> {
        let mut plane = ControlPlane::default();
        let alignment =
            cx.compile(&*self.budget.unoptimised, &mut plane).map_err(|e| format!("{:?}", e.inner))?.buffer.alignment;
        let code = cx.compiled_code().ok_or("no compiled code")?;
        let relocs: Vec<ModuleReloc> =
            code.buffer.relocs().iter().map(|r| ModuleReloc::from_mach_reloc(r, &cx.func, id)).collect();
        self.module
            .define_function_bytes(id, u64::from(alignment), code.code_buffer(), &relocs)
            .map_err(|e| format!("{e:?}"))
    }

    fn closure_sig(&self) -> Signature {
        let mut s = Signature::new(self.module.isa().default_call_conv());
        for _ in 0..3 {
            s.params.push(AbiParam::new(I64));
        }
        s.returns.push(AbiParam::new(I64));
        s
    }

    /// Compiles every function, and a level loop (`define_level`) for each of `levels`
    /// that can have one.
    pub fn compile_all(&mut self, levels: &[FunId]) -> Result<(), CodegenError> {
        let mut fctx = FunctionBuilderContext::new();
        let mut cx = self.module.make_context();
        let fcfg = self.module.target_config();
        cx.func.signature = self.module.declarations().get_function_decl(self.rt.tick_stub).signature.clone();
        cx.func.name = UserFuncName::user(3, self.rt.tick_stub.as_u32());
        {
            let (mut b, ps) = begin(&mut cx.func, &mut fctx);
            let ctx = ps[0];
            let tick = self.module.declare_func_in_func(self.rt.tick, b.func);
            b.ins().call(tick, &[ctx]);
            b.ins().return_(&[]);
            b.seal_all_blocks();
            b.finalize(fcfg);
        }
        self.module.define_function(self.rt.tick_stub, &mut cx).map_err(err)?;
        self.module.clear_context(&mut cx);
        for i in 0..self.prog.funs.len() {
            self.check_deadline()?;
            let f = &self.prog.funs[i];
            let (guarded, guarded_closure_entry) = (self.calls.guarded[i], self.calls.guarded_closure_entry[i]);
            if !self.calls.called[i] {
                // Entered only through its closure entry: the body is that entry.
                self.define_body(&mut cx, &mut fctx, i, guarded || guarded_closure_entry)?;
                self.compile_lambdas(&mut cx, &mut fctx)?;
                continue;
            }
            self.define_body(&mut cx, &mut fctx, i, guarded)?;

            // Its closure entry: loads the arguments and calls it (guarded when the function
            // is used as a value, see `call_graph`).
            cx.func.signature = self.closure_sig();
            cx.func.name = UserFuncName::user(0, self.wraps[i].as_u32());
            {
                let (b, ps) = begin(&mut cx.func, &mut fctx);
                let mut t = Tr::new(self, b, ps[0], guarded_closure_entry, None, None);
                if guarded_closure_entry {
                    t.prologue();
                }
                let mut args = vec![ps[0]];
                args.extend(load_words(&mut t.b, ps[2], f.params.len(), 0));
                let fr = t.fref(t.g.funs[i]);
                let r = t.call_out(fr, &args);
                t.ret(r);
                t.close();
                t.b.seal_all_blocks();
                t.b.finalize(fcfg);
            }
            self.define(self.wraps[i], &mut cx, 0, &format_args!("entry of {}", f.name))?;
            self.compile_lambdas(&mut cx, &mut fctx)?;
        }
        for f in levels {
            self.check_deadline()?;
            self.define_level(&mut cx, &mut fctx, f.0 as usize)?;
        }
        while let Some(d) = self.pending_cmps.pop() {
            let id = self.cmp_funs[&d];
            cx.func.signature = self.module.declarations().get_function_decl(id).signature.clone();
            cx.func.name = UserFuncName::user(2, id.as_u32());
            self.compile_cmp(d, &mut cx.func, &mut fctx)?;
            self.define(id, &mut cx, 0, &"a comparison")?;
        }
        Ok(())
    }

    /// Compiles the body of function `i`: as the `tail`-convention function `funs[i]` when
    /// other functions call it, otherwise as its closure entry `wraps[i]` (arguments read
    /// from the argument array; calls in tail position other than self calls stay calls,
    /// as the platform convention cannot make tail calls into the `tail` one).
    fn define_body(
        &mut self,
        cx: &mut cranelift_codegen::Context,
        fctx: &mut FunctionBuilderContext,
        i: usize,
        guarded: bool,
    ) -> Result<(), CodegenError> {
        let f = &self.prog.funs[i];
        let direct = self.calls.called[i];
        let id = if direct { self.funs[i] } else { self.wraps[i] };
        cx.func.signature = self.module.declarations().get_function_decl(id).signature.clone();
        cx.func.name = UserFuncName::user(0, id.as_u32());
        let fcfg = self.module.target_config();
        let (mut b, ps) = begin(&mut cx.func, fctx);
        let args = if direct { ps[1..].to_vec() } else { load_words(&mut b, ps[2], f.params.len(), 0) };
        let me = FunId(i as u32);
        let nodes = self.calls.compiled_size[i];
        if self.oversized(i) {
            // Too large to compile cheaply: the body only hands its cases over.
            self.interpreted.push(Interpreted { name: f.name.clone(), nodes, why: too_large_why(nodes) });
            let mut t = Tr::new(self, b, ps[0], guarded, None, Some(me));
            if guarded {
                t.prologue();
            }
            let v = t.fail_with(ST_NOT_SUPPORTED);
            t.ret(v);
            t.close();
            t.b.seal_all_blocks();
            t.b.finalize(fcfg);
            return self.define(id, cx, 0, &f.name);
        }
        self.truncated = false;
        let mut t = Tr::new(self, b, ps[0], guarded, Some(&f.body), Some(me));
        t.tail_calls = direct;
        if guarded {
            t.prologue();
        }
        t.enter_body(me, args, K::Ret);
        t.finish(&f.body, K::Ret);
        t.close();
        t.b.seal_all_blocks();
        t.b.finalize(fcfg);
        if std::mem::take(&mut self.truncated) {
            self.interpreted.push(Interpreted {
                name: f.name.clone(),
                nodes,
                why: "it is nested too deeply to compile in full on this thread's stack".into(),
            });
        }
        self.define(id, cx, nodes, &f.name)
    }

    /// Compiles the level loop of function `i` (a `LevelFn`): its body inlined into a loop
    /// over rows of arguments, each case starting from the arena fill level and
    /// fuel the loop was entered with, so a case costs no call and no entry from Rust. Only
    /// for boolean functions that are unguarded (not recursive) and without λs (which would
    /// be compiled again); others keep the loop in Rust.
    fn define_level(
        &mut self,
        cx: &mut cranelift_codegen::Context,
        fctx: &mut FunctionBuilderContext,
        i: usize,
    ) -> Result<(), CodegenError> {
        let f = &self.prog.funs[i];
        let c = &self.calls;
        if f.ret != Ty::Bool
            || c.guarded[i]
            || c.guarded_closure_entry[i]
            || f.body.count(&|e| matches!(e, Expr::Lambda(..))) > 0
            || self.levels[i].is_some()
            || self.oversized(i)
        {
            return Ok(());
        }
        let mut sig = Signature::new(self.module.isa().default_call_conv());
        sig.params.extend([AbiParam::new(I64); 5]);
        sig.returns.push(AbiParam::new(I64));
        let id = self.module.declare_function(&format!("level{i}"), Linkage::Local, &sig).map_err(err)?;
        cx.func.signature = sig;
        cx.func.name = UserFuncName::user(4, id.as_u32());
        let fcfg = self.module.target_config();
        let (b, ps) = begin(&mut cx.func, fctx);
        let (ctx, rows, n, width, stop_on) = (ps[0], ps[1], ps[2], ps[3], ps[4]);
        let me = FunId(i as u32);
        let mut t = Tr::new(self, b, ctx, false, Some(&f.body), Some(me));
        let at = t.b.declare_var(I64);
        let zero = t.b.ins().iconst(I64, 0);
        t.b.def_var(at, zero);
        // A case that sets a status leaves through `fail` with its index.
        t.fail_value = Some(at);
        let heap0 = match t.heap {
            Some(h) => t.b.use_var(h),
            None => t.load_ctx(OFF_HEAP),
        };
        let fuel0 = match t.fuel {
            Some(v) => t.b.use_var(v),
            None => t.load_ctx(OFF_FUEL),
        };
        let left0 = t.load_ctx(OFF_FUEL_LEFT);
        let stride = t.b.ins().ishl_imm_u(width, 3);
        let row = t.b.declare_var(I64);
        t.b.def_var(row, rows);
        let (head, case, stop, next) = (t.b.create_block(), t.b.create_block(), t.b.create_block(), t.b.create_block());
        t.b.ins().jump(head, &[]);
        t.b.switch_to_block(head);
        let k = t.b.use_var(at);
        let more = t.b.ins().icmp(IntCC::UnsignedLessThan, k, n);
        t.b.ins().brif(more, case, &[], stop, &[]);
        t.b.switch_to_block(case);
        let args = t.b.use_var(row);
        match t.heap {
            Some(h) => t.b.def_var(h, heap0),
            None => t.store_ctx(OFF_HEAP, heap0),
        }
        match t.fuel {
            Some(v) => t.b.def_var(v, fuel0),
            None => t.store_ctx(OFF_FUEL, fuel0),
        }
        t.store_ctx(OFF_FUEL_LEFT, left0);
        let vals = load_words(&mut t.b, args, f.params.len(), 0);
        let merge = t.b.create_block();
        t.b.append_block_param(merge, I64);
        t.enter_body(me, vals, K::Merge(merge));
        t.finish(&f.body, K::Merge(merge));
        t.b.switch_to_block(merge);
        let r = t.b.block_params(merge)[0];
        let hit = t.b.ins().icmp(IntCC::Equal, r, stop_on);
        t.b.ins().brif(hit, stop, &[], next, &[]);
        t.b.switch_to_block(next);
        let k = t.b.use_var(at);
        let k1 = t.b.ins().iadd_imm_s(k, 1);
        t.b.def_var(at, k1);
        let r = t.b.use_var(row);
        let r1 = t.b.ins().iadd(r, stride);
        t.b.def_var(row, r1);
        t.b.ins().jump(head, &[]);
        t.b.switch_to_block(stop);
        let k = t.b.use_var(at);
        t.b.ins().return_(&[k]);
        t.close();
        t.b.seal_all_blocks();
        t.b.finalize(fcfg);
        self.truncated = false;
        self.define(id, cx, self.calls.compiled_size[i], &format_args!("level of {}", f.name))?;
        self.levels[i] = Some(id);
        Ok(())
    }

    /// Compiles the λs met so far, each as a closure entry of its own (always guarded).
    fn compile_lambdas(
        &mut self,
        cx: &mut cranelift_codegen::Context,
        fctx: &mut FunctionBuilderContext,
    ) -> Result<(), CodegenError> {
        let fcfg = self.module.target_config();
        while let Some(l) = self.pending.pop() {
            cx.func.signature = self.closure_sig();
            cx.func.name = UserFuncName::user(1, l.id.as_u32());
            let (b, ps) = begin(&mut cx.func, fctx);
            let mut t = Tr::new(self, b, ps[0], true, Some(&l.body), None);
            let captured = load_words(&mut t.b, ps[1], l.captures.len(), 24);
            for (v, x) in l.captures.iter().zip(captured) {
                t.bind(VarId(*v), x);
            }
            let args = load_words(&mut t.b, ps[2], l.params.len(), 0);
            for (v, x) in l.params.iter().zip(args) {
                t.bind(*v, x);
            }
            t.prologue();
            t.finish(&l.body, K::Ret);
            t.close();
            t.b.seal_all_blocks();
            t.b.finalize(fcfg);
            self.truncated = false;
            let nodes = l.body.count(&|_| true);
            self.define(l.id, cx, nodes, &"a λ")?;
        }
        Ok(())
    }

    /// The compiled comparison `(ctx, a, b) -> -1/0/1` of two words of datatype `d` (whose
    /// values hold no functions or sets), declared on first use and compiled at the end.
    fn cmp_fun(&mut self, d: DataId) -> Result<FuncId, CodegenError> {
        if let Some(id) = self.cmp_funs.get(&d) {
            return Ok(*id);
        }
        let mut s = Signature::new(CallConv::Tail);
        for _ in 0..3 {
            s.params.push(AbiParam::new(I64));
        }
        s.returns.push(AbiParam::new(I64));
        let id = self.module.declare_function(&format!("cmp{}", d.0), Linkage::Local, &s).map_err(err)?;
        self.cmp_funs.insert(d, id);
        self.pending_cmps.push(d);
        Ok(id)
    }

    /// The body of `cmp_fun(d)`: the order of `cmp_words` (tags, then fields left to right),
    /// with identical words equal at once, scalar fields compared inline, the last field
    /// continued with a tail call (so lists compare in constant stack), and other datatype
    /// fields by calls. Near the end of the stack it hands the pair to the iterative `rt_cmp`.
    fn compile_cmp(
        &mut self,
        d: DataId,
        func: &mut Function,
        fctx: &mut FunctionBuilderContext,
    ) -> Result<(), CodegenError> {
        let ty_index = self.cmp_index(&Ty::Data(d));
        let prog = self.prog;
        let (mut b, ps) = begin(func, fctx);
        let mut refs: HashMap<FuncId, FuncRef> = HashMap::new();
        let (ctx, x0, y0) = (ps[0], ps[1], ps[2]);
        // Returns `v` from a fresh block, branched to when `cond` holds; continues after.
        let ret_if = |b: &mut FunctionBuilder, cond: Value, v: Option<Value>| {
            let (out, cont) = (b.create_block(), b.create_block());
            b.ins().brif(cond, out, &[], cont, &[]);
            b.switch_to_block(out);
            let v = v.unwrap_or_else(|| b.ins().iconst(I64, 0));
            b.ins().return_(&[v]);
            b.switch_to_block(cont);
        };
        // -1 or 1 by `lt`.
        let sign = |b: &mut FunctionBuilder, lt: Value| {
            let m1 = b.ins().iconst(I64, -1);
            let p1 = b.ins().iconst(I64, 1);
            b.ins().select(lt, m1, p1)
        };
        let sp = b.ins().get_stack_pointer(I64);
        let lim = b.ins().load(I64, mf(), ctx, OFF_STACK_LIMIT);
        let low = b.ins().icmp(IntCC::UnsignedLessThan, sp, lim);
        let (slow, fast) = (b.create_block(), b.create_block());
        b.ins().brif(low, slow, &[], fast, &[]);
        b.switch_to_block(slow);
        let rt = *refs.entry(self.rt.cmp).or_insert_with(|| self.module.declare_func_in_func(self.rt.cmp, b.func));
        let iv = b.ins().iconst(I64, ty_index);
        let call = b.ins().call(rt, &[ctx, x0, y0, iv]);
        let r = b.inst_results(call)[0];
        b.ins().return_(&[r]);
        b.switch_to_block(fast);
        // The last field of the same datatype (a list's tail) is compared by jumping back
        // here: a loop, in constant stack.
        let top = b.create_block();
        let x = b.append_block_param(top, I64);
        let y = b.append_block_param(top, I64);
        b.ins().jump(top, &[x0.into(), y0.into()]);
        b.switch_to_block(top);
        let same = b.ins().icmp(IntCC::Equal, x, y);
        ret_if(&mut b, same, None);
        let tx = data_tag(&mut b, prog, d, x);
        let ty = data_tag(&mut b, prog, d, y);
        let ne = b.ins().icmp(IntCC::NotEqual, tx, ty);
        let lt = b.ins().icmp(IntCC::UnsignedLessThan, tx, ty);
        let r = sign(&mut b, lt);
        ret_if(&mut b, ne, Some(r));
        let mut sw = Switch::new();
        let ctors: Vec<(usize, Block)> = prog
            .data(d)
            .ctors
            .iter()
            .enumerate()
            .filter(|(_, c)| !c.fields.is_empty())
            .map(|(i, _)| (i, b.create_block()))
            .collect();
        for (i, blk) in &ctors {
            sw.set_entry(*i as u128, *blk);
        }
        // Equal tags of a nullary constructor are equal immediates, caught above.
        let other = b.create_block();
        sw.emit(&mut b, tx, other);
        b.switch_to_block(other);
        let z = b.ins().iconst(I64, 0);
        b.ins().return_(&[z]);
        for (i, blk) in ctors {
            b.switch_to_block(blk);
            let fields = &prog.data(d).ctors[i].fields;
            for (k, fty) in fields.iter().enumerate() {
                let off = (8 * (k + 1)) as i32;
                let fx = b.ins().load(I64, mf(), x, off);
                let fy = b.ins().load(I64, mf(), y, off);
                match fty {
                    Ty::Data(e) if *e == d && k + 1 == fields.len() => {
                        b.ins().jump(top, &[fx.into(), fy.into()]);
                        let dead = b.create_block();
                        b.switch_to_block(dead);
                    }
                    Ty::Data(e) if !prog.data(*e).ctors.iter().all(|c| c.fields.is_empty()) => {
                        let id = self.cmp_fun(*e)?;
                        let fr = *refs.entry(id).or_insert_with(|| self.module.declare_func_in_func(id, b.func));
                        if k + 1 == fields.len() {
                            b.ins().return_call(fr, &[ctx, fx, fy]);
                            let dead = b.create_block();
                            b.switch_to_block(dead);
                        } else {
                            let call = b.ins().call(fr, &[ctx, fx, fy]);
                            let r = b.inst_results(call)[0];
                            ret_if(&mut b, r, Some(r));
                        }
                    }
                    // Numbers, booleans and immediates order as `i64`.
                    _ => {
                        let ne = b.ins().icmp(IntCC::NotEqual, fx, fy);
                        let lt = b.ins().icmp(IntCC::SignedLessThan, fx, fy);
                        let r = sign(&mut b, lt);
                        ret_if(&mut b, ne, Some(r));
                    }
                }
            }
            let z = b.ins().iconst(I64, 0);
            b.ins().return_(&[z]);
        }
        b.seal_all_blocks();
        b.finalize(self.module.target_config());
        Ok(())
    }

    fn undef_index(&mut self, u: &Undef) -> i64 {
        if let Some(i) = self.undefs.iter().position(|x| x == u) {
            return i as i64;
        }
        self.undefs.push(u.clone());
        (self.undefs.len() - 1) as i64
    }

    fn cmp_index(&mut self, t: &Ty) -> i64 {
        if let Some(i) = self.cmp_tys.iter().position(|x| x == t) {
            return i as i64;
        }
        self.cmp_tys.push(t.clone());
        (self.cmp_tys.len() - 1) as i64
    }
}

/// The constructor tag of a word of datatype `d`: immediates are `(tag << 1) | 1`, cells
/// start with the tag (as a 32-bit word).
fn data_tag(b: &mut FunctionBuilder, prog: &Program, d: DataId, v: Value) -> Value {
    let d = prog.data(d);
    let any_nullary = d.ctors.iter().any(|c| c.fields.is_empty());
    let any_cell = d.ctors.iter().any(|c| !c.fields.is_empty());
    if !any_cell {
        b.ins().ushr_imm_u(v, 1)
    } else if !any_nullary {
        b.ins().uload32(mf(), v, 0)
    } else {
        let (ib, cb, m) = (b.create_block(), b.create_block(), b.create_block());
        b.append_block_param(m, I64);
        let low = b.ins().band_imm_u(v, 1);
        b.ins().brif(low, ib, &[], cb, &[]);
        b.switch_to_block(ib);
        let t = b.ins().ushr_imm_u(v, 1);
        b.ins().jump(m, &[t.into()]);
        b.switch_to_block(cb);
        let t = b.ins().uload32(mf(), v, 0);
        b.ins().jump(m, &[t.into()]);
        b.switch_to_block(m);
        b.block_params(m)[0]
    }
}

/// Whether equality and order at `t` are structural on words (no functions or sets inside).
pub(crate) fn structural(prog: &Program, t: &Ty) -> bool {
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

/// Whether the code of `e` has a node where `here` holds, looking `depth` levels into the
/// bodies of inlined calls; when the depth runs out, it may.
fn in_code(g: &Gen, e: &Expr, depth: usize, here: &dyn Fn(&Expr) -> bool) -> bool {
    if here(e) {
        return true;
    }
    if let Expr::Call(f, _) = e {
        if g.calls.inlined[f.0 as usize] && (depth == 0 || in_code(g, &g.prog.fun(*f).body, depth - 1, here)) {
            return true;
        }
    }
    let mut any = false;
    e.for_each_child(&mut |c, _| any = any || in_code(g, c, depth, here));
    any
}

/// Whether translating `e` allocates in place (cells, closures, comprehensions).
fn allocates(g: &Gen, e: &Expr) -> bool {
    in_code(g, e, MAX_INLINE_DEPTH + 1, &|e| match e {
        Expr::Ctor(_, args) => !args.is_empty(),
        Expr::FunRef(_) | Expr::Lambda(..) | Expr::SetCompr { .. } => true,
        _ => false,
    })
}

/// Whether `e`, the body of `me` (if any), loops in place: `me` loops, or an inlined call does.
fn loops(g: &Gen, me: Option<FunId>, e: &Expr) -> bool {
    me.is_some_and(|f| g.calls.loops[f.0 as usize])
        || in_code(
            g,
            e,
            MAX_INLINE_DEPTH + 1,
            &|e| matches!(e, Expr::Call(f, _) if g.calls.loops[f.0 as usize] && g.calls.inlined[f.0 as usize]),
        )
}

/// What a quantifier or comprehension loops over: `len` values, the elements of a finite set
/// cell, or the values of an enumerable type.
struct Src {
    len: Value,
    set: Option<Value>,
    is_bool: bool,
}

/// Where the value of an expression goes: returned from the function, or passed to a merge
/// block.
#[derive(Clone, Copy, PartialEq)]
enum K {
    Ret,
    Merge(Block),
}

/// The top-level function being translated, or being inlined, for self calls in tail
/// position.
struct This {
    id: FunId,
    /// The block after the entry guards: a self call in tail position jumps here.
    top: Block,
    params: Vec<VarId>,
    /// Where the body's value goes: a self call sent there is in tail position.
    k: K,
    /// For a body that calls itself in tail position modulo constructors.
    dest: Option<Dest>,
}

/// Where the value of a body that builds cells around its self calls goes (`build_to_self`):
/// `var` is the address of the hole to fill, first `slot`, then the last field of the last
/// cell built.
struct Dest {
    var: Variable,
    slot: StackSlot,
}

/// Inlined calls nest at most this deep.
const MAX_INLINE_DEPTH: usize = 3;

/// Translation of one function body.
struct Tr<'g, 'p, 'b> {
    g: &'g mut Gen<'p>,
    b: FunctionBuilder<'b>,
    ctx: Value,
    /// By scope and variable: each inlined body has a scope of its own, as its variables
    /// are numbered independently of the caller's.
    vars: HashMap<(u32, u32), Variable>,
    scope: u32,
    scopes: u32,
    /// How many inlined bodies enclose the current point.
    inline_depth: usize,
    /// The arena's fill level, kept in a register in bodies that allocate (`allocates`):
    /// `ctx.heap` is written before every call out and return (`call_out`, `flush_regs`)
    /// and read back after calls. In memory, each allocation would wait for the store of
    /// the one before. `None`: the body allocates only through calls, and `ctx.heap` is it.
    heap: Option<Variable>,
    /// The fuel of the current chunk, kept in a register in bodies that loop
    /// (`CallGraph::loops`), written and read back where `heap` is. In memory, each turn of
    /// the loop would wait for the store of the turn before.
    fuel: Option<Variable>,
    fail: Block,
    /// What `fail` returns (0 unless set).
    fail_value: Option<Variable>,
    /// Set for top-level functions: self calls in tail position jump to `This::top`. λs
    /// have none.
    this: Option<This>,
    /// The entry ran `prologue`: returns and tail calls give the depth back.
    guarded: bool,
    /// `tail` convention: calls in tail position to other functions are `return_call`s.
    tail_calls: bool,
    refs: HashMap<FuncId, FuncRef>,
}

fn mf() -> MemFlagsData {
    MemFlagsData::trusted()
}

/// A builder for `func`, in its entry block, with the function's parameters.
fn begin<'a>(func: &'a mut Function, fctx: &'a mut FunctionBuilderContext) -> (FunctionBuilder<'a>, Vec<Value>) {
    let mut b = FunctionBuilder::new(func, fctx);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let ps = b.block_params(entry).to_vec();
    (b, ps)
}

/// The `n` words at `ptr + from` (bytes), one after another.
fn load_words(b: &mut FunctionBuilder, ptr: Value, n: usize, from: i32) -> Vec<Value> {
    (0..n).map(|k| b.ins().load(I64, mf(), ptr, from + (8 * k) as i32)).collect()
}

impl<'g, 'p, 'b> Tr<'g, 'p, 'b> {
    /// Starts translating `body` (of function `me`, if it is one) in `b`'s current block, the
    /// entry (`body` is `None` for the closure entry that only calls its function). The fill
    /// level is kept in a register if the body allocates, the fuel if it loops.
    fn new(
        g: &'g mut Gen<'p>,
        mut b: FunctionBuilder<'b>,
        ctx: Value,
        guarded: bool,
        body: Option<&Expr>,
        me: Option<FunId>,
    ) -> Self {
        let fail = b.create_block();
        let in_register = |b: &mut FunctionBuilder, off: i32| {
            let var = b.declare_var(I64);
            let v = b.ins().load(I64, mf(), ctx, off);
            b.def_var(var, v);
            var
        };
        let heap = body.is_some_and(|e| allocates(g, e)).then(|| in_register(&mut b, OFF_HEAP));
        let fuel = body.is_some_and(|e| loops(g, me, e)).then(|| in_register(&mut b, OFF_FUEL));
        Tr {
            g,
            b,
            ctx,
            vars: HashMap::new(),
            scope: 0,
            scopes: 1,
            inline_depth: 0,
            heap,
            fuel,
            fail,
            fail_value: None,
            this: None,
            guarded,
            tail_calls: false,
            refs: HashMap::new(),
        }
    }

    /// Emits the `fail` block (last, so the entry block stays first in the layout).
    fn close(&mut self) {
        self.b.switch_to_block(self.fail);
        let z = match self.fail_value {
            Some(v) => self.b.use_var(v),
            None => self.b.ins().iconst(I64, 0),
        };
        self.b.ins().return_(&[z]);
    }

    fn fref(&mut self, id: FuncId) -> FuncRef {
        if let Some(r) = self.refs.get(&id) {
            return *r;
        }
        let r = self.g.module.declare_func_in_func(id, self.b.func);
        self.refs.insert(id, r);
        r
    }

    fn bind(&mut self, v: VarId, val: Value) {
        let var = match self.vars.get(&(self.scope, v.0)) {
            Some(x) => *x,
            None => {
                let x = self.b.declare_var(I64);
                self.vars.insert((self.scope, v.0), x);
                x
            }
        };
        self.b.def_var(var, val);
    }

    fn use_var(&mut self, v: VarId) -> Value {
        let var = self.vars[&(self.scope, v.0)];
        self.b.use_var(var)
    }

    fn load_ctx(&mut self, off: i32) -> Value {
        self.b.ins().load(I64, mf(), self.ctx, off)
    }

    fn store_ctx(&mut self, off: i32, v: Value) {
        self.b.ins().store(mf(), v, self.ctx, off);
    }

    /// Sets the status and leaves through `fail`; continues in a fresh unreachable block and
    /// returns a dummy value for it.
    fn fail_with(&mut self, status: i64) -> Value {
        let s = self.b.ins().iconst(I64, status);
        self.store_ctx(OFF_STATUS, s);
        self.b.ins().jump(self.fail, &[]);
        let dead = self.b.create_block();
        self.b.switch_to_block(dead);
        self.b.ins().iconst(I64, 0)
    }

    /// Branches to a block that sets `status` when `cond` holds.
    fn fail_if(&mut self, cond: Value, status: i64) {
        let bad = self.b.create_block();
        let ok = self.b.create_block();
        self.b.ins().brif(cond, bad, &[], ok, &[]);
        self.b.switch_to_block(bad);
        let s = self.b.ins().iconst(I64, status);
        self.store_ctx(OFF_STATUS, s);
        self.b.ins().jump(self.fail, &[]);
        self.b.switch_to_block(ok);
    }

    /// After a call: leave if the callee set a status.
    fn check_status(&mut self) {
        let st = self.load_ctx(OFF_STATUS);
        let ok = self.b.create_block();
        self.b.ins().brif(st, self.fail, &[], ok, &[]);
        self.b.switch_to_block(ok);
    }

    /// Fuel, depth and stack checks on entry.
    fn prologue(&mut self) {
        self.spend_fuel();
        let d = self.load_ctx(OFF_DEPTH);
        let d = self.b.ins().iadd_imm_s(d, 1);
        self.store_ctx(OFF_DEPTH, d);
        let max = self.load_ctx(OFF_MAX_DEPTH);
        let deep = self.b.ins().icmp(IntCC::SignedGreaterThan, d, max);
        self.fail_if(deep, ST_TOO_DEEP);
        let sp = self.b.ins().get_stack_pointer(I64);
        let lim = self.load_ctx(OFF_STACK_LIMIT);
        let low = self.b.ins().icmp(IntCC::UnsignedLessThan, sp, lim);
        self.fail_if(low, ST_STACK);
    }

    /// One unit of fuel; `rt_tick` (through `tick_stub`) refills the chunk or ends the run.
    fn spend_fuel(&mut self) {
        let fuel = match self.fuel {
            Some(v) => self.b.use_var(v),
            None => self.load_ctx(OFF_FUEL),
        };
        let fuel = self.b.ins().iadd_imm_s(fuel, -1);
        match self.fuel {
            Some(v) => self.b.def_var(v, fuel),
            None => self.store_ctx(OFF_FUEL, fuel),
        }
        let empty = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, fuel, 0);
        let tick = self.b.create_block();
        let cont = self.b.create_block();
        self.b.ins().brif(empty, tick, &[], cont, &[]);
        self.b.switch_to_block(tick);
        self.b.set_cold_block(tick);
        if let Some(v) = self.fuel {
            self.store_ctx(OFF_FUEL, fuel);
            let f = self.fref(self.g.rt.tick_stub);
            self.b.ins().call(f, &[self.ctx]);
            let refilled = self.load_ctx(OFF_FUEL);
            self.b.def_var(v, refilled);
        } else {
            let f = self.fref(self.g.rt.tick_stub);
            self.b.ins().call(f, &[self.ctx]);
        }
        let st = self.load_ctx(OFF_STATUS);
        self.b.ins().brif(st, self.fail, &[], cont, &[]);
        self.b.switch_to_block(cont);
    }

    fn leave_depth(&mut self) {
        if !self.guarded {
            return;
        }
        let d = self.load_ctx(OFF_DEPTH);
        let d = self.b.ins().iadd_imm_s(d, -1);
        self.store_ctx(OFF_DEPTH, d);
    }

    fn ret(&mut self, v: Value) {
        self.flush_regs();
        self.leave_depth();
        self.b.ins().return_(&[v]);
    }

    /// Whether delivering to `k` fills the current body's destination (`Dest`).
    fn fills(&self, k: K) -> bool {
        self.this.as_ref().is_some_and(|t| t.k == k && t.dest.is_some())
    }

    fn deliver(&mut self, v: Value, k: K) {
        let v = match self.this.as_ref().and_then(|t| t.dest.as_ref().filter(|_| t.k == k)) {
            // The value goes into the hole of the last cell built, or into the slot when no
            // cell was; the function's value is the slot.
            Some(d) => {
                let (var, slot) = (d.var, d.slot);
                let at = self.b.use_var(var);
                self.b.ins().store(mf(), v, at, 0);
                self.b.ins().stack_load(I64, I64, slot, 0)
            }
            None => v,
        };
        match k {
            K::Ret => self.ret(v),
            K::Merge(m) => {
                self.b.ins().jump(m, &[v.into()]);
            }
        }
    }

    /// Translates `e` and sends its value to `k`; control forms pass `k` into their branches.
    fn finish(&mut self, e: &Expr, k: K) {
        if self.g.stack_low() {
            // Nested deeper than this thread's stack allows: the rest runs in the interpreter.
            self.g.truncated = true;
            let v = self.fail_with(ST_NOT_SUPPORTED);
            return self.deliver(v, k);
        }
        match e {
            Expr::If(c, t, f) => {
                let cv = self.expr(c);
                let (tb, fb) = (self.b.create_block(), self.b.create_block());
                self.b.ins().brif(cv, tb, &[], fb, &[]);
                self.b.switch_to_block(tb);
                self.finish(t, k);
                self.b.switch_to_block(fb);
                self.finish(f, k);
            }
            Expr::Let(v, _, rhs, body) => {
                let x = self.expr(rhs);
                self.bind(*v, x);
                self.finish(body, k);
            }
            Expr::Case { scrut, data, alts, default } => {
                let v = self.expr(scrut);
                self.case(v, *data, alts, default.as_deref(), k);
            }
            Expr::NatCase { scrut, zero, pred, succ } => {
                let v = self.expr(scrut);
                let (zb, sb) = (self.b.create_block(), self.b.create_block());
                self.b.ins().brif(v, sb, &[], zb, &[]);
                self.b.switch_to_block(zb);
                self.finish(zero, k);
                self.b.switch_to_block(sb);
                let p = self.b.ins().iadd_imm_s(v, -1);
                self.bind(*pred, p);
                self.finish(succ, k);
            }
            Expr::Call(f, args) if self.this.as_ref().is_some_and(|t| t.id == *f && t.k == k) => self.jump_to_top(args),
            Expr::Ctor(..)
                if self.this.as_ref().is_some_and(|t| t.k == k && t.dest.is_some() && cons_to_self(e, t.id)) =>
            {
                self.build_to_self(e)
            }
            // Inlined straight into `k` unless a body on the way fills a destination first.
            Expr::Call(f, args) if self.inlines(*f) && !self.g.calls.builds_to_self[f.0 as usize] && !self.fills(k) => {
                self.inline(*f, args, k)
            }
            Expr::Call(f, args) if self.tail_calls && matches!(k, K::Ret) && !self.fills(k) => {
                let mut vals = vec![self.ctx];
                for a in args {
                    vals.push(self.expr(a));
                }
                self.flush_regs();
                self.leave_depth();
                let fr = self.fref(self.g.funs[f.0 as usize]);
                self.b.ins().return_call(fr, &vals);
                let dead = self.b.create_block();
                self.b.switch_to_block(dead);
                let z = self.b.ins().iconst(I64, 0);
                self.b.ins().return_(&[z]);
            }
            _ => {
                let v = self.expr(e);
                self.deliver(v, k);
            }
        }
    }

    /// A self call in tail position: the arguments become the parameters, and the body
    /// starts again after spending fuel.
    fn jump_to_top(&mut self, args: &[Expr]) {
        let vals: Vec<Value> = args.iter().map(|a| self.expr(a)).collect();
        let this = self.this.as_ref().expect("a self call has a function");
        let (top, params) = (this.top, this.params.clone());
        for (v, val) in params.iter().zip(vals) {
            self.bind(*v, val);
        }
        self.spend_fuel();
        self.b.ins().jump(top, &[]);
        let dead = self.b.create_block();
        self.b.switch_to_block(dead);
        let z = self.b.ins().iconst(I64, 0);
        self.b.ins().return_(&[z]);
    }

    /// `C a1 .. (C' b1 .. (f args))` in tail position of `f` (`cons_to_self`): builds the
    /// cells with their last field open, each stored into the hole before, and loops; the
    /// value that ends the loop fills the last hole (`deliver`). No cell is read before the
    /// function returns, so filling it late is not observable.
    fn build_to_self(&mut self, e: &Expr) {
        let dest = self.this.as_ref().and_then(|t| t.dest.as_ref()).map(|d| d.var).expect("a destination");
        let mut cell = e;
        loop {
            let Expr::Ctor(c, args) = cell else { unreachable!("cons_to_self") };
            let (last, fields) = args.split_last().expect("cons_to_self: a field");
            let vals: Vec<Value> = fields.iter().map(|a| self.expr(a)).collect();
            let p = self.cell(c.tag, args.len(), &vals);
            let at = self.b.use_var(dest);
            self.b.ins().store(mf(), p, at, 0);
            let hole = self.b.ins().iadd_imm_s(p, (8 * args.len()) as i64);
            self.b.def_var(dest, hole);
            match last {
                Expr::Call(_, cargs) => return self.jump_to_top(cargs),
                inner => cell = inner,
            }
        }
    }

    /// The destination of `f`'s body, if it builds cells around self calls.
    fn dest_for(&mut self, f: FunId) -> Option<Dest> {
        if !self.g.calls.builds_to_self[f.0 as usize] {
            return None;
        }
        let slot = self.b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 8, 3));
        let var = self.b.declare_var(I64);
        let at = self.b.ins().stack_addr(I64, slot, 0);
        self.b.def_var(var, at);
        Some(Dest { var, slot })
    }

    /// Whether a call of `f` here is translated as `f`'s body in place (`inline`).
    fn inlines(&self, f: FunId) -> bool {
        self.inline_depth < MAX_INLINE_DEPTH && self.g.calls.inlined[f.0 as usize]
    }

    /// Starts `f`'s body here, its parameters bound to `vals`, its value going to `k`: from
    /// a block of its own, the top its self calls in tail position jump back to. Returns the
    /// body this one is in, if any.
    fn enter_body(&mut self, f: FunId, vals: Vec<Value>, k: K) -> Option<This> {
        let params: Vec<VarId> = self.g.prog.fun(f).params.iter().map(|(v, _)| *v).collect();
        for (v, val) in params.iter().zip(vals) {
            self.bind(*v, val);
        }
        let dest = self.dest_for(f);
        let top = self.b.create_block();
        self.b.ins().jump(top, &[]);
        self.b.switch_to_block(top);
        self.this.replace(This { id: f, top, params, k, dest })
    }

    /// The call `f args` as `f`'s body in place, in a variable scope of its own, sending its
    /// value to `k`. Its self calls in tail position jump back to its top.
    fn inline(&mut self, f: FunId, args: &[Expr], k: K) {
        let vals: Vec<Value> = args.iter().map(|a| self.expr(a)).collect();
        let prog: &'p Program = self.g.prog;
        let fd = prog.fun(f);
        let outer_scope = std::mem::replace(&mut self.scope, self.scopes);
        self.scopes += 1;
        let outer = self.enter_body(f, vals, k);
        self.inline_depth += 1;
        self.finish(&fd.body, k);
        self.inline_depth -= 1;
        self.this = outer;
        self.scope = outer_scope;
    }

    fn case(&mut self, v: Value, data: DataId, alts: &[Alt], default: Option<&Expr>, k: K) {
        let blocks: Vec<Block> = alts.iter().map(|_| self.b.create_block()).collect();
        let otherwise = self.b.create_block();
        let target = |tag: u32| alts.iter().position(|a| a.tag == tag).map_or(otherwise, |i| blocks[i]);
        // The low bit tells immediates (nullary constructors) from cells, so a datatype with
        // one constructor of each kind (lists, options, trees) dispatches on that bit alone,
        // without loading the tag or a jump table.
        let d = self.g.prog.data(data);
        let (mut imms, mut cells) = (Vec::new(), Vec::new());
        for (t, c) in d.ctors.iter().enumerate() {
            let t = t as u32;
            if c.fields.is_empty() {
                imms.push((t, target(t)));
            } else {
                cells.push((t, target(t)));
            }
        }
        match (imms.is_empty(), cells.is_empty()) {
            (false, true) => {
                let tag = self.b.ins().ushr_imm_u(v, 1);
                self.dispatch(tag, &imms, otherwise);
            }
            (true, false) => self.dispatch_cell(v, &cells, otherwise),
            _ => {
                let (ib, cb) = (self.b.create_block(), self.b.create_block());
                let low = self.b.ins().band_imm_u(v, 1);
                self.b.ins().brif(low, ib, &[], cb, &[]);
                self.b.switch_to_block(ib);
                let tag = self.b.ins().ushr_imm_u(v, 1);
                self.dispatch(tag, &imms, otherwise);
                self.b.switch_to_block(cb);
                self.dispatch_cell(v, &cells, otherwise);
            }
        }
        for (a, blk) in alts.iter().zip(&blocks) {
            self.b.switch_to_block(*blk);
            for (i, x) in a.binders.iter().enumerate() {
                let f = self.b.ins().load(I64, mf(), v, (8 * (i + 1)) as i32);
                self.bind(*x, f);
            }
            self.finish(&a.body, k);
        }
        self.b.switch_to_block(otherwise);
        match default {
            Some(e) => self.finish(e, k),
            None => {
                let s = self.b.ins().iconst(I64, ST_NOT_SUPPORTED);
                self.store_ctx(OFF_STATUS, s);
                self.b.ins().jump(self.fail, &[]);
            }
        }
    }

    /// Jumps to the block of `tag` among `targets` (every tag a word of this kind can have).
    fn dispatch(&mut self, tag: Value, targets: &[(u32, Block)], otherwise: Block) {
        match targets {
            [] => {
                self.b.ins().jump(otherwise, &[]);
            }
            [(_, only)] => {
                self.b.ins().jump(*only, &[]);
            }
            [(t0, b0), (_, b1)] => {
                let is0 = self.b.ins().icmp_imm_s(IntCC::Equal, tag, *t0 as i64);
                self.b.ins().brif(is0, *b0, &[], *b1, &[]);
            }
            _ => {
                let mut sw = Switch::new();
                for (t, blk) in targets {
                    sw.set_entry(*t as u128, *blk);
                }
                sw.emit(&mut self.b, tag, otherwise);
            }
        }
    }

    /// `dispatch` for a cell, loading its tag only when there is more than one to tell apart.
    fn dispatch_cell(&mut self, v: Value, targets: &[(u32, Block)], otherwise: Block) {
        if targets.len() == 1 {
            self.b.ins().jump(targets[0].1, &[]);
        } else {
            let tag = self.b.ins().uload32(mf(), v, 0);
            self.dispatch(tag, targets, otherwise);
        }
    }

    /// Bump allocation of `words` words from the arena.
    /// A constructor cell of `n` fields, the first ones `vals` (the rest left open).
    fn cell(&mut self, tag: u32, n: usize, vals: &[Value]) -> Value {
        let p = self.alloc(1 + n);
        let hdr = self.b.ins().iconst(I64, (tag as i64) | ((n as i64) << 32));
        self.b.ins().store(mf(), hdr, p, 0);
        for (i, v) in vals.iter().enumerate() {
            self.b.ins().store(mf(), *v, p, (8 * (i + 1)) as i32);
        }
        p
    }

    fn alloc(&mut self, words: usize) -> Value {
        self.take_heap(|t, p| t.b.ins().iadd_imm_s(p, (8 * words) as i64))
    }

    /// Takes arena room from the fill level `p` up to `end(p)`, or fails out of memory;
    /// returns `p`.
    fn take_heap(&mut self, end: impl FnOnce(&mut Self, Value) -> Value) -> Value {
        let p = match self.heap {
            Some(h) => self.b.use_var(h),
            None => self.load_ctx(OFF_HEAP),
        };
        let np = end(self, p);
        let limit = self.load_ctx(OFF_HEAP_END);
        let over = self.b.ins().icmp(IntCC::UnsignedGreaterThan, np, limit);
        self.fail_if(over, ST_OUT_OF_MEMORY);
        match self.heap {
            Some(h) => self.b.def_var(h, np),
            None => self.store_ctx(OFF_HEAP, np),
        }
        p
    }

    /// Writes the fill level and the fuel kept in registers back to `ctx`, for code that
    /// does not share this function's registers. (The `fail` path skips it: a failed run's
    /// cells are dropped and its fuel is not read again.)
    fn flush_regs(&mut self) {
        if let Some(h) = self.heap {
            let h = self.b.use_var(h);
            self.store_ctx(OFF_HEAP, h);
        }
        if let Some(f) = self.fuel {
            let f = self.b.use_var(f);
            self.store_ctx(OFF_FUEL, f);
        }
    }

    /// Reads them back after code that may have changed them.
    fn reload_regs(&mut self) {
        if let Some(h) = self.heap {
            let v = self.load_ctx(OFF_HEAP);
            self.b.def_var(h, v);
        }
        if let Some(f) = self.fuel {
            let v = self.load_ctx(OFF_FUEL);
            self.b.def_var(f, v);
        }
    }

    /// A call of compiled code or of a runtime helper, which may allocate.
    fn call_out(&mut self, fr: FuncRef, args: &[Value]) -> Value {
        self.flush_regs();
        let call = self.b.ins().call(fr, args);
        let r = self.b.inst_results(call)[0];
        self.reload_regs();
        r
    }

    fn bool_of(&mut self, cc: IntCC, a: Value, b: Value) -> Value {
        let c = self.b.ins().icmp(cc, a, b);
        self.b.ins().uextend(I64, c)
    }

    fn expr(&mut self, e: &Expr) -> Value {
        if self.g.stack_low() {
            self.g.truncated = true;
            return self.fail_with(ST_NOT_SUPPORTED);
        }
        match e {
            Expr::Var(v) => self.use_var(*v),
            Expr::Lit(l) => {
                let n = match l {
                    Lit::Bool(b) => Some(*b as i64),
                    Lit::Nat(n) => n.to_i64(),
                    Lit::Int(i) => i.to_i64(),
                };
                match n {
                    Some(n) => self.b.ins().iconst(I64, n),
                    None => self.fail_with(ST_OVERFLOW),
                }
            }
            Expr::Ctor(c, args) => {
                if args.is_empty() {
                    return self.b.ins().iconst(I64, ((c.tag as i64) << 1) | 1);
                }
                let vals: Vec<Value> = args.iter().map(|a| self.expr(a)).collect();
                self.cell(c.tag, vals.len(), &vals)
            }
            Expr::Call(f, args) if self.inlines(*f) => {
                let m = self.b.create_block();
                self.b.append_block_param(m, I64);
                self.inline(*f, args, K::Merge(m));
                self.b.switch_to_block(m);
                self.b.block_params(m)[0]
            }
            Expr::Call(f, args) => {
                let mut vals = vec![self.ctx];
                for a in args {
                    vals.push(self.expr(a));
                }
                let fr = self.fref(self.g.funs[f.0 as usize]);
                let r = self.call_out(fr, &vals);
                self.check_status();
                r
            }
            Expr::Prim(p, args) => self.prim(p, args),
            Expr::FunRef(f) => {
                let n = self.g.prog.fun(*f).params.len();
                let w = self.g.wraps[f.0 as usize];
                self.closure_cell(w, n, &[])
            }
            Expr::Apply(f, args) => {
                let fv = self.expr(f);
                let vals: Vec<Value> = args.iter().map(|a| self.expr(a)).collect();
                let slot = self.b.create_sized_stack_slot(StackSlotData::new(
                    StackSlotKind::ExplicitSlot,
                    8 * vals.len() as u32,
                    3,
                ));
                for (i, v) in vals.iter().enumerate() {
                    self.b.ins().stack_store(I64, *v, slot, (8 * i) as i32);
                }
                let addr = self.b.ins().stack_addr(I64, slot, 0);
                // Exact arity: call the closure's code directly; otherwise `rt_apply` builds
                // the partial application or applies the result to the remaining arguments.
                let (fast, slow, merge) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
                self.b.append_block_param(merge, I64);
                self.flush_regs();
                let arity = self.b.ins().load(I64, mf(), fv, 8);
                let exact = self.b.ins().icmp_imm_s(IntCC::Equal, arity, vals.len() as i64);
                self.b.ins().brif(exact, fast, &[], slow, &[]);
                self.b.switch_to_block(fast);
                let code = self.b.ins().load(I64, mf(), fv, 0);
                let sig = self.b.import_signature(self.g.closure_sig());
                let call = self.b.ins().call_indirect(sig, code, &[self.ctx, fv, addr]);
                let r = self.b.inst_results(call)[0];
                self.b.ins().jump(merge, &[r.into()]);
                self.b.switch_to_block(slow);
                let n = self.b.ins().iconst(I64, vals.len() as i64);
                let fr = self.fref(self.g.rt.apply);
                let call = self.b.ins().call(fr, &[self.ctx, fv, addr, n]);
                let r = self.b.inst_results(call)[0];
                self.b.ins().jump(merge, &[r.into()]);
                self.b.switch_to_block(merge);
                let r = self.b.block_params(merge)[0];
                self.reload_regs();
                self.check_status();
                r
            }
            Expr::Lambda(params, body) => {
                let ps: Vec<VarId> = params.iter().map(|(v, _)| *v).collect();
                let mut free = BTreeSet::new();
                let mut bound: Vec<u32> = ps.iter().map(|v| v.0).collect();
                free_vars(body, &mut bound, &mut free);
                let captures: Vec<u32> = free.into_iter().collect();
                let sig = self.g.closure_sig();
                let name = format!("l{}", self.g.num_lambdas);
                self.g.num_lambdas += 1;
                let id = match self.g.module.declare_function(&name, Linkage::Local, &sig) {
                    Ok(id) => id,
                    Err(_) => return self.fail_with(ST_NOT_SUPPORTED),
                };
                let caps: Vec<Value> = captures.iter().map(|v| self.use_var(VarId(*v))).collect();
                self.g.pending.push(PendingLambda { id, params: ps, captures, body: (**body).clone() });
                self.closure_cell(id, params.len(), &caps)
            }
            Expr::If(..) | Expr::Case { .. } | Expr::NatCase { .. } => {
                let m = self.b.create_block();
                self.b.append_block_param(m, I64);
                self.finish(e, K::Merge(m));
                self.b.switch_to_block(m);
                self.b.block_params(m)[0]
            }
            Expr::Let(v, _, rhs, body) => {
                let x = self.expr(rhs);
                self.bind(*v, x);
                self.expr(body)
            }
            Expr::Undefined(u) => {
                let i = self.g.undef_index(u);
                let d = self.b.ins().iconst(I64, i);
                self.store_ctx(OFF_DETAIL, d);
                self.fail_with(ST_UNDEFINED)
            }
            Expr::Quant { q, var, ty, domain: None, body } if self.enum_size(ty).is_some() => {
                let src = self.enum_src(ty);
                self.quant(*q, *var, src, body)
            }
            Expr::Quant { q, var, domain: Some(d), body, .. } => {
                let src = self.set_src(d);
                self.quant(*q, *var, src, body)
            }
            Expr::SetCompr { var, ty, domain: None, body } if self.enum_size(ty).is_some() => {
                let src = self.enum_src(ty);
                self.compr(*var, src, body)
            }
            Expr::SetCompr { var, domain: Some(d), body, .. } => {
                let src = self.set_src(d);
                self.compr(*var, src, body)
            }
            Expr::Quant { .. } | Expr::SetCompr { .. } | Expr::Pred(..) => self.fail_with(ST_NOT_SUPPORTED),
        }
    }

    /// Calls `rt_set` for a set operation on elements of type `elem` (handed over when the
    /// elements contain functions or sets).
    fn set_op(&mut self, op: i64, elem: &Ty, vals: &[Value]) -> Value {
        if !structural(self.g.prog, elem) {
            return self.fail_with(ST_NOT_SUPPORTED);
        }
        if op == SET_EMPTY {
            // One shared read-only cell: `{}` allocates nothing.
            return self.b.ins().iconst(I64, EMPTY_SET.as_ptr() as i64);
        }
        let opv = self.b.ins().iconst(I64, op);
        let z = self.b.ins().iconst(I64, 0);
        let a = vals.first().copied().unwrap_or(z);
        let b = vals.get(1).copied().unwrap_or(z);
        let r = if self.scalar(elem) {
            let fr = self.fref(self.g.rt.set_scalar);
            self.call_out(fr, &[self.ctx, opv, a, b])
        } else {
            let i = self.g.cmp_index(elem);
            let iv = self.b.ins().iconst(I64, i);
            let fr = self.fref(self.g.rt.set);
            self.call_out(fr, &[self.ctx, opv, a, b, iv])
        };
        self.check_status();
        r
    }

    /// Whether words of `ty` order as `i64`: numbers, booleans, and datatypes of nullary
    /// constructors only (immediates `(tag << 1) | 1`).
    fn scalar(&self, ty: &Ty) -> bool {
        match ty {
            Ty::Bool | Ty::Nat | Ty::Int => true,
            Ty::Data(d) => self.g.prog.data(*d).ctors.iter().all(|c| c.fields.is_empty()),
            _ => false,
        }
    }

    /// Number of values of `ty` when the JIT enumerates it natively: `bool` and datatypes of
    /// nullary constructors only (value `i` is `i`, resp. the immediate of tag `i`).
    fn enum_size(&self, ty: &Ty) -> Option<u32> {
        match ty {
            Ty::Bool => Some(2),
            Ty::Data(d) if self.g.prog.data(*d).ctors.iter().all(|c| c.fields.is_empty()) => {
                Some(self.g.prog.data(*d).ctors.len() as u32)
            }
            _ => None,
        }
    }

    fn enum_src(&mut self, ty: &Ty) -> Src {
        let n = self.enum_size(ty).unwrap_or(0) as i64;
        let len = self.b.ins().iconst(I64, n);
        Src { len, set: None, is_bool: *ty == Ty::Bool }
    }

    /// The elements of a finite set (a complement is handed over).
    fn set_src(&mut self, d: &Expr) -> Src {
        let cell = self.expr(d);
        let compl = self.b.ins().load(I64, mf(), cell, 0);
        self.fail_if(compl, ST_NOT_SUPPORTED);
        let len = self.b.ins().load(I64, mf(), cell, 8);
        Src { len, set: Some(cell), is_bool: false }
    }

    /// Element `i` of a loop source, bound to `var`.
    fn src_elem(&mut self, src: &Src, i: Value, var: VarId) {
        let x = match src.set {
            Some(cell) => {
                let off = self.b.ins().ishl_imm_u(i, 3);
                let addr = self.b.ins().iadd(cell, off);
                self.b.ins().load(I64, mf(), addr, 16)
            }
            None if src.is_bool => i,
            None => {
                let sh = self.b.ins().ishl_imm_u(i, 1);
                self.b.ins().bor_imm_u(sh, 1)
            }
        };
        self.bind(var, x);
    }

    /// The header of a loop over `i` in `0..len` with one accumulator, both starting at 0:
    /// the builder is left in `head`, where the caller branches on `done` to `exit` (which
    /// takes the loop's result as its parameter) or to `step`.
    fn counted_loop(&mut self, len: Value) -> CountedLoop {
        let (head, step, exit) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        self.b.append_block_param(head, I64);
        self.b.append_block_param(head, I64);
        self.b.append_block_param(exit, I64);
        let zero = self.b.ins().iconst(I64, 0);
        self.b.ins().jump(head, &[zero.into(), zero.into()]);
        self.b.switch_to_block(head);
        let (i, acc) = (self.b.block_params(head)[0], self.b.block_params(head)[1]);
        let done = self.b.ins().icmp(IntCC::Equal, i, len);
        CountedLoop { head, step, exit, i, acc, done }
    }

    /// A quantifier as a loop over its source's values in ascending order that stops where
    /// the interpreter stops (first false for ∀, first true for ∃, second true for ∃!).
    fn quant(&mut self, q: lang::core::ir::Quant, var: VarId, src: Src, body: &Expr) -> Value {
        use lang::core::ir::Quant;
        let CountedLoop { head, step, exit, i, acc: found, done } = self.counted_loop(src.len);
        let at_end = match q {
            Quant::All => self.b.ins().iconst(I64, 1),
            Quant::Ex => self.b.ins().iconst(I64, 0),
            Quant::Ex1 => {
                let one = self.b.ins().icmp_imm_s(IntCC::Equal, found, 1);
                self.b.ins().uextend(I64, one)
            }
        };
        self.b.ins().brif(done, exit, &[at_end.into()], step, &[]);
        self.b.switch_to_block(step);
        // Each step spends fuel, as the interpreter's enumeration does: nested quantifiers
        // over small types multiply, and only fuel brings the deadline into a loop.
        self.spend_fuel();
        self.src_elem(&src, i, var);
        let bv = self.expr(body);
        let next = self.b.ins().iadd_imm_s(i, 1);
        match q {
            Quant::All => {
                let f = self.b.ins().iconst(I64, 0);
                self.b.ins().brif(bv, head, &[next.into(), found.into()], exit, &[f.into()]);
            }
            Quant::Ex => {
                let t = self.b.ins().iconst(I64, 1);
                self.b.ins().brif(bv, exit, &[t.into()], head, &[next.into(), found.into()]);
            }
            Quant::Ex1 => {
                let found2 = self.b.ins().iadd(found, bv);
                let two = self.b.ins().icmp_imm_s(IntCC::SignedGreaterThan, found2, 1);
                let f = self.b.ins().iconst(I64, 0);
                self.b.ins().brif(two, exit, &[f.into()], head, &[next.into(), found2.into()]);
            }
        }
        self.b.switch_to_block(exit);
        self.b.block_params(exit)[0]
    }

    /// `{x ∈ src. body}`: a set cell with room for every element, filled in ascending order
    /// (so it is canonical), its count written at the end.
    fn compr(&mut self, var: VarId, src: Src, body: &Expr) -> Value {
        let p = self.take_heap(|t, p| {
            let bytes = t.b.ins().ishl_imm_u(src.len, 3);
            let np = t.b.ins().iadd(p, bytes);
            t.b.ins().iadd_imm_s(np, 16)
        });
        let CountedLoop { head, step, exit, i, acc: k, done } = self.counted_loop(src.len);
        self.b.ins().brif(done, exit, &[k.into()], step, &[]);
        self.b.switch_to_block(step);
        self.spend_fuel();
        self.src_elem(&src, i, var);
        let x = self.use_var(var);
        let bv = self.expr(body);
        let off = self.b.ins().ishl_imm_u(k, 3);
        let addr = self.b.ins().iadd(p, off);
        self.b.ins().store(mf(), x, addr, 16);
        let k2 = self.b.ins().iadd(k, bv);
        let next = self.b.ins().iadd_imm_s(i, 1);
        self.b.ins().jump(head, &[next.into(), k2.into()]);
        self.b.switch_to_block(exit);
        let k = self.b.block_params(exit)[0];
        let zero = self.b.ins().iconst(I64, 0);
        self.b.ins().store(mf(), zero, p, 0);
        self.b.ins().store(mf(), k, p, 8);
        p
    }

    /// A closure cell `[code, arity, ncaptured, captured...]`.
    fn closure_cell(&mut self, code: FuncId, arity: usize, caps: &[Value]) -> Value {
        let p = self.alloc(3 + caps.len());
        let fr = self.fref(code);
        let addr = self.b.ins().func_addr(I64, fr);
        self.b.ins().store(mf(), addr, p, 0);
        let a = self.b.ins().iconst(I64, arity as i64);
        self.b.ins().store(mf(), a, p, 8);
        let n = self.b.ins().iconst(I64, caps.len() as i64);
        self.b.ins().store(mf(), n, p, 16);
        for (i, c) in caps.iter().enumerate() {
            self.b.ins().store(mf(), *c, p, (24 + 8 * i) as i32);
        }
        p
    }

    fn prim(&mut self, p: &Prim, args: &[Expr]) -> Value {
        let vals: Vec<Value> = args.iter().map(|a| self.expr(a)).collect();
        match p {
            Prim::Add(_) => {
                let (r, o) = self.b.ins().sadd_overflow(vals[0], vals[1]);
                self.fail_if(o, ST_OVERFLOW);
                r
            }
            Prim::Sub(NumTy::Nat) => {
                let lt = self.b.ins().icmp(IntCC::SignedLessThan, vals[0], vals[1]);
                let d = self.b.ins().isub(vals[0], vals[1]);
                let z = self.b.ins().iconst(I64, 0);
                self.b.ins().select(lt, z, d)
            }
            Prim::Sub(NumTy::Int) => {
                let (r, o) = self.b.ins().ssub_overflow(vals[0], vals[1]);
                self.fail_if(o, ST_OVERFLOW);
                r
            }
            Prim::Mul(_) => {
                let (r, o) = self.b.ins().smul_overflow(vals[0], vals[1]);
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
                let opv = self.b.ins().iconst(I64, op);
                let fr = self.fref(self.g.rt.divmod);
                let r = self.call_out(fr, &[self.ctx, vals[0], vals[1], opv]);
                self.check_status();
                r
            }
            Prim::Neg => {
                let min = self.b.ins().icmp_imm_s(IntCC::Equal, vals[0], i64::MIN);
                self.fail_if(min, ST_OVERFLOW);
                self.b.ins().ineg(vals[0])
            }
            Prim::Suc => {
                let one = self.b.ins().iconst(I64, 1);
                let (r, o) = self.b.ins().sadd_overflow(vals[0], one);
                self.fail_if(o, ST_OVERFLOW);
                r
            }
            Prim::IntOfNat => vals[0],
            Prim::NatOfInt => {
                let z = self.b.ins().iconst(I64, 0);
                self.b.ins().smax(vals[0], z)
            }
            Prim::Not => self.b.ins().bxor_imm_u(vals[0], 1),
            Prim::Eq(t) | Prim::Lt(t) | Prim::Le(t) => {
                let (direct, cc) = match p {
                    Prim::Eq(_) => (IntCC::Equal, IntCC::Equal),
                    Prim::Lt(_) => (IntCC::SignedLessThan, IntCC::SignedLessThan),
                    _ => (IntCC::SignedLessThanOrEqual, IntCC::SignedLessThanOrEqual),
                };
                match t {
                    Ty::Bool | Ty::Nat | Ty::Int => self.bool_of(direct, vals[0], vals[1]),
                    Ty::Data(d) if self.g.prog.data(*d).ctors.iter().all(|c| c.fields.is_empty()) => {
                        self.bool_of(direct, vals[0], vals[1])
                    }
                    Ty::Set(e) => {
                        let op = match p {
                            Prim::Eq(_) => SET_EQ,
                            Prim::Lt(_) => SET_LT,
                            _ => SET_LE,
                        };
                        let e = (**e).clone();
                        self.set_op(op, &e, &vals)
                    }
                    Ty::Data(d) if structural(self.g.prog, t) => {
                        let id = match self.g.cmp_fun(*d) {
                            Ok(id) => id,
                            Err(_) => return self.fail_with(ST_NOT_SUPPORTED),
                        };
                        let fr = self.fref(id);
                        let r = self.call_out(fr, &[self.ctx, vals[0], vals[1]]);
                        let z = self.b.ins().iconst(I64, 0);
                        self.bool_of(cc, r, z)
                    }
                    _ => self.fail_with(ST_NOT_SUPPORTED),
                }
            }
            Prim::SetEmpty(t) => self.set_op(SET_EMPTY, t, &[]),
            Prim::SetUniv(t) | Prim::SetCompl(t) if lang::core::cardinality::cardinality(self.g.prog, t).is_some() => {
                // Over a finite type the interpreter keeps these finite by enumeration.
                self.fail_with(ST_NOT_SUPPORTED)
            }
            Prim::SetUniv(t) => self.set_op(SET_UNIV, t, &[]),
            Prim::SetCompl(t) => self.set_op(SET_COMPL, t, &vals),
            Prim::SetInsert(t) => self.set_op(SET_INSERT, t, &vals),
            Prim::SetMember(t) => self.set_op(SET_MEMBER, t, &vals),
            Prim::SetUnion(t) => self.set_op(SET_UNION, t, &vals),
            Prim::SetInter(t) => self.set_op(SET_INTER, t, &vals),
            Prim::SetDiff(t) => self.set_op(SET_DIFF, t, &vals),
            Prim::SetFinite(t) => {
                if lang::core::cardinality::cardinality(self.g.prog, t).is_some() {
                    // Every set over a finite type is finite (and compiled code never holds
                    // a complement over one: `UNIV` and `-` there go to the interpreter).
                    self.b.ins().iconst(I64, 1)
                } else {
                    // Word 0 of a set cell is its complement flag (0 or 1); over an infinite
                    // type a set is finite exactly when it is not a complement.
                    let compl = self.b.ins().load(I64, mf(), vals[0], 0);
                    self.b.ins().bxor_imm_u(compl, 1)
                }
            }
            Prim::SetToList(lt) => {
                let elem = match lt {
                    Ty::Data(d) => self.g.prog.data(*d).ctors.get(1).and_then(|c| c.fields.first()).cloned(),
                    _ => None,
                };
                match elem {
                    Some(e) => self.set_op(SET_TO_LIST, &e, &vals),
                    None => self.fail_with(ST_NOT_SUPPORTED),
                }
            }
        }
    }
}

/// The blocks and values of a loop made by `counted_loop`.
struct CountedLoop {
    head: Block,
    step: Block,
    exit: Block,
    i: Value,
    acc: Value,
    done: Value,
}
