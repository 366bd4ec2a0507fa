//! The program-level driver: `ProgramCompiler` declares every function's entries and the
//! runtime helpers in the module, compiles each function (its body, its closure entry, the
//! λs met in it), and keeps what compiled code shares with the run (the tables of `Undef`s
//! and of compared types, the level loops, the functions left to the interpreter).

use super::limits::{module_error, too_large_why, Budget, CodegenError, Interpreted, TRANSLATE_STACK_MARGIN};
use super::limits::{COMPILE_MAX_NODES, OPTIMISE_MAX_NODES};
use super::{load_words, start_function, Continuation, FunctionTranslator, PendingLambda};
use crate::call_graph::{self, CallGraph};
use crate::runtime::{stack_limit, ST_NOT_SUPPORTED};
use cranelift_codegen::control::ControlPlane;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{AbiParam, InstBuilder, Signature, UserFuncName};
use cranelift_codegen::isa::CallConv;
use cranelift_frontend::FunctionBuilderContext;
use cranelift_jit::JITModule;
use cranelift_module::{FuncId, Linkage, Module, ModuleReloc};
use lang::core::ir::{DataId, FunId, Program, Ty, Undef};
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// The runtime helpers, as declared in the module.
pub(super) struct RuntimeImports {
    pub tick: FuncId,
    /// `(ctx)` in the `preserve_all` convention: calls `rt_tick`. Hot loops call this one,
    /// so that the rare refill does not make them keep their values in callee-saved
    /// registers (saved and restored on every call) around an ordinary call.
    pub tick_stub: FuncId,
    pub apply: FuncId,
    pub divmod: FuncId,
    pub compare: FuncId,
    pub set: FuncId,
    pub set_scalar: FuncId,
    pub demand: FuncId,
    pub partial_compare: FuncId,
}

/// State across the whole program.
/// The most values of a finite type whose universe compiled code holds (`universe`).
const UNIVERSE_MAX: usize = 4_096;

pub(crate) struct ProgramCompiler<'p> {
    pub module: JITModule,
    pub(super) program: &'p Program,
    /// What a call by name of each function goes to: its `tail`-convention function, or
    /// its closure entry for a function no function calls by name.
    pub(super) direct_entries: Vec<FuncId>,
    /// The closure entry `(ctx, cell, args) -> word` of each function.
    pub closure_entries: Vec<FuncId>,
    pub(super) runtime: RuntimeImports,
    pub(super) pending_lambdas: Vec<PendingLambda>,
    pub(super) lambdas_declared: usize,
    pub undefs: Vec<Undef>,
    /// The types `rt_cmp`, `rt_set` and finite maps compare at, by index.
    pub compared_types: Vec<Ty>,
    /// The compiled structural comparison of each datatype that needs one (`compare_function`).
    pub(super) compare_functions: HashMap<DataId, FuncId>,
    pub(super) pending_compares: Vec<DataId>,
    pub(super) calls: CallGraph,
    /// The compiled level loop of each function that has one (`define_level_loop`).
    pub level_loops: Vec<Option<FuncId>>,
    pub(super) budget: Budget,
    /// Translation stops recursing below this stack address (`stack_low`).
    stack_floor: u64,
    /// The current body hit `stack_floor`.
    pub(super) truncated: bool,
    /// The functions left (wholly or partly) to the interpreter: those `compiled_program`
    /// left out, then the ones found here, in `FunId` order.
    pub interpreted: Vec<Interpreted>,
    /// Compiling for partial words (`Jit::narrowing`, `partial`).
    pub narrowing: bool,
    /// Cells built while compiling, read-only, that compiled code points at: the universe
    /// of each finite type it quantifies over (`universe`) and the cells of its values.
    /// Moved into the `Jit`, so they live as long as the code.
    pub statics: Vec<Box<[u64]>>,
    universes: HashMap<Ty, Option<(u64, usize)>>,
}

impl<'p> ProgramCompiler<'p> {
    pub fn new(
        mut module: JITModule,
        program: &'p Program,
        budget: Budget,
        narrowing: bool,
    ) -> Result<ProgramCompiler<'p>, CodegenError> {
        let cc = module.isa().default_call_conv();
        let sig = |n: usize, conv: CallConv| {
            let mut s = Signature::new(conv);
            for _ in 0..n {
                s.params.push(AbiParam::new(I64));
            }
            s.returns.push(AbiParam::new(I64));
            s
        };
        let import = |m: &mut JITModule, name: &str, n| {
            m.declare_function(name, Linkage::Import, &sig(n, cc)).map_err(module_error)
        };
        let runtime = RuntimeImports {
            tick: import(&mut module, "rt_tick", 1)?,
            tick_stub: {
                let mut s = Signature::new(CallConv::PreserveAll);
                s.params.push(AbiParam::new(I64));
                module.declare_function("tick_stub", Linkage::Local, &s).map_err(module_error)?
            },
            apply: import(&mut module, "rt_apply", 4)?,
            divmod: import(&mut module, "rt_divmod", 4)?,
            compare: import(&mut module, "rt_cmp", 4)?,
            set: import(&mut module, "rt_set", 5)?,
            set_scalar: import(&mut module, "rt_set_scalar", 4)?,
            demand: import(&mut module, "rt_demand", 3)?,
            partial_compare: import(&mut module, "rt_partial_compare", 5)?,
        };
        let mut calls = call_graph::analyse(program);
        if narrowing {
            // A cell built before its last field is computed cannot take a stuck word
            // there (`partial`): narrowing code builds each cell after its fields.
            calls.builds_to_self.iter_mut().for_each(|b| *b = false);
        }
        let mut direct_entries = Vec::new();
        let mut closure_entries = Vec::new();
        for (i, f) in program.funs.iter().enumerate() {
            let entry = module.declare_function(&format!("w{i}"), Linkage::Local, &sig(3, cc)).map_err(module_error)?;
            closure_entries.push(entry);
            // A function nobody calls by name is only its closure entry (`define_body`).
            direct_entries.push(if calls.called[i] {
                let s = sig(1 + f.params.len(), CallConv::Tail);
                module.declare_function(&format!("f{i}"), Linkage::Local, &s).map_err(module_error)?
            } else {
                entry
            });
        }
        Ok(ProgramCompiler {
            module,
            program,
            direct_entries,
            closure_entries,
            runtime,
            pending_lambdas: Vec::new(),
            lambdas_declared: 0,
            undefs: Vec::new(),
            compared_types: Vec::new(),
            compare_functions: HashMap::new(),
            pending_compares: Vec::new(),
            calls,
            level_loops: vec![None; program.funs.len()],
            budget,
            stack_floor: stack_limit().saturating_add(TRANSLATE_STACK_MARGIN),
            truncated: false,
            interpreted: Vec::new(),
            narrowing,
            statics: Vec::new(),
            universes: HashMap::new(),
        })
    }

    /// Whether the translation's recursion has reached `stack_floor`.
    #[inline]
    pub(super) fn stack_low(&self) -> bool {
        let here = 0u8;
        (std::hint::black_box(&here) as *const u8 as u64) < self.stack_floor
    }

    pub(super) fn check_deadline(&self) -> Result<(), CodegenError> {
        if self.budget.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(CodegenError::timeout());
        }
        match self.budget.deadline {
            Some(d) if Instant::now() >= d => Err(CodegenError::timeout()),
            _ => Ok(()),
        }
    }

    /// Whether function `i` is too large to compile (`COMPILE_MAX_NODES`).
    pub(super) fn too_large(&self, i: usize) -> bool {
        self.calls.compiled_size[i] > COMPILE_MAX_NODES
    }

    /// Compiles the function in `cx` as `id`, optimised when it is at most
    /// `OPTIMISE_MAX_NODES` IR nodes, and clears `cx`. `what` names it in errors.
    pub(super) fn define_function(
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

    /// `define_function` with the unoptimised target: compiled here and handed to the module
    /// as code and relocations, as `JITModule::define_function` does with its own target.
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

    /// The universe of finite type `ty` as a set cell built once (its address and size), for
    /// `UNIV` and quantifiers over types that are not enumerations (`∃c::key × key`):
    /// `layout::static_universe`, kept in `statics`; `None` past `UNIVERSE_MAX` values, for
    /// a value compiled code cannot hold as a constant, and in narrowing mode.
    pub(super) fn universe(&mut self, ty: &Ty) -> Option<(u64, usize)> {
        if self.narrowing {
            return None;
        }
        if let Some(u) = self.universes.get(ty) {
            return *u;
        }
        let u = crate::layout::static_universe(self.program, ty, UNIVERSE_MAX, &mut self.statics);
        self.universes.insert(ty.clone(), u);
        u
    }

    /// The signature of closure entries, `(ctx, cell, args_ptr) -> word`.
    pub(super) fn closure_signature(&self) -> Signature {
        let mut s = Signature::new(self.module.isa().default_call_conv());
        for _ in 0..3 {
            s.params.push(AbiParam::new(I64));
        }
        s.returns.push(AbiParam::new(I64));
        s
    }

    /// Compiles every function, and a level loop (`define_level_loop`) for each of `levels`
    /// that can have one.
    pub fn compile_all(&mut self, levels: &[FunId]) -> Result<(), CodegenError> {
        let mut fctx = FunctionBuilderContext::new();
        let mut cx = self.module.make_context();
        let fcfg = self.module.target_config();
        cx.func.signature = self.module.declarations().get_function_decl(self.runtime.tick_stub).signature.clone();
        cx.func.name = UserFuncName::user(3, self.runtime.tick_stub.as_u32());
        {
            let (mut builder, params) = start_function(&mut cx.func, &mut fctx);
            let ctx = params[0];
            let tick = self.module.declare_func_in_func(self.runtime.tick, builder.func);
            builder.ins().call(tick, &[ctx]);
            builder.ins().return_(&[]);
            builder.seal_all_blocks();
            builder.finalize(fcfg);
        }
        self.module.define_function(self.runtime.tick_stub, &mut cx).map_err(module_error)?;
        self.module.clear_context(&mut cx);
        for i in 0..self.program.funs.len() {
            self.check_deadline()?;
            let f = &self.program.funs[i];
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
            cx.func.signature = self.closure_signature();
            cx.func.name = UserFuncName::user(0, self.closure_entries[i].as_u32());
            {
                let (builder, params) = start_function(&mut cx.func, &mut fctx);
                let mut tr = FunctionTranslator::new(self, builder, params[0], guarded_closure_entry, None, None);
                if guarded_closure_entry {
                    tr.entry_guards();
                }
                let mut args = vec![params[0]];
                args.extend(load_words(&mut tr.builder, params[2], f.params.len(), 0));
                let callee = tr.func_ref(tr.compiler.direct_entries[i]);
                let r = tr.call_out(callee, &args);
                tr.return_value(r);
                tr.emit_fail_block();
                tr.builder.seal_all_blocks();
                tr.builder.finalize(fcfg);
            }
            self.define_function(self.closure_entries[i], &mut cx, 0, &format_args!("entry of {}", f.name))?;
            self.compile_lambdas(&mut cx, &mut fctx)?;
        }
        for f in levels {
            self.check_deadline()?;
            self.define_level_loop(&mut cx, &mut fctx, f.0 as usize)?;
        }
        while let Some(d) = self.pending_compares.pop() {
            let id = self.compare_functions[&d];
            cx.func.signature = self.module.declarations().get_function_decl(id).signature.clone();
            cx.func.name = UserFuncName::user(2, id.as_u32());
            self.compile_compare(d, &mut cx.func, &mut fctx)?;
            self.define_function(id, &mut cx, 0, &"a comparison")?;
        }
        Ok(())
    }

    /// Compiles the body of function `i`: as the `tail`-convention function
    /// `direct_entries[i]` when other functions call it, otherwise as its closure entry
    /// `closure_entries[i]` (arguments read from the argument array; calls in tail position
    /// other than self calls stay calls, as the platform convention cannot make tail calls
    /// into the `tail` one).
    fn define_body(
        &mut self,
        cx: &mut cranelift_codegen::Context,
        fctx: &mut FunctionBuilderContext,
        i: usize,
        guarded: bool,
    ) -> Result<(), CodegenError> {
        let f = &self.program.funs[i];
        let direct = self.calls.called[i];
        let id = if direct { self.direct_entries[i] } else { self.closure_entries[i] };
        cx.func.signature = self.module.declarations().get_function_decl(id).signature.clone();
        cx.func.name = UserFuncName::user(0, id.as_u32());
        let fcfg = self.module.target_config();
        let (mut builder, params) = start_function(&mut cx.func, fctx);
        let args = if direct { params[1..].to_vec() } else { load_words(&mut builder, params[2], f.params.len(), 0) };
        let me = FunId(i as u32);
        let nodes = self.calls.compiled_size[i];
        if self.too_large(i) {
            // Too large to compile cheaply: the body only hands its cases over.
            self.interpreted.push(Interpreted { name: f.name.clone(), nodes, why: too_large_why(nodes) });
            let mut tr = FunctionTranslator::new(self, builder, params[0], guarded, None, Some(me));
            if guarded {
                tr.entry_guards();
            }
            let v = tr.fail_with(ST_NOT_SUPPORTED);
            tr.return_value(v);
            tr.emit_fail_block();
            tr.builder.seal_all_blocks();
            tr.builder.finalize(fcfg);
            return self.define_function(id, cx, 0, &f.name);
        }
        self.truncated = false;
        let mut tr = FunctionTranslator::new(self, builder, params[0], guarded, Some(&f.body), Some(me));
        tr.tail_calls = direct;
        if guarded {
            tr.entry_guards();
        }
        tr.enter_body(me, args, Continuation::Return);
        tr.translate_tail(&f.body, Continuation::Return);
        tr.emit_fail_block();
        tr.builder.seal_all_blocks();
        tr.builder.finalize(fcfg);
        if std::mem::take(&mut self.truncated) {
            self.interpreted.push(Interpreted {
                name: f.name.clone(),
                nodes,
                why: "it is nested too deeply to compile in full on this thread's stack".into(),
            });
        }
        self.define_function(id, cx, nodes, &f.name)
    }

    /// The index of `u` in the table the run reports undefinedness by (`ST_UNDEFINED`).
    pub(super) fn undef_index(&mut self, u: &Undef) -> i64 {
        if let Some(i) = self.undefs.iter().position(|x| x == u) {
            return i as i64;
        }
        self.undefs.push(u.clone());
        (self.undefs.len() - 1) as i64
    }

    /// The index of `t` in `compared_types`, added on first use.
    pub(super) fn compared_type_index(&mut self, t: &Ty) -> i64 {
        if let Some(i) = self.compared_types.iter().position(|x| x == t) {
            return i as i64;
        }
        self.compared_types.push(t.clone());
        (self.compared_types.len() - 1) as i64
    }
}
