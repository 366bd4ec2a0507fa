//! What compiling may cost, and what it gives up: the node counts past which a function is
//! compiled unoptimised or not at all, the deadline and stack room of a compilation, the
//! functions left to the interpreter (`Interpreted`), and `CodegenError`.

use cranelift_codegen::isa::OwnedTargetIsa;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

/// Why compilation failed: Cranelift rejected a function, or the compilation's deadline
/// passed (`timed_out`; nothing is wrong with the program, the interpreter runs it).
#[derive(Debug)]
pub struct CodegenError {
    pub message: String,
    pub timed_out: bool,
}

impl CodegenError {
    pub fn new(message: impl Into<String>) -> CodegenError {
        CodegenError { message: message.into(), timed_out: false }
    }

    pub(super) fn timeout() -> CodegenError {
        CodegenError { message: "compilation did not finish before its deadline".into(), timed_out: true }
    }
}

impl std::fmt::Display for CodegenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "codegen error: {}", self.message)
    }
}

impl std::error::Error for CodegenError {}

/// A Cranelift module error as a `CodegenError`.
pub(super) fn module_error(e: impl std::fmt::Debug) -> CodegenError {
    CodegenError::new(format!("{e:?}"))
}

/// Functions that compile to more IR nodes than this (`CallGraph::compiled_size`) are
/// compiled without Cranelift's optimisations: its e-graph pass grows faster than linearly
/// with a function's blocks (a chain of 4,000 numeral tests took three times as long as
/// unoptimised), while the functions people write stay far below.
pub const OPTIMISE_MAX_NODES: usize = 2_000;

/// Functions that compile to more IR nodes than this are not compiled at all: every case
/// that reaches one is handed to the interpreter (`JitOutcome::NotSupported`), so compile
/// time and memory stay bounded per function (unoptimised, about 0.1 s and 35 MB at the
/// limit on the 2-core VM; 4,000 numeral equations are 20,000 nodes).
pub const COMPILE_MAX_NODES: usize = 50_000;

/// Stack kept free below the translation's recursion (which follows the nesting of the
/// IR), above the margin `runtime::stack_limit` keeps for the Rust helpers: a body nested
/// deeper than the stack allows compiles the rest as a hand-over. Small, as tests compile
/// on threads of 1 MiB.
pub(super) const TRANSLATE_STACK_MARGIN: u64 = 64 << 10;

/// A function compiled code does not run in full: the cases that reach it (or its part
/// that was not compiled) are handed to the interpreter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interpreted {
    /// The function's IR name (`f[nat]`).
    pub name: String,
    /// Its size in IR nodes, with the bodies inlined into it (`CallGraph::compiled_size`).
    pub nodes: usize,
    /// Why, in words.
    pub why: String,
}

/// `Interpreted::why` for a function of `nodes` IR nodes, past `COMPILE_MAX_NODES`.
pub(crate) fn too_large_why(nodes: usize) -> String {
    format!("it has {nodes} IR nodes, more than the {COMPILE_MAX_NODES} compiled code takes")
}

/// What compiling may cost: how `ProgramCompiler` compiles each function is decided by its
/// size, and the whole compilation stops at `deadline` or once `cancel` is set.
pub(crate) struct Budget {
    /// The target without Cranelift's optimisations (`OPTIMISE_MAX_NODES`).
    pub unoptimised: OwnedTargetIsa,
    pub deadline: Option<Instant>,
    /// Set by the owner of a background compile that no longer wants it
    /// (`jit::BackgroundCompile`).
    pub cancel: Option<Arc<AtomicBool>>,
}
