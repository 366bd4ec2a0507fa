//! The analysis of one text of one document, on a thread of its own with a large stack.
//! Parse and type errors come first (`Options::diagnostics_first`); the first lemma that
//! needs testing waits for the debounce, so a burst of keystrokes starts one round of
//! testing; lemmas whose runs the cache holds are reported without waiting.
//!
//! Publishing: the first publication of a text replaces the last one of the text before,
//! so it waits until what is known at once is in (the errors, and the runs from the cache):
//! it is made when the first run starts testing, when the analysis ends, or at the first
//! event after `HOLD`, whichever comes first. Published earlier, a list without the cached
//! counterexamples would make them flicker on every keystroke. After it, the whole list so
//! far is published after each event that adds to it, and only while this analysis is its
//! document's current one, so nothing of an older text survives an edit. What is found is
//! recorded for hover, inlay hints and code actions.

use super::diagnostics;
use super::document::{lock, Findings, Lemma, Text};
use analysis::position::Columns;
use analysis::{Cancel, Ended, Event, FsLoader, MemoryCache, Overlay};
use lsp_server::{Message, Notification, Request};
use lsp_types::{PublishDiagnosticsParams, Uri};
use serde_json::Value;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long the first publication of a text may wait for what is known at once.
const HOLD: Duration = Duration::from_millis(20);

/// Which analysis of each document is current: a worker publishes under this lock, only
/// while its generation is the document's.
pub type Current = Arc<Mutex<HashMap<Uri, u64>>>;

/// What the server's tests observe of its work: how many quickcheck runs were tested (not
/// reused from the cache), and how many analyses have ended (completed or cancelled).
#[derive(Clone, Debug, Default)]
pub struct Probe {
    pub tested: Arc<AtomicUsize>,
    pub ended: Arc<AtomicUsize>,
}

pub struct Job {
    pub uri: Uri,
    pub path: PathBuf,
    pub version: i32,
    pub generation: u64,
    pub text: String,
    pub loader: Overlay<FsLoader>,
    pub options: analysis::Options,
    pub columns: Columns,
    pub cancel: Cancel,
    pub cache: Arc<MemoryCache>,
    pub findings: Arc<Mutex<Findings>>,
    pub current: Current,
    pub sender: crossbeam_channel::Sender<Message>,
    /// When the change arrived, and how long to wait after it before testing.
    pub changed_at: Instant,
    pub debounce: Duration,
    pub probe: Probe,
    /// Ask the client to fetch inlay hints again when a counterexample arrives (it said it
    /// can: `workspace.inlayHint.refreshSupport`); hints are pulled when the text changes,
    /// and a counterexample comes later.
    pub refresh_hints: Option<Arc<AtomicUsize>>,
}

impl Job {
    pub fn run(self) {
        self.analyse();
        self.probe.ended.fetch_add(1, Ordering::Relaxed);
    }

    fn analyse(&self) {
        if !self.record(|f| *f = Findings { generation: self.generation, ..Findings::default() }) {
            return;
        }
        let text = Text::new(&self.text, self.columns);
        let doc = diagnostics::Document { uri: &self.uri, text: &text };
        let mut published = Vec::new();
        let started = Instant::now();
        let mut holding = true;
        let mut waited = false;
        let mut sink = |event: Event| {
            match &event {
                Event::QuickcheckStarted { .. } => {
                    if std::mem::take(&mut holding) {
                        self.publish(&published);
                    }
                    if !std::mem::replace(&mut waited, true) {
                        self.debounce();
                    }
                    // Cancelled during the debounce, the run ends before it starts.
                    if !self.cancel.is_cancelled() {
                        self.probe.tested.fetch_add(1, Ordering::Relaxed);
                    }
                }
                Event::Lemma { span, statement_span, quickchecks, .. } => {
                    let lemma = Lemma {
                        span: *span,
                        statement_span: *statement_span,
                        commands: quickchecks.iter().map(|q| q.span).collect(),
                    };
                    self.record(|f| f.lemmas.push(lemma));
                }
                Event::Quickcheck(run) => {
                    let recorded = self.record(|f| f.runs.push((**run).clone()));
                    if recorded && run.report.counterexample.is_some() {
                        self.refresh_hints();
                    }
                }
                _ => {}
            }
            let added = diagnostics::of_event(&doc, &event);
            let changed = added.is_some();
            published.extend(added);
            if holding && started.elapsed() >= HOLD {
                holding = false;
                self.publish(&published);
            } else if changed && !holding {
                self.publish(&published);
            }
        };
        let mut options = self.options.clone();
        options.cache = Some(self.cache.clone());
        options.diagnostics_first = true;
        let ended = analysis::analyse(&self.path, &self.text, &self.loader, &options, &self.cancel, &mut sink);
        self.publish(&published);
        if ended == Ended::Completed && !self.cancel.is_cancelled() {
            // What this text did not use belongs to texts gone by.
            self.cache.sweep();
        }
    }

    /// Waits until the debounce after the change has passed, or the text is replaced.
    fn debounce(&self) {
        let until = self.changed_at + self.debounce;
        while !self.cancel.is_cancelled() {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return;
            }
            std::thread::sleep(left.min(Duration::from_millis(5)));
        }
    }

    /// Runs `f` if this analysis is still its document's current one (under the lock, so a
    /// newer analysis cannot take over meanwhile); says whether it ran.
    fn while_current(&self, f: impl FnOnce()) -> bool {
        let current = lock(&self.current);
        let is_current = !self.cancel.is_cancelled() && current.get(&self.uri) == Some(&self.generation);
        if is_current {
            f();
        }
        is_current
    }

    /// Changes the document's findings if this analysis is still its current one.
    fn record(&self, change: impl FnOnce(&mut Findings)) -> bool {
        self.while_current(|| change(&mut lock(&self.findings)))
    }

    /// Asks the client for inlay hints again, if it can be asked.
    fn refresh_hints(&self) {
        if let Some(requests) = &self.refresh_hints {
            let id = format!("hol/inlayHint/refresh/{}", requests.fetch_add(1, Ordering::Relaxed));
            let request = Request::new(id.into(), "workspace/inlayHint/refresh".into(), Value::Null);
            let _ = self.sender.send(Message::Request(request));
        }
    }

    /// Publishes `diagnostics` if this analysis is still its document's current one.
    fn publish(&self, diagnostics: &[lsp_types::Diagnostic]) {
        self.while_current(|| {
            let params = PublishDiagnosticsParams::new(self.uri.clone(), diagnostics.to_vec(), Some(self.version));
            let n = Notification::new("textDocument/publishDiagnostics".into(), params);
            let _ = self.sender.send(Message::Notification(n));
        });
    }
}
