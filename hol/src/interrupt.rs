//! SIGINT and SIGTERM: the run ends with the summary of what was finished and exit status
//! 130 or 143 (128 + the signal), as a shell reports a process the signal ended, instead of
//! a silent death that leaves the output without a summary (or a JSON line cut in two).
//!
//! The handler only records the signal (an atomic store is async-signal-safe). The main
//! thread watches for it while the checks run on their worker thread, and ends the process
//! between two output records (`main`), so a tester deep in a long lemma (compiled code
//! included) does not need to notice. The worker also checks between files and items and
//! starts nothing new once a signal has come. The handler is installed with `SA_RESETHAND`:
//! a second Ctrl-C ends the process at once.

use std::sync::atomic::{AtomicI32, Ordering};

/// The first signal received, 0 for none.
static RECEIVED: AtomicI32 = AtomicI32::new(0);

/// Installs the handlers; without them (not Unix, or `sigaction` failed) the signals keep
/// their default action.
pub fn install() {
    #[cfg(unix)]
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: `record` is async-signal-safe (one atomic compare-exchange), and the
        // `sigaction` struct is fully initialised (zeroed, then the fields set here).
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = record as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART | libc::SA_RESETHAND;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

#[cfg(unix)]
extern "C" fn record(signal: libc::c_int) {
    let _ = RECEIVED.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
}

/// The signal that asked the run to stop, if one did.
pub fn received() -> Option<i32> {
    match RECEIVED.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal),
    }
}

/// `SIGINT`, `SIGTERM`: the signal's name for messages.
pub fn name(signal: i32) -> String {
    #[cfg(unix)]
    match signal {
        libc::SIGINT => return "SIGINT".to_owned(),
        libc::SIGTERM => return "SIGTERM".to_owned(),
        _ => {}
    }
    format!("signal {signal}")
}

/// The exit status of a run ended by `signal`: 128 + its number (130 for SIGINT, 143 for
/// SIGTERM).
pub fn exit_status(signal: i32) -> u8 {
    u8::try_from(128 + signal).unwrap_or(u8::MAX)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn statuses_and_names() {
        assert_eq!((exit_status(libc::SIGINT), exit_status(libc::SIGTERM)), (130, 143));
        assert_eq!((name(libc::SIGINT), name(libc::SIGTERM)), ("SIGINT".to_owned(), "SIGTERM".to_owned()));
    }
}
