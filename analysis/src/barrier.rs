//! The panic barrier: a bug in the checker or a tester costs one item or the rest of one
//! file, never the stream of events. `catch` turns a panic into its message; a process
//! that installs a panic hook (the binary does) calls `note_panic` from it, so that a panic
//! caught here is recorded with its location and not also printed by the default hook.
//!
//! Catching relies on `panic = "unwind"`, the default: a profile that builds a front end
//! must not set `panic = "abort"`.

use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe, PanicHookInfo};

thread_local! {
    /// True while `catch` runs on this thread.
    static CATCHING: Cell<bool> = const { Cell::new(false) };
    /// The last panic `note_panic` recorded on this thread, with its location.
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// For a process's panic hook: when the panic happens inside `catch` on this thread,
/// records its message and location for the event that will report it and returns true
/// (the hook should then stay quiet); otherwise returns false (the hook does what it
/// would have done).
pub fn note_panic(info: &PanicHookInfo<'_>) -> bool {
    if !CATCHING.with(Cell::get) {
        return false;
    }
    let message = payload_text(info.payload());
    let text = match info.location() {
        Some(at) => format!("{message} (at {}:{}:{})", at.file(), at.line(), at.column()),
        None => message,
    };
    LAST_PANIC.with(|last| *last.borrow_mut() = Some(text));
    true
}

/// Runs `f`; a panic inside it becomes `Err(message)`, with its location when the
/// process's hook called `note_panic`.
pub fn catch<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    let was = CATCHING.with(|c| c.replace(true));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    CATCHING.with(|c| c.set(was));
    result.map_err(|payload| {
        LAST_PANIC.with(|last| last.borrow_mut().take()).unwrap_or_else(|| payload_text(payload.as_ref()))
    })
}

fn payload_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_a_message_with_its_location() {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !note_panic(info) {
                default(info);
            }
        }));
        let err = catch(|| -> u32 { panic!("boom {}", 42) }).unwrap_err();
        assert!(err.starts_with("boom 42 (at "), "{err}");
        assert!(err.contains("barrier.rs"), "{err}");
        assert_eq!(catch(|| 7), Ok(7));
    }
}
