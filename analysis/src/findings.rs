//! What a quickcheck run says, in words: the diagnostic at the lemma for a counterexample,
//! a potentially spurious one, an unmet expectation or an internal error, and the one-line
//! account of a run that found nothing. Every front end (the terminal, JSON's messages, the
//! editor) shows these same words, so they are made here, once.

use crate::event::QuickcheckRun;
use lang::{Diagnostic, Severity};
use quickcheck::OutcomeKind;

impl QuickcheckRun {
    /// The lemma as people name it: `lemma rev_rev`, or `lemma "statement"`.
    pub fn lemma_words(&self) -> String {
        match &self.lemma_name {
            Some(n) => format!("lemma {n}"),
            None => format!("lemma \"{}\"", self.statement),
        }
    }

    /// The diagnostic this run makes at the lemma's statement, if it found something to
    /// show (a counterexample, an unmet expectation, an internal error); `None` when its
    /// account is one line (`account`).
    pub fn finding(&self) -> Option<Diagnostic> {
        let r = &self.report;
        let unmet = self.expect_met == Some(false);
        let found = matches!(r.outcome, OutcomeKind::Counterexample | OutcomeKind::PotentiallySpurious);
        let internal = self.is_internal_error();
        if !found && !unmet && !internal {
            return None;
        }
        let message = match (unmet, r.outcome) {
            _ if internal => format!("{} failed with an internal error", r.tester.name()),
            (true, o) => format!(
                "expectation not met: `expect = {}`, but {} found {}",
                self.expect.map_or("", |e| e.name()),
                r.tester.name(),
                outcome_words(o)
            ),
            (false, OutcomeKind::Counterexample) => format!("{} found a counterexample", r.tester.name()),
            (false, _) => format!("{} found a potentially spurious counterexample", r.tester.name()),
        };
        let mut d = Diagnostic::error(self.statement_span, message).with_label(match r.outcome {
            OutcomeKind::Counterexample => "false for the values below",
            OutcomeKind::PotentiallySpurious => {
                match r.counterexample.as_ref().and_then(|c| c.spurious_because.as_ref()) {
                    Some(why) if why.starts_with(NO_WITNESS) => "false unless a witness lies beyond the size bound",
                    _ => "false only where an underspecified function was applied",
                }
            }
            _ => "this lemma",
        });
        d.severity = match (unmet || internal, r.outcome) {
            (true, _) => Severity::Error,
            (false, OutcomeKind::Counterexample) => Severity::Warning,
            _ => Severity::Info,
        };
        if let Some(cx) = &r.counterexample {
            d = d.with_note(self.assignment_words().unwrap_or_default());
            for (term, value) in &self.evaluated {
                d = d.with_note(format!("evaluated: {term} = {value}"));
            }
            if !cx.refutation.is_empty() {
                d = d.with_note(format!(
                    "no witness exists (proved by narrowing), case by case: {}",
                    cx.refutation.join("; ")
                ));
            }
            let proved = cx.generalizations.iter().any(|g| g.evidence == quickcheck::Evidence::Proved);
            if !cx.partial.is_empty() && !proved {
                let partial: Vec<String> = cx.partial.iter().map(|(n, v)| format!("{n} = {v}")).collect();
                d = d.with_note(format!("false for every value at `_` (proved by narrowing): {}", partial.join(", ")));
            }
            for g in &cx.generalizations {
                d = d.with_note(format!("generalization: {} ({})", g.words(), g.evidence_words()));
            }
            for (k, more) in r.further.iter().enumerate() {
                d = d.with_note(format!("counterexample {}: {}", k + 2, assignment_text(more)));
                for g in &more.generalizations {
                    d = d.with_note(format!("generalization: {} ({})", g.words(), g.evidence_words()));
                }
            }
            if let Some(why) = &cx.spurious_because {
                d = d.with_note(format!("potentially spurious: {why}"));
            }
        } else if let Some(m) = &r.message {
            d = d.with_note(m.clone());
        }
        d = d.with_note(self.figures());
        for line in &r.log {
            d = d.with_note(line.clone());
        }
        Some(d)
    }

    /// `counterexample: xs = [a1], ys = [] (with 'a = a1)`, when there is one.
    pub fn assignment_words(&self) -> Option<String> {
        let cx = self.report.counterexample.as_ref()?;
        Some(if cx.assignment.is_empty() && cx.instance.is_empty() {
            // No free variable: the refutation is of the statement itself.
            "the statement is false".to_string()
        } else if cx.assignment.is_empty() {
            format!("the statement is false {}", assignment_text(cx))
        } else {
            format!("counterexample: {}", assignment_text(cx))
        })
    }

    /// The account of a run without a finding: `lemma l: no counterexample (none up to
    /// size 5; exhaustive, size 5, 120 tests, 0.001 s)`.
    pub fn account(&self) -> String {
        let r = &self.report;
        let detail = r.message.as_deref().map(|m| format!("{m}; ")).unwrap_or_default();
        format!("{}: {} ({detail}{})", self.lemma_words(), outcome_words(r.outcome), self.figures())
    }

    /// `exhaustive, size 3, 14 tests, 0.002 s` (with the seed of a random run, shrinking,
    /// narrowing's partial cases and refinements, the SMT solver's name, models and time,
    /// and the tests that passed the premises when asked for).
    pub fn figures(&self) -> String {
        let r = &self.report;
        if r.tests == 0 && r.size == 0 && r.outcome == OutcomeKind::NotExecutable {
            // Nothing ran: sizes and times would be noise.
            return r.tester.name().to_owned();
        }
        let plural = |n: u64, what: &str| if n == 1 { format!("1 {what}") } else { format!("{n} {what}s") };
        let tests = match r.refinements {
            // Narrowing: each test is a partial case, standing for every value of its holes.
            Some(refined) => format!("{}, {}", plural(r.tests, "partial case"), plural(refined, "refinement")),
            None => plural(r.tests, "test"),
        };
        let mut s = format!("{}, size {}, {tests}", r.tester.name(), r.size);
        if self.show_report || self.verbose {
            s.push_str(&format!(" ({} passed the premises)", r.passed_premises));
        }
        s.push_str(&format!(", {:.3} s", r.seconds));
        if let Some(sv) = &r.solver {
            s.push_str(&format!(", {}: {} in {:.3} s", sv.name, plural(sv.models, "model"), sv.seconds));
        }
        if let Some(seed) = r.seed {
            s.push_str(&format!(", seed {seed}"));
        }
        if let Some(sh) = &r.shrink {
            s.push_str(&format!(", shrunk from size {} to {} in {} tries", sh.size_before, sh.size_after, sh.attempts));
        }
        s
    }
}

/// `xs = [a1], ys = [] (with 'a = a1)`: the assignment and the type instance.
fn assignment_text(cx: &quickcheck::Counterexample) -> String {
    let assignment: Vec<String> = cx.assignment.iter().map(|(n, v)| format!("{n} = {v}")).collect();
    let mut words = assignment.join(", ");
    if !cx.instance.is_empty() {
        let inst: Vec<String> = cx.instance.iter().map(|(a, t)| format!("{a} = {t}")).collect();
        if !words.is_empty() {
            words.push(' ');
        }
        words.push_str(&format!("(with {})", inst.join(", ")));
    }
    words
}

/// How narrowing's `spurious_because` begins when an `∃` search was cut by the size bound
/// (`narrowing::quantified`).
pub const NO_WITNESS: &str = "no witness for";

/// An outcome in words: `a counterexample`, `no answer in time (timeout)`.
pub fn outcome_words(o: OutcomeKind) -> &'static str {
    match o {
        OutcomeKind::Counterexample => "a counterexample",
        OutcomeKind::PotentiallySpurious => "a potentially spurious counterexample",
        OutcomeKind::NoCounterexample => "no counterexample",
        OutcomeKind::Timeout => "no answer in time (timeout)",
        OutcomeKind::NotExecutable => "not executable",
        OutcomeKind::Error => "an error",
    }
}
