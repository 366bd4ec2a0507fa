//! Compiling on another thread while the interpreter goes on (`Engine::Tiered` on a machine
//! with a core to spare): a `BackgroundCompile` is a `Jit` being built by a thread of its
//! own, picked up by its owner once it is finished, or cancelled when the owner no longer
//! wants it. Compiling a lemma's program takes milliseconds; in that time the interpreter
//! keeps testing, so a run that compiles early never waits for it, and a run that ends
//! before the code is ready loses the other core's time and the wait for the thread to stop
//! at its next function.

use super::Jit;
use crate::translate::CodegenError;
use lang::core::ir::{FunId, Program};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

/// The compiling thread's stack: translation recurses on the IR's nesting, guarded by the
/// thread's own stack limit, so deep functions compile here as they would on a checking
/// thread. Reserved, not committed.
const COMPILE_STACK: usize = 256 << 20;

/// A `Jit` on its way from the compiling thread to its owner.
struct Shipped(Jit);

// SAFETY: a `Jit` is not `Send` only because its run context holds raw pointers, and each
// points at a box the same `Jit` owns (its program, its compared types), which moving the
// `Jit` does not move. Nothing of it stays with the compiling thread, which ends when the
// `Jit` is sent; the one per-thread value, the stack limit, is read again on the receiving
// thread (`BackgroundCompile::finish`). A new `Jit` keeps no interpreter values (the `Rc`s
// of `KeptInputs` come with its first `call`, on the receiving thread).
unsafe impl Send for Shipped {}

/// A program being compiled on another thread.
pub struct BackgroundCompile {
    handle: Option<JoinHandle<Result<Shipped, CodegenError>>>,
    /// Set when the owner drops this before it finished: the thread stops at its next
    /// function, as at a deadline.
    cancel: Arc<AtomicBool>,
}

impl BackgroundCompile {
    /// Starts compiling a copy of `prog` as `Jit::with_deadline(prog, words, levels,
    /// deadline)` would; `None` when no thread could be started (the caller compiles in
    /// place or not at all).
    pub fn start(
        prog: &Program,
        words: usize,
        levels: &[FunId],
        deadline: Option<Instant>,
    ) -> Option<BackgroundCompile> {
        let cancel = Arc::new(AtomicBool::new(false));
        let (prog, levels, stop) = (prog.clone(), levels.to_vec(), cancel.clone());
        let handle = std::thread::Builder::new()
            .name("hol-compile".to_owned())
            .stack_size(COMPILE_STACK)
            .spawn(move || Jit::build(&prog, words, &levels, deadline, Some(stop), false).map(Shipped))
            .ok()?;
        Some(BackgroundCompile { handle: Some(handle), cancel })
    }

    /// Whether the thread is done: `finish` will not wait.
    #[inline]
    pub fn is_finished(&self) -> bool {
        self.handle.as_ref().is_none_or(|h| h.is_finished())
    }

    /// The compiled program, waiting for the thread if it is not done, ready to run on this
    /// thread.
    pub fn finish(mut self) -> Result<Jit, CodegenError> {
        let handle = self.handle.take().expect("a background compile is finished once");
        let Shipped(mut jit) = handle
            .join()
            .unwrap_or_else(|_| Err(CodegenError::new("internal error: the compiling thread panicked")))?;
        jit.adopt_thread();
        Ok(jit)
    }
}

impl Drop for BackgroundCompile {
    fn drop(&mut self) {
        // Waited for, not detached: the thread stops at its next function, and each thread
        // left running would keep its stack (`COMPILE_STACK`, counted against a data limit)
        // while the next lemma starts one of its own; under a 1 GiB limit three of them
        // made an allocation fail, which aborts the process.
        self.cancel.store(true, Ordering::Relaxed);
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }
}
