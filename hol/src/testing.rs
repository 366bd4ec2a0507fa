//! Testing lemmas: the options of each `quickcheck` command layered over the file's
//! defaults (`quickcheck_params`, `declare [[...]]`) and the command line, one run per
//! command (a lemma without one is tested with the defaults), and the event that reports
//! it, with the lemma's evaluated terms resolved to their source text.

use crate::check::{collapse, slice, Event, Options, SourceFile};
use crate::progress::Progress;
use lang::{CheckedTheory, QuickcheckCmd, Span};
use quickcheck::{Expect, Report};

/// A lemma item to test.
pub struct LemmaRef<'a> {
    pub name: Option<&'a str>,
    /// The statement's span (the quoted term).
    pub statement: Span,
    pub index: usize,
}

/// One quickcheck run and everything its report needs.
#[derive(Clone, Debug)]
pub struct QuickcheckRun {
    /// Line of the `quickcheck` command, or of the lemma when it has none.
    pub line: u32,
    pub lemma_name: Option<String>,
    /// The statement, on one line.
    pub statement: String,
    pub statement_span: Span,
    /// The command as written, on one line (`None`: the defaults).
    pub command: Option<String>,
    pub report: Report,
    /// Each evaluated term's source text and value.
    pub evaluated: Vec<(String, String)>,
    pub expect: Option<Expect>,
    /// `None` without an expectation.
    pub expect_met: Option<bool>,
    pub quiet: bool,
    pub verbose: bool,
    /// Show how many tests passed the premises.
    pub show_report: bool,
}

pub fn test_lemma(
    file: &SourceFile,
    theory: &CheckedTheory,
    lemma: &LemmaRef,
    commands: &[QuickcheckCmd],
    defaults: &quickcheck::Options,
    options: &Options,
    emit: &mut dyn FnMut(Event),
) {
    let engine = if options.interpreter { quickcheck::Engine::Interpreter } else { quickcheck::Engine::Tiered };
    each_run(file, lemma, commands, defaults, options, emit, &mut |opts| {
        // A bug in a tester must not cost the rest of the file: it becomes this run's error.
        let cancel = quickcheck::Cancel::new();
        let registry = &options.registry;
        crate::guard::catch(|| quickcheck::check_lemma(theory, lemma.index, opts, engine, registry, &cancel))
            .unwrap_or_else(|panic| {
                Report::new(tester_of(opts, options), quickcheck::OutcomeKind::Error)
                    .with_message(format!("{INTERNAL_ERROR}hol panicked while testing this lemma: {panic}"))
            })
    });
}

/// Reports each run of a lemma that cannot be tested (it uses a definition that failed) as
/// not executable, with `reason`.
pub fn untested_lemma(
    file: &SourceFile,
    lemma: &LemmaRef,
    commands: &[QuickcheckCmd],
    defaults: &quickcheck::Options,
    options: &Options,
    reason: &str,
    emit: &mut dyn FnMut(Event),
) {
    each_run(file, lemma, commands, defaults, options, emit, &mut |opts| {
        Report::new(tester_of(opts, options), quickcheck::OutcomeKind::NotExecutable)
            .with_message(format!("not tested: {reason}"))
    });
}

/// Does the report say that hol itself failed (a panic inside a tester, caught)? That is an
/// internal error: counted as an error, shown at the lemma, and the run exits 2.
pub fn is_internal_error(report: &Report) -> bool {
    report.outcome == quickcheck::OutcomeKind::Error
        && report.message.as_deref().is_some_and(|m| m.starts_with(INTERNAL_ERROR))
}

/// How the message of a caught panic starts.
const INTERNAL_ERROR: &str = "internal error: ";

/// The tester a report names when no tester ran to say.
fn tester_of(opts: &quickcheck::Options, options: &Options) -> quickcheck::TesterName {
    opts.tester.clone().unwrap_or_else(|| options.registry.default_name())
}

/// One run per command (the defaults when there is none), its options layered over the
/// file's and the command line's, reported as `run` says.
fn each_run(
    file: &SourceFile,
    lemma: &LemmaRef,
    commands: &[QuickcheckCmd],
    defaults: &quickcheck::Options,
    options: &Options,
    emit: &mut dyn FnMut(Event),
    run: &mut dyn FnMut(&quickcheck::Options) -> Report,
) {
    let runs: Vec<Option<&QuickcheckCmd>> =
        if commands.is_empty() { vec![None] } else { commands.iter().map(Some).collect() };
    for cmd in runs {
        let mut opts = defaults.clone();
        if let Some(c) = cmd {
            opts.apply(&c.options, false);
        }
        options.overrides.apply(&mut opts);
        let at = cmd.map_or(lemma.statement.start, |c| c.span.start);
        let progress = Progress::start(options.progress, &format!("{}:{}", file.path, file.line(at)));
        let report = run(&opts);
        progress.finish();
        let expect = opts.expect.filter(|e| *e != Expect::NoExpectation);
        let evaluated = report
            .counterexample
            .as_ref()
            .map(|cx| cx.evaluated.iter().map(|e| (collapse(&balanced(&file.text, e.span)), e.value.clone())).collect())
            .unwrap_or_default();
        emit(Event::Quickcheck(Box::new(QuickcheckRun {
            line: file.line(at),
            lemma_name: lemma.name.map(str::to_owned),
            statement: collapse(crate::check::term_text(&file.text, lemma.statement)),
            statement_span: lemma.statement,
            command: cmd.map(|c| collapse(slice(&file.text, c.span))),
            expect_met: expect.map(|e| report.outcome.meets(e)),
            expect,
            evaluated,
            quiet: opts.quiet,
            verbose: opts.verbose,
            show_report: opts.report,
            report,
        })));
    }
}

/// The source text of a subterm, with the parentheses its span stops short of (`f (g x` is
/// shown as `f (g x)`, `f :: nat ⇒ nat) x` as `(f :: nat ⇒ nat) x`), and without quotes
/// around a whole statement.
fn balanced(text: &str, span: Span) -> String {
    let mut t = crate::check::term_text(text, span).to_owned();
    // Closers with no opener inside the span need openers before it; openers left open need
    // closers after it.
    let (mut depth, mut unopened) = (0usize, 0usize);
    for c in t.chars() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => unopened += 1,
            ')' => depth -= 1,
            _ => {}
        }
    }
    let mut before = text.get(..span.start as usize).unwrap_or("").chars().rev();
    while unopened > 0 {
        match before.next() {
            Some('(') => {
                t.insert(0, '(');
                unopened -= 1;
            }
            Some(c) if c.is_whitespace() => {}
            _ => break,
        }
    }
    let mut after = text.get(span.end as usize..).unwrap_or("").chars();
    while depth > 0 {
        match after.next() {
            Some(')') => {
                t.push(')');
                depth -= 1;
            }
            Some(c) if c.is_whitespace() => {}
            _ => break,
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subterm_text_gets_its_closing_parentheses() {
        let text = "lemma \"f (g x) = g (f (x))\"";
        let at = |s: &str, len: usize| {
            let i = text.find(s).unwrap();
            Span::new(i, i + len)
        };
        assert_eq!(balanced(text, at("f (g x)", 6)), "f (g x)");
        assert_eq!(balanced(text, at("g (f (x))", 7)), "g (f (x))");
        assert_eq!(balanced(text, at("f (g x)", 1)), "f");
        let typed = "lemma \"(f :: nat ⇒ nat) x = x\"";
        let i = typed.find("f ::").unwrap();
        let j = typed.find(") x").unwrap() + 3;
        assert_eq!(balanced(typed, Span::new(i, j)), "(f :: nat ⇒ nat) x");
        let both = "lemma \"(f :: nat ⇒ nat) (g x) = x\"";
        let i = both.find("f ::").unwrap();
        let j = both.find("g x").unwrap() + 3;
        assert_eq!(balanced(both, Span::new(i, j)), "(f :: nat ⇒ nat) (g x)");
    }
}
