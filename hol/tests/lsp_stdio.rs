//! `hol lsp` over real stdin and stdout, fed random frames between a proper start and end:
//! malformed headers, bodies that are not JSON or not JSON-RPC, oversized lengths, responses
//! nobody asked for, and requests and notifications with random parameters. The server
//! must answer every well-formed request, in order, never crash, and exit 0 after
//! `shutdown` and `exit`. A fresh seed each run, printed on failure; `HOL_FUZZ_SEED=N` replays it.

#[path = "../../tests/support/lsp_methods.rs"]
mod lsp_methods;
#[path = "../../tests/support/split_mix.rs"]
mod split_mix;

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

fn frame(body: &[u8]) -> Vec<u8> {
    let mut f = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    f.extend_from_slice(body);
    f
}

fn message(m: Value) -> Vec<u8> {
    frame(m.to_string().as_bytes())
}

/// A random piece of input: something a broken or hostile client might send.
fn junk(rng: &mut split_mix::Rng, id: &mut i64, requests: &mut Vec<i64>) -> Vec<u8> {
    let methods = lsp_methods::METHODS;
    let params = [
        json!(null),
        json!(1),
        json!("x"),
        json!([]),
        json!({ "textDocument": { "uri": 5 } }),
        json!({ "textDocument": { "uri": "file:///tmp/J.thy", "version": 1, "text": "theory J imports Main begin\nlemma \"x = (1::nat)\"\nend\n", "languageId": "isabelle" } }),
        json!({ "textDocument": { "uri": "file:///tmp/J.thy" }, "position": { "line": 4_000_000_000u64, "character": 1 } }),
        json!({ "settings": { "timeout": 1e300, "tester": [] } }),
    ];
    match rng.below(9) {
        // Random bytes, then the blank line that ends whatever header they began.
        0 => (0..rng.below(200)).map(|_| rng.below(256) as u8).chain(*b"\r\n\r\n").collect(),
        1 => b"Content-Length: nope\r\n\r\n".to_vec(),
        2 => frame(b"{\"jsonrpc\": \"2.0\", \"id\": "),
        3 => frame(b"[1, 2, 3]"),
        4 => message(json!({ "jsonrpc": "2.0", "id": 12345, "result": null })),
        5 => b"Content-Type: x\r\nContent-Length: 2\r\n\r\n{}".to_vec(),
        6 | 7 => {
            *id += 1;
            requests.push(*id);
            message(json!({ "jsonrpc": "2.0", "id": *id, "method": rng.pick(methods), "params": rng.pick(&params) }))
        }
        _ => message(json!({ "jsonrpc": "2.0", "method": rng.pick(methods), "params": rng.pick(&params) })),
    }
}

#[test]
fn random_frames_on_stdio_never_break_the_server() {
    let seed = std::env::var("HOL_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64
    });
    let mut rng = split_mix::Rng(seed);
    let mut child = Command::new(env!("CARGO_BIN_EXE_hol"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let (tx, answers) = channel();
    std::thread::spawn(move || {
        let mut r = BufReader::new(stdout);
        loop {
            let mut length = 0;
            loop {
                let mut line = String::new();
                if r.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                match line.trim_end().strip_prefix("Content-Length: ") {
                    Some(n) => length = n.parse().unwrap(),
                    None if line.trim_end().is_empty() => break,
                    None => {}
                }
            }
            let mut body = vec![0; length];
            r.read_exact(&mut body).unwrap();
            let _ = tx.send(serde_json::from_slice::<Value>(&body).unwrap());
        }
    });
    let mut input =
        message(json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": { "capabilities": {} } }));
    input.extend(message(json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} })));
    let (mut id, mut requests) = (0, vec![0]);
    for _ in 0..300 {
        input.extend(junk(&mut rng, &mut id, &mut requests));
    }
    input.extend(message(json!({ "jsonrpc": "2.0", "id": "shutdown", "method": "shutdown" })));
    input.extend(message(json!({ "jsonrpc": "2.0", "method": "exit" })));
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&input).unwrap();

    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("seed {seed}: hol lsp did not exit within 60 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    drop(stdin);
    let stderr = err.join().unwrap();
    assert!(status.success() && !stderr.contains("panicked"), "seed {seed}: {status}\n{stderr}");
    // The reader thread ends at the end of stdout, closing the channel.
    let answered: Vec<Value> = answers.iter().filter(|m| m.get("id").is_some()).map(|m| m["id"].clone()).collect();
    let expected: Vec<Value> = requests.iter().map(|i| json!(i)).chain([json!("shutdown")]).collect();
    assert_eq!(answered, expected, "seed {seed}: every request answered, in order");
}
