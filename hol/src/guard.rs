//! Keeping the process alive and informative when the library fails: a panic while checking
//! one file is caught and turned into a message (with its location) instead of a silent
//! abort, and the work runs on a thread with a large stack so that deeply nested input
//! cannot overflow the stack of the main thread (a stack overflow is a signal, not a panic,
//! and cannot be caught). Catching relies on `panic = "unwind"`, the default: do not set
//! `panic = "abort"` in a profile that builds `hol`.

use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Mutex;

/// Stack of the worker thread. Only reserved address space until touched.
const WORKER_STACK: usize = 512 << 20;

thread_local! {
    /// True while `catch` runs: the hook then records the panic instead of printing it.
    static CATCHING: Cell<bool> = const { Cell::new(false) };
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs a panic hook that stays quiet inside `catch` (the caller reports the panic) and
/// behaves as the default hook everywhere else.
pub fn install_panic_hook() {
    let default = panic::take_hook();
    panic::set_hook(Box::new(move |info| {
        if CATCHING.with(Cell::get) {
            let payload = info.payload();
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "(no message)".to_owned());
            let text = match info.location() {
                Some(at) => format!("{message} (at {}:{}:{})", at.file(), at.line(), at.column()),
                None => message,
            };
            LAST_PANIC.with(|last| *last.borrow_mut() = Some(text));
        } else {
            default(info);
        }
    }));
}

/// Runs `f`; a panic inside it becomes `Err(message with location)`.
pub fn catch<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    let was = CATCHING.with(|c| c.replace(true));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    CATCHING.with(|c| c.set(was));
    result.map_err(|payload| {
        LAST_PANIC.with(|last| last.borrow_mut().take()).unwrap_or_else(|| {
            payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "(no message)".to_owned())
        })
    })
}

/// Runs `f` on a thread with a large stack and returns its result; runs it on the current
/// thread if no such thread can be started. A panic escaping `f` is resumed here.
#[cfg(test)]
pub fn with_large_stack<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    with_large_stack_watched(f, || {})
}

/// How often the calling thread runs its watch while the worker runs.
const WATCH_EVERY: std::time::Duration = std::time::Duration::from_millis(20);

/// `with_large_stack`, calling `watch` on the calling thread every few milliseconds until
/// `f` returns (`watch` may end the process, as on a signal). Without a worker thread,
/// `watch` is not called.
pub fn with_large_stack_watched<R: Send>(f: impl FnOnce() -> R + Send, mut watch: impl FnMut()) -> R {
    let slot = Mutex::new(Some(f));
    let spawned = std::thread::scope(|scope| {
        let worker = std::thread::Builder::new().name("hol-check".to_owned()).stack_size(WORKER_STACK).spawn_scoped(
            scope,
            || {
                let f = slot.lock().unwrap_or_else(|e| e.into_inner()).take();
                f.map(|f| f())
            },
        );
        match worker {
            Ok(handle) => {
                while !handle.is_finished() {
                    watch();
                    std::thread::park_timeout(WATCH_EVERY);
                }
                Some(handle.join().unwrap_or_else(|payload| panic::resume_unwind(payload)))
            }
            Err(_) => None,
        }
    });
    match spawned.flatten() {
        Some(result) => result,
        None => {
            let f = slot.into_inner().unwrap_or_else(|e| e.into_inner());
            match f {
                Some(f) => f(),
                None => unreachable!("the worker took the closure and returned its result"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_a_message_with_its_location() {
        install_panic_hook();
        let err = catch(|| -> u32 { panic!("boom {}", 42) }).unwrap_err();
        assert!(err.starts_with("boom 42 (at "), "{err}");
        assert!(err.contains("guard.rs"), "{err}");
        assert_eq!(catch(|| 7), Ok(7));
    }

    #[test]
    fn the_worker_has_a_deep_stack() {
        fn depth(n: u32) -> u32 {
            let pad = std::hint::black_box([0u8; 512]);
            if n == 0 {
                u32::from(pad[0])
            } else {
                1 + depth(n - 1)
            }
        }
        // ~100 MB of frames: far beyond the 8 MB main thread, well within the worker.
        assert_eq!(with_large_stack(|| depth(200_000)), 200_000);
    }
}
