//! `hol lsp`: a language server over stdio (`lsp-server`, `lsp-types`), a thin front end over
//! `analysis`. This module owns the protocol: the handshake, the message loop and the open
//! documents; each concern has a module of its own:
//! - `document`: an open document, its run cache and what its current analysis found;
//! - `worker`: the analysis of one text on a thread of its own (errors at once, testing after
//!   a debounce, runs reused from the cache, a newer text cancelling it);
//! - `diagnostics`: events as LSP diagnostics, in the words of `analysis::findings`;
//! - `hover`, `hints`, `actions`: a lemma's report and a name's type on hover, the
//!   counterexample as an inlay hint (or a code lens, for clients without inlay hints), and
//!   the `quickcheck[...]` commands that replay it;
//! - `settings`: what `initializationOptions` and `workspace/didChangeConfiguration` set;
//! - `transport`: stdin and stdout, framed, with bounded memory on any input.
//!
//! Sibling imports read the open documents first (`analysis::Overlay`), then the disk.
//! Positions are UTF-16 by default and UTF-8 when the client offers it; the conversion is
//! `analysis::position`, the one the terminal renderer uses. A malformed message is answered
//! with an error (a request) or ignored (a notification), never a panic.

mod actions;
mod diagnostics;
mod document;
mod hints;
mod hover;
mod settings;
mod transport;
mod worker;

use analysis::position::Columns;
use analysis::{Cancel, FsLoader, MemoryCache, Overlay};
use document::{lock, Document, Findings, Text};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::{
    CodeActionParams, CodeActionProviderCapability, CodeLensOptions, CodeLensParams, DidChangeConfigurationParams,
    DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams, HoverParams,
    HoverProviderCapability, InitializeParams, InlayHintParams, MessageType, OneOf, PositionEncodingKind,
    PublishDiagnosticsParams, ServerCapabilities, ShowMessageParams, TextDocumentSyncCapability, TextDocumentSyncKind,
    Uri,
};
use serde::de::DeserializeOwned;
use serde_json::Value;
use settings::Settings;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;
pub use transport::stdio;
use worker::{Current, Job, Probe};

/// Serves `connection` until the client asks to exit. `Err` says why the protocol broke.
pub fn serve(connection: &Connection, options: &analysis::Options) -> Result<(), String> {
    serve_with(connection, options, Probe::default())
}

/// `serve`, counting its work into `probe`.
fn serve_with(connection: &Connection, options: &analysis::Options, probe: Probe) -> Result<(), String> {
    let (id, params) = connection.initialize_start().map_err(|e| format!("no `initialize` request: {e}"))?;
    let init_options = params.get("initializationOptions").cloned().unwrap_or(Value::Null);
    let params: InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let refresh_hints = params
        .capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.inlay_hint.as_ref())
        .and_then(|h| h.refresh_support)
        .unwrap_or(false);
    // Without inlay hints the counterexample goes in a code lens instead.
    let lenses = params.capabilities.text_document.as_ref().is_none_or(|t| t.inlay_hint.is_none());
    let offered = params.capabilities.general.and_then(|g| g.position_encodings).unwrap_or_default();
    let (encoding, columns) = if offered.contains(&PositionEncodingKind::UTF8) {
        (PositionEncodingKind::UTF8, Columns::Utf8)
    } else {
        (PositionEncodingKind::UTF16, Columns::Utf16)
    };
    let capabilities = ServerCapabilities {
        position_encoding: Some(encoding),
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        inlay_hint_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        code_lens_provider: lenses.then_some(CodeLensOptions { resolve_provider: Some(false) }),
        ..ServerCapabilities::default()
    };
    let result = serde_json::json!({
        "capabilities": capabilities,
        "serverInfo": { "name": "hol", "version": env!("CARGO_PKG_VERSION") },
    });
    connection.initialize_finish(id, result).map_err(|e| e.to_string())?;

    let mut server = Server {
        connection,
        options,
        settings: Settings::default(),
        columns,
        docs: HashMap::new(),
        current: Current::default(),
        generation: 0,
        probe,
        refresh_hints: refresh_hints.then(Arc::default),
    };
    server.configure(&init_options);
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if connection.handle_shutdown(&request).map_err(|e| e.to_string())? {
                    server.cancel_all();
                    return Ok(());
                }
                server.request(request);
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
    settings: Settings,
    columns: Columns,
    docs: HashMap<Uri, Document>,
    current: Current,
    /// The last generation given to an analysis.
    generation: u64,
    probe: Probe,
    /// Numbers the server's `workspace/inlayHint/refresh` requests, when the client takes them.
    refresh_hints: Option<Arc<std::sync::atomic::AtomicUsize>>,
}

/// Why a request got no result.
type Failure = (ErrorCode, String);

fn params<T: DeserializeOwned>(value: Value) -> Result<T, Failure> {
    serde_json::from_value(value).map_err(|e| (ErrorCode::InvalidParams, format!("invalid parameters: {e}")))
}

impl Server<'_> {
    fn request(&mut self, request: Request) {
        let id = request.id.clone();
        let result = match request.method.as_str() {
            "textDocument/hover" => params(request.params).map(|p| self.hover(p)),
            "textDocument/inlayHint" => params(request.params).map(|p| self.inlay_hints(p)),
            "textDocument/codeAction" => params(request.params).map(|p| self.code_actions(p)),
            "textDocument/codeLens" => params(request.params).map(|p| self.code_lenses(p)),
            method => Err((ErrorCode::MethodNotFound, format!("hol lsp does not handle `{method}`"))),
        };
        self.respond(id, result);
    }

    fn respond(&self, id: RequestId, result: Result<Value, Failure>) {
        let response = match result {
            Ok(value) => Response::new_ok(id, value),
            Err((code, message)) => Response::new_err(id, code as i32, message),
        };
        let _ = self.connection.sender.send(Message::Response(response));
    }

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
                    if let Some(doc) = self.docs.remove(&p.text_document.uri) {
                        doc.cancel.cancel();
                    }
                    lock(&self.current).remove(&p.text_document.uri);
                    self.publish(PublishDiagnosticsParams::new(p.text_document.uri, Vec::new(), None));
                }
            }
            "workspace/didChangeConfiguration" => {
                if let Ok(p) = serde_json::from_value::<DidChangeConfigurationParams>(n.params) {
                    if self.configure(&p.settings) {
                        // The runs' options changed: every open document is analysed again.
                        let uris: Vec<Uri> = self.docs.keys().cloned().collect();
                        for uri in uris {
                            self.start(&uri);
                        }
                    }
                }
            }
            // `initialized`, `$/cancelRequest` (every request is answered at once): nothing
            // to do.
            _ => {}
        }
    }

    /// Applies settings; says whether they changed. Refused values are shown to the user.
    fn configure(&mut self, value: &Value) -> bool {
        let before = self.settings.clone();
        for message in self.settings.update(value, &self.options.registry.names()) {
            let params = ShowMessageParams { typ: MessageType::WARNING, message };
            let n = Notification::new("window/showMessage".into(), params);
            let _ = self.connection.sender.send(Message::Notification(n));
        }
        self.settings != before
    }

    /// A document opened or changed: cancel the analysis of its previous text and start one
    /// of this text; analyse again the other open documents that may import it.
    fn changed(&mut self, uri: Uri, version: i32, text: String) {
        let (cache, findings) = match self.docs.get(&uri) {
            Some(old) => (old.cache.clone(), old.findings.clone()),
            None => (Arc::new(MemoryCache::default()), Arc::new(Mutex::new(Findings::default()))),
        };
        let doc = Document { text, version, generation: 0, cancel: Cancel::new(), cache, findings };
        if let Some(old) = self.docs.insert(uri.clone(), doc) {
            old.cancel.cancel();
        }
        self.start(&uri);
        // A theory is imported by its name, its file's stem: a document that never writes
        // the name cannot import it. The others are analysed again, and the run cache
        // re-tests only their lemmas that reach what changed.
        let Some(stem) = file_path(&uri).and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned())) else {
            return;
        };
        let importers: Vec<Uri> =
            self.docs.iter().filter(|(u, d)| **u != uri && d.text.contains(&stem)).map(|(u, _)| u.clone()).collect();
        for other in importers {
            self.start(&other);
        }
    }

    /// Starts an analysis of the current text of the open document `uri`, cancelling the
    /// one under way.
    fn start(&mut self, uri: &Uri) {
        self.generation += 1;
        let generation = self.generation;
        let loader = self.loader();
        let Some(doc) = self.docs.get_mut(uri) else { return };
        doc.cancel.cancel();
        doc.cancel = Cancel::new();
        doc.generation = generation;
        lock(&self.current).insert(uri.clone(), generation);
        let job = Job {
            path: file_path(uri).unwrap_or_else(|| PathBuf::from(uri.as_str())),
            uri: uri.clone(),
            version: doc.version,
            generation,
            text: doc.text.clone(),
            loader,
            options: self.settings.apply(self.options),
            columns: self.columns,
            cancel: doc.cancel.clone(),
            cache: doc.cache.clone(),
            findings: doc.findings.clone(),
            current: self.current.clone(),
            sender: self.connection.sender.clone(),
            changed_at: Instant::now(),
            debounce: self.settings.debounce,
            probe: self.probe.clone(),
            refresh_hints: self.refresh_hints.clone(),
        };
        let spawned = std::thread::Builder::new()
            .name("hol-lsp-analysis".into())
            .stack_size(crate::guard::WORKER_STACK)
            .spawn(move || job.run());
        if let Err(e) = spawned {
            eprintln!("hol lsp: cannot start an analysis: {e}");
        }
    }

    /// Where sibling imports are read: the open documents first, then the disk.
    fn loader(&self) -> Overlay<FsLoader> {
        let mut loader = Overlay::new(FsLoader::default());
        for (other, doc) in &self.docs {
            if let Some(path) = file_path(other) {
                loader.insert(path, doc.text.clone());
            }
        }
        loader
    }

    /// The document `uri` with its findings, when those belong to its current text.
    fn with_doc<R>(&self, uri: &Uri, f: impl FnOnce(&Document, &Text, &Findings) -> R) -> Option<R> {
        let doc = self.docs.get(uri)?;
        let findings = lock(&doc.findings);
        let empty = Findings::default();
        let findings = if findings.generation == doc.generation { &*findings } else { &empty };
        Some(f(doc, &Text::new(&doc.text, self.columns), findings))
    }

    fn hover(&self, p: HoverParams) -> Value {
        let uri = p.text_document_position_params.text_document.uri;
        let position = p.text_document_position_params.position;
        let hover = self.with_doc(&uri, |doc, text, findings| {
            let offset = text.offset(position);
            let path = file_path(&uri).unwrap_or_else(|| PathBuf::from(uri.as_str()));
            let name = analysis::names::name_at(&path, &doc.text, &self.loader(), self.options, offset);
            hover::hover(text, findings, name, offset)
        });
        serde_json::to_value(hover.flatten()).unwrap_or(Value::Null)
    }

    fn inlay_hints(&self, p: InlayHintParams) -> Value {
        let hints = self.with_doc(&p.text_document.uri, |_, text, findings| hints::hints(text, findings, p.range));
        serde_json::to_value(hints.unwrap_or_default()).unwrap_or(Value::Null)
    }

    fn code_lenses(&self, p: CodeLensParams) -> Value {
        let lenses = self.with_doc(&p.text_document.uri, |_, text, findings| hints::lenses(text, findings));
        serde_json::to_value(lenses.unwrap_or_default()).unwrap_or(Value::Null)
    }

    fn code_actions(&self, p: CodeActionParams) -> Value {
        let uri = &p.text_document.uri;
        let actions = self.with_doc(uri, |_, text, findings| actions::actions(uri, text, findings, p.range));
        serde_json::to_value(actions.unwrap_or_default()).unwrap_or(Value::Null)
    }

    fn publish(&self, params: PublishDiagnosticsParams) {
        let n = Notification::new("textDocument/publishDiagnostics".into(), params);
        let _ = self.connection.sender.send(Message::Notification(n));
    }

    fn cancel_all(&self) {
        for doc in self.docs.values() {
            doc.cancel.cancel();
        }
    }
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
