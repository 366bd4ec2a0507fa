//! The `check` command as a pipeline: read each file, run `lang::check_theory`, evaluate
//! the `value` commands, and hand what happens to an `Output` as `Event`s, in file order,
//! as soon as each is known. Owns the per-file panic barrier, the evaluation limits, the
//! tally and the exit status; knows nothing about how events are printed.

use crate::evaluate::ValueEvaluator;
use crate::guard;
use crate::position::LineMap;
use lang::interp::{EvalError, Limits};
use lang::{Diagnostic, ItemKind, QuickcheckCmd, Severity, Span, ValueOutcome};
use std::io;
use std::path::Path;
use std::time::{Duration, Instant};

/// Wall-clock time each `value` may evaluate for.
pub const VALUE_TIMEOUT: Duration = Duration::from_secs(5);

/// What the flags ask for.
#[derive(Clone, Debug)]
pub struct Options {
    /// Do not test lemmas (list them only).
    pub skip_tests: bool,
    /// Command-line settings for every quickcheck run (`--tester`, `--size`, ...).
    pub overrides: quickcheck::Overrides,
    /// The testers: the names theories may use, and what runs them.
    pub registry: std::sync::Arc<quickcheck::Registry>,
    /// Emit the core IR of each file.
    pub dump_ir: bool,
    /// Evaluate `value`s and lemmas with the reference interpreter instead of the JIT.
    pub interpreter: bool,
    /// Show a progress line for long quickcheck runs (human output on a terminal).
    pub progress: bool,
}

/// One input file as read. `text` is empty when the file could not be read.
pub struct SourceFile {
    /// As given on the command line, for messages.
    pub path: String,
    pub text: String,
    pub lines: LineMap,
}

impl SourceFile {
    fn new(path: String, text: String) -> SourceFile {
        let lines = LineMap::new(&text);
        SourceFile { path, text, lines }
    }

    /// 1-based line of byte `offset`.
    pub fn line(&self, offset: u32) -> u32 {
        self.lines.position(offset).line
    }
}

/// Where an error-level diagnostic came from; decides the exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Parsing, type checking, definitions: input errors.
    Check,
    /// A `value` that did not evaluate.
    Evaluation,
}

/// A `quickcheck` command as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quickcheck {
    pub line: u32,
    /// The command's source text, whitespace collapsed.
    pub text: String,
    pub options: Vec<(String, Option<String>)>,
}

/// Something to report about a file.
#[derive(Clone, Debug)]
pub enum Event {
    /// A diagnostic located in the file.
    Diagnostic { diagnostic: Diagnostic, origin: Origin },
    /// An error about the file as a whole: it cannot be read, or checking it crashed.
    FileError { message: String, notes: Vec<String>, help: Vec<String> },
    /// A `value` command and its result.
    Value { line: u32, term: String, result: String, ty: String },
    /// A lemma that type-checked, with its quickcheck commands.
    Lemma { line: u32, name: Option<String>, statement: String, quickchecks: Vec<Quickcheck> },
    /// One quickcheck run on a lemma and what it found.
    Quickcheck(Box<crate::testing::QuickcheckRun>),
    /// The core IR of the file (`--dump-ir`).
    Ir { text: String },
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
                if crate::testing::is_internal_error(&run.report) {
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
            Event::Ir { .. } => {}
        }
    }
}

/// Checks every file in order, reporting to the session's output and counting into its
/// tally, then writes the summary. Stops early, between two items, when a signal asks it
/// to (`interrupt`). An `Err` only when writing the output failed; the tally then covers
/// what was reported before.
pub fn run(files: &[impl AsRef<Path>], options: &Options, session: &std::sync::Mutex<Session>) -> io::Result<()> {
    for path in files {
        if crate::interrupt::received().is_some() {
            break;
        }
        check_file(path.as_ref(), options, session)?;
    }
    let mut s = lock(session);
    s.tally.interrupted = crate::interrupt::received();
    s.summarize()
}

fn check_file(path: &Path, options: &Options, session: &std::sync::Mutex<Session>) -> io::Result<()> {
    let shown = path.display().to_string();
    let text = match read(path) {
        Ok(text) => text,
        Err(ReadError::Message(message)) => {
            let file = SourceFile::new(shown, String::new());
            let event = Event::FileError { message, notes: vec![], help: vec![] };
            return lock(session).emit(&file, &event);
        }
        Err(ReadError::NotUtf8 { text, at, .. }) => {
            // Located at the first bad byte, in the text as far as it reads: the bad bytes
            // are shown as U+FFFD, which keeps the offsets before them.
            let file = SourceFile::new(shown, text);
            let at = at as usize;
            let diagnostic = Diagnostic::error(
                Span::new(at, at + char::REPLACEMENT_CHARACTER.len_utf8()),
                format!("`{}` is not valid UTF-8", file.path),
            )
            .with_label("the first byte that is not UTF-8")
            .with_note("theory files are read as UTF-8; nothing in this file was checked")
            .with_help("convert the file to UTF-8 (e.g. `iconv -f LATIN1 -t UTF-8`)");
            let event = Event::Diagnostic { diagnostic, origin: Origin::Check };
            return lock(session).emit(&file, &event);
        }
    };
    let file = SourceFile::new(shown, text);
    let mut written = Ok(());
    let mut emit = |event: Event| {
        let mut s = lock(session);
        s.tally.count(&event);
        if written.is_ok() {
            written = s.out.event(&file, &event);
        }
    };
    let caught = guard::catch(|| analyse(&file, options, &mut emit));
    if let Err(panic) = caught {
        emit(Event::FileError {
            message: format!("internal error while checking `{}`: hol panicked", file.path),
            notes: vec![
                format!("panic: {panic}"),
                "results already reported for this file stand; the rest of it was not checked".to_owned(),
            ],
            help: vec!["this is a bug in hol; please report it with the file that triggers it".to_owned()],
        });
    }
    written
}

/// Why a file's text cannot be had.
#[derive(Debug, PartialEq, Eq)]
enum ReadError {
    /// Missing, unreadable, not a regular file, too large: a message naming the file.
    Message(String),
    /// Not UTF-8: the text with the bad bytes replaced by U+FFFD (offsets before the first
    /// one unchanged), the first bad byte's offset and the length of the bad sequence.
    NotUtf8 { text: String, at: u32, len: u32 },
}

impl ReadError {
    /// One line saying why, the first bad byte's line and column included.
    fn message(&self, shown: &str) -> String {
        match self {
            ReadError::Message(m) => m.clone(),
            ReadError::NotUtf8 { text, at, .. } => {
                let p = LineMap::new(text).position(*at);
                format!("cannot read `{shown}`: not valid UTF-8 (line {}, column {})", p.line, p.column)
            }
        }
    }
}

/// The largest file read: spans are 32-bit byte offsets, and one past the end must fit.
const MAX_FILE: u64 = u32::MAX as u64 - 1;

/// The file's contents, or why they cannot be had.
fn read(path: &Path) -> Result<String, ReadError> {
    read_capped(path, MAX_FILE)
}

/// `read` with a size limit of `limit` bytes. Only regular files are read: a FIFO would
/// block forever (it is opened without waiting for a writer, then refused) and a device
/// such as `/dev/zero` would be read until memory runs out. Even a regular file is read
/// with a cap, since its size may grow while it is read (or be reported as 0 by `/proc`).
fn read_capped(path: &Path, limit: u64) -> Result<String, ReadError> {
    use std::io::Read;
    let shown = path.display();
    let fail = |why: String| ReadError::Message(format!("cannot read `{shown}`: {why}"));
    let mut open = std::fs::OpenOptions::new();
    open.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut open, libc::O_NONBLOCK);
    let file = open.open(path).map_err(|e| fail(io_reason(&e)))?;
    let meta = file.metadata().map_err(|e| fail(io_reason(&e)))?;
    if !meta.is_file() {
        return Err(fail(format!("not a regular file ({})", file_kind(&meta.file_type()))));
    }
    if meta.len() > limit {
        return Err(fail(too_large(limit)));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit + 1).read_to_end(&mut bytes).map_err(|e| fail(io_reason(&e)))?;
    if bytes.len() as u64 > limit {
        return Err(fail(too_large(limit)));
    }
    String::from_utf8(bytes).map_err(|e| {
        let bad = e.utf8_error();
        let at = bad.valid_up_to() as u32;
        let len = bad.error_len().unwrap_or(e.as_bytes().len() - bad.valid_up_to()) as u32;
        ReadError::NotUtf8 { text: String::from_utf8_lossy(e.as_bytes()).into_owned(), at, len }
    })
}

fn too_large(limit: u64) -> String {
    if limit == MAX_FILE {
        "larger than 4 GiB".to_owned()
    } else {
        format!("larger than {limit} bytes")
    }
}

/// What a file that is not a regular file is, for the message.
fn file_kind(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a named pipe";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a directory"
    } else {
        "not a file"
    }
}

/// Sibling theories: `imports Foo` reads `Foo.thy` in the importing file's directory.
struct SiblingFiles {
    dir: std::path::PathBuf,
}

impl lang::TheoryLoader for SiblingFiles {
    fn load(&self, path: &str) -> Result<String, String> {
        let file = self.dir.join(format!("{path}.thy"));
        read(&file).map_err(|e| e.message(&file.display().to_string()))
    }
}

/// `io::Error`'s text without the `(os error N)` suffix.
fn io_reason(e: &io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(cut) => text[..cut].to_owned(),
        None => text,
    }
}

/// Runs the library on one file and emits its events in file order: each diagnostic just
/// before the first item that starts after it.
fn analyse(file: &SourceFile, options: &Options, emit: &mut dyn FnMut(Event)) {
    let dir = Path::new(&file.path).parent().map(Path::to_path_buf).unwrap_or_default();
    let mut theory = lang::check_theory_with(&file.text, &SiblingFiles { dir }, &options.registry.names());
    let mut diagnostics = std::mem::take(&mut theory.diagnostics);
    // Isabelle finds a theory by its file name, so the two must agree.
    let stem = Path::new(&file.path).file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    if !theory.name.is_empty() && theory.name != stem {
        diagnostics.push(
            Diagnostic::warning(
                theory.name_span,
                format!("theory `{}` is in the file `{}`", theory.name, Path::new(&file.path).display()),
            )
            .with_label("the theory's name")
            .with_help(format!("Isabelle expects theory `{}` in a file named `{}.thy`", theory.name, theory.name)),
        );
    }
    diagnostics.sort_by_key(|d| d.primary.span.start);
    let mut diagnostics = diagnostics.into_iter().peekable();
    let items = theory.items.clone();
    let mut evaluator = ValueEvaluator::new(&mut theory, !options.interpreter);
    let mut defaults = quickcheck::Options::default();
    for item in &items {
        if crate::interrupt::received().is_some() {
            return;
        }
        // Diagnostics come in source order: those inside a lemma or its quickcheck commands
        // (a warning on a name, an option's error) before its results.
        let extent = match &item.kind {
            ItemKind::Lemma { quickchecks, .. } | ItemKind::Untested { quickchecks, .. } => {
                quickchecks.iter().map(|q| q.span.end).fold(item.span.end, u32::max)
            }
            _ => item.span.start,
        };
        while let Some(diagnostic) = diagnostics.next_if(|d| d.primary.span.start <= extent) {
            emit(Event::Diagnostic { diagnostic, origin: Origin::Check });
        }
        match &item.kind {
            ItemKind::Value { term, index } => {
                let limits = Limits { deadline: Some(Instant::now() + VALUE_TIMEOUT), ..Limits::default() };
                let event = match evaluator.eval(&mut theory, *index, &limits) {
                    ValueOutcome::Value { printed, ty } => Event::Value {
                        line: file.line(item.span.start),
                        term: term_text(&file.text, *term).to_owned(),
                        result: printed,
                        ty,
                    },
                    ValueOutcome::Failed(error) => Event::Diagnostic {
                        diagnostic: evaluation_failed(*term, &error, &limits),
                        origin: Origin::Evaluation,
                    },
                };
                emit(event);
            }
            ItemKind::Lemma { name, statement, quickchecks, .. }
            | ItemKind::Untested { name, statement, quickchecks, .. } => {
                emit(Event::Lemma {
                    line: file.line(item.span.start),
                    name: name.clone(),
                    statement: collapse(term_text(&file.text, *statement)),
                    quickchecks: quickchecks.iter().map(|q| quickcheck(file, q)).collect(),
                });
                if !options.skip_tests {
                    let (name, statement) = (name.as_deref(), *statement);
                    match &item.kind {
                        ItemKind::Untested { reason, .. } => {
                            let lemma = crate::testing::LemmaRef { name, statement, index: 0 };
                            crate::testing::untested_lemma(file, &lemma, quickchecks, &defaults, options, reason, emit);
                        }
                        ItemKind::Lemma { index, .. } => {
                            let lemma = crate::testing::LemmaRef { name, statement, index: *index };
                            crate::testing::test_lemma(file, &theory, &lemma, quickchecks, &defaults, options, emit);
                        }
                        _ => {}
                    }
                }
            }
            ItemKind::Params { options } => defaults.apply(options, true),
        }
    }
    for diagnostic in diagnostics {
        emit(Event::Diagnostic { diagnostic, origin: Origin::Check });
    }
    if options.dump_ir {
        emit(Event::Ir { text: theory.dump_ir() });
    }
}

fn evaluation_failed(term: Span, error: &EvalError, limits: &Limits) -> Diagnostic {
    let d = Diagnostic::error(term, error.to_string()).with_label("while evaluating this `value`");
    match error {
        EvalError::Timeout => d.with_note(format!("each `value` may evaluate for {} s", VALUE_TIMEOUT.as_secs())),
        EvalError::OutOfFuel => d.with_note(format!("each `value` may take {} evaluation steps", limits.fuel)),
        EvalError::TooDeep => d.with_note(format!("calls may nest {} deep", limits.max_depth)),
        EvalError::Undefined(_) | EvalError::NotExecutable(_) | EvalError::OutOfMemory => d,
    }
}

fn quickcheck(file: &SourceFile, q: &QuickcheckCmd) -> Quickcheck {
    Quickcheck {
        line: file.line(q.span.start),
        text: collapse(slice(&file.text, q.span)),
        options: q.options.iter().map(|o| (o.name.clone(), o.value.clone())).collect(),
    }
}

/// The text of `span`, clamped to `text` and its character boundaries.
pub fn slice(text: &str, span: Span) -> &str {
    let floor = |mut i: usize| {
        i = i.min(text.len());
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let (a, b) = (floor(span.start as usize), floor(span.end as usize));
    &text[a.min(b)..a.max(b)]
}

/// The term text of `span`, without the quotes or cartouche around it if the span has them.
pub fn term_text(text: &str, span: Span) -> &str {
    let t = slice(text, span).trim();
    for (open, close) in [("\"", "\""), ("‹", "›")] {
        if let Some(inner) = t.strip_prefix(open).and_then(|t| t.strip_suffix(close)) {
            return inner.trim();
        }
    }
    t
}

/// Whitespace runs (newlines included) as single spaces: one-line display text.
pub fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn term_text_drops_quotes_and_cartouches() {
        let text = "value \"rev [1, 2]\"  value ‹x + 1›  value y";
        let find = |s: &str| {
            let i = text.find(s).unwrap();
            Span::new(i, i + s.len())
        };
        assert_eq!(term_text(text, find("\"rev [1, 2]\"")), "rev [1, 2]");
        assert_eq!(term_text(text, find("rev [1, 2]")), "rev [1, 2]");
        assert_eq!(term_text(text, find("‹x + 1›")), "x + 1");
        assert_eq!(term_text(text, find("y")), "y");
    }

    #[test]
    fn slices_survive_bad_spans() {
        assert_eq!(slice("a⟹b", Span::new(2, 4)), "⟹");
        assert_eq!(slice("a⟹b", Span::new(2, 5)), "⟹b");
        assert_eq!(slice("ab", Span::new(5, 1)), "b");
    }

    #[test]
    fn collapse_makes_one_line() {
        assert_eq!(collapse("  a\n   b\r\n\tc "), "a b c");
    }

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
        Event::Quickcheck(Box::new(crate::testing::QuickcheckRun {
            line: 1,
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

    fn temp_dir(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("hol-read-test-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn unreadable_and_non_utf8_files_are_messages() {
        let err = read(Path::new("/nonexistent/dir/x.thy")).unwrap_err();
        assert_eq!(err, ReadError::Message("cannot read `/nonexistent/dir/x.thy`: No such file or directory".into()));
        let dir = temp_dir("utf8");
        let bad = dir.join("bad.thy");
        std::fs::write(&bad, b"theory\n  \xe2\x9f\xb9 \xff").unwrap();
        let err = read(&bad).unwrap_err();
        assert_eq!(err, ReadError::NotUtf8 { text: "theory\n  ⟹ \u{fffd}".into(), at: 13, len: 1 });
        let message = err.message("bad.thy");
        assert!(message.ends_with("not valid UTF-8 (line 2, column 5)"), "{message}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_truncated_character_at_the_end_is_located() {
        let dir = temp_dir("truncated");
        let bad = dir.join("bad.thy");
        std::fs::write(&bad, b"ab\xe2\x9f").unwrap();
        let Err(ReadError::NotUtf8 { at, len, .. }) = read(&bad) else { panic!("not an encoding error") };
        assert_eq!((at, len), (2, 2));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn only_regular_files_are_read() {
        let dir = temp_dir("kinds");
        let err = read(&dir).unwrap_err();
        assert!(matches!(&err, ReadError::Message(m) if m.ends_with("not a regular file (a directory)")), "{err:?}");
        #[cfg(unix)]
        {
            let err = read(Path::new("/dev/zero")).unwrap_err();
            assert_eq!(
                err,
                ReadError::Message("cannot read `/dev/zero`: not a regular file (a character device)".into())
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn files_are_read_up_to_the_limit() {
        let dir = temp_dir("limit");
        let f = dir.join("big.thy");
        std::fs::write(&f, "0123456789").unwrap();
        assert_eq!(read_capped(&f, 10), Ok("0123456789".to_owned()));
        let err = read_capped(&f, 9).unwrap_err();
        assert_eq!(err, ReadError::Message(format!("cannot read `{}`: larger than 9 bytes", f.display())));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
