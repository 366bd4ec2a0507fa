//! JSON Lines output (`--format json`): one record per line, serialized from record types
//! defined here (never from `lang`'s types, so the wire format changes only on purpose).
//!
//! Records, each with `"kind"` first:
//! - `error` / `warning` / `info`: `file`, `line`, `column`, `end_line`, `end_column` (the
//!   position just past the primary span), `message`, `label`, `notes`, `help`. For an
//!   error about a whole file (unreadable, internal error) the positions are `null`.
//! - `value`: `file`, `line`, `term`, `result`, `type`. A failed value is an `error` record.
//! - `lemma`: `file`, `line`, `name` (`null` if unnamed), `statement`, `quickchecks` (each
//!   `line`, `text`, `options` as `[{"name", "value"}]`).
//! - `quickcheck`, one per run: `file`, `line` (of the command, or of the lemma when it has
//!   none), `lemma` (its name, or its statement when unnamed), `statement`, `command`,
//!   `tester`, `outcome` (`counterexample`, `potentially_spurious`, `no_counterexample`,
//!   `timeout`, `not_executable`, `error`), `message`, `expect` and `expect_met` (`null`
//!   without an expectation), `counterexample` (variable → value in theory syntax, in the
//!   lemma's order, or `null`), `instance` (type variable → type), `evaluated` (`[{"term",
//!   "value"}]`), `spurious_because`, `partial` (narrowing's partial counterexample, as
//!   `counterexample`), `refutation` (narrowing on a statement with `∃` inside: one line
//!   per case of the outermost `∃` variables, with the values that refute it), `tests` (for narrowing: partial cases), `refinements` (narrowing's
//!   holes refined, `null` for the others), `passed_premises`, `size`, `seconds`, `seed`
//!   (random runs), `exhausted` (the whole space of finite types was tested), `shrink`
//!   (`{"size_before", "size_after", "attempts", "seconds"}` or `null`), `solver` (the
//!   `smt` tester's `{"name", "models", "seconds"}`: the solver's name and version, the
//!   models decoded, the time spent waiting for it; `null` for the others), `log` (with
//!   `verbose`: one line per instance and size tested).
//! - `ir` (`--dump-ir`): `file`, `ir`.
//! - `summary`, always the last record: `errors`, `warnings`, `values`, `lemmas`,
//!   `quickchecks`, `counterexamples`, `not_tested`, `unmet`, `denied` (what the human
//!   summary line counts), `interrupted` (`"SIGINT"`, `"SIGTERM"`, or `null`: a signal ended
//!   the run early, after the records before it) and `exit_status`. A stream without it was
//!   cut short.
//!
//! Lines are 1-based; columns are 1-based and counted in characters. A file that is not
//! UTF-8 is an `error` record at its first bad byte. Every string escapes U+2028 and U+2029
//! (`\u2028`, `\u2029`) besides what JSON requires, so no record spans two lines for any
//! reader.

use crate::check::{Output, SourceFile, Tally};
use analysis::{Event, QuickcheckRun};
use lang::Severity;
use serde::Serialize;
use std::io::{self, Write};

#[derive(Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Record<'a> {
    Error(DiagnosticRecord<'a>),
    Warning(DiagnosticRecord<'a>),
    Info(DiagnosticRecord<'a>),
    Value(ValueRecord<'a>),
    Lemma(LemmaRecord<'a>),
    Quickcheck(Box<RunRecord<'a>>),
    Ir(IrRecord<'a>),
    Summary(SummaryRecord),
}

#[derive(Debug, Serialize)]
pub struct SummaryRecord {
    pub errors: usize,
    pub warnings: usize,
    pub values: usize,
    pub lemmas: usize,
    pub quickchecks: usize,
    pub counterexamples: usize,
    pub not_tested: usize,
    pub unmet: usize,
    pub denied: usize,
    pub interrupted: Option<String>,
    pub exit_status: u8,
}

impl SummaryRecord {
    pub fn new(t: &Tally) -> SummaryRecord {
        SummaryRecord {
            errors: t.errors,
            warnings: t.warnings,
            values: t.values,
            lemmas: t.lemmas,
            quickchecks: t.quickchecks,
            counterexamples: t.counterexamples,
            not_tested: t.not_tested,
            unmet: t.unmet,
            denied: t.denied,
            interrupted: t.interrupted.map(crate::interrupt::name),
            exit_status: t.exit_status(),
        }
    }
}

#[derive(Debug, Serialize)]
pub struct RunRecord<'a> {
    pub file: &'a str,
    pub line: u32,
    pub lemma: &'a str,
    pub statement: &'a str,
    pub command: Option<&'a str>,
    pub tester: &'a str,
    pub outcome: &'a str,
    pub message: Option<&'a str>,
    pub expect: Option<&'a str>,
    pub expect_met: Option<bool>,
    pub counterexample: Option<Pairs<'a>>,
    pub instance: Option<Pairs<'a>>,
    pub evaluated: Vec<EvaluatedRecord<'a>>,
    pub spurious_because: Option<&'a str>,
    /// Narrowing's partial counterexample (`_` where any value is a counterexample).
    pub partial: Option<Pairs<'a>>,
    /// Narrowing on a statement with `∃` inside: how the outermost `∃` was refuted, one
    /// line per case of its variables (`null` otherwise).
    pub refutation: Option<&'a [String]>,
    /// The counterexample's generalizations, most general first (empty without one).
    pub generalizations: Vec<GeneralizationRecord<'a>>,
    /// Counterexamples after the first (`counterexamples = k`), each outside the
    /// generalizations of those before it.
    pub further_counterexamples: Vec<FurtherRecord<'a>>,
    pub tests: u64,
    /// Holes refined (narrowing; its `tests` are partial cases), `null` for other testers.
    pub refinements: Option<u64>,
    pub passed_premises: u64,
    pub size: u64,
    pub seconds: f64,
    pub seed: Option<u64>,
    pub exhausted: bool,
    pub shrink: Option<ShrinkRecord>,
    pub solver: Option<SolverRecord<'a>>,
    /// With `verbose`: what each instance and size did.
    pub log: &'a [String],
}

/// Name/value pairs written as a JSON object in their own order.
#[derive(Debug)]
pub struct Pairs<'a>(&'a [(String, String)]);

impl Serialize for Pairs<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

#[derive(Debug, Serialize)]
pub struct EvaluatedRecord<'a> {
    pub term: &'a str,
    pub value: &'a str,
}

#[derive(Debug, Serialize)]
pub struct SolverRecord<'a> {
    pub name: &'a str,
    pub models: u64,
    pub seconds: f64,
}

/// A counterexample after the first: its assignment, type instance and generalizations.
#[derive(Debug, Serialize)]
pub struct FurtherRecord<'a> {
    pub counterexample: Pairs<'a>,
    pub instance: Option<Pairs<'a>>,
    pub generalizations: Vec<GeneralizationRecord<'a>>,
}

/// A generalized counterexample: `pattern` per lemma variable it restricts, the side
/// `condition` (or `null`), and whether it was `tested` (on `instances` instances: all up to
/// `size`, then `random` ones up to `random_size`) or `proved` (by narrowing).
#[derive(Debug, Serialize)]
pub struct GeneralizationRecord<'a> {
    pub pattern: Pairs<'a>,
    pub condition: Option<&'a str>,
    pub tested: bool,
    pub proved: bool,
    pub instances: Option<u64>,
    pub size: Option<u64>,
    pub random: Option<u64>,
    pub random_size: Option<u64>,
    pub text: String,
}

impl<'a> GeneralizationRecord<'a> {
    fn of(g: &'a quickcheck::Generalization) -> GeneralizationRecord<'a> {
        let tested = match g.evidence {
            quickcheck::Evidence::Tested { instances, size, random, random_size, .. } => {
                Some((instances, size, random, random_size))
            }
            quickcheck::Evidence::Proved => None,
        };
        GeneralizationRecord {
            pattern: Pairs(&g.pattern),
            condition: g.condition.as_deref(),
            tested: tested.is_some(),
            proved: tested.is_none(),
            instances: tested.map(|t| t.0),
            size: tested.map(|t| t.1),
            random: tested.map(|t| t.2),
            random_size: tested.map(|t| t.3),
            text: g.words(),
        }
    }
}

#[derive(Debug, Serialize)]
pub struct ShrinkRecord {
    pub size_before: u64,
    pub size_after: u64,
    pub attempts: u64,
    pub seconds: f64,
}

#[derive(Debug, Serialize)]
pub struct DiagnosticRecord<'a> {
    pub file: &'a str,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub end_line: Option<u32>,
    pub end_column: Option<u32>,
    pub message: &'a str,
    pub label: &'a str,
    pub notes: &'a [String],
    pub help: &'a [String],
}

#[derive(Debug, Serialize)]
pub struct ValueRecord<'a> {
    pub file: &'a str,
    pub line: u32,
    pub term: &'a str,
    pub result: &'a str,
    #[serde(rename = "type")]
    pub ty: &'a str,
}

#[derive(Debug, Serialize)]
pub struct LemmaRecord<'a> {
    pub file: &'a str,
    pub line: u32,
    pub name: Option<&'a str>,
    pub statement: &'a str,
    pub quickchecks: Vec<QuickcheckRecord<'a>>,
}

#[derive(Debug, Serialize)]
pub struct QuickcheckRecord<'a> {
    pub line: u32,
    pub text: &'a str,
    pub options: Vec<OptionRecord<'a>>,
}

#[derive(Debug, Serialize)]
pub struct OptionRecord<'a> {
    pub name: &'a str,
    pub value: Option<&'a str>,
}

#[derive(Debug, Serialize)]
pub struct IrRecord<'a> {
    pub file: &'a str,
    pub ir: &'a str,
}

/// The record for one event (none for a run starting).
pub fn record<'a>(file: &'a SourceFile, event: &'a Event) -> Option<Record<'a>> {
    let path = file.path.as_str();
    Some(match event {
        Event::Diagnostic { diagnostic: d, .. } => {
            let start = file.lines.position(d.primary.span.start);
            let end = file.lines.position(d.primary.span.end.max(d.primary.span.start));
            let rec = DiagnosticRecord {
                file: path,
                line: Some(start.line),
                column: Some(start.column),
                end_line: Some(end.line),
                end_column: Some(end.column),
                message: &d.message,
                label: &d.primary.message,
                notes: &d.notes,
                help: &d.help,
            };
            match d.severity {
                Severity::Error => Record::Error(rec),
                Severity::Warning => Record::Warning(rec),
                Severity::Info => Record::Info(rec),
            }
        }
        Event::FileError { message, notes, help } => Record::Error(DiagnosticRecord {
            file: path,
            line: None,
            column: None,
            end_line: None,
            end_column: None,
            message,
            label: "",
            notes,
            help,
        }),
        Event::Value { span, term, result, ty, .. } => {
            Record::Value(ValueRecord { file: path, line: file.line(span.start), term, result, ty })
        }
        Event::Lemma { span, name, statement, quickchecks, .. } => Record::Lemma(LemmaRecord {
            file: path,
            line: file.line(span.start),
            name: name.as_deref(),
            statement,
            quickchecks: quickchecks
                .iter()
                .map(|q| QuickcheckRecord {
                    line: file.line(q.span.start),
                    text: &q.text,
                    options: q
                        .options
                        .iter()
                        .map(|(name, value)| OptionRecord { name, value: value.as_deref() })
                        .collect(),
                })
                .collect(),
        }),
        Event::QuickcheckStarted { .. } => return None,
        Event::Quickcheck(run) => Record::Quickcheck(Box::new(run_record(file, run))),
        Event::Ir { text } => Record::Ir(IrRecord { file: path, ir: text }),
    })
}

fn run_record<'a>(file: &'a SourceFile, run: &'a QuickcheckRun) -> RunRecord<'a> {
    let r = &run.report;
    let cx = r.counterexample.as_ref();
    RunRecord {
        file: &file.path,
        line: file.line(run.span.start),
        lemma: run.lemma_name.as_deref().unwrap_or(&run.statement),
        statement: &run.statement,
        command: run.command.as_deref(),
        tester: r.tester.name(),
        outcome: r.outcome.name(),
        message: r.message.as_deref(),
        expect: run.expect.map(|e| e.name()),
        expect_met: run.expect_met,
        counterexample: cx.map(|c| Pairs(&c.assignment)),
        instance: cx.filter(|c| !c.instance.is_empty()).map(|c| Pairs(&c.instance)),
        evaluated: run.evaluated.iter().map(|(term, value)| EvaluatedRecord { term, value }).collect(),
        spurious_because: cx.and_then(|c| c.spurious_because.as_deref()),
        partial: cx.filter(|c| !c.partial.is_empty()).map(|c| Pairs(&c.partial)),
        refutation: cx.filter(|c| !c.refutation.is_empty()).map(|c| c.refutation.as_slice()),
        further_counterexamples: r
            .further
            .iter()
            .map(|c| FurtherRecord {
                counterexample: Pairs(&c.assignment),
                instance: (!c.instance.is_empty()).then_some(Pairs(&c.instance)),
                generalizations: c.generalizations.iter().map(GeneralizationRecord::of).collect(),
            })
            .collect(),
        generalizations: cx
            .map(|c| c.generalizations.iter().map(GeneralizationRecord::of).collect())
            .unwrap_or_default(),
        tests: r.tests,
        refinements: r.refinements,
        passed_premises: r.passed_premises,
        size: r.size,
        seconds: r.seconds,
        seed: r.seed,
        exhausted: r.exhausted,
        shrink: r.shrink.as_ref().map(|s| ShrinkRecord {
            size_before: s.size_before,
            size_after: s.size_after,
            attempts: s.attempts,
            seconds: s.seconds,
        }),
        solver: r.solver.as_ref().map(|s| SolverRecord { name: &s.name, models: s.models, seconds: s.seconds }),
        log: &r.log,
    }
}

pub struct Json<W: Write> {
    out: W,
}

impl<W: Write> Json<W> {
    pub fn new(out: W) -> Json<W> {
        Json { out }
    }
}

/// JSON text for JSON Lines: serde_json's compact form, with U+2028 and U+2029 (line and
/// paragraph separators) escaped as well. JSON allows them raw, but readers that split on
/// every line terminator (JavaScript, many editors) would see a record cut in two.
struct LineSafe;

impl serde_json::ser::Formatter for LineSafe {
    fn write_string_fragment<W: ?Sized + Write>(&mut self, out: &mut W, fragment: &str) -> io::Result<()> {
        let mut rest = fragment;
        while let Some(i) = rest.find(['\u{2028}', '\u{2029}']) {
            out.write_all(&rest.as_bytes()[..i])?;
            let escape: &[u8] = if rest[i..].starts_with('\u{2028}') { b"\\u2028" } else { b"\\u2029" };
            out.write_all(escape)?;
            // Both separators are 3 bytes in UTF-8.
            rest = &rest[i + 3..];
        }
        out.write_all(rest.as_bytes())
    }
}

/// One record as one line of JSON, newline included.
pub fn json_line<T: Serialize>(record: &T) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    record.serialize(&mut serde_json::Serializer::with_formatter(&mut bytes, LineSafe)).map_err(io::Error::other)?;
    bytes.push(b'\n');
    Ok(bytes)
}

impl<W: Write> Output for Json<W> {
    fn event(&mut self, file: &SourceFile, event: &Event) -> io::Result<()> {
        // Built whole, then written at once.
        let Some(record) = record(file, event) else { return Ok(()) };
        self.out.write_all(&json_line(&record)?)?;
        self.out.flush()
    }

    fn summary(&mut self, tally: &Tally) -> io::Result<()> {
        self.out.write_all(&json_line(&Record::Summary(SummaryRecord::new(tally)))?)?;
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use analysis::{Origin, QuickcheckCommand};
    use lang::{Diagnostic, Span};
    use serde_json::{json, Value};

    fn file(text: &str) -> SourceFile {
        SourceFile::new("Lists.thy".into(), text.into())
    }

    /// A text of `n` lines, and the span of the first character of line `line`.
    fn text_of(n: usize) -> String {
        "x\n".repeat(n)
    }

    fn at_line(line: usize) -> Span {
        Span::new(2 * (line - 1), 2 * (line - 1) + 1)
    }

    fn value(span: Span, term: &str, result: &str, ty: &str) -> Event {
        Event::Value { span, term_span: span, term: term.into(), result: result.into(), ty: ty.into() }
    }

    fn line(file: &SourceFile, event: &Event) -> String {
        let mut out = Vec::new();
        Json::new(&mut out).event(file, event).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn parsed(file: &SourceFile, event: &Event) -> Value {
        let text = line(file, event);
        assert!(text.ends_with('\n') && !text[..text.len() - 1].contains('\n'), "one line: {text:?}");
        serde_json::from_str(&text).unwrap()
    }

    #[test]
    fn kind_comes_first() {
        let ev = value(at_line(1), "1", "1", "nat");
        assert!(line(&file(""), &ev).starts_with("{\"kind\":\"value\","));
    }

    #[test]
    fn value_record() {
        let ev = value(at_line(165), "rev [1, 2, 3 :: nat]", "[3, 2, 1]", "nat list");
        assert_eq!(
            parsed(&file(&text_of(200)), &ev),
            json!({"kind": "value", "file": "Lists.thy", "line": 165, "term": "rev [1, 2, 3 :: nat]", "result": "[3, 2, 1]", "type": "nat list"})
        );
    }

    #[test]
    fn error_record_has_character_columns() {
        let text = "lemma \"⟦a⟧ ⟹ revv a\"\n";
        let start = text.find("revv").unwrap();
        let d = Diagnostic::error(Span::new(start, start + 4), "undefined constant `revv`")
            .with_label("not defined")
            .with_help("a constant with a similar name exists: `rev`");
        let ev = Event::Diagnostic { diagnostic: d, origin: Origin::Check };
        assert_eq!(
            parsed(&file(text), &ev),
            json!({"kind": "error", "file": "Lists.thy", "line": 1, "column": 14, "end_line": 1, "end_column": 18,
                   "message": "undefined constant `revv`", "label": "not defined", "notes": [],
                   "help": ["a constant with a similar name exists: `rev`"]})
        );
    }

    #[test]
    fn warning_record() {
        let mut d = Diagnostic::error(Span::new(0, 1), "w");
        d.severity = Severity::Warning;
        let v = parsed(&file("x"), &Event::Diagnostic { diagnostic: d, origin: Origin::Check });
        assert_eq!(v["kind"], "warning");
    }

    #[test]
    fn file_error_record_has_null_positions() {
        let ev = Event::FileError {
            message: "cannot read `x.thy`: No such file or directory".into(),
            notes: vec![],
            help: vec![],
        };
        assert_eq!(
            parsed(&file(""), &ev),
            json!({"kind": "error", "file": "Lists.thy", "line": null, "column": null, "end_line": null, "end_column": null,
                   "message": "cannot read `x.thy`: No such file or directory", "label": "", "notes": [], "help": []})
        );
    }

    #[test]
    fn lemma_record() {
        let ev = Event::Lemma {
            span: at_line(8),
            name: Some("rev_append".into()),
            statement: "rev (xs @ ys) = rev ys @ rev xs".into(),
            statement_span: at_line(8),
            quickchecks: vec![QuickcheckCommand {
                span: at_line(9),
                text: "quickcheck[random, expect = no_counterexample]".into(),
                options: vec![("random".into(), None), ("expect".into(), Some("no_counterexample".into()))],
            }],
        };
        assert_eq!(
            parsed(&file(&text_of(9)), &ev),
            json!({"kind": "lemma", "file": "Lists.thy", "line": 8, "name": "rev_append",
                   "statement": "rev (xs @ ys) = rev ys @ rev xs",
                   "quickchecks": [{"line": 9, "text": "quickcheck[random, expect = no_counterexample]",
                                    "options": [{"name": "random", "value": null}, {"name": "expect", "value": "no_counterexample"}]}]})
        );
        let unnamed = Event::Lemma {
            span: at_line(3),
            name: None,
            statement: "x".into(),
            statement_span: at_line(3),
            quickchecks: vec![],
        };
        assert_eq!(parsed(&file(&text_of(9)), &unnamed)["name"], Value::Null);
    }

    #[test]
    fn quickcheck_record() {
        let mut report = quickcheck::Report::new("random", quickcheck::OutcomeKind::Counterexample);
        report.counterexample = Some(quickcheck::Counterexample {
            assignment: vec![("xs".into(), "[a1, a2]".into()), ("n".into(), "0".into())],
            evaluated: vec![],
            instance: vec![("'a".into(), "finite_2".into())],
            spurious_because: None,
            partial: Vec::new(),
            refutation: Vec::new(),
            generalizations: Vec::new(),
        });
        report.tests = 12;
        report.passed_premises = 12;
        report.size = 3;
        report.seed = Some(7);
        let run = QuickcheckRun {
            span: at_line(9),
            lemma_name: None,
            statement: "rev xs = xs".into(),
            statement_span: Span::new(0, 1),
            command: Some("quickcheck[random, expect = counterexample]".into()),
            report,
            evaluated: vec![("rev xs".into(), "[a2, a1]".into())],
            expect: Some(quickcheck::Expect::Counterexample),
            expect_met: Some(true),
            quiet: false,
            verbose: false,
            show_report: false,
        };
        let text = line(&file(&text_of(9)), &Event::Quickcheck(Box::new(run)));
        // The assignment keeps the lemma's order, not the keys' order.
        assert!(text.contains(r#""counterexample":{"xs":"[a1, a2]","n":"0"}"#), "{text}");
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["kind"], "quickcheck");
        assert_eq!(v["line"], 9);
        assert_eq!(v["lemma"], "rev xs = xs");
        assert_eq!((v["tester"].as_str(), v["outcome"].as_str()), (Some("random"), Some("counterexample")));
        assert_eq!((v["expect"].as_str(), v["expect_met"].as_bool()), (Some("counterexample"), Some(true)));
        assert_eq!(v["instance"], json!({"'a": "finite_2"}));
        assert_eq!(v["evaluated"], json!([{"term": "rev xs", "value": "[a2, a1]"}]));
        assert_eq!((v["tests"].as_u64(), v["size"].as_u64(), v["seed"].as_u64()), (Some(12), Some(3), Some(7)));
        assert_eq!(v["shrink"], Value::Null);
    }

    #[test]
    fn line_and_paragraph_separators_are_escaped() {
        let ev = value(at_line(1), "a\u{2028}b\u{2029}\u{2028}", "\u{2029}x\"\n⟹", "nat");
        let text = line(&file(""), &ev);
        assert!(!text.contains(['\u{2028}', '\u{2029}']), "{text}");
        assert!(text.contains(r#""term":"a\u2028b\u2029\u2028""#), "{text}");
        assert!(text.contains(r#""result":"\u2029x\"\n⟹""#), "{text}");
        let v = parsed(&file(""), &ev);
        assert_eq!(
            (v["term"].as_str(), v["result"].as_str()),
            (Some("a\u{2028}b\u{2029}\u{2028}"), Some("\u{2029}x\"\n⟹"))
        );
    }

    #[test]
    fn summary_record() {
        let mut out = Vec::new();
        let t = Tally { errors: 1, values: 2, interrupted: Some(2), ..Tally::default() };
        Json::new(&mut out).summary(&t).unwrap();
        let v: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(
            v,
            json!({"kind": "summary", "errors": 1, "warnings": 0, "values": 2, "lemmas": 0, "quickchecks": 0,
                   "counterexamples": 0, "not_tested": 0, "unmet": 0, "denied": 0, "interrupted": "SIGINT",
                   "exit_status": 130})
        );
    }

    #[test]
    fn a_run_starting_has_no_record() {
        assert_eq!(line(&file("x"), &Event::QuickcheckStarted { span: Span::new(0, 1) }), "");
    }

    #[test]
    fn ir_record() {
        let v = parsed(&file(""), &Event::Ir { text: "fun f\n".into() });
        assert_eq!(v, json!({"kind": "ir", "file": "Lists.thy", "ir": "fun f\n"}));
    }
}
