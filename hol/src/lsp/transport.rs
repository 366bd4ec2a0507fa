//! The stdio transport: LSP's `Content-Length` framing, read on one thread and written on
//! another, as `lsp-server`'s own `Connection::stdio` does, but with bounded memory on any
//! input. `lsp-server` allocates what a header claims before reading it (a `Content-Length`
//! of 10^14 aborted the process) and ends the connection at the first malformed message;
//! here a header line is read up to 4 KiB, a body up to 64 MiB and only as it arrives, and a
//! malformed frame or a body that is not JSON-RPC is reported on stderr and skipped. The
//! reader stops after `exit`, so the process ends even if the client keeps stdin open.

use crossbeam_channel::{bounded, Sender};
use lsp_server::{Connection, Message};
use std::io::{self, BufRead, Read, Write};
use std::thread::JoinHandle;

/// The largest message read; a larger one is skipped (a `.thy` file is far smaller).
pub const MAX_MESSAGE: usize = 64 << 20;
/// The longest header line read.
const MAX_HEADER_LINE: u64 = 4096;

/// The threads behind a stdio connection.
pub struct Transport {
    writer: JoinHandle<io::Result<()>>,
}

impl Transport {
    /// Waits until every message sent has been written (the connection's senders are all
    /// dropped). The reader is not waited for: it may be blocked on a stdin the client
    /// keeps open, and the process ends anyway.
    pub fn join(self) -> Result<(), String> {
        match self.writer.join() {
            Ok(written) => written.map_err(|e| format!("cannot write to stdout: {e}")),
            Err(_) => Err("the writer thread panicked".to_owned()),
        }
    }
}

/// A connection over stdin and stdout.
pub fn stdio() -> (Connection, Transport) {
    let (to_server, receiver) = bounded::<Message>(0);
    let (sender, to_client) = bounded::<Message>(0);
    std::thread::Builder::new()
        .name("hol-lsp-reader".into())
        .spawn(move || read_loop(&mut io::stdin().lock(), &to_server))
        .ok();
    let writer = std::thread::Builder::new().name("hol-lsp-writer".into()).spawn(move || {
        let stdout = io::stdout();
        let mut out = stdout.lock();
        for message in to_client {
            message.write(&mut out)?;
        }
        out.flush()
    });
    let writer = writer.unwrap_or_else(|e| std::thread::spawn(move || Err(e)));
    (Connection { sender, receiver }, Transport { writer })
}

/// Reads messages from `input` into `server` until the input ends, `exit` comes, or the
/// server stops listening.
pub fn read_loop(input: &mut impl BufRead, server: &Sender<Message>) {
    loop {
        match read_frame(input) {
            Ok(Frame::End) => return,
            Ok(Frame::Skipped(why)) => eprintln!("hol lsp: {why}; skipped"),
            Ok(Frame::Body(body)) => match serde_json::from_slice::<Message>(&body) {
                Ok(message) => {
                    let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                    if server.send(message).is_err() || exit {
                        return;
                    }
                }
                Err(e) => eprintln!("hol lsp: a message that is not JSON-RPC ({e}); skipped"),
            },
            Err(e) => {
                eprintln!("hol lsp: cannot read stdin: {e}");
                return;
            }
        }
    }
}

#[derive(Debug, PartialEq)]
pub enum Frame {
    /// The input ended.
    End,
    Body(Vec<u8>),
    /// A frame that cannot be read, and why; the input goes on after it.
    Skipped(String),
}

/// The next frame of `input`.
pub fn read_frame(input: &mut impl BufRead) -> io::Result<Frame> {
    let mut length = None;
    let mut problem = None;
    loop {
        let mut line = Vec::new();
        if input.by_ref().take(MAX_HEADER_LINE).read_until(b'\n', &mut line)? == 0 {
            return Ok(Frame::End);
        }
        if !line.ends_with(b"\n") {
            // An overlong line: the rest of it goes unread into nowhere.
            problem = Some(format!("a header line longer than {MAX_HEADER_LINE} bytes"));
            while !line.ends_with(b"\n") {
                line.clear();
                if input.by_ref().take(MAX_HEADER_LINE).read_until(b'\n', &mut line)? == 0 {
                    return Ok(Frame::End);
                }
            }
            continue;
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            break;
        }
        match text.split_once(':') {
            Some((name, value)) if name.trim().eq_ignore_ascii_case("Content-Length") => {
                match value.trim().parse::<usize>() {
                    Ok(n) => length = Some(n),
                    Err(_) => problem = Some(format!("a bad Content-Length: {:?}", value.trim())),
                }
            }
            Some(_) => {}
            None => problem = Some(format!("a malformed header line: {text:?}")),
        }
    }
    let Some(length) = length else {
        return Ok(Frame::Skipped(problem.unwrap_or_else(|| "a message without Content-Length".to_owned())));
    };
    if length > MAX_MESSAGE {
        io::copy(&mut input.by_ref().take(length as u64), &mut io::sink())?;
        return Ok(Frame::Skipped(format!("a message of {length} bytes, more than the {MAX_MESSAGE} read")));
    }
    let mut body = Vec::new();
    input.by_ref().take(length as u64).read_to_end(&mut body)?;
    if body.len() < length {
        return Ok(Frame::End);
    }
    Ok(Frame::Body(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8]) -> Vec<Frame> {
        let mut input = input;
        let mut out = Vec::new();
        loop {
            match read_frame(&mut input).unwrap() {
                Frame::End => return out,
                f => out.push(f),
            }
        }
    }

    #[test]
    fn frames_are_read_and_malformed_ones_skipped() {
        let long = format!("X-Long: {}\r\n", "a".repeat(10_000));
        let input = format!(
            "Content-Length: 2\r\n\r\n{{}}garbage\r\n\r\n{long}Content-Length: 1\r\n\r\nx\
             Content-Length: lots\r\n\r\nContent-Length: 99999999999999\r\n\r\n{{}}"
        );
        let got = frames(input.as_bytes());
        assert_eq!(got[0], Frame::Body(b"{}".to_vec()));
        assert!(matches!(&got[1], Frame::Skipped(why) if why.contains("malformed header")), "{got:?}");
        assert_eq!(got[2], Frame::Body(b"x".to_vec()));
        assert!(matches!(&got[3], Frame::Skipped(why) if why.contains("bad Content-Length")), "{got:?}");
        // The claimed 10^14 bytes are skipped as they come, never allocated; the input ends.
        assert!(matches!(&got[4], Frame::Skipped(why) if why.contains("99999999999999 bytes")), "{got:?}");
        assert_eq!(got.len(), 5);
    }

    #[test]
    fn the_reader_skips_what_is_not_json_rpc_and_stops_after_exit() {
        let body = |s: &str| format!("Content-Length: {}\r\n\r\n{s}", s.len());
        let input = [
            body("[1, 2"),
            body(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#),
            body(r#"{"jsonrpc":"2.0","method":"exit"}"#),
            body(r#"{"jsonrpc":"2.0","method":"after","params":{}}"#),
        ]
        .concat();
        let (sender, receiver) = crossbeam_channel::unbounded();
        read_loop(&mut input.as_bytes(), &sender);
        let methods: Vec<String> = receiver
            .try_iter()
            .map(|m| match m {
                Message::Notification(n) => n.method,
                other => format!("{other:?}"),
            })
            .collect();
        assert_eq!(methods, ["initialized", "exit"]);
    }
}
