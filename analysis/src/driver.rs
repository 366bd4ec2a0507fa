//! The per-file pipeline: check the text with `lang` (sibling imports through the
//! `Loader`), evaluate each `value`, test each lemma (`lemmas`), and deliver what happens
//! as `Event`s in file order, each diagnostic just before the first item that starts
//! after it. Owns the per-file panic barrier (a panic becomes an event and ends the file,
//! never the stream) and the cancellation points (between items and runs).

use crate::barrier;
use crate::event::{Event, Origin};
use crate::lemmas::{self, Defaults, LemmaRef, Overrides, RunSettings, Target};
use crate::loader::{Loader, Siblings};
use crate::source::term_text;
use crate::values::{evaluation_failed, value_limits, ValueEvaluator};
use lang::{Diagnostic, ItemKind, ValueOutcome};
use quickcheck::Cancel;
use std::path::Path;

/// What to do with a file.
#[derive(Clone, Debug)]
pub struct Options {
    /// Do not test lemmas (report them only).
    pub skip_tests: bool,
    /// Settings for every quickcheck run, over the file's (`--tester`, `--size`, ...).
    pub overrides: Overrides,
    /// Report the core IR of the file (`Event::Ir`).
    pub dump_ir: bool,
    /// Evaluate `value`s and lemmas with the reference interpreter instead of the JIT.
    pub interpreter: bool,
    /// The testers: the names a theory's quickcheck options may use, and what runs them.
    pub registry: std::sync::Arc<quickcheck::Registry>,
    /// Report every diagnostic of checking before the first item, instead of each just
    /// before the item after it: an editor shows a parse error at once, whatever is tested
    /// before it in the file.
    pub diagnostics_first: bool,
    /// Runs of earlier analyses to reuse when nothing they depend on changed, and where this
    /// analysis keeps its own (`cache`). `None`: every lemma is tested.
    pub cache: Option<std::sync::Arc<dyn crate::cache::RunCache>>,
}

impl Default for Options {
    /// Test with every tester hol has (`testers::standard`).
    fn default() -> Options {
        Options {
            skip_tests: false,
            overrides: Overrides::default(),
            dump_ir: false,
            interpreter: false,
            registry: std::sync::Arc::new(crate::testers::standard()),
            diagnostics_first: false,
            cache: None,
        }
    }
}

/// How an analysis ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Every item of the file was reported (or a panic ended the file, reported as an
    /// event).
    Completed,
    /// The cancel token was set: the items after the last event were not reported.
    Cancelled,
}

/// Every event of one analysis, and how it ended.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub events: Vec<Event>,
    pub ended: Ended,
}

/// Analyses the theory `text`, the contents of the file at `path` (which names the file in
/// messages, locates its sibling imports and should match its theory's name), handing each
/// event to `sink` as soon as it is known. Imported sibling theories are read through
/// `loader`. Returns when the file is done or, soon after `cancel` is set, cancelled.
///
/// Deeply nested input needs a deep stack: a front end runs this on a thread with a large
/// one, as `hol` does.
pub fn analyse(
    path: &Path,
    text: &str,
    loader: &dyn Loader,
    options: &Options,
    cancel: &Cancel,
    sink: &mut dyn FnMut(Event),
) -> Ended {
    let mut ended = Ended::Completed;
    let caught = barrier::catch(|| ended = pipeline(path, text, loader, options, cancel, sink));
    if let Err(panic) = caught {
        sink(Event::FileError {
            message: format!("internal error while checking `{}`: hol panicked", path.display()),
            notes: vec![
                format!("panic: {panic}"),
                "results already reported for this file stand; the rest of it was not checked".to_owned(),
            ],
            help: vec!["this is a bug in hol; please report it with the file that triggers it".to_owned()],
        });
    }
    ended
}

/// `analyse`, collecting the events.
pub fn analyse_all(path: &Path, text: &str, loader: &dyn Loader, options: &Options, cancel: &Cancel) -> Analysis {
    let mut events = Vec::new();
    let ended = analyse(path, text, loader, options, cancel, &mut |e| events.push(e));
    Analysis { events, ended }
}

fn pipeline(
    path: &Path,
    text: &str,
    loader: &dyn Loader,
    options: &Options,
    cancel: &Cancel,
    emit: &mut dyn FnMut(Event),
) -> Ended {
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    crate::prelude::load();
    let mut theory = lang::check_theory_with(text, &Siblings { dir, loader }, &options.registry.names());
    let mut diagnostics = std::mem::take(&mut theory.diagnostics);
    // Isabelle finds a theory by its file name, so the two must agree.
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    if !theory.name.is_empty() && theory.name != stem {
        diagnostics.push(
            Diagnostic::warning(
                theory.name_span,
                format!("theory `{}` is in the file `{}`", theory.name, path.display()),
            )
            .with_label("the theory's name")
            .with_help(format!("Isabelle expects theory `{}` in a file named `{}.thy`", theory.name, theory.name)),
        );
    }
    diagnostics.sort_by_key(|d| d.primary.span.start);
    if options.diagnostics_first {
        for diagnostic in diagnostics.drain(..) {
            emit(Event::Diagnostic { diagnostic, origin: Origin::Check });
        }
    }
    let mut diagnostics = diagnostics.into_iter().peekable();
    let items = theory.items.clone();
    let mut evaluator = ValueEvaluator::new(&mut theory, !options.interpreter);
    let mut defaults = Defaults::default();
    let settings = RunSettings {
        overrides: &options.overrides,
        interpreter: options.interpreter,
        skip_tests: options.skip_tests,
        registry: &options.registry,
        cancel,
        cache: options.cache.as_deref(),
    };
    for item in &items {
        if cancel.is_cancelled() {
            return Ended::Cancelled;
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
                let limits = value_limits();
                let event = match evaluator.eval(&mut theory, *index, &limits) {
                    ValueOutcome::Value { printed, ty } => Event::Value {
                        span: item.span,
                        term_span: *term,
                        term: term_text(text, *term).to_owned(),
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
            ItemKind::Lemma { name, statement, quickchecks, index } => {
                let lemma =
                    LemmaRef { span: item.span, name: name.as_deref(), statement: *statement, commands: quickchecks };
                let target = Target::Test { theory: &theory, index: *index };
                if !lemmas::report(text, &lemma, &target, &defaults, &settings, emit) {
                    return Ended::Cancelled;
                }
            }
            ItemKind::Untested { name, statement, quickchecks, reason } => {
                let lemma =
                    LemmaRef { span: item.span, name: name.as_deref(), statement: *statement, commands: quickchecks };
                let target = Target::Untested { reason };
                if !lemmas::report(text, &lemma, &target, &defaults, &settings, emit) {
                    return Ended::Cancelled;
                }
            }
            ItemKind::Params { options } => defaults.apply(options),
        }
    }
    for diagnostic in diagnostics {
        emit(Event::Diagnostic { diagnostic, origin: Origin::Check });
    }
    if options.dump_ir {
        emit(Event::Ir { text: theory.dump_ir() });
    }
    Ended::Completed
}
