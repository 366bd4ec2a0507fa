//! The SMT solver, a child process spoken to in SMT-LIB 2 (`easy-smt`): which binary
//! (`HOL_SMT_SOLVER`, else `z3` on `PATH`), started with a hard time limit so that a query
//! never outlives the lemma's, and each `check-sat` limited to the time left.
//!
//! What it does not know: what the queries mean (`encode`), the tester's loop.

use easy_smt::{Context, ContextBuilder, Response};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

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
    /// The binary's name and the version it reports (`z3 4.8.12`).
    pub name: String,
    /// Time spent in `check`.
    pub spent: Duration,
}

impl Solver {
    /// Starts `binary`, to be done by `deadline` (its whole process is limited to it).
    pub fn start(binary: &Path, deadline: Instant) -> std::io::Result<Solver> {
        // Rounded up, and one more: a safety net behind the time limits of the checks, which
        // end at `deadline` themselves.
        let secs = deadline.saturating_duration_since(Instant::now()).as_secs() + 2;
        let mut ctx = ContextBuilder::new()
            .solver(binary)
            .solver_args(["-smt2".to_owned(), "-in".to_owned(), format!("-T:{secs}")])
            .build()?;
        let binary_name =
            binary.file_name().map_or_else(|| binary.display().to_string(), |n| n.to_string_lossy().into_owned());
        let name = match version(&mut ctx)? {
            Some(v) => format!("{binary_name} {v}"),
            None => binary_name,
        };
        Ok(Solver { ctx, name, spent: Duration::ZERO })
    }

    /// `check-sat`, limited to the time left before `deadline`, in slices that double
    /// from `FIRST_SLICE`: between slices `stop` is asked (a cancellation), so a hard query
    /// holds a cancelled search up for about as long as it had already run, not until the
    /// lemma's time limit. An `unknown` well before its slice's end is the solver giving
    /// up, which ends the check. (z3 4.8 gives the same `:reason-unknown` for its time
    /// limit as for giving up, "incomplete (theory arithmetic)", so the time tells.)
    pub fn check(&mut self, deadline: Instant, stop: &dyn Fn() -> bool) -> std::io::Result<Answer> {
        let mut slice = FIRST_SLICE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let limit = left.min(slice);
            let ms = self.ctx.numeral(limit.as_millis().max(1) as u64);
            self.ctx.set_option(":timeout", ms)?;
            let started = Instant::now();
            let response = self.ctx.check();
            self.spent += started.elapsed();
            match response? {
                Response::Sat => return Ok(Answer::Sat),
                Response::Unsat => return Ok(Answer::Unsat),
                Response::Unknown => {}
            }
            let gave_up = started.elapsed() < limit * 9 / 10;
            if gave_up || Instant::now() >= deadline || stop() {
                return Ok(Answer::Unknown);
            }
            slice *= 2;
        }
    }
}

/// The first slice of a `check-sat` (`Solver::check`).
const FIRST_SLICE: Duration = Duration::from_millis(25);

/// The version the solver reports (`(get-info :version)` answers `(:version "4.8.12")`).
fn version(ctx: &mut Context) -> std::io::Result<Option<String>> {
    let ask = ctx.list(vec![ctx.atom("get-info"), ctx.atom(":version")]);
    ctx.raw_send(ask)?;
    let answer = ctx.raw_recv()?;
    let version = ctx.get_list(answer).and_then(|l| match l {
        [key, v] if ctx.get_atom(*key) == Some(":version") => {
            ctx.get_str(*v).or_else(|| ctx.get_atom(*v)).map(|v| v.trim_matches('"').to_owned())
        }
        _ => None,
    });
    Ok(version)
}
