//! The method names the LSP fuzzers draw from (in process, `hol/src/lsp/tests.rs`, and over
//! stdio, `hol/tests/lsp_stdio.rs`): those `hol lsp` handles, and some it must refuse.
//! Included by `#[path]`.

pub const METHODS: &[&str] = &[
    "textDocument/hover",
    "textDocument/inlayHint",
    "textDocument/codeAction",
    "textDocument/didOpen",
    "textDocument/didChange",
    "textDocument/didClose",
    "workspace/didChangeConfiguration",
    "initialized",
    "$/cancelRequest",
    "textDocument/definition",
    "no/such",
    "",
    "exit?",
];
