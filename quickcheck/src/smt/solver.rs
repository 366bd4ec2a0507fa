//! The SMT solver, a child process spoken to in SMT-LIB 2 (`easy-smt`): which binary
//! (`HOL_SMT_SOLVER`, else `z3` on `PATH`), started with a hard time limit so that a query
//! never outlives the lemma's, and each `check-sat` limited to the time left.
//!
//! What it does not know: what the queries mean (`encode`), the tester's loop.

use easy_smt::{Context, ContextBuilder, Response};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The environment variable naming the solver binary.
pub const SOLVER_VAR: &str = "HOL_SMT_SOLVER";

/// Why the `smt` tester cannot run on this machine.
pub const NO_SOLVER: &str = "no SMT solver found (install z3 or set HOL_SMT_SOLVER)";

/// The solver binary: `HOL_SMT_SOLVER` if set (it must exist), else `z3` on `PATH`.
pub fn find() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(SOLVER_VAR) {
        let p = PathBuf::from(p);
        return p.is_file().then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join("z3")).find(|p| p.is_file())
}

/// What a `check-sat` answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Sat,
    Unsat,
    /// `unknown`: the solver gave up (its time limit, or a theory it cannot decide). Never
    /// "no counterexample".
    Unknown,
}

/// A running solver.
pub struct Solver {
    pub ctx: Context,
}

impl Solver {
    /// Starts `binary`, to be done by `deadline` (its whole process is limited to it).
    pub fn start(binary: &Path, deadline: Instant) -> std::io::Result<Solver> {
        let secs = deadline.saturating_duration_since(Instant::now()).as_secs().max(1);
        let ctx = ContextBuilder::new()
            .solver(binary)
            .solver_args(["-smt2".to_owned(), "-in".to_owned(), format!("-T:{secs}")])
            .build()?;
        Ok(Solver { ctx })
    }

    /// `check-sat`, limited to the time left before `deadline`.
    pub fn check(&mut self, deadline: Instant) -> std::io::Result<Answer> {
        let ms = deadline.saturating_duration_since(Instant::now()).as_millis().max(1) as u64;
        let ms = self.ctx.numeral(ms);
        self.ctx.set_option(":timeout", ms)?;
        Ok(match self.ctx.check()? {
            Response::Sat => Answer::Sat,
            Response::Unsat => Answer::Unsat,
            Response::Unknown => Answer::Unknown,
        })
    }
}
