//! The server in process over `Connection::memory()`, a test per request and notification
//! it handles: the handshake and its position encoding; diagnostics for a parse error and a
//! counterexample at their spans; an edit that fixes the definition removing the stale
//! counterexample; errors at once and testing after the debounce; a new text cancelling a
//! long run of the old; the run cache (an edit to one function re-tests only the lemmas that
//! reach it, counted); settings from `initializationOptions` and
//! `workspace/didChangeConfiguration`; hover, inlay hints (and their refresh), code lenses
//! and code actions; `didClose`; an edit to an imported theory reaching the importing one;
//! requests answered while a long run goes on, and a prompt `shutdown`; unknown requests and
//! bad parameters answered with errors, malformed notifications ignored, and random
//! JSON-RPC survived (seeded; `HOL_FUZZ_SEED` replays).

use super::{serve_with, Probe};
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use lsp_types::{Diagnostic, DiagnosticSeverity, PublishDiagnosticsParams};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const URI: &str = "file:///tmp/hol-lsp-test/Lists.thy";

/// A server on a thread, and the client's end.
struct Client {
    conn: Connection,
    server: Option<std::thread::JoinHandle<Result<(), String>>>,
    probe: Probe,
    /// The methods of the requests the server sent, as they passed by.
    server_requests: std::cell::RefCell<Vec<String>>,
    /// What the server said it can do.
    capabilities: Value,
}

impl Client {
    /// Starts a server and initializes it offering `encodings`; returns the encoding chosen.
    fn start(encodings: &[&str]) -> (Client, Value) {
        Client::start_with(encodings, Value::Null)
    }

    /// `start`, with `initializationOptions`.
    fn start_with(encodings: &[&str], init_options: Value) -> (Client, Value) {
        let capabilities = json!({
            "general": { "positionEncodings": encodings },
            "workspace": { "inlayHint": { "refreshSupport": true } },
            "textDocument": { "inlayHint": {} },
        });
        Client::start_full(capabilities, init_options)
    }

    /// A client with these capabilities.
    fn start_capable(capabilities: Value) -> (Client, Value) {
        Client::start_full(capabilities, Value::Null)
    }

    fn start_full(capabilities: Value, init_options: Value) -> (Client, Value) {
        let (server_end, client_end) = Connection::memory();
        let probe = Probe::default();
        let server_probe = probe.clone();
        let server = std::thread::Builder::new()
            .stack_size(crate::guard::WORKER_STACK)
            .spawn(move || {
                let options = analysis::Options::default();
                serve_with(&server_end, &options, server_probe)
            })
            .unwrap();
        let mut client = Client {
            conn: client_end,
            server: Some(server),
            probe,
            server_requests: Default::default(),
            capabilities: Value::Null,
        };
        let init = json!({ "capabilities": capabilities, "initializationOptions": init_options });
        client.request(1, "initialize", init);
        let result = client.response(1);
        client.capabilities = result["capabilities"].clone();
        client.notify("initialized", json!({}));
        (client, result["capabilities"]["positionEncoding"].clone())
    }

    fn request(&self, id: i32, method: &str, params: Value) {
        let r = Request::new(RequestId::from(id), method.to_owned(), params);
        self.conn.sender.send(Message::Request(r)).unwrap();
    }

    fn notify(&self, method: &str, params: Value) {
        self.conn.sender.send(Message::Notification(Notification::new(method.to_owned(), params))).unwrap();
    }

    /// The response to request `id` (notifications before it are dropped).
    fn response(&self, id: i32) -> Value {
        loop {
            match self.conn.receiver.recv_timeout(Duration::from_secs(30)).expect("a response") {
                Message::Response(r) if r.id == RequestId::from(id) => {
                    return r.response_result.unwrap_or_else(|e| json!({ "error": e.code }))
                }
                Message::Request(r) => self.server_requests.borrow_mut().push(r.method),
                _ => {}
            }
        }
    }

    /// Waits for a publication of `version` that `done` accepts, and returns it.
    fn diagnostics(&self, version: i32, done: impl Fn(&[Diagnostic]) -> bool) -> Vec<Diagnostic> {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.conn.receiver.recv_timeout(left).expect("diagnostics in time") {
                Message::Notification(n) if n.method == "textDocument/publishDiagnostics" => {
                    let p: PublishDiagnosticsParams = serde_json::from_value(n.params).unwrap();
                    assert!(p.version <= Some(version), "a later version than was sent: {p:?}");
                    if p.version == Some(version) && done(&p.diagnostics) {
                        return p.diagnostics;
                    }
                }
                Message::Request(r) => self.server_requests.borrow_mut().push(r.method),
                _ => {}
            }
        }
    }

    fn open(&self, text: &str) {
        let doc = json!({ "uri": URI, "languageId": "isabelle", "version": 1, "text": text });
        self.notify("textDocument/didOpen", json!({ "textDocument": doc }));
    }

    /// How many quickcheck runs the server has tested so far (not reused).
    fn tested(&self) -> usize {
        self.probe.tested.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The result of request `method` at `position` (0-based line and character).
    fn at(&self, id: i32, method: &str, line: u32, character: u32) -> Value {
        let position = json!({ "line": line, "character": character });
        let range = json!({ "start": position, "end": position });
        let params = match method {
            "textDocument/hover" => json!({ "textDocument": { "uri": URI }, "position": position }),
            "textDocument/inlayHint" => json!({
                "textDocument": { "uri": URI },
                "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 999, "character": 0 } },
            }),
            _ => json!({ "textDocument": { "uri": URI }, "range": range, "context": { "diagnostics": [] } }),
        };
        self.request(id, method, params);
        self.response(id)
    }

    fn change(&self, version: i32, text: &str) {
        let doc = json!({ "uri": URI, "version": version });
        self.notify("textDocument/didChange", json!({ "textDocument": doc, "contentChanges": [{ "text": text }] }));
    }

    fn shutdown(mut self) {
        self.request(99, "shutdown", Value::Null);
        self.response(99);
        self.notify("exit", Value::Null);
        let served = self.server.take().unwrap().join().expect("the server thread ends");
        assert_eq!(served, Ok(()));
    }
}

/// `rev` defined wrongly: `rev_rev` is false until the edit fixes `rev`.
fn theory(rev_cons: &str) -> String {
    format!(
        "theory Lists imports Main begin\n\
         fun myrev :: \"'a list ⇒ 'a list\" where\n  \"myrev [] = []\"\n| \"myrev (x # xs) = {rev_cons}\"\n\
         lemma rev_rev: \"myrev (myrev xs) = xs\"\n  quickcheck[exhaustive, size = 3]\n  oops\n\
         end\n"
    )
}

#[test]
fn diagnostics_follow_the_text() {
    let (client, encoding) = Client::start(&["utf-16"]);
    assert_eq!(encoding, "utf-16");
    client.open(&theory("xs @ [x]"));
    let good = client.diagnostics(1, |_| true);
    assert!(good.iter().all(|d| d.severity != Some(DiagnosticSeverity::ERROR)), "{good:?}");

    // Broken: a counterexample, as a warning at the statement, with the assignment.
    client.change(2, &theory("myrev xs"));
    let found = client.diagnostics(2, |ds| ds.iter().any(|d| d.message.contains("counterexample:")));
    let cx = found.iter().find(|d| d.message.contains("counterexample:")).unwrap();
    assert_eq!(cx.severity, Some(DiagnosticSeverity::WARNING));
    assert!(cx.message.starts_with("exhaustive found a counterexample"), "{}", cx.message);
    // The statement inside the quotes of `lemma rev_rev: "myrev (myrev xs) = xs"`.
    assert_eq!((cx.range.start.line, cx.range.start.character, cx.range.end.character), (4, 16, 37), "{cx:?}");
    let related = cx.related_information.as_ref().expect("the evaluated terms");
    assert!(related.iter().any(|r| r.message.starts_with("evaluated: ")), "{related:?}");

    // Fixed again: the stale counterexample is gone from the final publication.
    client.change(3, &theory("myrev xs @ [x]"));
    let fixed = client.diagnostics(3, |ds| ds.is_empty());
    assert!(fixed.is_empty());

    // A parse error, at its line.
    client.change(4, "theory Lists imports Main begin\nfun f :: \"nat ⇒\" where \"f x = x\"\nend\n");
    let parse = client.diagnostics(4, |ds| ds.iter().any(|d| d.severity == Some(DiagnosticSeverity::ERROR)));
    let error = parse.iter().find(|d| d.severity == Some(DiagnosticSeverity::ERROR)).unwrap();
    assert_eq!(error.range.start.line, 1, "{error:?}");
    client.shutdown();
}

/// The start of the first error in `text`, in the encoding the client asked for.
fn first_error_at(encodings: &[&str], text: &str) -> (Value, u32, u32) {
    let (client, encoding) = Client::start(encodings);
    client.open(text);
    let ds = client.diagnostics(1, |ds| ds.iter().any(|d| d.severity == Some(DiagnosticSeverity::ERROR)));
    let error = ds.iter().find(|d| d.severity == Some(DiagnosticSeverity::ERROR)).unwrap();
    let at = (encoding, error.range.start.line, error.range.start.character);
    client.shutdown();
    at
}

#[test]
fn positions_are_utf16_unless_the_client_offers_utf8() {
    // `∀` is 3 bytes and 1 UTF-16 unit, before the ill-typed `True`.
    let text = "theory Lists imports Main begin\nlemma \"∀x::nat. x + True = x\"\nend\n";
    let (utf8, line8, col8) = first_error_at(&["utf-8", "utf-16"], text);
    let (utf16, line16, col16) = first_error_at(&[], text);
    assert_eq!((utf8, utf16), (json!("utf-8"), json!("utf-16")));
    assert_eq!((line8, line16), (1, 1));
    assert_eq!(col8, col16 + 2, "utf-8 column {col8}, utf-16 column {col16}");
}

#[test]
fn unknown_requests_get_an_error_and_malformed_notifications_are_ignored() {
    let (client, _) = Client::start(&[]);
    client.notify("textDocument/didOpen", json!({ "textDocument": 42 }));
    client.notify("textDocument/didChange", json!(null));
    client.request(7, "textDocument/definition", json!({}));
    assert_eq!(client.response(7), json!({ "error": -32601 }));
    client.shutdown();
}

#[test]
fn file_uris_name_their_files() {
    let uri = |s: &str| s.parse::<lsp_types::Uri>().unwrap();
    assert_eq!(super::file_path(&uri("file:///tmp/My%20Theories/A.thy")), Some("/tmp/My Theories/A.thy".into()));
    assert_eq!(super::file_path(&uri("untitled:Untitled-1")), None);
}

/// Two functions and four lemmas: two reach `f`, one reaches `g` (through `h`), one neither.
/// Every lemma is false, so each run ends in a counterexample and the test can tell when an
/// analysis is complete.
fn two_functions(f_body: &str, g_body: &str, prefix: &str) -> String {
    format!(
        "theory Lists imports Main begin\n{prefix}\
         fun f :: \"nat ⇒ nat\" where \"f n = {f_body}\"\n\
         fun g :: \"nat ⇒ nat\" where \"g n = {g_body}\"\n\
         definition h :: \"nat ⇒ nat\" where \"h n = g n\"\n\
         lemma f1: \"f n = n\"\n  quickcheck[exhaustive]\n  oops\n\
         lemma f2: \"f (f n) = n\"\n  quickcheck[exhaustive]\n  oops\n\
         lemma g1: \"h n = n\"\n  quickcheck[exhaustive]\n  oops\n\
         lemma none: \"n + 1 = (n :: nat)\"\n  quickcheck[exhaustive]\n  oops\n\
         end\n"
    )
}

fn counterexamples(ds: &[Diagnostic]) -> Vec<&Diagnostic> {
    ds.iter().filter(|d| d.message.contains("counterexample:")).collect()
}

#[test]
fn an_edit_retests_only_the_lemmas_that_reach_what_changed() {
    let (client, _) = Client::start(&[]);
    let all_four = |ds: &[Diagnostic]| counterexamples(ds).len() == 4;
    client.open(&two_functions("n + 1", "n + 2", ""));
    let first = client.diagnostics(1, all_four);
    assert_eq!(client.tested(), 4);

    // `g` changes: only `g1` (which reaches `g` through `h`) is tested again.
    client.change(2, &two_functions("n + 1", "n + 3", ""));
    let second = client.diagnostics(2, all_four);
    assert_eq!(client.tested(), 5, "{second:?}");
    // Its evaluated terms are those of the new `g`.
    let g1 = |ds: &[Diagnostic]| format!("{:?}", counterexamples(ds).iter().find(|d| d.range.start.line == 10));
    assert!(g1(&first).contains("h n = 2") && g1(&second).contains("h n = 3"), "{} {}", g1(&first), g1(&second));

    // `f` changes: `f1` and `f2`.
    client.change(3, &two_functions("n * 2 + 1", "n + 3", ""));
    client.diagnostics(3, all_four);
    assert_eq!(client.tested(), 7);

    // Everything moves down two lines: nothing is tested, every result moves with its lemma.
    client.change(4, &two_functions("n * 2 + 1", "n + 3", "\n\n"));
    let moved = client.diagnostics(4, all_four);
    assert_eq!(client.tested(), 7);
    let lines = |ds: &[Diagnostic]| counterexamples(ds).iter().map(|d| d.range.start.line).collect::<Vec<_>>();
    let before = client_lines_of(&first);
    assert_eq!(lines(&moved), before.iter().map(|l| l + 2).collect::<Vec<_>>());

    // A fixed definition: its lemmas are tested again and their counterexamples go.
    client.change(5, &two_functions("n", "n + 3", "\n\n"));
    let fixed = client.diagnostics(5, |ds| counterexamples(ds).len() == 2);
    assert_eq!(client_lines_of(&fixed), [12, 15], "{fixed:?}");
    assert_eq!(client.tested(), 9);
    client.shutdown();
}

fn client_lines_of(ds: &[Diagnostic]) -> Vec<u32> {
    counterexamples(ds).iter().map(|d| d.range.start.line).collect()
}

#[test]
fn errors_show_at_once_and_testing_waits_for_a_pause_in_typing() {
    let (client, _) = Client::start_with(&[], json!({ "debounce": 2000 }));
    // A refutable lemma before a type error: the error is published before any testing.
    let typo = format!("{}lemma \"x + True = x\"\nend\n", theory("myrev xs").trim_end_matches("end\n"));
    let started = Instant::now();
    client.open(&typo);
    let errors = client.diagnostics(1, |ds| ds.iter().any(|d| d.severity == Some(DiagnosticSeverity::ERROR)));
    assert!(counterexamples(&errors).is_empty() && started.elapsed() < Duration::from_millis(2000), "{errors:?}");
    assert_eq!(client.tested(), 0);
    // Two more keystrokes within the pause: only the last text is tested.
    client.change(2, &theory("myrev xs @ []"));
    client.change(3, &theory("myrev xs"));
    client.diagnostics(3, |ds| counterexamples(ds).len() == 1);
    assert_eq!(client.tested(), 1);
    client.shutdown();
}

#[test]
fn settings_come_from_initialization_options_and_configuration_changes() {
    let (client, _) = Client::start_with(&[], json!({ "hol": { "tester": "exhaustive", "debounce": 0 } }));
    client.open(&theory("myrev xs"));
    let found = |prefix: &'static str| move |ds: &[Diagnostic]| ds.iter().any(|d| d.message.starts_with(prefix));
    client.diagnostics(1, found("exhaustive found a counterexample"));

    // A new tester for every run: the open document is analysed again with it.
    client.notify("workspace/didChangeConfiguration", json!({ "settings": { "hol": { "tester": "random" } } }));
    client.diagnostics(1, found("random found a counterexample"));

    // A bad value is refused with a message, and the setting stays.
    client.notify("workspace/didChangeConfiguration", json!({ "settings": { "timeout": "soon" } }));
    loop {
        match client.conn.receiver.recv_timeout(Duration::from_secs(30)).expect("a message") {
            Message::Notification(n) if n.method == "window/showMessage" => {
                assert!(n.params["message"].as_str().unwrap().contains("timeout"), "{n:?}");
                break;
            }
            _ => {}
        }
    }
    client.shutdown();
}

#[test]
fn hover_inlay_hints_and_code_actions_on_a_refuted_lemma() {
    let (client, _) = Client::start(&[]);
    // The command without a size: the replay names the size the counterexample was found at.
    let text = theory("myrev xs").replace("quickcheck[exhaustive, size = 3]", "quickcheck[exhaustive]");
    client.open(&text);
    client.diagnostics(1, |ds| !counterexamples(ds).is_empty());

    // On `lemma rev_rev` (line 4): the whole report.
    let hover = client.at(10, "textDocument/hover", 4, 2);
    let report = hover["contents"]["value"].as_str().expect("a report").to_owned();
    for words in [
        "`quickcheck[exhaustive]`",
        "exhaustive found a counterexample",
        "counterexample: xs = [",
        "evaluated: ",
        "tests, ",
    ] {
        assert!(report.contains(words), "{words} in {report}");
    }
    // On `xs` in the statement: its type, and the report below it.
    let xs = text.lines().nth(4).unwrap().find("xs").unwrap() as u32;
    let hover = client.at(11, "textDocument/hover", 4, xs);
    let shown = hover["contents"]["value"].as_str().unwrap();
    assert!(shown.starts_with("```isabelle\nxs :: 'a list\n```"), "{shown}");
    // Outside any lemma: nothing.
    assert_eq!(client.at(12, "textDocument/hover", 0, 0), Value::Null);

    // The client was asked to fetch the hints again when the counterexample came.
    let asked = client.server_requests.borrow().clone();
    assert!(asked.iter().any(|m| m == "workspace/inlayHint/refresh"), "{asked:?}");
    // The counterexample after the statement's closing quote.
    let hints = client.at(13, "textDocument/inlayHint", 0, 0);
    let hint = &hints.as_array().expect("hints")[0];
    assert_eq!((hint["position"]["line"].as_u64(), hint["position"]["character"].as_u64()), (Some(4), Some(38)));
    assert!(hint["label"].as_str().unwrap().starts_with("counterexample: xs = ["), "{hint}");

    // Two actions, each inserting a command after `quickcheck[exhaustive]`.
    let actions = client.at(14, "textDocument/codeAction", 4, 20);
    let actions = actions.as_array().expect("actions");
    assert_eq!(actions.len(), 2, "{actions:?}");
    let edit = &actions[0]["edit"]["changes"][URI][0];
    assert_eq!(edit["range"]["start"], json!({ "line": 5, "character": 24 }), "{edit}");
    let replay = edit["newText"].as_str().unwrap();
    assert!(replay.starts_with("\n  quickcheck[exhaustive, size = "), "{replay}");
    let expect = actions[1]["edit"]["changes"][URI][0]["newText"].as_str().unwrap();
    assert!(expect.ends_with(", expect = counterexample]"), "{expect}");
    // Applied, the replay finds the counterexample again.
    let mut replayed = text.clone();
    let at = text.lines().take(6).map(|l| l.len() + 1).sum::<usize>() - 1;
    replayed.insert_str(at, replay);
    client.change(2, &replayed);
    client.diagnostics(2, |ds| counterexamples(ds).len() == 2);
    // The replay is not offered again, now that the lemma has it.
    let offered = client.at(16, "textDocument/codeAction", 4, 20);
    let titles: Vec<&str> = offered.as_array().unwrap().iter().map(|a| a["title"].as_str().unwrap()).collect();
    assert!(titles.len() == 1 && titles[0].starts_with("Expect"), "{titles:?}");
    // No actions away from a refuted lemma.
    assert_eq!(client.at(15, "textDocument/codeAction", 0, 0), json!([]));
    client.shutdown();
}

#[test]
fn requests_with_bad_parameters_get_an_error() {
    let (client, _) = Client::start(&[]);
    client.request(3, "textDocument/hover", json!({ "position": "here" }));
    assert_eq!(client.response(3), json!({ "error": -32602 }));
    // A document never opened: no hover, no hints, no actions.
    assert_eq!(client.at(4, "textDocument/hover", 0, 0), Value::Null);
    assert_eq!(client.at(5, "textDocument/inlayHint", 0, 0), json!([]));
    client.shutdown();
}

#[path = "../../../tests/support/lsp_methods.rs"]
mod lsp_methods;
#[path = "../../../tests/support/split_mix.rs"]
mod split_mix;

/// A random JSON value, `depth` levels deep at most, sometimes shaped like LSP parameters.
fn random_json(rng: &mut split_mix::Rng, depth: u32) -> Value {
    let keys = [
        "textDocument",
        "uri",
        "text",
        "version",
        "position",
        "line",
        "character",
        "range",
        "start",
        "end",
        "contentChanges",
        "settings",
        "hol",
        "timeout",
        "tester",
        "debounce",
        "context",
        "languageId",
    ];
    match rng.below(if depth == 0 { 6 } else { 9 }) {
        0 => Value::Null,
        1 => json!(rng.below(2) == 0),
        2 => json!(rng.next() as i64),
        3 => json!(*rng.pick(&[0u64, 1, u32::MAX as u64, u64::MAX, 4])),
        4 => json!(*rng.pick(&[
            URI,
            "",
            "file:///",
            "untitled:x",
            "theory T imports Main begin\nlemma \"x\"\nend",
            "∀𝔄\r\n"
        ])),
        5 => json!(-1.5),
        6 => Value::Array((0..rng.below(4)).map(|_| random_json(rng, depth - 1)).collect()),
        _ => {
            let mut map = serde_json::Map::new();
            for _ in 0..rng.range(1, 5) {
                map.insert((*rng.pick(&keys)).to_owned(), random_json(rng, depth - 1));
            }
            Value::Object(map)
        }
    }
}

#[test]
fn random_json_rpc_never_breaks_the_server() {
    let seed = std::env::var("HOL_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5eed_0018);
    let mut rng = split_mix::Rng(seed);
    let methods = lsp_methods::METHODS;
    let (client, _) = Client::start(&[]);
    client.open(&theory("myrev xs"));
    let mut ids = Vec::new();
    for i in 0..400 {
        let method = *rng.pick(methods);
        let params = random_json(&mut rng, 4);
        if rng.below(2) == 0 {
            client.request(100 + i, method, params);
            ids.push(100 + i);
        } else {
            client.notify(method, params);
        }
    }
    // Every request answered, in order, and the server still serves.
    for id in ids {
        client.response(id);
    }
    client.change(1000, &theory("myrev xs"));
    client.diagnostics(1000, |ds| !counterexamples(ds).is_empty());
    eprintln!("seed {seed:#x}");
    client.shutdown();
}

#[test]
fn a_long_run_blocks_neither_requests_nor_shutdown() {
    let (client, _) = Client::start_with(&[], json!({ "timeout": 600, "debounce": 0 }));
    // A true lemma over a space exhaustive testing would take minutes to cover.
    let text = "theory Lists imports Main begin\n\
                lemma \"rev (rev (xs :: nat list)) = xs\"\n  quickcheck[exhaustive, size = 60]\n  oops\nend\n";
    client.open(text);
    let deadline = Instant::now() + Duration::from_secs(30);
    while client.tested() == 0 {
        assert!(Instant::now() < deadline, "the run did not start");
        std::thread::sleep(Duration::from_millis(5));
    }
    std::thread::sleep(Duration::from_millis(200));
    let asked = Instant::now();
    assert_eq!(client.at(20, "textDocument/hover", 0, 0), Value::Null);
    assert!(asked.elapsed() < Duration::from_secs(1), "hover waited {:?}", asked.elapsed());
    let asked = Instant::now();
    client.shutdown();
    assert!(asked.elapsed() < Duration::from_secs(2), "shutdown took {:?}", asked.elapsed());
}

#[test]
fn a_new_text_cancels_a_long_run_of_the_old_one() {
    let (client, _) = Client::start_with(&[], json!({ "timeout": 600, "debounce": 0 }));
    client.open(
        "theory Lists imports Main begin\n\
         lemma \"rev (rev (xs :: nat list)) = xs\"\n  quickcheck[exhaustive, size = 60]\n  oops\nend\n",
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    while client.tested() == 0 {
        assert!(Instant::now() < deadline, "the run did not start");
        std::thread::sleep(Duration::from_millis(5));
    }
    // The long run ends soon after the next text arrives, which gets its answer.
    let changed = Instant::now();
    client.change(2, &theory("myrev xs"));
    client.diagnostics(2, |ds| counterexamples(ds).len() == 1);
    while client.probe.ended.load(std::sync::atomic::Ordering::Relaxed) < 2 {
        assert!(changed.elapsed() < Duration::from_secs(5), "the old analysis still runs");
        std::thread::sleep(Duration::from_millis(5));
    }
    client.shutdown();
}

#[test]
fn closing_a_document_clears_its_diagnostics_and_findings() {
    let (client, _) = Client::start(&[]);
    client.open(&theory("myrev xs"));
    client.diagnostics(1, |ds| counterexamples(ds).len() == 1);
    client.notify("textDocument/didClose", json!({ "textDocument": { "uri": URI } }));
    // The empty publication has no version: the document is gone.
    loop {
        match client.conn.receiver.recv_timeout(Duration::from_secs(30)).expect("a publication") {
            Message::Notification(n) if n.method == "textDocument/publishDiagnostics" => {
                let p: PublishDiagnosticsParams = serde_json::from_value(n.params).unwrap();
                if p.version.is_none() {
                    assert!(p.diagnostics.is_empty());
                    break;
                }
            }
            _ => {}
        }
    }
    assert_eq!(client.at(30, "textDocument/hover", 4, 2), Value::Null);
    assert_eq!(client.at(31, "textDocument/inlayHint", 0, 0), json!([]));
    // `$/cancelRequest` and `initialized` again change nothing.
    client.notify("$/cancelRequest", json!({ "id": 30 }));
    client.notify("initialized", json!({}));
    client.open(&theory("myrev xs"));
    client.diagnostics(1, |ds| counterexamples(ds).len() == 1);
    client.shutdown();
}

#[test]
fn a_client_without_inlay_hints_gets_the_counterexample_as_a_code_lens() {
    // The client declares text document capabilities, inlay hints not among them.
    let (client, _) = Client::start_with(&[], Value::Null);
    assert_eq!(client.capabilities["codeLensProvider"], Value::Null, "a client with inlay hints gets none");
    client.shutdown();
    let (client, _) = Client::start_capable(json!({ "textDocument": { "hover": {} } }));
    assert!(client.capabilities["codeLensProvider"].is_object(), "{}", client.capabilities);
    client.open(&theory("myrev xs"));
    client.diagnostics(1, |ds| counterexamples(ds).len() == 1);
    client.request(40, "textDocument/codeLens", json!({ "textDocument": { "uri": URI } }));
    let lenses = client.response(40);
    let lens = &lenses.as_array().expect("lenses")[0];
    assert_eq!(lens["range"]["start"], json!({ "line": 4, "character": 0 }), "{lens}");
    assert!(lens["command"]["title"].as_str().unwrap().starts_with("counterexample: xs = ["), "{lens}");
    client.shutdown();
}

#[test]
fn an_edit_to_an_imported_theory_updates_the_theories_that_import_it() {
    let (client, _) = Client::start(&[]);
    let open = |uri: &str, text: &str| {
        let doc = json!({ "uri": uri, "languageId": "isabelle", "version": 1, "text": text });
        client.notify("textDocument/didOpen", json!({ "textDocument": doc }));
    };
    let b = "file:///tmp/hol-lsp-test/B.thy";
    let a = "file:///tmp/hol-lsp-test/A.thy";
    let base =
        |body: &str| format!("theory B imports Main begin\nfun f :: \"nat ⇒ nat\" where \"f n = {body}\"\nend\n");
    open(b, &base("n + 1"));
    open(a, "theory A imports B begin\nlemma on_f: \"f n = n\"\n  quickcheck[exhaustive]\n  oops\nend\n");
    // A's publications, until `done` accepts one.
    let a_diagnostics = |done: &dyn Fn(&[Diagnostic]) -> bool| loop {
        match client.conn.receiver.recv_timeout(Duration::from_secs(60)).expect("a publication") {
            Message::Notification(n) if n.method == "textDocument/publishDiagnostics" => {
                let p: PublishDiagnosticsParams = serde_json::from_value(n.params).unwrap();
                if p.uri.as_str() == a && done(&p.diagnostics) {
                    return p.diagnostics;
                }
            }
            _ => {}
        }
    };
    a_diagnostics(&|ds| counterexamples(ds).len() == 1);
    // B's unsaved fix reaches A: its counterexample goes.
    let doc = json!({ "uri": b, "version": 2 });
    client.notify("textDocument/didChange", json!({ "textDocument": doc, "contentChanges": [{ "text": base("n") }] }));
    a_diagnostics(&|ds| ds.is_empty());
    client.shutdown();
}
