//! The `check` command: read each file given (`analysis::FsLoader`), run the analysis
//! (`analysis::analyse`), show the progress line while a quickcheck run goes on, and hand
//! each event to an `Output` while counting it into the `Tally`, which decides the exit
//! status. Knows nothing about how events are printed, nor how a file is analysed.

use crate::progress::Progress;
use analysis::position::LineMap;
use analysis::{Cancel, Event, Loader, Origin};
use lang::Severity;
use std::io;
use std::path::Path;

/// What the flags ask for.
#[derive(Clone, Debug)]
pub struct Options {
    /// What to do with each file (`--skip-tests`, `--tester`, `--dump-ir`, ...).
    pub analysis: analysis::Options,
    /// Show a progress line for long quickcheck runs (human output on a terminal).
    pub progress: bool,
}

/// One input file as read, for rendering its events. `text` is empty when the file could
/// not be read.
pub struct SourceFile {
    /// As given on the command line, for messages.
    pub path: String,
    pub text: String,
    pub lines: LineMap,
}

impl SourceFile {
    pub fn new(path: String, text: String) -> SourceFile {
        let lines = LineMap::new(&text);
        SourceFile { path, text, lines }
    }

    /// 1-based line of byte `offset`.
    pub fn line(&self, offset: u32) -> u32 {
        self.lines.position(offset).line
    }
}

/// Where events go: the human or the JSON printer.
pub trait Output {
    fn event(&mut self, file: &SourceFile, event: &Event) -> io::Result<()>;
    fn summary(&mut self, tally: &Tally) -> io::Result<()>;
}

/// The exit status, ordered by severity: the worst one seen wins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    #[default]
    Ok = 0,
    /// A `value` failed or an `expect` was not met.
    Failed = 1,
    /// A file could not be read, had parse/type errors, or crashed the checker.
    InputError = 2,
}

/// Findings that `--deny` can make fail the run (exit status 1), as `-D warnings` does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finding {
    /// A counterexample to a lemma without an `expect`.
    Counterexample,
    /// A potentially spurious counterexample to a lemma without an `expect`.
    PotentiallySpurious,
    /// A lemma run that did not test it (not executable: a failed definition, a construct
    /// that cannot be executed), without an `expect`.
    NotTested,
}

impl Finding {
    /// The finding a quickcheck run without an expectation makes, if any.
    pub fn of(outcome: quickcheck::OutcomeKind) -> Option<Finding> {
        match outcome {
            quickcheck::OutcomeKind::Counterexample => Some(Finding::Counterexample),
            quickcheck::OutcomeKind::PotentiallySpurious => Some(Finding::PotentiallySpurious),
            quickcheck::OutcomeKind::NotExecutable => Some(Finding::NotTested),
            _ => None,
        }
    }
}

/// Counts for the summary line, and the exit status.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Findings that fail the run (`--deny`).
    pub deny: Vec<Finding>,
    /// Runs whose finding was denied.
    pub denied: usize,
    /// Quickcheck runs that did not test their lemma (not executable).
    pub not_tested: usize,
    /// Error-level messages printed: diagnostics, file errors and unmet expectations.
    pub errors: usize,
    pub warnings: usize,
    pub values: usize,
    pub lemmas: usize,
    /// Quickcheck runs, and of them those that found a counterexample and those whose
    /// `expect` was not met.
    pub quickchecks: usize,
    pub counterexamples: usize,
    pub unmet: usize,
    pub status: Status,
    /// The signal that ended the run early (SIGINT, SIGTERM), if one did.
    pub interrupted: Option<i32>,
}

impl Tally {
    /// The process's exit status: 128 + the signal for an interrupted run (130, 143).
    pub fn exit_status(&self) -> u8 {
        match self.interrupted {
            Some(signal) => crate::interrupt::exit_status(signal),
            None => self.status as u8,
        }
    }
}

/// The output and the tally, shared by the worker thread that checks and the main thread,
/// which writes the summary itself when a signal ends the run. One lock covers counting an
/// event and writing it, so a summary written under the lock counts exactly the records
/// before it, and no record is cut in two.
pub struct Session {
    pub out: Box<dyn Output + Send>,
    pub tally: Tally,
    /// The summary is written once, by whichever thread comes first.
    summarized: bool,
}

impl Session {
    pub fn new(out: Box<dyn Output + Send>, tally: Tally) -> Session {
        Session { out, tally, summarized: false }
    }

    /// Writes the summary unless it was written already.
    pub fn summarize(&mut self) -> io::Result<()> {
        if std::mem::replace(&mut self.summarized, true) {
            return Ok(());
        }
        self.out.summary(&self.tally)
    }
}

/// The session, locked (a panic while it was held leaves it usable: counts and writes do
/// not leave it half changed).
pub fn lock(session: &std::sync::Mutex<Session>) -> std::sync::MutexGuard<'_, Session> {
    session.lock().unwrap_or_else(|e| e.into_inner())
}

impl Session {
    /// Counts `event` and writes it.
    fn emit(&mut self, file: &SourceFile, event: &Event) -> io::Result<()> {
        self.tally.count(event);
        self.out.event(file, event)
    }
}

impl Tally {
    fn count(&mut self, event: &Event) {
        match event {
            Event::Diagnostic { diagnostic, origin } => {
                if *origin == Origin::Evaluation {
                    self.values += 1;
                }
                match diagnostic.severity {
                    Severity::Error => {
                        self.errors += 1;
                        self.status = self.status.max(match origin {
                            Origin::Check => Status::InputError,
                            Origin::Evaluation => Status::Failed,
                        });
                    }
                    Severity::Warning => self.warnings += 1,
                    Severity::Info => {}
                }
            }
            Event::FileError { .. } => {
                self.errors += 1;
                self.status = Status::InputError;
            }
            Event::Value { .. } => self.values += 1,
            Event::Lemma { .. } => self.lemmas += 1,
            Event::Quickcheck(run) => {
                self.quickchecks += 1;
                if run.report.outcome == quickcheck::OutcomeKind::Counterexample {
                    self.counterexamples += 1;
                }
                if run.report.outcome == quickcheck::OutcomeKind::NotExecutable {
                    self.not_tested += 1;
                }
                if run.is_internal_error() {
                    self.errors += 1;
                    self.status = Status::InputError;
                }
                if run.expect_met == Some(false) {
                    self.unmet += 1;
                    self.errors += 1;
                    self.status = self.status.max(Status::Failed);
                }
                let finding = Finding::of(run.report.outcome).filter(|_| run.expect.is_none());
                if finding.is_some_and(|f| self.deny.contains(&f)) {
                    self.denied += 1;
                    self.status = self.status.max(Status::Failed);
                }
            }
            Event::QuickcheckStarted { .. } | Event::Ir { .. } => {}
        }
    }
}

/// Checks every file in order, reporting to the session's output and counting into its
/// tally, then writes the summary. Stops early, between two items, when a signal asks it
/// to (`interrupt`). An `Err` only when writing the output failed; the tally then covers
/// what was reported before.
pub fn run(files: &[impl AsRef<Path>], options: &Options, session: &std::sync::Mutex<Session>) -> io::Result<()> {
    let cancel = Cancel::new();
    for path in files {
        if crate::interrupt::received().is_some() {
            break;
        }
        check_file(path.as_ref(), options, &cancel, session)?;
    }
    let mut s = lock(session);
    s.tally.interrupted = crate::interrupt::received();
    s.summarize()
}

fn check_file(path: &Path, options: &Options, cancel: &Cancel, session: &std::sync::Mutex<Session>) -> io::Result<()> {
    let shown = path.display().to_string();
    let loader = analysis::FsLoader::default();
    let text = match loader.load(path) {
        Ok(text) => text,
        Err(e) => {
            let event = e.event(&shown);
            let file = SourceFile::new(shown, e.text().to_owned());
            return lock(session).emit(&file, &event);
        }
    };
    let file = SourceFile::new(shown, text);
    let mut written = Ok(());
    let mut progress = None;
    let mut sink = |event: Event| {
        // A signal stops the analysis at its next item (the main thread reports it).
        if crate::interrupt::received().is_some() {
            cancel.cancel();
        }
        if let Event::QuickcheckStarted { span } = &event {
            let label = format!("{}:{}", file.path, file.line(span.start));
            progress = Some(Progress::start(options.progress, &label));
            return;
        }
        if let Some(p) = progress.take() {
            p.finish();
        }
        let mut s = lock(session);
        s.tally.count(&event);
        if written.is_ok() {
            written = s.out.event(&file, &event);
        }
    };
    analysis::analyse(path, &file.text, &loader, &options.analysis, cancel, &mut sink);
    if let Some(p) = progress.take() {
        p.finish();
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;
    use lang::{Diagnostic, Span};

    #[test]
    fn the_worst_status_wins() {
        let mut t = Tally::default();
        let value_error =
            Event::Diagnostic { diagnostic: Diagnostic::error(Span::new(0, 1), "x"), origin: Origin::Evaluation };
        t.count(&value_error);
        assert_eq!((t.status, t.errors, t.values), (Status::Failed, 1, 1));
        t.count(&Event::FileError { message: "m".into(), notes: vec![], help: vec![] });
        assert_eq!(t.status, Status::InputError);
        t.count(&value_error);
        assert_eq!((t.status, t.errors), (Status::InputError, 3));
    }

    fn run(outcome: quickcheck::OutcomeKind, message: &str, expect: Option<quickcheck::Expect>) -> Event {
        let report = quickcheck::Report::new("exhaustive", outcome).with_message(message.to_owned());
        Event::Quickcheck(Box::new(analysis::QuickcheckRun {
            span: Span::new(0, 1),
            lemma_name: None,
            statement: "x".into(),
            statement_span: Span::new(0, 1),
            command: None,
            report,
            evaluated: vec![],
            expect,
            expect_met: expect.map(|_| true),
            quiet: false,
            verbose: false,
            show_report: false,
        }))
    }

    #[test]
    fn an_internal_error_in_a_tester_counts_and_exits_2() {
        let mut t = Tally::default();
        t.count(&run(quickcheck::OutcomeKind::Error, "the narrowing tester is not available yet", None));
        assert_eq!((t.status, t.errors), (Status::Ok, 0));
        t.count(&run(quickcheck::OutcomeKind::Error, "internal error: hol panicked while testing this lemma: x", None));
        assert_eq!((t.status, t.errors), (Status::InputError, 1));
    }

    #[test]
    fn denied_findings_fail_the_run_unless_expected() {
        use quickcheck::OutcomeKind as O;
        let mut t = Tally { deny: vec![Finding::Counterexample, Finding::NotTested], ..Tally::default() };
        t.count(&run(O::PotentiallySpurious, "", None));
        t.count(&run(O::Counterexample, "", Some(quickcheck::Expect::Counterexample)));
        assert_eq!((t.status, t.denied), (Status::Ok, 0));
        t.count(&run(O::NotExecutable, "not tested: x", None));
        assert_eq!((t.status, t.denied, t.not_tested), (Status::Failed, 1, 1));
        t.count(&run(O::Counterexample, "", None));
        assert_eq!(t.denied, 2);
    }

    #[test]
    fn warnings_do_not_change_the_status() {
        let mut t = Tally::default();
        let mut d = Diagnostic::error(Span::new(0, 1), "x");
        d.severity = Severity::Warning;
        t.count(&Event::Diagnostic { diagnostic: d, origin: Origin::Check });
        assert_eq!((t.status, t.warnings, t.errors), (Status::Ok, 1, 0));
    }
}
