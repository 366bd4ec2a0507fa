//! Keeping the process alive and informative when the library fails: the panic hook lets
//! the library's panic barrier (`analysis::barrier`) record a caught panic with its
//! location instead of printing it, and the work runs on a thread with a large stack so
//! that deeply nested input cannot overflow the stack of the main thread (a stack overflow
//! is a signal, not a panic, and cannot be caught). Catching relies on `panic = "unwind"`,
//! the default: do not set `panic = "abort"` in a profile that builds `hol`.

use std::panic;
use std::sync::Mutex;

/// Stack of the worker thread. Only reserved address space until touched, but counted
/// against a data limit (`RLIMIT_DATA`) with the testers' stacks and the heap: under a
/// 1 GiB limit, 512 MiB here left too little heap for three testers at a large size.
pub const WORKER_STACK: usize = 256 << 20;

/// Installs a panic hook that stays quiet inside the library's barrier (which reports the
/// panic, with the location recorded here) and behaves as the default hook everywhere else.
pub fn install_panic_hook() {
    let default = panic::take_hook();
    panic::set_hook(Box::new(move |info| {
        if !analysis::barrier::note_panic(info) {
            default(info);
        }
    }));
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
    use std::sync::mpsc::{channel, RecvTimeoutError};
    let slot = Mutex::new(Some(f));
    let spawned = std::thread::scope(|scope| {
        // The result comes back by a channel, not by polling the thread: the caller wakes
        // the moment the worker is done (polling cost up to a watch period, 20 ms of
        // every `hol check`, more than a small theory's whole check).
        let (done, result) = channel();
        let slot = &slot;
        let worker = std::thread::Builder::new().name("hol-check".to_owned()).stack_size(WORKER_STACK).spawn_scoped(
            scope,
            move || {
                let f = slot.lock().unwrap_or_else(|e| e.into_inner()).take();
                if let Some(f) = f {
                    let _ = done.send(f());
                }
            },
        );
        match worker {
            Ok(handle) => loop {
                match result.recv_timeout(WATCH_EVERY) {
                    Ok(r) => break Some(r),
                    Err(RecvTimeoutError::Timeout) => watch(),
                    // The worker ended without a result: it panicked.
                    Err(RecvTimeoutError::Disconnected) => match handle.join() {
                        Err(payload) => panic::resume_unwind(payload),
                        Ok(()) => unreachable!("the worker sends its result before it ends"),
                    },
                }
            },
            Err(_) => None,
        }
    });
    match spawned {
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
    fn a_caught_panic_is_recorded_with_its_location() {
        install_panic_hook();
        let err = analysis::barrier::catch(|| -> u32 { panic!("boom {}", 42) }).unwrap_err();
        assert!(err.starts_with("boom 42 (at "), "{err}");
        assert!(err.contains("guard.rs"), "{err}");
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
