//! Tests of the core IR's passes that run whole theories through them and compare the
//! interpreter's results before and after (one test binary; the IR-to-IR specifications
//! are in `tests/ir/passes`).

mod fuse;
mod matching;
mod reuse_cells;
mod set_quantifiers;
mod specialize;
