//! `hol lsp`: a language server over stdio (`lsp-server`, `lsp-types`), a thin front end over
//! `analysis`. Open `.thy` documents are analysed on every change, each version on a worker
//! thread of its own with a large stack; a new version cancels the analysis of the one
//! before (`analysis::Cancel`), and only the current version's worker may publish, so no
//! diagnostic of an older text survives an edit. Diagnostics stream in as the analysis
//! reports them: the whole list so far is published after each event that adds one.
//! Sibling imports read the open documents first (`analysis::Overlay`), then the disk.
//!
//! Positions are UTF-16 by default and UTF-8 when the client offers it; the conversion is
//! `analysis::position`, the one the terminal renderer uses.

mod diagnostics;

use analysis::position::{Columns, LineMap};
use analysis::{Cancel, Event, FsLoader, Overlay};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::{
    DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams, InitializeParams,
    PositionEncodingKind, PublishDiagnosticsParams, ServerCapabilities, TextDocumentSyncCapability,
    TextDocumentSyncKind, Uri,
};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// An open document: its text, and what stops the analysis of its current version.
struct Open {
    text: String,
    /// Stops the analysis of this version.
    cancel: Cancel,
}

/// Which version of each document may publish: a worker publishes under this lock, only
/// while its version is the current one.
type Current = Arc<Mutex<HashMap<Uri, i32>>>;

/// Serves `connection` until the client asks to exit. `Err` says why the protocol broke.
pub fn serve(connection: &Connection, options: &analysis::Options) -> Result<(), String> {
    let (id, params) = connection.initialize_start().map_err(|e| e.to_string())?;
    let params: InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let offered = params.capabilities.general.and_then(|g| g.position_encodings).unwrap_or_default();
    let (encoding, columns) = if offered.contains(&PositionEncodingKind::UTF8) {
        (PositionEncodingKind::UTF8, Columns::Utf8)
    } else {
        (PositionEncodingKind::UTF16, Columns::Utf16)
    };
    let capabilities = ServerCapabilities {
        position_encoding: Some(encoding),
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        ..ServerCapabilities::default()
    };
    let result = serde_json::json!({
        "capabilities": capabilities,
        "serverInfo": { "name": "hol", "version": env!("CARGO_PKG_VERSION") },
    });
    connection.initialize_finish(id, result).map_err(|e| e.to_string())?;

    let mut server = Server { connection, options, columns, open: HashMap::new(), current: Current::default() };
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if connection.handle_shutdown(&request).map_err(|e| e.to_string())? {
                    server.cancel_all();
                    return Ok(());
                }
                server.unknown_request(request);
            }
            Message::Notification(notification) => server.notification(notification),
            Message::Response(_) => {}
        }
    }
    server.cancel_all();
    Ok(())
}

struct Server<'a> {
    connection: &'a Connection,
    options: &'a analysis::Options,
    columns: Columns,
    open: HashMap<Uri, Open>,
    current: Current,
}

impl Server<'_> {
    fn notification(&mut self, n: Notification) {
        match n.method.as_str() {
            "textDocument/didOpen" => {
                if let Ok(p) = serde_json::from_value::<DidOpenTextDocumentParams>(n.params) {
                    self.changed(p.text_document.uri, p.text_document.version, p.text_document.text);
                }
            }
            "textDocument/didChange" => {
                if let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(n.params) {
                    // Full sync: the last change holds the whole text.
                    if let Some(change) = p.content_changes.into_iter().last() {
                        self.changed(p.text_document.uri, p.text_document.version, change.text);
                    }
                }
            }
            "textDocument/didClose" => {
                if let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(n.params) {
                    if let Some(open) = self.open.remove(&p.text_document.uri) {
                        open.cancel.cancel();
                    }
                    lock(&self.current).remove(&p.text_document.uri);
                    self.publish(PublishDiagnosticsParams::new(p.text_document.uri, Vec::new(), None));
                }
            }
            // `initialized`, `$/cancelRequest`, settings: nothing to do yet.
            _ => {}
        }
    }

    /// A request this server does not handle.
    fn unknown_request(&self, request: Request) {
        let message = format!("hol lsp does not handle `{}`", request.method);
        let response = Response::new_err(request.id, ErrorCode::MethodNotFound as i32, message);
        let _ = self.connection.sender.send(Message::Response(response));
    }

    /// A document opened or changed: cancel the analysis of its previous version and start
    /// one of this version.
    fn changed(&mut self, uri: Uri, version: i32, text: String) {
        let cancel = Cancel::new();
        if let Some(old) = self.open.insert(uri.clone(), Open { text: text.clone(), cancel: cancel.clone() }) {
            old.cancel.cancel();
        }
        lock(&self.current).insert(uri.clone(), version);
        let mut loader = Overlay::new(FsLoader::default());
        for (other, open) in &self.open {
            if let Some(path) = file_path(other) {
                loader.insert(path, open.text.clone());
            }
        }
        let job = Job {
            uri,
            version,
            text,
            loader,
            options: self.options.clone(),
            columns: self.columns,
            cancel,
            current: self.current.clone(),
            sender: self.connection.sender.clone(),
        };
        let spawned = std::thread::Builder::new()
            .name("hol-lsp-analysis".into())
            .stack_size(crate::guard::WORKER_STACK)
            .spawn(move || job.run());
        if let Err(e) = spawned {
            eprintln!("hol lsp: cannot start an analysis: {e}");
        }
    }

    fn publish(&self, params: PublishDiagnosticsParams) {
        let n = Notification::new("textDocument/publishDiagnostics".into(), params);
        let _ = self.connection.sender.send(Message::Notification(n));
    }

    fn cancel_all(&self) {
        for open in self.open.values() {
            open.cancel.cancel();
        }
    }
}

/// The analysis of one version of one document.
struct Job {
    uri: Uri,
    version: i32,
    text: String,
    loader: Overlay<FsLoader>,
    options: analysis::Options,
    columns: Columns,
    cancel: Cancel,
    current: Current,
    sender: crossbeam_channel::Sender<Message>,
}

impl Job {
    fn run(self) {
        let lines = LineMap::new(&self.text);
        let doc = diagnostics::Document { uri: &self.uri, lines: &lines, columns: self.columns };
        let path = file_path(&self.uri).unwrap_or_else(|| PathBuf::from(self.uri.as_str()));
        let mut published = Vec::new();
        let mut first = true;
        let mut sink = |event: Event| {
            let added = diagnostics::of_event(&doc, &event);
            let changed = added.is_some();
            published.extend(added);
            // The first event replaces the previous version's diagnostics at once.
            if changed || std::mem::take(&mut first) {
                self.publish(&published);
            }
        };
        analysis::analyse(&path, &self.text, &self.loader, &self.options, &self.cancel, &mut sink);
        self.publish(&published);
    }

    /// Publishes `diagnostics` if this version is still the document's current one.
    fn publish(&self, diagnostics: &[lsp_types::Diagnostic]) {
        let current = lock(&self.current);
        if self.cancel.is_cancelled() || current.get(&self.uri) != Some(&self.version) {
            return;
        }
        let params = PublishDiagnosticsParams::new(self.uri.clone(), diagnostics.to_vec(), Some(self.version));
        let n = Notification::new("textDocument/publishDiagnostics".into(), params);
        let _ = self.sender.send(Message::Notification(n));
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The file a `file:` URI names (percent-escapes decoded), for sibling imports.
fn file_path(uri: &Uri) -> Option<PathBuf> {
    if !uri.scheme().is_some_and(|s| s.as_str().eq_ignore_ascii_case("file")) {
        return None;
    }
    Some(PathBuf::from(uri.path().as_estr().decode().into_string_lossy().into_owned()))
}

#[cfg(test)]
mod tests;
