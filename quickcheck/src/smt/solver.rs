//! The SMT solver, a child process spoken to in SMT-LIB 2 (`easy-smt`): which binary
//! (`HOL_SMT_SOLVER`, else `z3` on `PATH`), each `check-sat` limited to the time left and
//! killed when the search is cancelled.
//!
//! A `check-sat` that answered `unknown` leaves the solver *tainted*: it answers no more
//! queries and is killed when its lease ends. z3 4.8.12 answers a `check-sat` issued after
//! one its time limit interrupted with `sat` and a model that does not satisfy the
//! assertions (seen on a red-black tree query: `unknown` at 25 ms, then `sat` at 50 ms with
//! `t = E`, which asserted alone is `unsat`), so a query is never resumed after an
//! interruption.
//! Starting z3 and greeting it takes 10–20 ms, more than an easy query, so a query leases
//! an idle solver (`Lease`) and gives it back when it ends, everything it declared inside
//! one scope that is then popped; a solver that failed, holds more scopes than that, or
//! was given datatypes is killed instead.
//!
//! What it does not know: what the queries mean (`encode`), the tester's loop.

use easy_smt::{Context, ContextBuilder, Response, SExpr};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
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
    /// The child's process id, where the system says (`/proc/thread-self/children`): how a
    /// cancelled `check` ends it.
    pid: Option<u32>,
    /// A `check` answered `unknown` (or was cut off): no more checks, never reused.
    tainted: bool,
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
        let before = children();
        let mut ctx = ContextBuilder::new().solver(binary).solver_args(args).build()?;
        // The one child this thread started just now.
        let pid = match (before, children()) {
            (Some(b), Some(a)) => {
                let new: Vec<u32> = a.into_iter().filter(|p| !b.contains(p)).collect();
                (new.len() == 1).then(|| new[0])
            }
            _ => None,
        };
        let binary_name =
            binary.file_name().map_or_else(|| binary.display().to_string(), |n| n.to_string_lossy().into_owned());
        let name = match version(&mut ctx)? {
            Some(v) => format!("{binary_name} {v}"),
            None => binary_name,
        };
        Ok(Solver { ctx, name, spent: Duration::ZERO, uses: 0, pid, tainted: false })
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

    /// Sends `commands` (each answered `success`), pipelined: a chunk is written before its
    /// answers are read, since a round trip per command (writing, then waiting for z3's
    /// `success`) cost 0.13 ms, and an unrolled query of 50,000 commands took 7 s where its
    /// lemma had 0.25. Between chunks it looks at `deadline` and `stop`: `Ok(false)` when
    /// either ended the sending before every command was sent (the query is then
    /// incomplete: its scope must be popped, never checked).
    pub fn send_all(
        &mut self,
        commands: &[SExpr],
        deadline: Instant,
        stop: &dyn Fn() -> bool,
    ) -> std::io::Result<bool> {
        for chunk in commands.chunks(PIPELINE) {
            if Instant::now() >= deadline || stop() {
                return Ok(false);
            }
            for &c in chunk {
                self.ctx.raw_send(c)?;
            }
            for _ in chunk {
                let answer = self.ctx.raw_recv()?;
                if self.ctx.get_atom(answer) != Some("success") {
                    self.tainted = true;
                    let said = self.ctx.display(answer).to_string();
                    return Err(std::io::Error::other(format!("the solver answered {said}")));
                }
            }
        }
        Ok(true)
    }

    /// `check-sat`, limited to the time left before `deadline`; when `stop` turns true (a
    /// cancellation), or the solver overruns its deadline by `KILL_GRACE`, the child is
    /// killed and the answer is `unknown`. After an `unknown`
    /// the solver is tainted (see the module's doc): later checks answer `unknown` at once.
    pub fn check(&mut self, deadline: Instant, stop: &(dyn Fn() -> bool + Sync)) -> std::io::Result<Answer> {
        let left = deadline.saturating_duration_since(Instant::now());
        if self.tainted || left.is_zero() || stop() {
            return Ok(Answer::Unknown);
        }
        let ms = self.ctx.numeral(left.as_millis().max(1) as u64);
        self.ctx.set_option(":timeout", ms)?;
        let started = Instant::now();
        let pid = self.pid;
        let ctx = &mut self.ctx;
        let done = AtomicBool::new(false);
        let killed = AtomicBool::new(false);
        // z3 does not always keep its own limit (a nonlinear query given 30 ms ran until
        // the process limit, minutes later): past the deadline and a grace, it is killed.
        let hard_stop = deadline + KILL_GRACE;
        let response = std::thread::scope(|s| {
            if let Some(pid) = pid {
                let (done, killed) = (&done, &killed);
                s.spawn(move || {
                    while !done.load(Ordering::Acquire) {
                        if stop() || Instant::now() >= hard_stop {
                            killed.store(true, Ordering::Release);
                            kill(pid);
                            return;
                        }
                        std::thread::sleep(WATCH_INTERVAL);
                    }
                });
            }
            let r = ctx.check();
            done.store(true, Ordering::Release);
            r
        });
        self.spent += started.elapsed();
        let answer = match response {
            Ok(Response::Sat) => Answer::Sat,
            Ok(Response::Unsat) => Answer::Unsat,
            Ok(Response::Unknown) => Answer::Unknown,
            // Killed: cancelled, or past its deadline.
            Err(_) if killed.load(Ordering::Acquire) => {
                self.tainted = true;
                return Ok(Answer::Unknown);
            }
            Err(e) => {
                self.tainted = true;
                return Err(e);
            }
        };
        if answer == Answer::Unknown {
            self.tainted = true;
        }
        Ok(answer)
    }
}

/// Commands written before their answers are read: z3 writes `success\n` (8 bytes) for
/// each, and must never block on a full pipe (64 KiB) while this side is still writing.
const PIPELINE: usize = 1024;

/// How often a running `check` looks whether its search was cancelled.
const WATCH_INTERVAL: Duration = Duration::from_millis(5);

/// How long past its deadline a `check` may run before its process is killed.
const KILL_GRACE: Duration = Duration::from_millis(200);

/// The children of this thread, where the system lists them (Linux).
fn children() -> Option<Vec<u32>> {
    let text = std::fs::read_to_string("/proc/thread-self/children").ok()?;
    Some(text.split_whitespace().filter_map(|p| p.parse().ok()).collect())
}

#[cfg(unix)]
fn kill(pid: u32) {
    if let Ok(pid) = libc::pid_t::try_from(pid) {
        // SAFETY: a plain system call on the process this solver started (still our child:
        // it is reaped only when the solver's context is dropped, so the id is not reused).
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
    }
}

#[cfg(not(unix))]
fn kill(_pid: u32) {}

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
        if !self.reusable
            || solver.tainted
            || uses >= USES_MAX
            || solver.levels() != Some(1)
            || solver.ctx.pop().is_err()
        {
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
