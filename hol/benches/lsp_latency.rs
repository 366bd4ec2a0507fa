//! How fast `hol lsp` answers while typing, measured as an editor sees it: a scripted client
//! runs the real binary over stdio on a generated 300-line theory (37 functions, each with
//! a lemma) and times, over repeated edits, (1) a type error, from the change to the
//! publication that shows it, and (2) a breaking edit to one function, from the change to
//! the publication of its lemma's counterexample (debounce included), and the edit that
//! undoes it, to the publication without that counterexample. Prints medians.
//!
//! `cargo bench -p hol --bench lsp_latency` (`-- N D`: N edits of each kind, 15 without;
//! a debounce of D ms, the server's default without).

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

const BLOCKS: usize = 37;
const URI: &str = "file:///tmp/hol-lsp-bench/Bench.thy";

/// Function `i`'s recursive equation: as written, with a type error, or broken.
fn equation(i: usize, edit: Edit) -> String {
    match edit {
        Edit::None => format!("| \"f{i} (x # xs) = (x + {i}) # f{i} xs\""),
        Edit::TypeError => format!("| \"f{i} (x # xs) = (x + True) # f{i} xs\""),
        Edit::Break => format!("| \"f{i} (x # xs) = f{i} xs\""),
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Edit {
    None,
    TypeError,
    Break,
}

/// The theory with function `edited` edited as `edit`: 8 lines per function and lemma.
fn theory(edited: usize, edit: Edit) -> String {
    let mut t = String::from("theory Bench imports Main begin\n\n");
    for i in 0..BLOCKS {
        let e = if i == edited { edit } else { Edit::None };
        t.push_str(&format!(
            "fun f{i} :: \"nat list ⇒ nat list\" where\n  \"f{i} [] = []\"\n{}\n\n\
             lemma l{i}: \"length (f{i} xs) = length xs\"\n  quickcheck[exhaustive, size = 4]\n  oops\n\n",
            equation(i, e)
        ));
    }
    t.push_str("end\n");
    t
}

struct Server {
    stdin: ChildStdin,
    messages: Receiver<Value>,
    version: i32,
}

impl Server {
    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    /// Sends the text as a new version; returns the version and when it was sent.
    fn change(&mut self, text: &str) -> (i32, Instant) {
        self.version += 1;
        let doc = json!({ "uri": URI, "version": self.version });
        let params = json!({ "textDocument": doc, "contentChanges": [{ "text": text }] });
        let sent = Instant::now();
        self.send(json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": params }));
        (self.version, sent)
    }

    /// Waits for a publication of `version` that `done` accepts.
    fn wait(&self, version: i32, done: impl Fn(&[Value]) -> bool) {
        loop {
            let m = self.messages.recv_timeout(Duration::from_secs(120)).expect("a publication in time");
            let published =
                m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"] == json!(version);
            if published && done(m["params"]["diagnostics"].as_array().unwrap()) {
                return;
            }
        }
    }
}

fn is_error(d: &Value) -> bool {
    d["severity"] == json!(1)
}

fn counterexample_at(line: usize) -> impl Fn(&[Value]) -> bool {
    move |ds| {
        ds.iter().any(|d| {
            d["range"]["start"]["line"] == json!(line)
                && d["message"].as_str().unwrap_or("").contains("counterexample:")
        })
    }
}

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn main() {
    let numbers: Vec<u64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let edits = numbers.first().map_or(15, |n| *n as usize);
    let settings = numbers.get(1).map_or(json!({}), |d| json!({ "debounce": d }));
    let mut child = Command::new(env!("CARGO_BIN_EXE_hol"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("hol lsp starts");
    let stdout = child.stdout.take().unwrap();
    let (tx, messages) = channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        loop {
            let mut length = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                let line = line.trim_end();
                if line.is_empty() {
                    break;
                }
                if let Some(n) = line.strip_prefix("Content-Length: ") {
                    length = n.parse().unwrap();
                }
            }
            let mut body = vec![0; length];
            reader.read_exact(&mut body).unwrap();
            if tx.send(serde_json::from_slice(&body).unwrap()).is_err() {
                return;
            }
        }
    });
    let mut server = Server { stdin: child.stdin.take().unwrap(), messages, version: 1 };
    server.send(json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "capabilities": {}, "initializationOptions": settings } }));
    server.send(json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }));

    let original = theory(usize::MAX, Edit::None);
    assert_eq!(original.lines().count(), 2 + 8 * BLOCKS + 1);
    let doc = json!({ "uri": URI, "languageId": "isabelle", "version": 1, "text": original });
    let started = Instant::now();
    server.send(json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": { "textDocument": doc } }));
    // Every lemma tested once: the last lemma's hover shows a report when its run is in,
    // and lemmas are tested in file order.
    let last = 2 + 8 * (BLOCKS - 1) + 4;
    for id in 10.. {
        let position = json!({ "line": last, "character": 2 });
        let params = json!({ "textDocument": { "uri": URI }, "position": position });
        server.send(json!({ "jsonrpc": "2.0", "id": id, "method": "textDocument/hover", "params": params }));
        let reply = loop {
            let m = server.messages.recv_timeout(Duration::from_secs(120)).expect("a hover");
            if m["id"] == json!(id) {
                break m;
            }
        };
        if reply["result"]["contents"]["value"].as_str().is_some_and(|v| v.contains("no counterexample")) {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    println!(
        "{} lines, {BLOCKS} lemmas, all tested {:.2} s after opening",
        original.lines().count(),
        started.elapsed().as_secs_f64()
    );

    let (mut errors, mut found, mut gone) = (Vec::new(), Vec::new(), Vec::new());
    for n in 0..edits {
        let k = (n * 7 + 3) % BLOCKS;
        let line = 2 + 8 * k + 4; // the lemma's line, 0-based
        let (v, sent) = server.change(&theory(k, Edit::TypeError));
        server.wait(v, |ds| ds.iter().any(is_error));
        errors.push(sent.elapsed());
        let (v, _) = server.change(&original);
        server.wait(v, |ds| !ds.iter().any(is_error));

        let (v, sent) = server.change(&theory(k, Edit::Break));
        server.wait(v, counterexample_at(line));
        found.push(sent.elapsed());
        let (v, sent) = server.change(&original);
        server.wait(v, |ds| ds.is_empty());
        gone.push(sent.elapsed());
    }
    println!("medians over {edits} edits of each kind (settings {settings}):");
    println!("  type error shown after a change:              {}", ms(median(errors)));
    println!("  counterexample shown after a breaking edit:   {}", ms(median(found)));
    println!("  counterexample gone after the undoing edit:   {}", ms(median(gone)));
    server.send(json!({ "jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": null }));
    server.send(json!({ "jsonrpc": "2.0", "method": "exit", "params": null }));
    let _ = child.wait();
}
