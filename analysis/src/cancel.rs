//! Cancellation: a token the caller keeps a clone of and sets to stop an analysis. The
//! analysis looks at it between items (a diagnostic, a `value`, a lemma, each quickcheck
//! run) and hands it to every quickcheck run, whose testers look at it between batches of
//! cases; a cancelled analysis returns promptly and reports nothing about the item it was
//! working on.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A shared "stop" flag: cheap to clone (one `Arc`), `Send + Sync`. Every clone sees the
/// same flag; once set it stays set.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A token that is not cancelled.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Asks every analysis holding a clone of this token to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Has `cancel` been called on this token or a clone of it?
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }

    /// The flag itself, for the testers (`quickcheck::check_lemma`).
    pub fn flag(&self) -> &AtomicBool {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_the_flag() {
        let a = Cancel::new();
        let b = a.clone();
        assert!(!a.is_cancelled() && !b.is_cancelled());
        b.cancel();
        assert!(a.is_cancelled() && a.flag().load(Ordering::Relaxed));
    }
}
