//! `codegen`: will own the lowering of the core IR (closure-converted) to Cranelift IR, the JIT,
//! the shared value layout between JIT code and Rust, and the guards (fuel, depth, memory) that
//! turn runaway test cases into outcomes. Empty until the JIT issue; it knows nothing of syntax.
