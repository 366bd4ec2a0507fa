//! `codegen`: the core IR JIT-compiled with Cranelift, agreeing with the reference interpreter
//! (`lang::value`) on every program, and never taking the process down.
//!
//! Pipeline: `Jit::compile` (`jit`) takes a `Program` as compiled code runs it
//! (`compiled_program`), translates every function (`translate`; `call_graph` says where the
//! guards go and what is inlined), links it against the Rust helpers (`runtime`), and keeps
//! the code; `Jit::run` calls a function on words, `Jit::call` on interpreter `Value`s
//! (converted by `layout`), `Jit::run_rows` many cases in one loop (compiled, with the body
//! inlined, for functions `Jit::with_levels` compiled a level loop for). A run without a
//! value ends in a `JitOutcome` (`outcome`). `engine` is where every caller (`value`s, the
//! testers) evaluates: the one place that decides between the interpreter and compiled code
//! (compile once a search grows, within half the time left; hand back what the JIT cannot
//! decide).
//!
//! Value layout (64-bit words, typed statically by the IR, no tags at run time): `bool` is
//! 0/1; `nat`/`int` a plain `i64` — any result that does not fit ends the run with
//! `JitOutcome::Overflow`, and the caller hands the case to the interpreter; datatype values
//! are `(tag << 1) | 1` for nullary constructors and otherwise 8-aligned pointers to arena
//! cells `[tag: u32, arity: u32][field0]...`; closures are cells `[code, arity, ncaptured,
//! captured...]`; sets are cells `[complement: 0/1, n, elements ascending...]` (the
//! interpreter's canonical form). The arena is a bump allocator reset by `Jit::reset`.
//!
//! Compiled natively: numbers, booleans, datatypes, calls (tail calls as `return_call`),
//! `Case`/`NatCase`/`If`/`Let`, closures (`Lambda`, `FunRef`, `Apply` with partial and
//! over-application), equality and order on numbers, booleans and datatypes without functions
//! or sets inside (a compiled comparison per datatype, `rt_cmp` near the end of the stack),
//! quantifiers and set comprehensions as loops over a finite set (`∀x∈A`, `{x ∈ A. P}`) or over
//! `bool` and datatypes of nullary constructors only (`a3`), and set operations in `rt_set`
//! (insert, member, union, inter, diff, `sorted_list_of_set`, `=`, `⊆`, `⊂`, and `UNIV` and
//! `- A` over infinite element types; `rt_set_scalar` when elements order as words; results
//! written straight into the arena; `{}` is one shared read-only cell). Function values given
//! as input may be partial applications or finite maps (`Value::fun_map`). Handed over
//! (`JitOutcome::NotSupported`): `UNIV`/`- A` over finite types, quantifiers and comprehensions
//! over complements or over other finite types (`a3 option`), inductive predicates, sets of
//! elements containing functions or sets, equality and order on functions and on datatypes
//! containing functions or sets.
//!
//! Guards: fuel (the deadline is checked every `FUEL_CHUNK` units), a depth counter and a
//! stack-pointer check against the current thread's stack (so deep recursion ends as
//! `TooDeep` on any thread) at the entries every recursion passes through (`call_graph`), fuel
//! at the jumps of self tail calls, and the arena bound (`OutOfMemory`). Fuel and depth
//! therefore count less than the interpreter's, which counts every call.

mod call_graph;
mod compiled_program;
mod holes;
mod jit;
mod layout;
mod outcome;
mod runtime;
mod translate;

pub use compiled_program::too_large_to_compile;
pub use jit::{on_big_stack, ArenaMark, BackgroundCompile, Jit, BIG_STACK, DEFAULT_ARENA_WORDS};
pub use layout::{SharedCells, Word};
pub use outcome::{JitOutcome, LevelCounts, LevelEnd};
pub use translate::{CodegenError, Interpreted, COMPILE_MAX_NODES, OPTIMISE_MAX_NODES};
