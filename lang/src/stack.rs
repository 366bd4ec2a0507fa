//! Machine-stack growth for recursion over deep IR: the interpreter's evaluation recurses on
//! the nesting of calls and expressions, analyses such as `core::ir::free_vars` on the
//! nesting of terms, and neither may overflow whatever the program.
//!
//! `guarded` runs the interpreter with a stack budget on the calling thread; `grow` is called
//! at every recursive step and, when the budget of the current segment is spent, continues
//! the computation on a fresh thread with a large stack (reserved lazily by the OS) while the
//! current thread waits for it. Shallow evaluations never leave the calling thread. The total
//! stack is capped; past the cap `grow` reports failure and the caller turns it into
//! `EvalError::TooDeep`.
//!
//! Stacks are assumed to grow downwards (every target the workspace builds for).

use std::cell::{Cell, RefCell};
use std::sync::mpsc;

/// Stack the interpreter may use on the caller's thread before moving to its own segments.
const CALLER_BUDGET: usize = 256 * 1024;
/// Stack of the first segment (the calling thread's worker).
const WORKER_STACK: usize = 64 * 1024 * 1024;
/// Size of each further segment.
const SEGMENT_SIZE: usize = 128 * 1024 * 1024;
/// Kept free at the end of a segment for the non-recursive work between two checks.
const RED_ZONE: usize = 1024 * 1024;
/// Cap on the number of segments (so on the total stack, about 2 GiB) of one evaluation. The
/// default depth limit needs about a tenth of it in a release build.
const MAX_SEGMENTS: u32 = 16;

#[derive(Clone, Copy)]
struct Limit {
    /// Lowest stack address the current segment may reach (0: no budget set on this thread).
    low: usize,
    /// Segments in use below this one.
    segments: u32,
}

thread_local! {
    static LIMIT: Cell<Limit> = const { Cell::new(Limit { low: 0, segments: 0 }) };
}

#[inline(always)]
fn sp() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

/// Runs `f` (an interpreter entry point) with a fresh stack budget on this thread.
pub(crate) fn guarded<R>(f: impl FnOnce() -> R) -> R {
    let saved = LIMIT.with(|l| l.get());
    let low = sp().saturating_sub(CALLER_BUDGET);
    // Nested entry (a printer calling the evaluator): keep the tighter limit.
    let low = if saved.low != 0 { low.max(saved.low) } else { low };
    LIMIT.with(|l| l.set(Limit { low, segments: saved.segments }));
    let r = f();
    LIMIT.with(|l| l.set(saved));
    r
}

/// Whether the current segment is close to its budget.
#[inline(always)]
fn low() -> bool {
    let limit = LIMIT.with(|l| l.get());
    sp() < limit.low
}

/// A value that is moved to another thread while the sending thread is blocked waiting for
/// that thread to finish.
struct AssertSend<T>(T);
// SAFETY: only used by `grow`, whose calling thread blocks in `join` until the spawned thread
// has finished with the value; the values (and everything they borrow, including `Rc`s) are
// therefore never accessed by two threads at once, and spawn/join order the accesses. The
// interpreter uses no thread-local state other than `LIMIT`, which is set afresh there.
unsafe impl<T> Send for AssertSend<T> {}

/// Runs `f` on the current stack if there is room, otherwise on a new stack segment.
/// `None` when the total stack cap is reached (or no thread could be started).
#[inline(always)]
pub(crate) fn grow<R>(f: impl FnOnce() -> R) -> Option<R> {
    if !low() {
        return Some(f());
    }
    grow_slow(f)
}

#[inline(never)]
fn grow_slow<R>(f: impl FnOnce() -> R) -> Option<R> {
    let limit = LIMIT.with(|l| l.get());
    if limit.segments >= MAX_SEGMENTS {
        return None;
    }
    if limit.segments == 0 {
        return on_worker(f);
    }
    let segments = limit.segments + 1;
    let job = AssertSend(f);
    let result = std::thread::scope(|s| {
        let handle =
            std::thread::Builder::new().name("hol-interp".into()).stack_size(SEGMENT_SIZE).spawn_scoped(s, move || {
                let job = job;
                let low = sp().saturating_sub(SEGMENT_SIZE - RED_ZONE);
                LIMIT.with(|l| l.set(Limit { low, segments }));
                AssertSend((job.0)())
            });
        match handle {
            Ok(h) => Some(h.join()),
            Err(_) => None,
        }
    });
    match result {
        Some(Ok(r)) => Some(r.0),
        Some(Err(panic)) => std::panic::resume_unwind(panic),
        None => None,
    }
}

/// A job for a worker: its lifetime is erased, see `on_worker`.
type Job = Box<dyn FnOnce() + Send + 'static>;

/// A long-lived thread with a `WORKER_STACK` stack that runs the first segment of the deep
/// evaluations of one calling thread. Reusing it keeps an evaluation that goes deep again and
/// again (a recursive function called in a loop) from paying for a new thread and freshly
/// faulted-in stack pages each time.
struct Worker {
    jobs: mpsc::Sender<Job>,
    done: mpsc::Receiver<()>,
}

thread_local! {
    static WORKER: RefCell<Option<Worker>> = const { RefCell::new(None) };
}

fn spawn_worker() -> Option<Worker> {
    let (jobs, job_rx) = mpsc::channel::<Job>();
    let (done_tx, done) = mpsc::channel::<()>();
    std::thread::Builder::new()
        .name("hol-interp".into())
        .stack_size(WORKER_STACK)
        .spawn(move || {
            for job in job_rx {
                job();
                if done_tx.send(()).is_err() {
                    break;
                }
            }
        })
        .ok()?;
    Some(Worker { jobs, done })
}

/// Runs `f` on this thread's worker and waits for it.
fn on_worker<R>(f: impl FnOnce() -> R) -> Option<R> {
    let mut out: Option<std::thread::Result<R>> = None;
    let slot = &mut out;
    let job = move || {
        let low = sp().saturating_sub(WORKER_STACK - RED_ZONE);
        LIMIT.with(|l| l.set(Limit { low, segments: 1 }));
        *slot = Some(std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)));
    };
    let job: Box<dyn FnOnce() + '_> = Box::new(job);
    // SAFETY: the job borrows from this frame and may hold `Rc`s (it is neither `'static` nor
    // `Send`). It is handed to the worker and this thread then blocks until the worker reports
    // it finished, or until the worker is gone (then the job has finished or was dropped
    // unrun). So the borrows outlive every use, and the job's data is used by one thread at a
    // time with the channel operations ordering the accesses (see `AssertSend`).
    let job: Job = unsafe { std::mem::transmute::<Box<dyn FnOnce() + '_>, Job>(job) };
    let finished = WORKER.with(|w| {
        let mut w = w.borrow_mut();
        if w.is_none() {
            *w = spawn_worker();
        }
        let ok = match w.as_ref() {
            Some(worker) => worker.jobs.send(job).is_ok() && worker.done.recv().is_ok(),
            None => false,
        };
        if !ok {
            *w = None;
        }
        ok
    });
    match (finished, out) {
        (true, Some(Ok(r))) => Some(r),
        (true, Some(Err(panic))) => std::panic::resume_unwind(panic),
        _ => None,
    }
}
