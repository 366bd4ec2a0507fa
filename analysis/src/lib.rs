//! `analysis`: what `hol check` does between reading files and rendering, as a library for
//! every front end (the `hol` binary, an editor server, a mutation runner). Given a file's
//! name and text, it checks the theory (`lang`), evaluates its `value`s (`codegen`, falling
//! back to the interpreter), and tests each lemma with its quickcheck commands' options
//! layered over the file's defaults and the front end's overrides (`quickcheck`), reporting
//! each result as an `Event` the moment it is known.
//!
//! Module map:
//! - `cache`: reusing quickcheck runs across analyses, keyed by what each depends on (the
//!   lemma's text and the test programs of what it reaches).
//! - `driver`: the per-file pipeline (`analyse`), its `Options`, the panic barrier per
//!   file and the cancellation points.
//! - `event`: what an analysis reports (`Event`, `QuickcheckRun`), located by byte spans.
//! - `findings`: a quickcheck run in words (its diagnostic, or its one-line account), the
//!   same for every front end.
//! - `lemmas`: option layering and quickcheck runs; the only caller of the testers.
//! - `values`: evaluating `value`s and their limits.
//! - `testers`: the registry of every tester hol has (`quickcheck`'s and `narrowing`).
//! - `mutants`: lemmas mutated as Mutabelle does (replaced constants, swapped subterms),
//!   each mutant a theory text with a stable id, for `hol mutants`.
//! - `loader`: where text comes from (`Loader`, the guarded `FsLoader`, `Overlay` for
//!   unsaved buffers).
//! - `names`: the name at an offset and its type (an editor's hover).
//! - `prelude`: the prelude's image, made when this crate is built, from which every check
//!   starts.
//! - `position`: byte offsets → line/column (`LineMap`), for renderers and editors.
//! - `source`: span → text helpers (`slice`, `term_text`, `collapse`, `balanced`).
//! - cancellation: `quickcheck::Cancel`, re-exported as `Cancel`, checked between items and
//!   by every tester between batches.
//! - `barrier`: catching panics (`catch`) and the hook side of it (`note_panic`).
//!
//! Invariants: nothing here prints, reads the environment, or chooses exit codes (the
//! front ends do); events carry spans, never lines; a panic in the checker or a tester is
//! an event, never the end of the stream; events are `Send`.

pub mod barrier;
pub mod cache;
pub mod driver;
pub mod event;
pub mod findings;
pub mod lemmas;
pub mod loader;
pub mod mutants;
pub mod names;
pub mod position;
pub mod prelude;
pub mod source;
pub mod testers;
pub mod values;

pub use cache::{MemoryCache, RunCache, RunKey};
pub use driver::{analyse, analyse_all, Analysis, Ended, Options};
pub use event::{Event, Origin, QuickcheckCommand, QuickcheckRun};
pub use lemmas::Overrides;
pub use loader::{FsLoader, LoadError, Loader, Overlay};
pub use position::{LineMap, Position};
pub use quickcheck::Cancel;
