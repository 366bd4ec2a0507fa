//! Running compiled code: one case (`Jit::run`, `Jit::call`), many cases in one loop
//! (`Jit::run_rows`), on a big stack when the calling thread's runs low, and the run
//! context's status read back as a `JitOutcome`.

use super::{Entry, Jit};
use crate::layout::Word;
use crate::runtime::{
    stack_limit, ClosureFn, LevelFn, RunContext, FUEL_CHUNK, ST_OUT_OF_FUEL, ST_OUT_OF_MEMORY, ST_OVERFLOW, ST_REFINE,
    ST_STACK, ST_TIMEOUT, ST_TOO_DEEP, ST_UNDEFINED,
};
use crate::{JitOutcome, LevelCounts, LevelEnd};
use lang::core::ir::FunId;
use lang::value::{Limits, Value};

/// Stack size of the thread a case moves to when the calling thread's stack runs low.
pub const BIG_STACK: usize = 1 << 30;

impl Jit {
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
        let ctx: &mut RunContext = &mut self.ctx;
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
        let ctx: *mut RunContext = &mut *self.ctx;
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
        let ctx = &mut *self.ctx as *mut RunContext as usize;
        let code = entry.code as usize;
        let args_addr = args.as_ptr() as usize;
        let limits = limits.clone();
        let r = on_big_stack(BIG_STACK, move || {
            // SAFETY: `ctx` and `args` outlive this scoped thread; the calling thread waits.
            let ctx = ctx as *mut RunContext;
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
    fn start(c: &mut RunContext, limits: &Limits) {
        let fuel = limits.fuel.max(1);
        c.fuel_chunk = fuel.min(FUEL_CHUNK) as i64;
        c.fuel_left = fuel - c.fuel_chunk as u64;
        c.depth = 0;
        c.max_depth = limits.max_depth as i64;
        c.deadline = limits.deadline;
    }

    /// Converts `args`, runs `f`, and converts the result back. Words built before become
    /// invalid, except the cells of earlier calls' arguments, which are kept (`KeptInputs`:
    /// the same value passed again is not converted again).
    pub fn call(&mut self, f: FunId, args: &[Value], limits: &Limits) -> Result<Value, JitOutcome> {
        self.free_to_kept();
        // SAFETY: the program is boxed and not changed while the `Jit` runs.
        let fd = unsafe { &*(self.prog.fun(f) as *const lang::core::ir::FunDef) };
        let mut words: smallvec::SmallVec<[Word; 8]> = smallvec::SmallVec::with_capacity(args.len());
        for (a, (_, t)) in args.iter().zip(&fd.params) {
            words.push(self.word_of_kept(a, t)?);
        }
        let w = self.run(f, &words, limits)?;
        self.value_of(w, &fd.ret)
    }

    pub(super) fn take_status(&mut self) -> Result<(), JitOutcome> {
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
            ST_REFINE => JitOutcome::Need(crate::holes::demand_of_word(self.ctx.detail as u64)),
            _ => JitOutcome::NotSupported,
        })
    }
}

/// Runs `f` on a new thread with a stack of `bytes` bytes (for deep recursion in compiled
/// code; on smaller stacks it ends as `TooDeep` earlier). When no thread can be started
/// (the process is out of threads or memory), `f` runs on the calling thread, whose stack
/// check ends deep recursion as `TooDeep` there. Panics in `f` are propagated.
pub fn on_big_stack<T: Send>(bytes: usize, f: impl FnOnce() -> T + Send) -> T {
    // `spawn_scoped` drops the closure when it fails: the work waits here to be taken.
    let slot = std::sync::Mutex::new(Some(f));
    let take = || slot.lock().unwrap_or_else(|e| e.into_inner()).take();
    let ran = std::thread::scope(|s| {
        let h = std::thread::Builder::new().stack_size(bytes).spawn_scoped(s, || take().map(|f| f())).ok()?;
        Some(h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
    });
    match ran.flatten() {
        Some(v) => v,
        None => match take() {
            Some(f) => f(),
            None => unreachable!("the thread took the work and returned its result"),
        },
    }
}
