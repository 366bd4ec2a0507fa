//! The progress line on a terminal: a spinner on stderr naming the quickcheck run, shown
//! only once a run has taken more than a second, and never in JSON output or when stderr is
//! not a terminal (the caller decides, `enabled`).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long a run goes before the spinner appears.
const DELAY: Duration = Duration::from_secs(1);

pub struct Progress {
    /// The spinner and whether the run has finished (checked by the thread that shows it).
    state: Option<Arc<Mutex<(ProgressBar, bool)>>>,
}

impl Progress {
    pub fn start(enabled: bool, label: &str) -> Progress {
        if !enabled {
            return Progress { state: None };
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        if let Ok(style) = ProgressStyle::with_template("{spinner} testing {msg} ({elapsed})") {
            bar.set_style(style);
        }
        bar.set_message(label.to_owned());
        let state = Arc::new(Mutex::new((bar, false)));
        let shown = state.clone();
        let spawned = std::thread::Builder::new().name("progress".into()).spawn(move || {
            std::thread::sleep(DELAY);
            if let Ok(s) = shown.lock() {
                if !s.1 {
                    s.0.set_draw_target(ProgressDrawTarget::stderr());
                    s.0.enable_steady_tick(Duration::from_millis(120));
                }
            }
        });
        // Without a thread there is simply no spinner.
        Progress { state: spawned.ok().map(|_| state) }
    }

    pub fn finish(self) {
        if let Some(state) = self.state {
            if let Ok(mut s) = state.lock() {
                s.1 = true;
                s.0.finish_and_clear();
            }
        }
    }
}
