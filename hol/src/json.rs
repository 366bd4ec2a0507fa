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
//!   "value"}]`), `spurious_because`, `tests`, `passed_premises`, `size`, `seconds`, `seed`
//!   (random runs), `exhausted` (the whole space of finite types was tested), `shrink`
//!   (`{"size_before", "size_after", "attempts", "seconds"}` or `null`), `log` (with
//!   `verbose`: one line per instance and size tested).
//! - `ir` (`--dump-ir`): `file`, `ir`.
//!
//! Lines are 1-based; columns are 1-based and counted in characters. No summary record.

use crate::check::{Event, Output, SourceFile, Tally};
use crate::testing::QuickcheckRun;
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
    Quickcheck(RunRecord<'a>),
    Ir(IrRecord<'a>),
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
    pub tests: u64,
    pub passed_premises: u64,
    pub size: u64,
    pub seconds: f64,
    pub seed: Option<u64>,
    pub exhausted: bool,
    pub shrink: Option<ShrinkRecord>,
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

/// The record for one event.
pub fn record<'a>(file: &'a SourceFile, event: &'a Event) -> Record<'a> {
    let path = file.path.as_str();
    match event {
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
        Event::Value { line, term, result, ty } => {
            Record::Value(ValueRecord { file: path, line: *line, term, result, ty })
        }
        Event::Lemma { line, name, statement, quickchecks } => Record::Lemma(LemmaRecord {
            file: path,
            line: *line,
            name: name.as_deref(),
            statement,
            quickchecks: quickchecks
                .iter()
                .map(|q| QuickcheckRecord {
                    line: q.line,
                    text: &q.text,
                    options: q
                        .options
                        .iter()
                        .map(|(name, value)| OptionRecord { name, value: value.as_deref() })
                        .collect(),
                })
                .collect(),
        }),
        Event::Quickcheck(run) => Record::Quickcheck(run_record(path, run)),
        Event::Ir { text } => Record::Ir(IrRecord { file: path, ir: text }),
    }
}

fn run_record<'a>(file: &'a str, run: &'a QuickcheckRun) -> RunRecord<'a> {
    let r = &run.report;
    let cx = r.counterexample.as_ref();
    RunRecord {
        file,
        line: run.line,
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
        tests: r.tests,
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

impl<W: Write> Output for Json<W> {
    fn event(&mut self, file: &SourceFile, event: &Event) -> io::Result<()> {
        serde_json::to_writer(&mut self.out, &record(file, event))?;
        self.out.write_all(b"\n")?;
        self.out.flush()
    }

    fn summary(&mut self, _tally: &Tally) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{Origin, Quickcheck};
    use crate::position::LineMap;
    use lang::{Diagnostic, Span};
    use serde_json::{json, Value};

    fn file(text: &str) -> SourceFile {
        SourceFile { path: "Lists.thy".into(), text: text.into(), lines: LineMap::new(text) }
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
        let ev = Event::Value { line: 1, term: "1".into(), result: "1".into(), ty: "nat".into() };
        assert!(line(&file(""), &ev).starts_with("{\"kind\":\"value\","));
    }

    #[test]
    fn value_record() {
        let ev = Event::Value {
            line: 165,
            term: "rev [1, 2, 3 :: nat]".into(),
            result: "[3, 2, 1]".into(),
            ty: "nat list".into(),
        };
        assert_eq!(
            parsed(&file(""), &ev),
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
            line: 8,
            name: Some("rev_append".into()),
            statement: "rev (xs @ ys) = rev ys @ rev xs".into(),
            quickchecks: vec![Quickcheck {
                line: 9,
                text: "quickcheck[random, expect = no_counterexample]".into(),
                options: vec![("random".into(), None), ("expect".into(), Some("no_counterexample".into()))],
            }],
        };
        assert_eq!(
            parsed(&file(""), &ev),
            json!({"kind": "lemma", "file": "Lists.thy", "line": 8, "name": "rev_append",
                   "statement": "rev (xs @ ys) = rev ys @ rev xs",
                   "quickchecks": [{"line": 9, "text": "quickcheck[random, expect = no_counterexample]",
                                    "options": [{"name": "random", "value": null}, {"name": "expect", "value": "no_counterexample"}]}]})
        );
        let unnamed = Event::Lemma { line: 3, name: None, statement: "x".into(), quickchecks: vec![] };
        assert_eq!(parsed(&file(""), &unnamed)["name"], Value::Null);
    }

    #[test]
    fn quickcheck_record() {
        let mut report = quickcheck::Report::new(quickcheck::Tester::Random, quickcheck::OutcomeKind::Counterexample);
        report.counterexample = Some(quickcheck::Counterexample {
            assignment: vec![("xs".into(), "[a1, a2]".into()), ("n".into(), "0".into())],
            evaluated: vec![],
            instance: vec![("'a".into(), "finite_2".into())],
            spurious_because: None,
        });
        report.tests = 12;
        report.passed_premises = 12;
        report.size = 3;
        report.seed = Some(7);
        let run = QuickcheckRun {
            line: 9,
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
        let text = line(&file(""), &Event::Quickcheck(Box::new(run)));
        // The assignment keeps the lemma's order, not the keys' order.
        assert!(text.contains(r#""counterexample":{"xs":"[a1, a2]","n":"0"}"#), "{text}");
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["kind"], "quickcheck");
        assert_eq!(v["lemma"], "rev xs = xs");
        assert_eq!((v["tester"].as_str(), v["outcome"].as_str()), (Some("random"), Some("counterexample")));
        assert_eq!((v["expect"].as_str(), v["expect_met"].as_bool()), (Some("counterexample"), Some(true)));
        assert_eq!(v["instance"], json!({"'a": "finite_2"}));
        assert_eq!(v["evaluated"], json!([{"term": "rev xs", "value": "[a2, a1]"}]));
        assert_eq!((v["tests"].as_u64(), v["size"].as_u64(), v["seed"].as_u64()), (Some(12), Some(3), Some(7)));
        assert_eq!(v["shrink"], Value::Null);
    }

    #[test]
    fn ir_record() {
        let v = parsed(&file(""), &Event::Ir { text: "fun f\n".into() });
        assert_eq!(v, json!({"kind": "ir", "file": "Lists.thy", "ir": "fun f\n"}));
    }
}
