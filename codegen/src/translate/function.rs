//! `FunctionTranslator`, the state of translating one Cranelift function (a body, a closure
//! entry, a λ, a level loop): its variables and scopes, the values it keeps in registers
//! instead of the run context (the arena fill level, the fuel), and the fail block every
//! failure leaves through.

use super::calls::{CurrentBody, MAX_INLINE_DEPTH};
use super::{mem_flags, ProgramCompiler};
use crate::runtime::{OFF_FUEL, OFF_HEAP, OFF_STATUS};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{Block, FuncRef, InstBuilder, Value};
use cranelift_frontend::{FunctionBuilder, Variable};
use cranelift_module::{FuncId, Module};
use lang::core::ir::{Expr, FunId, VarId};
use std::collections::HashMap;

/// The translation of one Cranelift function: a body, a closure entry, a λ or a level loop.
pub(super) struct FunctionTranslator<'c, 'p, 'b> {
    pub compiler: &'c mut ProgramCompiler<'p>,
    pub builder: FunctionBuilder<'b>,
    /// The run context (`runtime::RunContext`), the function's first parameter.
    pub ctx: Value,
    /// By scope and variable: each inlined body has a scope of its own, as its variables
    /// are numbered independently of the caller's.
    vars: HashMap<(u32, u32), Variable>,
    pub scope: u32,
    /// The scope the next inlined body takes.
    pub next_scope: u32,
    /// How many inlined bodies enclose the current point.
    pub inline_depth: usize,
    /// The arena's fill level, kept in a register in bodies that allocate (`allocates`):
    /// `ctx.heap` is written before every call out and return (`call_out`,
    /// `write_back_registers`) and read back after calls. In memory, each allocation would
    /// wait for the store of the one before. `None`: the body allocates only through calls,
    /// and `ctx.heap` is it.
    pub heap: Option<Variable>,
    /// The fuel of the current chunk, kept in a register in bodies that loop
    /// (`CallGraph::loops`), written and read back where `heap` is. In memory, each turn of
    /// the loop would wait for the store of the turn before.
    pub fuel: Option<Variable>,
    /// Where failures go: the function's fail block first, then the handlers of the lazy
    /// positions and parallel `if`s being translated (narrowing mode, `partial`).
    fail_targets: Vec<Block>,
    /// What the fail block returns (0 unless set).
    pub fail_value: Option<Variable>,
    /// Set for top-level functions: self calls in tail position jump to `CurrentBody::top`.
    /// λs have none.
    pub current_body: Option<CurrentBody>,
    /// The entry ran `entry_guards`: returns and tail calls give the depth back.
    pub guarded: bool,
    /// `tail` convention: calls in tail position to other functions are `return_call`s.
    pub tail_calls: bool,
    func_refs: HashMap<FuncId, FuncRef>,
}

/// Whether the code of `e` has a node where `here` holds, looking `depth` levels into the
/// bodies of inlined calls; when the depth runs out, it may.
fn code_contains(compiler: &ProgramCompiler, e: &Expr, depth: usize, here: &dyn Fn(&Expr) -> bool) -> bool {
    if here(e) {
        return true;
    }
    if let Expr::Call(f, _) = e {
        if compiler.calls.inlined[f.0 as usize]
            && (depth == 0 || code_contains(compiler, &compiler.program.fun(*f).body, depth - 1, here))
        {
            return true;
        }
    }
    let mut any = false;
    e.for_each_child(&mut |c, _| any = any || code_contains(compiler, c, depth, here));
    any
}

/// Whether translating `e` allocates in place (cells, closures, comprehensions).
fn allocates(compiler: &ProgramCompiler, e: &Expr) -> bool {
    code_contains(compiler, e, MAX_INLINE_DEPTH + 1, &|e| match e {
        Expr::Ctor(_, args) => !args.is_empty(),
        Expr::FunRef(_) | Expr::Lambda(..) | Expr::SetCompr { .. } => true,
        _ => false,
    })
}

/// Whether `e`, the body of `me` (if any), loops in place: `me` loops, or an inlined call does.
fn loops_in_place(compiler: &ProgramCompiler, me: Option<FunId>, e: &Expr) -> bool {
    let calls = &compiler.calls;
    me.is_some_and(|f| calls.loops[f.0 as usize])
        || code_contains(
            compiler,
            e,
            MAX_INLINE_DEPTH + 1,
            &|e| matches!(e, Expr::Call(f, _) if calls.loops[f.0 as usize] && calls.inlined[f.0 as usize]),
        )
}

impl<'c, 'p, 'b> FunctionTranslator<'c, 'p, 'b> {
    /// Starts translating `body` (of function `me`, if it is one) in `builder`'s current
    /// block, the entry (`body` is `None` for the closure entry that only calls its
    /// function). The fill level is kept in a register if the body allocates, the fuel if it
    /// loops.
    pub fn new(
        compiler: &'c mut ProgramCompiler<'p>,
        mut builder: FunctionBuilder<'b>,
        ctx: Value,
        guarded: bool,
        body: Option<&Expr>,
        me: Option<FunId>,
    ) -> Self {
        let fail_block = builder.create_block();
        let in_register = |builder: &mut FunctionBuilder, off: i32| {
            let var = builder.declare_var(I64);
            let v = builder.ins().load(I64, mem_flags(), ctx, off);
            builder.def_var(var, v);
            var
        };
        let heap = body.is_some_and(|e| allocates(compiler, e)).then(|| in_register(&mut builder, OFF_HEAP));
        let fuel = body.is_some_and(|e| loops_in_place(compiler, me, e)).then(|| in_register(&mut builder, OFF_FUEL));
        FunctionTranslator {
            compiler,
            builder,
            ctx,
            vars: HashMap::new(),
            scope: 0,
            next_scope: 1,
            inline_depth: 0,
            heap,
            fuel,
            fail_targets: vec![fail_block],
            fail_value: None,
            current_body: None,
            guarded,
            tail_calls: false,
            func_refs: HashMap::new(),
        }
    }

    /// Emits the fail block (last, so the entry block stays first in the layout).
    pub fn emit_fail_block(&mut self) {
        self.builder.switch_to_block(self.fail_targets[0]);
        let z = match self.fail_value {
            Some(v) => self.builder.use_var(v),
            None => self.builder.ins().iconst(I64, 0),
        };
        self.builder.ins().return_(&[z]);
    }

    /// Where a failure here goes.
    pub fn fail_target(&self) -> Block {
        *self.fail_targets.last().expect("the fail block")
    }

    pub fn push_fail_target(&mut self, b: Block) {
        self.fail_targets.push(b);
    }

    pub fn pop_fail_target(&mut self) {
        self.fail_targets.pop();
    }

    /// The reference to function `id` in this function, declared on first use.
    pub fn func_ref(&mut self, id: FuncId) -> FuncRef {
        if let Some(r) = self.func_refs.get(&id) {
            return *r;
        }
        let r = self.compiler.module.declare_func_in_func(id, self.builder.func);
        self.func_refs.insert(id, r);
        r
    }

    pub fn bind(&mut self, v: VarId, val: Value) {
        let var = match self.vars.get(&(self.scope, v.0)) {
            Some(x) => *x,
            None => {
                let x = self.builder.declare_var(I64);
                self.vars.insert((self.scope, v.0), x);
                x
            }
        };
        self.builder.def_var(var, val);
    }

    pub fn use_var(&mut self, v: VarId) -> Value {
        let var = self.vars[&(self.scope, v.0)];
        self.builder.use_var(var)
    }

    pub fn load_ctx(&mut self, off: i32) -> Value {
        self.builder.ins().load(I64, mem_flags(), self.ctx, off)
    }

    pub fn store_ctx(&mut self, off: i32, v: Value) {
        self.builder.ins().store(mem_flags(), v, self.ctx, off);
    }

    /// Sets the status and leaves through the fail block; continues in a fresh unreachable
    /// block and returns a dummy value for it.
    pub fn fail_with(&mut self, status: i64) -> Value {
        self.fail_here(status);
        let dead = self.builder.create_block();
        self.builder.switch_to_block(dead);
        self.builder.ins().iconst(I64, 0)
    }

    /// Branches to a block that sets `status` when `cond` holds.
    pub fn fail_if(&mut self, cond: Value, status: i64) {
        let bad = self.builder.create_block();
        let ok = self.builder.create_block();
        self.builder.ins().brif(cond, bad, &[], ok, &[]);
        self.builder.switch_to_block(bad);
        self.fail_here(status);
        self.builder.switch_to_block(ok);
    }

    /// Sets `status` and leaves through the fail block, ending the current block.
    pub fn fail_here(&mut self, status: i64) {
        let s = self.builder.ins().iconst(I64, status);
        self.store_ctx(OFF_STATUS, s);
        let target = self.fail_target();
        self.builder.ins().jump(target, &[]);
    }

    /// After a call: leave if the callee set a status.
    pub fn check_status(&mut self) {
        let st = self.load_ctx(OFF_STATUS);
        let ok = self.builder.create_block();
        let target = self.fail_target();
        self.builder.ins().brif(st, target, &[], ok, &[]);
        self.builder.switch_to_block(ok);
    }

    /// Leaves through the fail block if a status is set (by `rt_tick`), else goes on at `cont`.
    pub fn fail_on_status_else(&mut self, cont: Block) {
        let st = self.load_ctx(OFF_STATUS);
        let target = self.fail_target();
        self.builder.ins().brif(st, target, &[], cont, &[]);
    }

    /// Writes the fill level and the fuel kept in registers back to `ctx`, for code that
    /// does not share this function's registers. (The fail path skips it: a failed run's
    /// cells are dropped and its fuel is not read again.)
    pub fn write_back_registers(&mut self) {
        if let Some(h) = self.heap {
            let h = self.builder.use_var(h);
            self.store_ctx(OFF_HEAP, h);
        }
        if let Some(f) = self.fuel {
            let f = self.builder.use_var(f);
            self.store_ctx(OFF_FUEL, f);
        }
    }

    /// Reads them back after code that may have changed them.
    pub fn reload_registers(&mut self) {
        if let Some(h) = self.heap {
            let v = self.load_ctx(OFF_HEAP);
            self.builder.def_var(h, v);
        }
        if let Some(f) = self.fuel {
            let v = self.load_ctx(OFF_FUEL);
            self.builder.def_var(f, v);
        }
    }

    /// A call of compiled code or of a runtime helper, which may allocate.
    pub fn call_out(&mut self, callee: FuncRef, args: &[Value]) -> Value {
        self.write_back_registers();
        let call = self.builder.ins().call(callee, args);
        let r = self.builder.inst_results(call)[0];
        self.reload_registers();
        r
    }

    /// 1 if `a cc b` holds, else 0.
    pub fn compare_as_bool(&mut self, cc: IntCC, a: Value, b: Value) -> Value {
        let c = self.builder.ins().icmp(cc, a, b);
        self.builder.ins().uextend(I64, c)
    }
}
