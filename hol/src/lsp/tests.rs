//! The server in process over `Connection::memory()`: the handshake and its position
//! encoding, diagnostics for a parse error and a counterexample at their spans, an edit
//! that fixes the definition removing the stale counterexample, unknown requests answered
//! with an error, malformed notifications ignored, and `shutdown`.

use super::serve;
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use lsp_types::{Diagnostic, DiagnosticSeverity, PublishDiagnosticsParams};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const URI: &str = "file:///tmp/hol-lsp-test/Lists.thy";

/// A server on a thread, and the client's end.
struct Client {
    conn: Connection,
    server: Option<std::thread::JoinHandle<Result<(), String>>>,
}

impl Client {
    /// Starts a server and initializes it offering `encodings`; returns the encoding chosen.
    fn start(encodings: &[&str]) -> (Client, Value) {
        let (server_end, client_end) = Connection::memory();
        let server = std::thread::Builder::new()
            .stack_size(crate::guard::WORKER_STACK)
            .spawn(move || {
                let options = analysis::Options::default();
                serve(&server_end, &options)
            })
            .unwrap();
        let client = Client { conn: client_end, server: Some(server) };
        let init = json!({ "capabilities": { "general": { "positionEncodings": encodings } } });
        client.request(1, "initialize", init);
        let result = client.response(1);
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
                _ => {}
            }
        }
    }

    fn open(&self, text: &str) {
        let doc = json!({ "uri": URI, "languageId": "isabelle", "version": 1, "text": text });
        self.notify("textDocument/didOpen", json!({ "textDocument": doc }));
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
