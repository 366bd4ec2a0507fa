//! Testing lemmas: the options of each `quickcheck` command layered over the file's
//! defaults (`quickcheck_params`, `declare [[...]]`) and the front end's overrides, one run
//! per command (a lemma without one is tested with the defaults), each announced
//! (`QuickcheckStarted`) and then reported (`Quickcheck`) with the lemma's evaluated terms
//! resolved to their source text; with a cache (`cache`), a run whose key is stored is
//! reported from it instead, without being announced. The one module that calls the
//! testers: everything this crate asks of `quickcheck`'s API beyond its report types is
//! here.

use crate::barrier;
use crate::cache::{self, LemmaDigest, RunCache};
use crate::event::{Event, QuickcheckCommand, QuickcheckRun};
use crate::source::{balanced, collapse, slice, term_text};
use lang::{CheckedTheory, QuickcheckCmd, RawOption, Span};
use quickcheck::{Cancel, Engine, Expect, OutcomeKind, Registry, Report, TesterName};

/// The command line's settings for every quickcheck run (`--tester`, `--size`, ...).
pub type Overrides = quickcheck::Overrides;

/// The options of one run: the file's defaults, then the command's options, then the
/// front end's overrides, each later one winning.
pub fn layered(defaults: &Defaults, command: Option<&[RawOption]>, overrides: &Overrides) -> quickcheck::Options {
    let mut opts = defaults.0.clone();
    if let Some(options) = command {
        opts.apply(options, false);
    }
    overrides.apply(&mut opts);
    opts
}

/// A file's quickcheck defaults as far as the analysis has read it.
#[derive(Clone, Debug, Default)]
pub struct Defaults(quickcheck::Options);

impl Defaults {
    /// Applies a `quickcheck_params[...]` or `declare [[quickcheck_...]]` item.
    pub fn apply(&mut self, options: &[RawOption]) {
        self.0.apply(options, true);
    }
}

/// A lemma item to test, with its quickcheck commands.
pub(crate) struct LemmaRef<'a> {
    /// The lemma item.
    pub span: Span,
    pub name: Option<&'a str>,
    /// The statement's span (the quoted term).
    pub statement: Span,
    pub commands: &'a [QuickcheckCmd],
}

/// What a run of the lemma does.
pub(crate) enum Target<'a> {
    /// Test lemma item `index` of the theory.
    Test { theory: &'a CheckedTheory, index: usize },
    /// Report every run as not executable, with `reason` (the lemma uses a definition that
    /// failed).
    Untested { reason: &'a str },
}

/// What the driver needs beyond the defaults.
pub(crate) struct RunSettings<'a> {
    pub overrides: &'a Overrides,
    /// Run cases in the reference interpreter only.
    pub interpreter: bool,
    /// Report lemmas without running them.
    pub skip_tests: bool,
    pub registry: &'a Registry,
    pub cancel: &'a Cancel,
    /// Runs of earlier analyses to reuse, and where to keep this one's.
    pub cache: Option<&'a dyn RunCache>,
}

/// Reports a lemma (the item at `lemma.span`), then, unless tests are skipped, each of its
/// runs.
/// Returns false when the analysis was cancelled.
pub(crate) fn report(
    text: &str,
    lemma: &LemmaRef,
    target: &Target,
    defaults: &Defaults,
    settings: &RunSettings,
    emit: &mut dyn FnMut(Event),
) -> bool {
    emit(Event::Lemma {
        span: lemma.span,
        name: lemma.name.map(str::to_owned),
        statement: collapse(term_text(text, lemma.statement)),
        statement_span: lemma.statement,
        quickchecks: lemma.commands.iter().map(|q| command(text, q)).collect(),
    });
    settings.skip_tests || run_lemma(text, lemma, target, defaults, settings, emit)
}

fn command(text: &str, q: &QuickcheckCmd) -> QuickcheckCommand {
    QuickcheckCommand {
        span: q.span,
        text: collapse(slice(text, q.span)),
        options: q.options.iter().map(|o| (o.name.clone(), o.value.clone())).collect(),
    }
}

/// Runs and reports each run of `lemma` (the file's text is `text`), or reuses its result
/// from the cache. Returns false when the analysis was cancelled: the run under way then
/// reports nothing.
fn run_lemma(
    text: &str,
    lemma: &LemmaRef,
    target: &Target,
    defaults: &Defaults,
    settings: &RunSettings,
    emit: &mut dyn FnMut(Event),
) -> bool {
    let runs: Vec<Option<&QuickcheckCmd>> =
        if lemma.commands.is_empty() { vec![None] } else { lemma.commands.iter().map(Some).collect() };
    let mut digest = match (settings.cache, target) {
        (Some(_), Target::Test { theory, index }) => {
            let commands: Vec<Span> = lemma.commands.iter().map(|c| c.span).collect();
            Some(LemmaDigest::new(theory, *index, text, lemma.span, &commands))
        }
        _ => None,
    };
    for cmd in runs {
        if settings.cancel.is_cancelled() {
            return false;
        }
        let opts = layered(defaults, cmd.map(|c| c.options.as_slice()), settings.overrides);
        let span = cmd.map_or(lemma.statement, |c| c.span);
        let key = digest.as_mut().and_then(|d| d.key(&opts, settings.interpreter));
        let cached = settings.cache.zip(key).and_then(|(cache, key)| cache.get(&key));
        if let Some(run) = cached {
            emit(Event::Quickcheck(Box::new(cache::relocated(run, 0, lemma.span.start))));
            continue;
        }
        emit(Event::QuickcheckStarted { span });
        let report = match target {
            Target::Test { theory, index } => test(theory, *index, &opts, settings),
            Target::Untested { reason } => Report::new(tester_of(&opts, settings.registry), OutcomeKind::NotExecutable)
                .with_message(format!("not tested: {reason}")),
        };
        if settings.cancel.is_cancelled() {
            return false;
        }
        let expect = opts.expect.filter(|e| *e != Expect::NoExpectation);
        let evaluated = report
            .counterexample
            .as_ref()
            .map(|cx| cx.evaluated.iter().map(|e| (collapse(&balanced(text, e.span)), e.value.clone())).collect())
            .unwrap_or_default();
        let run = QuickcheckRun {
            span,
            lemma_name: lemma.name.map(str::to_owned),
            statement: collapse(term_text(text, lemma.statement)),
            statement_span: lemma.statement,
            command: cmd.map(|c| collapse(slice(text, c.span))),
            expect_met: expect.map(|e| report.outcome.meets(e)),
            expect,
            evaluated,
            quiet: opts.quiet,
            verbose: opts.verbose,
            show_report: opts.report,
            report,
        };
        if let Some((cache, key)) = settings.cache.zip(key) {
            if !run.report.cancelled && !run.is_internal_error() {
                cache.put(key, cache::relocated(run.clone(), lemma.span.start, 0));
            }
        }
        emit(Event::Quickcheck(Box::new(run)));
    }
    true
}

/// One run of the testers. A bug in a tester must not cost the rest of the file: a panic
/// becomes this run's error.
fn test(theory: &CheckedTheory, index: usize, opts: &quickcheck::Options, settings: &RunSettings) -> Report {
    let engine = if settings.interpreter { Engine::Interpreter } else { Engine::Tiered };
    let (registry, cancel) = (settings.registry, settings.cancel);
    barrier::catch(|| quickcheck::check_lemma(theory, index, opts, engine, registry, cancel)).unwrap_or_else(|panic| {
        Report::new(tester_of(opts, registry), OutcomeKind::Error)
            .with_message(format!("{INTERNAL_ERROR}hol panicked while testing this lemma: {panic}"))
    })
}

/// Does the report say that hol itself failed (a panic inside a tester, caught)?
pub(crate) fn is_internal_error(report: &Report) -> bool {
    report.outcome == OutcomeKind::Error && report.message.as_deref().is_some_and(|m| m.starts_with(INTERNAL_ERROR))
}

/// How the message of a caught panic starts.
const INTERNAL_ERROR: &str = "internal error: ";

/// The tester a report names when no tester ran to say.
fn tester_of(opts: &quickcheck::Options, registry: &Registry) -> TesterName {
    opts.testers.first().cloned().unwrap_or_else(|| registry.default_name())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn option(name: &str, value: &str) -> RawOption {
        RawOption { name: name.into(), value: Some(value.into()), span: Span::new(0, 0) }
    }

    #[test]
    fn command_options_win_over_defaults_and_overrides_over_both() {
        let mut defaults = Defaults::default();
        defaults.apply(&[option("quickcheck_size", "3"), option("quickcheck_timeout", "7")]);
        let none = Overrides::default();
        let opts = layered(&defaults, None, &none);
        assert_eq!((opts.size, opts.timeout.as_secs()), (3, 7));
        let opts = layered(&defaults, Some(&[option("size", "5")]), &none);
        assert_eq!((opts.size, opts.timeout.as_secs()), (5, 7));
        let overrides = Overrides { size: Some(9), ..Overrides::default() };
        assert_eq!(layered(&defaults, Some(&[option("size", "5")]), &overrides).size, 9);
    }

    #[test]
    fn a_caught_panic_is_an_internal_error() {
        let panicked = Report::new("exhaustive", OutcomeKind::Error)
            .with_message(format!("{INTERNAL_ERROR}hol panicked while testing this lemma: x"));
        assert!(is_internal_error(&panicked));
        let unavailable = Report::new("narrowing", OutcomeKind::Error)
            .with_message("the narrowing tester is not available yet".to_owned());
        assert!(!is_internal_error(&unavailable));
    }
}
