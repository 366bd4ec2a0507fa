//! `Jit`: a compiled program with its arena and run context. Compiling takes the program as
//! compiled code runs it (`compiled_program`), translates it (`translate`) and links it
//! against the Rust helpers (`runtime`); the arena and word conversion are in `arena`, the
//! runs in `run`.

mod arena;
mod background;
mod run;

pub use arena::{ArenaMark, DEFAULT_ARENA_WORDS};
pub use background::BackgroundCompile;
pub use run::{on_big_stack, BIG_STACK};

use crate::compiled_program::compiled_program;
use crate::runtime::{
    rt_apply, rt_cmp, rt_demand, rt_divmod, rt_partial_compare, rt_set, rt_set_scalar, rt_tick, stack_limit, ClosureFn,
    LevelFn, RunContext,
};
use crate::translate::{self, CodegenError, Interpreted};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::default_libcall_names;
use lang::core::ir::{FunId, Program, Ty, Undef};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

/// The entry from Rust of one function.
#[derive(Clone, Copy)]
pub(crate) struct Entry {
    pub code: ClosureFn,
    pub arity: usize,
}

/// A compiled program with its arena and run context. Not `Send`: use it on one thread.
pub struct Jit {
    module: Option<JITModule>,
    pub(crate) prog: Box<Program>,
    /// Closure entry of each function, `(ctx, cell, args) -> word`; also the entry from Rust.
    pub(crate) entries: Vec<Entry>,
    /// The compiled level loop of each function that has one (`with_levels`).
    levels: Vec<Option<LevelFn>>,
    undefs: Vec<Undef>,
    /// Boxed: `RunContext::compared_types` points at the `Vec` itself, which must not move
    /// with `Jit`.
    #[allow(clippy::box_collection)]
    pub(crate) compared_types: Box<Vec<Ty>>,
    arena: Vec<u64>,
    pub(crate) ctx: Box<RunContext>,
    /// The stack limit of the thread that compiled this `Jit`, the only thread it runs on
    /// (it is not `Send`; `BackgroundCompile` reads it again on the thread it hands the
    /// `Jit` to), computed once instead of per run.
    stack_limit: u64,
    /// The functions compiled code leaves to the interpreter (`Jit::interpreted`).
    interpreted: Vec<Interpreted>,
    /// Read-only cells compiled code points at (`ProgramCompiler::statics`).
    #[allow(dead_code)]
    statics: Vec<Box<[u64]>>,
    /// The cells of `call`'s arguments kept across calls.
    kept: arena::KeptInputs,
}

impl Jit {
    /// Compiles every function of `prog`, with the default arena.
    pub fn compile(prog: &Program) -> Result<Jit, CodegenError> {
        Jit::with_arena(prog, DEFAULT_ARENA_WORDS)
    }

    /// Compiles every function of `prog`, with an arena of `words` words.
    pub fn with_arena(prog: &Program, words: usize) -> Result<Jit, CodegenError> {
        Jit::with_levels(prog, words, &[])
    }

    /// `with_arena`, also compiling for each of `levels` (boolean functions, such as a
    /// lemma's parts) a loop that runs it over many rows of arguments with its body inlined:
    /// `run_rows` with that function as its only check then costs no call per case.
    pub fn with_levels(prog: &Program, words: usize, levels: &[FunId]) -> Result<Jit, CodegenError> {
        Jit::with_deadline(prog, words, levels, None)
    }

    /// `with_levels`, giving up with an error whose `timed_out` is set once `deadline` has
    /// passed (checked between functions; each function costs a bounded time, as those
    /// past `COMPILE_MAX_NODES` IR nodes are not compiled). Compiling counts against the
    /// time limit of what the program is compiled for (a `value`, a lemma's test run): the
    /// caller passes a deadline that leaves the interpreter time to run it instead.
    pub fn with_deadline(
        prog: &Program,
        words: usize,
        levels: &[FunId],
        deadline: Option<Instant>,
    ) -> Result<Jit, CodegenError> {
        Jit::build(prog, words, levels, deadline, None, false)
    }

    /// Compiles `prog` for the narrowing tester: its words may be partial (holes, stuck
    /// computations: `holes`), and a run that must look inside one ends with
    /// `JitOutcome::Need`, demanding the hole the interpreter (`lang::value::Interp::partial`)
    /// demands. `call` converts holes in and out. The code of the other modes is not
    /// touched: every test compiled for partial words is compiled only here. The program
    /// runs as the interpreter runs it (no code equations, no passes that change the
    /// order of evaluation), as the order decides which hole is demanded.
    pub fn narrowing(prog: &Program, deadline: Option<Instant>) -> Result<Jit, CodegenError> {
        Jit::build(prog, DEFAULT_ARENA_WORDS, &[], deadline, None, true)
    }

    fn build(
        prog: &Program,
        words: usize,
        levels: &[FunId],
        deadline: Option<Instant>,
        cancel: Option<Arc<AtomicBool>>,
        narrowing: bool,
    ) -> Result<Jit, CodegenError> {
        let isa = |opt: &str| -> Result<_, CodegenError> {
            let mut flags = settings::builder();
            let set =
                |f: &mut settings::Builder, k: &str, v: &str| f.set(k, v).map_err(|e| CodegenError::new(e.to_string()));
            set(&mut flags, "use_colocated_libcalls", "false")?;
            set(&mut flags, "is_pic", "false")?;
            set(&mut flags, "opt_level", opt)?;
            // Cranelift's x64 tail calls rely on frame pointers.
            set(&mut flags, "preserve_frame_pointers", "true")?;
            // The IR verifier costs a large part of compile time; debug builds keep it.
            set(&mut flags, "enable_verifier", if cfg!(debug_assertions) { "true" } else { "false" })?;
            cranelift_native::builder()
                .map_err(|e| CodegenError::new(e.to_string()))?
                .finish(settings::Flags::new(flags))
                .map_err(|e| CodegenError::new(e.to_string()))
        };
        // Large functions are compiled without optimisations (`OPTIMISE_MAX_NODES`).
        let budget = translate::Budget { unoptimised: isa("none")?, deadline, cancel };
        let isa = isa("speed")?;
        let mut jb = JITBuilder::with_isa(isa, default_libcall_names());
        jb.symbol("rt_tick", rt_tick as *const u8);
        jb.symbol("rt_apply", rt_apply as *const u8);
        jb.symbol("rt_divmod", rt_divmod as *const u8);
        jb.symbol("rt_cmp", rt_cmp as *const u8);
        jb.symbol("rt_set", rt_set as *const u8);
        jb.symbol("rt_set_scalar", rt_set_scalar as *const u8);
        jb.symbol("rt_demand", rt_demand as *const u8);
        jb.symbol("rt_partial_compare", rt_partial_compare as *const u8);
        let module = JITModule::new(jb);
        // Compiled code runs code equations where a function has them (`Program::code`).
        // Quantifiers over recursively built sets walk the construction instead of building
        // the set (`∀y∈tset l. y < x`). Then calls passing a known closure to a function that
        // passes it on unchanged run a copy specialised for it (`fold Cons xs []` conses
        // directly). Last, a cell rebuilt from the parts just matched is the matched value
        // (`sorted (y # zs)` in `sorted`'s code equation allocates nothing). Each pass is
        // the identity when it finds nothing to do.
        let (prog, left_out) = compiled_program(prog, narrowing);
        let mut compiler = translate::ProgramCompiler::new(module, &prog, budget, narrowing)?;
        compiler.interpreted = left_out;
        if let Err(e) = compiler.compile_all(levels) {
            // What was defined is freed with the module.
            unsafe { compiler.module.free_memory() };
            return Err(e);
        }
        compiler.module.finalize_definitions().map_err(|e| CodegenError::new(format!("{e:?}")))?;
        let entries = compiler
            .closure_entries
            .iter()
            .zip(&prog.funs)
            .map(|(w, f)| Entry {
                code: unsafe {
                    std::mem::transmute::<*const u8, ClosureFn>(compiler.module.get_finalized_function(*w))
                },
                arity: f.params.len(),
            })
            .collect();
        let levels = compiler
            .level_loops
            .iter()
            .map(|l| {
                l.map(|id| unsafe {
                    std::mem::transmute::<*const u8, LevelFn>(compiler.module.get_finalized_function(id))
                })
            })
            .collect();
        let undefs = std::mem::take(&mut compiler.undefs);
        let interpreted = std::mem::take(&mut compiler.interpreted);
        let compared_types = Box::new(std::mem::take(&mut compiler.compared_types));
        let statics = std::mem::take(&mut compiler.statics);
        let module = compiler.module;
        // Out of memory is an error the caller survives (it runs the interpreter), not an
        // abort: a process near its data limit gets no JIT, not a crash.
        let Some(arena) = zeroed_words(words.max(16)) else {
            unsafe { module.free_memory() };
            return Err(CodegenError::new(format!("no memory for an arena of {} words", words.max(16))));
        };
        let ctx = Box::new(RunContext {
            heap: 0,
            heap_end: 0,
            fuel_chunk: 0,
            depth: 0,
            max_depth: 0,
            status: 0,
            detail: 0,
            stack_limit: 0,
            fuel_left: 0,
            deadline: None,
            prog: std::ptr::null(),
            compared_types: std::ptr::null(),
            partial: narrowing,
        });
        let mut jit = Jit {
            module: Some(module),
            prog,
            entries,
            levels,
            undefs,
            compared_types,
            arena,
            ctx,
            stack_limit: 0,
            interpreted,
            statics,
            kept: Default::default(),
        };
        jit.adopt_thread();
        jit.ctx.prog = &*jit.prog;
        jit.ctx.compared_types = &*jit.compared_types;
        jit.reset();
        Ok(jit)
    }

    /// Makes this thread the one the `Jit` runs on: its stack limit is what compiled code
    /// checks (the compiling thread's, or the one a `BackgroundCompile` hands it to).
    pub(crate) fn adopt_thread(&mut self) {
        self.stack_limit = stack_limit();
        self.ctx.stack_limit = self.stack_limit;
    }

    /// The functions compiled code leaves to the interpreter, wholly (too large to compile
    /// cheaply, `COMPILE_MAX_NODES`) or partly (nested too deeply): cases that reach them
    /// are handed over (`JitOutcome::NotSupported`). For `verbose` output.
    pub fn interpreted(&self) -> &[Interpreted] {
        &self.interpreted
    }

    /// Whether `f` has a compiled level loop (`with_levels`).
    pub fn has_level(&self, f: FunId) -> bool {
        self.levels.get(f.0 as usize).is_some_and(|l| l.is_some())
    }

    pub fn program(&self) -> &Program {
        &self.prog
    }
}

impl Drop for Jit {
    fn drop(&mut self) {
        if let Some(m) = self.module.take() {
            // No code of this module runs any more: `Jit` owns the only entry points.
            unsafe { m.free_memory() };
        }
    }
}

/// `n` zero words, or `None` when there is no memory for them. Allocated zeroed rather than
/// filled: a large zeroed allocation comes from fresh pages the kernel zeroes when first
/// touched, so an arena costs what the cases use of it, not a write of all of it (filling
/// the default 32 MiB arena was half of a small lemma's `hol check`).
fn zeroed_words(n: usize) -> Option<Vec<u64>> {
    let layout = std::alloc::Layout::array::<u64>(n).ok().filter(|l| l.size() > 0)?;
    // SAFETY: the layout has a non-zero size; a null pointer (no memory) is returned as
    // `None`; otherwise the block holds `n` zeroed `u64`s (zero is a valid `u64`) allocated
    // by the global allocator with `u64`'s layout, as `Vec::from_raw_parts` requires.
    unsafe {
        let p = std::alloc::alloc_zeroed(layout).cast::<u64>();
        (!p.is_null()).then(|| Vec::from_raw_parts(p, n, n))
    }
}
