//! `codegen`: the core IR JIT-compiled with Cranelift, agreeing with the reference interpreter
//! (`lang::interp`) on every program, and never taking the process down.
//!
//! Pipeline: `Jit::compile` translates every function of a `Program` (`translate`), links it
//! against the Rust helpers (`runtime`), and keeps the code; `Jit::run` calls a function on
//! words, `Jit::call` on interpreter `Value`s (converted by `layout`), `Jit::run_rows` many
//! cases in one loop (compiled, with the body inlined, for functions `Jit::with_levels`
//! compiled a level loop for).
//!
//! Value layout (64-bit words, typed statically by the IR, no tags at run time): `bool` is
//! 0/1; `nat`/`int` a plain `i64` — any result that does not fit ends the run with
//! `JitOutcome::Overflow`, and the caller hands the case to the interpreter; datatype values
//! are `(tag << 1) | 1` for nullary constructors and otherwise 8-aligned pointers to arena
//! cells `[tag: u32, arity: u32][field0]...`; closures are cells `[code, arity, ncaptured,
//! captured...]`; sets are cells `[complement: 0/1, n, elements ascending...]` (the
//! interpreter's canonical form). The arena is a bump allocator reset by `Jit::reset`.
//!
//! Compiled natively: numbers, booleans, datatypes, calls (tail calls as `return_call`),
//! `Case`/`NatCase`/`If`/`Let`, closures (`Lambda`, `FunRef`, `Apply` with partial and
//! over-application), equality and order on numbers, booleans and datatypes without
//! functions or sets inside (a compiled comparison per datatype, `rt_cmp` near the end of the
//! stack), quantifiers and set
//! comprehensions as loops over a finite set (`∀x∈A`, `{x ∈ A. P}`) or over `bool` and
//! datatypes of nullary constructors only (`a3`), and set operations in `rt_set` (insert,
//! member, union, inter, diff, `sorted_list_of_set`, `=`, `⊆`, `⊂`, and `UNIV` and `- A` over
//! infinite element types; `rt_set_scalar` when elements order as words; results written
//! straight into the arena; `{}` is one shared read-only cell). Function values given as input may be partial
//! applications or finite maps (`Value::fun_map`). Handed over (`JitOutcome::NotSupported`):
//! `UNIV`/`- A` over finite types, quantifiers and comprehensions over complements or over
//! other finite types (`a3 option`), inductive predicates, sets of elements containing
//! functions or sets, equality and order on functions and on datatypes containing functions
//! or sets.
//!
//! Guards: fuel (the deadline is checked every `FUEL_CHUNK` units), a depth counter and a
//! stack-pointer check against the current thread's stack (so deep recursion ends as
//! `TooDeep` on any thread) at the entries every recursion passes through (`call_graph`), fuel
//! at the jumps of self tail calls, and the arena bound (`OutOfMemory`). Fuel and depth
//! therefore count less than the interpreter's, which counts every call.

mod call_graph;
pub mod engine;
mod layout;
mod runtime;
mod translate;

pub use layout::SharedCells;
pub use translate::{CodegenError, Interpreted, COMPILE_MAX_NODES, OPTIMISE_MAX_NODES};

use cranelift_codegen::settings::{self, Configurable};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::default_libcall_names;
use lang::core::ir::{FunDef, FunId, Program, Ty, Undef};
use lang::interp::{Limits, Value};
use runtime::*;
use std::time::Instant;

/// A JIT value: one 64-bit word, interpreted according to its IR type.
pub type Word = u64;

/// Why a run ended without a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JitOutcome {
    /// An underspecified function was applied outside its domain, as the interpreter says.
    Undefined(Undef),
    OutOfFuel,
    TooDeep,
    Timeout,
    /// The arena is exhausted.
    OutOfMemory,
    /// A number did not fit 64 bits: re-run in the interpreter.
    Overflow,
    /// Something the JIT does not compile (sets, quantifiers, ...): re-run in the interpreter.
    NotSupported,
}

impl JitOutcome {
    /// Whether the interpreter must decide this case (the JIT gave no answer).
    pub fn hand_over(&self) -> bool {
        matches!(self, JitOutcome::Overflow | JitOutcome::NotSupported)
    }
}

/// Where `Jit::run_rows` stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelEnd {
    /// Every case ran: each was rejected by a check or passed them all.
    Done,
    /// Case `i` passed every check of a level that descends: the caller goes on from it.
    Descend(usize),
    /// The last check returned False on case `i` of a level that does not descend.
    Failed(usize),
    /// A check on case `i` ended without a truth value: the caller runs that case itself.
    Handover(usize),
}

/// The cases `Jit::run_rows` ran to the end before it stopped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LevelCounts {
    /// Rejected by a check that is a premise.
    pub rejected: u64,
    /// Passed every check (the last one the conclusion).
    pub passed: u64,
}

/// A fill level of a `Jit`'s arena (`Jit::mark`).
#[derive(Clone, Copy, Debug)]
pub struct ArenaMark(u64);

/// Stack size of the thread a case moves to when the calling thread's stack runs low.
pub const BIG_STACK: usize = 1 << 30;

/// Default arena size in words (32 MiB).
pub const DEFAULT_ARENA_WORDS: usize = 4 << 20;

/// The entry from Rust of one function.
#[derive(Clone, Copy)]
struct Entry {
    code: ClosureFn,
    arity: usize,
}

/// A compiled program with its arena and run context. Not `Send`: use it on one thread.
pub struct Jit {
    module: Option<JITModule>,
    prog: Box<Program>,
    /// Closure entry of each function, `(ctx, cell, args) -> word`; also the entry from Rust.
    entries: Vec<Entry>,
    /// The compiled level loop of each function that has one (`with_levels`).
    levels: Vec<Option<LevelFn>>,
    undefs: Vec<Undef>,
    /// Boxed: `Ctx::cmp_tys` points at the `Vec` itself, which must not move with `Jit`.
    #[allow(clippy::box_collection)]
    cmp_tys: Box<Vec<Ty>>,
    arena: Vec<u64>,
    ctx: Box<Ctx>,
    /// The stack limit of the thread that compiled this `Jit`, the only thread it runs on
    /// (it is not `Send`), computed once instead of per run.
    stack_limit: u64,
    /// The functions compiled code leaves to the interpreter (`Jit::interpreted`).
    interpreted: Vec<Interpreted>,
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
        let budget = translate::Budget { unoptimised: isa("none")?, deadline };
        let isa = isa("speed")?;
        let mut jb = JITBuilder::with_isa(isa, default_libcall_names());
        jb.symbol("rt_tick", rt_tick as *const u8);
        jb.symbol("rt_apply", rt_apply as *const u8);
        jb.symbol("rt_divmod", rt_divmod as *const u8);
        jb.symbol("rt_cmp", rt_cmp as *const u8);
        jb.symbol("rt_set", rt_set as *const u8);
        jb.symbol("rt_set_scalar", rt_set_scalar as *const u8);
        let module = JITModule::new(jb);
        // Compiled code runs code equations where a function has them (`Program::code`).
        // Quantifiers over recursively built sets walk the construction instead of building
        // the set (`∀y∈tset l. y < x`). Then calls passing a known closure to a function that
        // passes it on unchanged run a copy specialised for it (`fold Cons xs []` conses
        // directly). Last, a cell rebuilt from the parts just matched is the matched value
        // (`sorted (y # zs)` in `sorted`'s code equation allocates nothing). Each pass is
        // the identity when it finds nothing to do.
        let (prog, left_out) = compiled_program(prog);
        let mut g = translate::Gen::new(module, &prog, budget)?;
        g.interpreted = left_out;
        if let Err(e) = g.compile_all(levels) {
            // What was defined is freed with the module.
            unsafe { g.module.free_memory() };
            return Err(e);
        }
        g.module.finalize_definitions().map_err(|e| CodegenError::new(format!("{e:?}")))?;
        let entries = g
            .wraps
            .iter()
            .zip(&prog.funs)
            .map(|(w, f)| Entry {
                code: unsafe { std::mem::transmute::<*const u8, ClosureFn>(g.module.get_finalized_function(*w)) },
                arity: f.params.len(),
            })
            .collect();
        let levels = g
            .levels
            .iter()
            .map(|l| {
                l.map(|id| unsafe { std::mem::transmute::<*const u8, LevelFn>(g.module.get_finalized_function(id)) })
            })
            .collect();
        let undefs = std::mem::take(&mut g.undefs);
        let interpreted = std::mem::take(&mut g.interpreted);
        let cmp_tys = Box::new(std::mem::take(&mut g.cmp_tys));
        let module = g.module;
        let arena = vec![0u64; words.max(16)];
        let ctx = Box::new(Ctx {
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
            cmp_tys: std::ptr::null(),
        });
        let mut jit = Jit {
            module: Some(module),
            prog,
            entries,
            levels,
            undefs,
            cmp_tys,
            arena,
            ctx,
            stack_limit: stack_limit(),
            interpreted,
        };
        jit.ctx.stack_limit = jit.stack_limit;
        jit.ctx.prog = &*jit.prog;
        jit.ctx.cmp_tys = &*jit.cmp_tys;
        jit.reset();
        Ok(jit)
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

    /// Frees everything allocated in the arena: words from earlier runs become invalid.
    pub fn reset(&mut self) {
        let start = self.arena.as_mut_ptr() as u64;
        self.ctx.heap = start;
        self.ctx.heap_end = start + 8 * self.arena.len() as u64;
    }

    /// The arena's current fill level: `release` to it frees everything allocated after,
    /// so inputs built once can be kept across many runs.
    pub fn mark(&self) -> ArenaMark {
        ArenaMark(self.ctx.heap)
    }

    /// Words still free in the arena.
    pub fn arena_room(&self) -> usize {
        (self.ctx.heap_end.saturating_sub(self.ctx.heap) / 8) as usize
    }

    /// The arena's size in words.
    pub fn arena_words(&self) -> usize {
        self.arena.len()
    }

    /// Frees everything allocated since `m` was taken (words from after it become invalid).
    pub fn release(&mut self, m: ArenaMark) {
        self.ctx.heap = m.0;
    }

    /// Builds `v` (of type `ty`) in the arena. Numbers past 64 bits give `Overflow`; of the
    /// function values, partial applications of top-level functions and finite maps
    /// (`Value::fun_map`, keys without functions or sets inside) are built, others give
    /// `NotSupported`.
    pub fn word_of(&mut self, v: &Value, ty: &Ty) -> Result<Word, JitOutcome> {
        let w = layout::word_of(self, v, ty, None);
        self.take_status().and(w)
    }

    /// `word_of`, reusing the cells built for fields shared with values converted before
    /// through the same `shared` (see `SharedCells`: the arena must not have been released
    /// below them, and those values must still be alive).
    pub fn word_of_shared(&mut self, v: &Value, ty: &Ty, shared: &mut SharedCells) -> Result<Word, JitOutcome> {
        let w = layout::word_of(self, v, ty, Some(shared));
        self.take_status().and(w)
    }

    /// Builds constructor `tag` applied to `fields` (words of the constructor's field types)
    /// in the arena: the layout `word_of` gives the same value, without an interpreter value
    /// in between (generators use it to build test data directly).
    #[inline]
    pub fn ctor_word(&mut self, tag: u32, fields: &[Word]) -> Result<Word, JitOutcome> {
        if fields.is_empty() {
            return Ok((u64::from(tag) << 1) | 1);
        }
        let ctx: *mut Ctx = &mut *self.ctx;
        // SAFETY: `ctx` is this JIT's context; the cell is inside its arena.
        let p = unsafe { alloc(ctx, 1 + fields.len() as u64) };
        let Some(p) = p else {
            self.ctx.status = 0;
            return Err(JitOutcome::OutOfMemory);
        };
        // Small cells word by word: a loop here becomes a `memcpy` call for the two words of
        // a cons cell, which was a tenth of the random tester's time.
        unsafe {
            *p = u64::from(tag) | ((fields.len() as u64) << 32);
            match *fields {
                [a] => *p.add(1) = a,
                [a, b] => (*p.add(1), *p.add(2)) = (a, b),
                [a, b, c] => (*p.add(1), *p.add(2), *p.add(3)) = (a, b, c),
                _ => std::ptr::copy_nonoverlapping(fields.as_ptr(), p.add(1), fields.len()),
            }
        }
        Ok(p as u64)
    }

    /// The list of the numbers `elems` (`nat` or `int` words), its cons cells allocated at
    /// once and laid out in order: the layout `ctor_word` gives cell by cell.
    pub fn int_list_word(&mut self, elems: &[i64]) -> Result<Word, JitOutcome> {
        let mut it = elems.iter();
        self.int_list_with(elems.len(), || it.next().copied().unwrap_or(0))
    }

    /// `int_list_word` of the `len` numbers `elem` gives, called in order and written
    /// straight into the cells (a generator draws them there without a buffer between).
    #[inline]
    pub fn int_list_with(&mut self, len: usize, mut elem: impl FnMut() -> i64) -> Result<Word, JitOutcome> {
        const NIL: Word = 1;
        if len == 0 {
            return Ok(NIL);
        }
        let ctx: *mut Ctx = &mut *self.ctx;
        // SAFETY: `ctx` is this JIT's context; the cells are inside its arena.
        let Some(p) = (unsafe { alloc(ctx, 3 * len as u64) }) else {
            self.ctx.status = 0;
            return Err(JitOutcome::OutOfMemory);
        };
        let cons = 1 | (2 << 32);
        for i in 0..len {
            let next = if i + 1 == len { NIL } else { p.wrapping_add(3 * (i + 1)) as Word };
            // SAFETY: cell `i` is the words 3i..3i+3 of the room just taken.
            unsafe { (*p.add(3 * i), *p.add(3 * i + 1), *p.add(3 * i + 2)) = (cons, elem() as Word, next) };
        }
        Ok(p as Word)
    }

    /// Reads a word of type `ty` back as an interpreter value (`NotSupported` for functions).
    pub fn value_of(&self, w: Word, ty: &Ty) -> Result<Value, JitOutcome> {
        layout::value_of(&self.prog, w, ty)
    }

    /// Calls `f` on words (built by `word_of` since the last `reset`). Runs on the calling
    /// thread; when its stack runs low, the case is run again on a fresh thread with a
    /// `BIG_STACK`-byte stack, where only the depth limit (or that stack) stops it.
    #[inline]
    pub fn run(&mut self, f: FunId, args: &[Word], limits: &Limits) -> Result<Word, JitOutcome> {
        let entry = self.entries[f.0 as usize];
        if args.len() != entry.arity {
            self.wrong_arity(f, args.len());
        }
        let heap = self.ctx.heap;
        // Between runs `status` is 0 (`take_status`) and `stack_limit` this thread's.
        Jit::start(&mut self.ctx, limits);
        let r = unsafe { (entry.code)(&mut *self.ctx, 0, args.as_ptr()) };
        match self.ctx.status {
            0 => Ok(r),
            ST_STACK => self.run_on_big_stack(entry, args, limits, heap),
            _ => self.take_status().map(|_| r),
        }
    }

    /// Runs one level of a search in a loop instead of one `run` per case: `rows` holds the
    /// arguments of the cases, `width` words each (the checks' arity). For each row it
    /// releases the arena to its fill level at the call and runs the boolean functions
    /// `checks` in order on the row (each with fresh `limits`). A check but the last that
    /// returns False rejects the case; so does the last when `descend` is set (they are all
    /// premises then). A case that passes every check is counted as passed unless `descend`
    /// is set, when the loop stops there for the caller to go deeper. The loop also stops at
    /// a case whose last check returns False (without `descend`: a candidate) and at one a
    /// check ends without a truth value (undefined, a guard, a number past 64 bits, ...; the
    /// caller runs that case itself, where the outcome is read). Returns where it stopped (a
    /// row index) and the cases it ran to the end; the arena is back at its fill level. With
    /// one check that has a compiled level loop (`with_levels`) the whole loop runs in
    /// compiled code; otherwise this loop calls the checks' entries, paying for argument
    /// checks and status handling once per level instead of once per case.
    pub fn run_rows(
        &mut self,
        checks: &[FunId],
        descend: bool,
        rows: &[Word],
        width: usize,
        limits: &Limits,
    ) -> (LevelEnd, LevelCounts) {
        let mut counts = LevelCounts::default();
        for f in checks {
            if width != self.entries[f.0 as usize].arity {
                self.wrong_arity(*f, width);
            }
        }
        let n = rows.len().checked_div(width).unwrap_or(0);
        if n == 0 {
            return (LevelEnd::Done, counts);
        }
        let heap = self.ctx.heap;
        let last = match checks {
            [] if descend => return (LevelEnd::Descend(0), counts),
            [] => {
                counts.passed += n as u64;
                return (LevelEnd::Done, counts);
            }
            [f] => match self.levels[f.0 as usize] {
                Some(level) => {
                    Jit::start(&mut self.ctx, limits);
                    return self.run_compiled_level(level, descend, rows, width, heap);
                }
                None => 0,
            },
            _ => checks.len() - 1,
        };
        Jit::start(&mut self.ctx, limits);
        let entries: Vec<Entry> = checks.iter().map(|f| self.entries[f.0 as usize]).collect();
        let fuel = limits.fuel.max(1);
        let chunk = fuel.min(FUEL_CHUNK) as i64;
        let ctx: &mut Ctx = &mut self.ctx;
        'cases: for (i, row) in rows.chunks_exact(width).enumerate() {
            ctx.heap = heap;
            for (j, e) in entries.iter().enumerate() {
                (ctx.fuel_chunk, ctx.fuel_left, ctx.depth) = (chunk, fuel - chunk as u64, 0);
                // SAFETY: `e` is a compiled entry of this JIT taking `width` words.
                let r = unsafe { (e.code)(ctx, 0, row.as_ptr()) };
                if ctx.status != 0 {
                    ctx.status = 0;
                    ctx.heap = heap;
                    return (LevelEnd::Handover(i), counts);
                }
                if r == 0 {
                    if j == last && !descend {
                        ctx.heap = heap;
                        return (LevelEnd::Failed(i), counts);
                    }
                    counts.rejected += 1;
                    continue 'cases;
                }
            }
            if descend {
                ctx.heap = heap;
                return (LevelEnd::Descend(i), counts);
            }
            counts.passed += 1;
        }
        ctx.heap = heap;
        (LevelEnd::Done, counts)
    }

    /// `run_rows` with one check that has a compiled level loop, started (`start`) from
    /// the arena fill level `heap`.
    fn run_compiled_level(
        &mut self,
        level: LevelFn,
        descend: bool,
        rows: &[Word],
        width: usize,
        heap: u64,
    ) -> (LevelEnd, LevelCounts) {
        let n = rows.len() / width;
        // A premise (`descend`) stops at a case that holds, a conclusion at one that fails.
        let stop_on = u64::from(descend);
        let ctx: *mut Ctx = &mut *self.ctx;
        // SAFETY: `level` is this JIT's, for a function of `width` arguments (checked by the
        // caller), and `rows` has `n` rows of `width` words.
        let i = unsafe { level(ctx, rows.as_ptr(), n as u64, width as u64, stop_on) } as usize;
        self.ctx.heap = heap;
        let before = i.min(n) as u64;
        let counts = if descend {
            LevelCounts { rejected: before, passed: 0 }
        } else {
            LevelCounts { rejected: 0, passed: before }
        };
        let end = if self.ctx.status != 0 {
            self.ctx.status = 0;
            LevelEnd::Handover(i)
        } else if i >= n {
            LevelEnd::Done
        } else if descend {
            LevelEnd::Descend(i)
        } else {
            LevelEnd::Failed(i)
        };
        (end, counts)
    }

    #[cold]
    #[inline(never)]
    fn wrong_arity(&self, f: FunId, given: usize) -> ! {
        let fd = self.prog.fun(f);
        panic!("{} takes {} arguments, given {given}", fd.name, fd.params.len())
    }

    /// `run` once more, from the arena fill level `heap`, on a thread with a big stack.
    #[cold]
    #[inline(never)]
    fn run_on_big_stack(
        &mut self,
        entry: Entry,
        args: &[Word],
        limits: &Limits,
        heap: u64,
    ) -> Result<Word, JitOutcome> {
        self.ctx.heap = heap;
        let ctx = &mut *self.ctx as *mut Ctx as usize;
        let code = entry.code as usize;
        let args_addr = args.as_ptr() as usize;
        let limits = limits.clone();
        let r = on_big_stack(BIG_STACK, move || {
            // SAFETY: `ctx` and `args` outlive this scoped thread; the calling thread waits.
            let ctx = ctx as *mut Ctx;
            let code = unsafe { std::mem::transmute::<usize, ClosureFn>(code) };
            unsafe {
                (*ctx).status = 0;
                (*ctx).stack_limit = stack_limit();
                Jit::start(&mut *ctx, &limits);
                code(ctx, 0, args_addr as *const u64)
            }
        });
        self.ctx.stack_limit = self.stack_limit;
        if self.ctx.status == ST_STACK {
            self.ctx.status = ST_TOO_DEEP;
        }
        self.take_status().map(|_| r)
    }

    /// Prepares the context for a run: fuel, depth and deadline.
    #[inline]
    fn start(c: &mut Ctx, limits: &Limits) {
        let fuel = limits.fuel.max(1);
        c.fuel_chunk = fuel.min(FUEL_CHUNK) as i64;
        c.fuel_left = fuel - c.fuel_chunk as u64;
        c.depth = 0;
        c.max_depth = limits.max_depth as i64;
        c.deadline = limits.deadline;
    }

    /// Resets the arena, converts `args`, runs `f`, and converts the result back.
    pub fn call(&mut self, f: FunId, args: &[Value], limits: &Limits) -> Result<Value, JitOutcome> {
        self.reset();
        let fd = self.prog.fun(f);
        let tys: Vec<Ty> = fd.params.iter().map(|(_, t)| t.clone()).collect();
        let ret = fd.ret.clone();
        let mut words = Vec::with_capacity(args.len());
        for (a, t) in args.iter().zip(&tys) {
            words.push(self.word_of(a, t)?);
        }
        let w = self.run(f, &words, limits)?;
        self.value_of(w, &ret)
    }

    fn take_status(&mut self) -> Result<(), JitOutcome> {
        let st = std::mem::replace(&mut self.ctx.status, 0);
        Err(match st {
            0 => return Ok(()),
            ST_UNDEFINED => match self.undefs.get(self.ctx.detail as usize) {
                Some(u) => JitOutcome::Undefined(u.clone()),
                None => JitOutcome::NotSupported,
            },
            ST_OUT_OF_FUEL => JitOutcome::OutOfFuel,
            ST_TOO_DEEP => JitOutcome::TooDeep,
            ST_TIMEOUT => JitOutcome::Timeout,
            ST_OUT_OF_MEMORY => JitOutcome::OutOfMemory,
            ST_OVERFLOW => JitOutcome::Overflow,
            _ => JitOutcome::NotSupported,
        })
    }
}

/// The deepest nesting of loops compiled code takes: register allocation over nested loops
/// grows much faster than their size (400 nested `∀x∈{True}`: 48 s to compile, against
/// 0.03 s in the interpreter). Real lemmas nest a few.
const MAX_LOOP_NESTING: usize = 32;

/// Stack the recursive passes over the IR (and the translation) may take per level of
/// nesting of a body: a generous bound on their frames in release builds.
const PASS_FRAME_BYTES: u64 = 4 << 10;

/// `prog` as compiled code runs it: code equations in, then the passes for compiled code;
/// and the functions left to the interpreter. A body of more than `COMPILE_MAX_NODES` IR
/// nodes, or nested deeper than the passes can recurse on this thread's stack, is replaced
/// (in this copy only) by a hand-over before the passes, which recurse over the IR: such
/// a function is not compiled, and the cases that reach it run in the interpreter.
fn compiled_program(prog: &Program) -> (Box<Program>, Vec<Interpreted>) {
    let here = 0u8;
    let room = (std::hint::black_box(&here) as *const u8 as u64).saturating_sub(stack_limit());
    let max_depth = (room / PASS_FRAME_BYTES) as usize;
    // Copied function by function: cloning a body recurses too, so those left out are not.
    let mut left_out = Vec::new();
    let funs = prog
        .funs
        .iter()
        .map(|f| {
            let (nodes, depth) = f.body.shape();
            let loops = f.body.loop_nesting();
            let why = if nodes > COMPILE_MAX_NODES {
                translate::too_large_why(nodes)
            } else if loops > MAX_LOOP_NESTING {
                format!("its loops (quantifiers, comprehensions) nest {loops} deep, more than compiled code takes ({MAX_LOOP_NESTING})")
            } else if depth > max_depth {
                format!(
                    "it is nested {depth} deep, more than this thread's stack lets compiled code take ({max_depth})"
                )
            } else {
                return f.clone();
            };
            left_out.push(Interpreted { name: f.name.clone(), nodes, why });
            FunDef {
                name: f.name.clone(),
                params: f.params.clone(),
                ret: f.ret.clone(),
                body: hand_over(),
                num_vars: f.num_vars,
            }
        })
        .collect();
    let mut prog = Box::new(Program {
        datas: prog.datas.clone(),
        funs,
        inductives: prog.inductives.clone(),
        code: prog.code.clone(),
    });
    // A code version left out leaves its function out too: it takes the hand-over body.
    prog.apply_code_equations();
    lang::core::set_quantifiers::apply(&mut prog);
    lang::core::specialize::apply(&mut prog);
    lang::core::reuse_cells::apply(&mut prog);
    (prog, left_out)
}

/// A body compiled code does not run: `translate` compiles a checking-mode call of an
/// inductive predicate as a hand-over to the interpreter (`JitOutcome::NotSupported`),
/// and no pass looks into one. It never reaches the interpreter: only the JIT's own copy
/// of the program has it.
fn hand_over() -> lang::core::ir::Expr {
    lang::core::ir::Expr::Pred(lang::core::ir::PredId(u32::MAX), Vec::new())
}

/// The functions of `prog` compiled code would leave to the interpreter as too large
/// (`COMPILE_MAX_NODES`, with the bodies inlined into them) or too deep for this thread:
/// what `Jit::interpreted` lists, without compiling (the passes and a count of nodes),
/// for `verbose` output before a JIT exists.
pub fn too_large_to_compile(prog: &Program) -> Vec<Interpreted> {
    let (prog, mut left_out) = compiled_program(prog);
    let calls = call_graph::analyse(&prog);
    left_out.extend(
        prog.funs
            .iter()
            .zip(&calls.compiled_size)
            .filter(|(_, n)| **n > COMPILE_MAX_NODES)
            .map(|(f, &nodes)| Interpreted { name: f.name.clone(), nodes, why: translate::too_large_why(nodes) }),
    );
    left_out
}

impl Drop for Jit {
    fn drop(&mut self) {
        if let Some(m) = self.module.take() {
            // No code of this module runs any more: `Jit` owns the only entry points.
            unsafe { m.free_memory() };
        }
    }
}

/// Runs `f` on a new thread with a stack of `bytes` bytes (for deep recursion in compiled
/// code; on smaller stacks it ends as `TooDeep` earlier). Panics in `f` are propagated.
pub fn on_big_stack<T: Send>(bytes: usize, f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        let h = std::thread::Builder::new().stack_size(bytes).spawn_scoped(s, f).expect("spawn JIT thread");
        match h.join() {
            Ok(v) => v,
            Err(p) => std::panic::resume_unwind(p),
        }
    })
}
