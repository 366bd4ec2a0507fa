//! The SMT solver, a child process spoken to in SMT-LIB 2 (`easy-smt`): which binary
//! (`HOL_SMT_SOLVER`, else `z3` on `PATH`), each `check-sat` limited to the time left.
//! Starting z3 and greeting it takes 10–20 ms, more than an easy query, so a query leases
//! an idle solver (`Lease`) and gives it back when it ends, everything it declared inside
//! one scope that is then popped; a solver that failed, holds more scopes than that, or
//! was given datatypes is killed instead.
//!
//! What it does not know: what the queries mean (`encode`), the tester's loop.

use easy_smt::{Context, ContextBuilder, Response, SExpr};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
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
    /// Queries served (`Lease`).
    uses: u32,
}

impl Solver {
    /// Starts `binary`, to be done by `deadline` (its whole process is limited to it).
    pub fn start(binary: &Path, deadline: Instant) -> std::io::Result<Solver> {
        Solver::spawn(binary, Some(deadline))
    }

    /// Starts `binary`; with a deadline, its whole process is limited to it (a safety net
    /// behind the time limits of the checks, which end at the deadline themselves).
    fn spawn(binary: &Path, deadline: Option<Instant>) -> std::io::Result<Solver> {
        let mut args = vec!["-smt2".to_owned(), "-in".to_owned()];
        if let Some(deadline) = deadline {
            // Rounded up, and one more.
            let secs = deadline.saturating_duration_since(Instant::now()).as_secs() + 2;
            args.push(format!("-T:{secs}"));
        }
        let mut ctx = ContextBuilder::new().solver(binary).solver_args(args).build()?;
        let binary_name =
            binary.file_name().map_or_else(|| binary.display().to_string(), |n| n.to_string_lossy().into_owned());
        let name = match version(&mut ctx)? {
            Some(v) => format!("{binary_name} {v}"),
            None => binary_name,
        };
        Ok(Solver { ctx, name, spent: Duration::ZERO, uses: 0 })
    }

    /// The model's values of `terms`. easy-smt panics on an answer that is not a list of
    /// pairs (a solver's `(error ...)`): that is an error here, never the process's end.
    pub fn values(&mut self, terms: Vec<SExpr>) -> std::io::Result<Vec<SExpr>> {
        let ctx = &mut self.ctx;
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| ctx.get_value(terms))) {
            Ok(got) => Ok(got?.into_iter().map(|(_, v)| v).collect()),
            Err(_) => Err(std::io::Error::other("the solver answered get-value with an error")),
        }
    }

    /// The number of scopes pushed (`(get-info :assertion-stack-levels)`), if it says.
    fn levels(&mut self) -> Option<u64> {
        let ask = self.ctx.list(vec![self.ctx.atom("get-info"), self.ctx.atom(":assertion-stack-levels")]);
        self.ctx.raw_send(ask).ok()?;
        let answer = self.ctx.raw_recv().ok()?;
        match self.ctx.get_list(answer)? {
            [key, n] if self.ctx.get_atom(*key) == Some(":assertion-stack-levels") => self.ctx.get_u64(*n),
            _ => None,
        }
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

/// Solvers idle between queries, with their binaries.
static IDLE: Mutex<Vec<(PathBuf, Solver)>> = Mutex::new(Vec::new());

/// The most idle solvers kept (one per tester thread the portfolios of a few lemmas run).
const IDLE_MAX: usize = 4;

/// Queries a solver serves before it is replaced: its context's term arena only grows.
const USES_MAX: u32 = 64;

/// A solver leased for one query, inside a scope of its own: dropped, it goes back to the
/// idle ones if its scope can be popped (else it is killed).
pub struct Lease {
    solver: Option<(PathBuf, Solver, u32)>,
    /// Whether the solver may serve another query after this one.
    reusable: bool,
}

impl Lease {
    /// An idle solver of `binary`, or a new process.
    pub fn acquire(binary: &Path) -> std::io::Result<Lease> {
        let idle = IDLE.lock().ok().and_then(|mut idle| {
            let i = idle.iter().position(|(b, _)| b == binary)?;
            Some(idle.swap_remove(i).1)
        });
        let mut solver = match idle {
            Some(s) => s,
            None => Solver::spawn(binary, None)?,
        };
        solver.spent = Duration::ZERO;
        solver.ctx.push()?;
        let uses = solver.uses + 1;
        Ok(Lease { solver: Some((binary.to_path_buf(), solver, uses)), reusable: true })
    }

    /// This solver is killed after the query instead of serving another: z3 4.8 does not
    /// forget datatypes declared in a popped scope cleanly (a later declaration of the same
    /// names loses its selectors), so a query that declares datatypes ends its process.
    pub fn not_reusable(&mut self) {
        self.reusable = false;
    }
}

impl std::ops::Deref for Lease {
    type Target = Solver;
    fn deref(&self) -> &Solver {
        &self.solver.as_ref().expect("a lease holds its solver until dropped").1
    }
}

impl std::ops::DerefMut for Lease {
    fn deref_mut(&mut self) -> &mut Solver {
        &mut self.solver.as_mut().expect("a lease holds its solver until dropped").1
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        let Some((binary, mut solver, uses)) = self.solver.take() else { return };
        if !self.reusable || uses >= USES_MAX || solver.levels() != Some(1) || solver.ctx.pop().is_err() {
            return;
        }
        solver.uses = uses;
        if let Ok(mut idle) = IDLE.lock() {
            if idle.len() < IDLE_MAX {
                idle.push((binary, solver));
            }
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
