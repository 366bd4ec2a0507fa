//! Running a program under test: a process group of its own (so a timeout kills everything
//! it started), output read on threads (so no pipe fills up), and, for adversarial inputs,
//! a data limit and the child's own peak resident set. Shared by the test binaries of the
//! `hol` crate through `#[path]`.

#![allow(dead_code)] // each test binary uses part of it

use serde_json::Value;
use std::fmt::Write as _;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The memory an adversarial input may use, as a data limit and as peak resident set.
pub const MEMORY_LIMIT: u64 = 1 << 30;

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    Exited(i32),
    Signal(i32),
    TimedOut(Duration),
}

impl std::fmt::Display for End {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            End::Exited(code) => write!(f, "exit status: {code}"),
            End::Signal(signal) => write!(f, "killed by signal {signal}"),
            End::TimedOut(limit) => write!(f, "timed out after {} s (killed)", limit.as_secs()),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Run {
    pub end: End,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The snapshot text: stdout, then stderr if any, then how the run ended.
    pub fn snapshot(&self) -> String {
        let mut text = self.stdout.clone();
        if !self.stderr.is_empty() {
            text.push_str("--- stderr\n");
            text.push_str(&self.stderr);
            if !self.stderr.ends_with('\n') {
                text.push('\n');
            }
        }
        let _ = writeln!(text, "--- {}", self.end);
        text
    }

    /// stdout and stderr, for failure messages.
    /// The exit status, `None` when the run was killed or timed out.
    pub fn code(&self) -> Option<i32> {
        match self.end {
            End::Exited(code) => Some(code),
            _ => None,
        }
    }

    pub fn output(&self) -> String {
        format!("{}\n--- stdout\n{}--- stderr\n{}", self.end, self.stdout, self.stderr)
    }

    pub fn crashed(&self) -> bool {
        matches!(self.end, End::Signal(_) | End::TimedOut(_))
            || self.stdout.contains("internal error")
            || self.stderr.contains("panicked")
    }

    /// The JSON Lines records of stdout.
    pub fn records(&self) -> Result<Vec<Value>, String> {
        self.stdout
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).map_err(|e| format!("not a JSON record ({e}): {l}")))
            .collect()
    }
}

/// `program ARGS` in `dir` with an empty environment (only `NO_COLOR=1`, and
/// `HOL_SMT_SOLVER` naming the SMT solver this process finds, so the `smt` tester runs
/// without a `PATH`), no input, its output piped, in a process group of its own so that a
/// timeout kills everything it started (a child left behind would hold the output pipes
/// open).
pub fn command(program: &str, dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(program);
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    command
        .args(args)
        .current_dir(dir)
        .env_clear()
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(solver) = smt_solver() {
        command.env("HOL_SMT_SOLVER", solver);
    }
    command
}

/// The SMT solver of this process's environment: `HOL_SMT_SOLVER`, else `z3` on `PATH`.
pub fn smt_solver() -> Option<std::path::PathBuf> {
    if let Some(p) = std::env::var_os("HOL_SMT_SOLVER") {
        return Some(p.into());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join("z3")).find(|p| p.is_file())
}

/// Runs [`command`], killing it after `limit`.
pub fn run_program(program: &str, dir: &Path, args: &[&str], limit: Duration) -> Result<Run, String> {
    let mut child = command(program, dir, args).spawn().map_err(|e| format!("cannot start {program}: {e}"))?;
    let (stdout, stderr) = read_output(&mut child);
    let started = Instant::now();
    let end = loop {
        match child.try_wait().map_err(|e| format!("waiting for {program}: {e}"))? {
            Some(status) => {
                kill_group(&child);
                break exit_end(status);
            }
            None if started.elapsed() > limit => {
                kill_group(&child);
                let _ = child.kill();
                let _ = child.wait();
                break End::TimedOut(limit);
            }
            None => std::thread::sleep(Duration::from_millis(10)),
        }
    };
    let stdout = stdout.join().map_err(|_| "reading stdout failed".to_owned())?;
    let stderr = stderr.join().map_err(|_| "reading stderr failed".to_owned())?;
    Ok(Run { end, stdout, stderr })
}

/// Threads reading the child's stdout and stderr to the end, so neither pipe fills up.
pub fn read_output(child: &mut std::process::Child) -> (JoinHandle<String>, JoinHandle<String>) {
    (read_all(child.stdout.take()), read_all(child.stderr.take()))
}

/// A thread reading `pipe` to its end (nothing when there is no pipe).
pub fn read_all(pipe: Option<impl Read + Send + 'static>) -> JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// Kills what is left of the child's process group.
fn kill_group(child: &std::process::Child) {
    #[cfg(unix)]
    if let Ok(pid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: kill(2) has no memory-safety preconditions; the group is the child's own
        // (`process_group(0)`), so nothing else is signalled.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = child;
}

fn exit_end(status: std::process::ExitStatus) -> End {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return End::Signal(signal);
        }
    }
    End::Exited(status.code().unwrap_or(-1))
}

/// A run with what it cost.
pub struct Measured {
    pub run: Run,
    pub elapsed: Duration,
    /// Processor time (user and system) of the run, all its threads together.
    pub cpu: Duration,
    /// Peak resident set size in bytes.
    pub peak_memory: u64,
}

impl Measured {
    /// The time the run took by its own work: the wall-clock time, or its processor time
    /// when that is less (a busy machine, as when the whole suite runs on two cores,
    /// stretches the wall clock of a run that was itself quick).
    pub fn took(&self) -> Duration {
        self.elapsed.min(self.cpu)
    }
}

/// User plus system time of a `rusage`.
#[cfg(unix)]
fn cpu_time(usage: &libc::rusage) -> Duration {
    let tv = |t: libc::timeval| {
        Duration::from_secs(u64::try_from(t.tv_sec).unwrap_or(0))
            + Duration::from_micros(u64::try_from(t.tv_usec).unwrap_or(0))
    };
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// Runs `program ARGS` in `dir` as [`run_program`] does, under `RLIMIT_DATA` of
/// [`MEMORY_LIMIT`], and reaps it with `wait4` to read its own peak resident set (not that
/// of other children of this process, which run concurrently).
#[cfg(unix)]
pub fn run_measured(program: &str, dir: &Path, args: &[&str], kill_after: Duration) -> Result<Measured, String> {
    use std::os::unix::process::CommandExt;
    let mut command = command(program, dir, args);
    // SAFETY: the closure runs in the forked child before exec and calls only setrlimit(2),
    // which is async-signal-safe; it touches no memory of the parent.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit { rlim_cur: MEMORY_LIMIT as libc::rlim_t, rlim_max: MEMORY_LIMIT as libc::rlim_t };
            if libc::setrlimit(libc::RLIMIT_DATA, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = command.spawn().map_err(|e| format!("cannot start {program}: {e}"))?;
    let (stdout, stderr) = read_output(&mut child);
    let pid = libc::pid_t::try_from(child.id()).map_err(|_| "pid out of range".to_owned())?;
    let started = Instant::now();
    let (end, peak_memory, cpu) = loop {
        let mut status = 0;
        // SAFETY: `rusage` is plain data that wait4 fills in; all-zero is a valid value.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: wait4 writes only to the two out-parameters, which live on this stack.
        let reaped = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if reaped == pid {
            kill_group(&child);
            let end = if libc::WIFSIGNALED(status) {
                End::Signal(libc::WTERMSIG(status))
            } else {
                End::Exited(libc::WEXITSTATUS(status))
            };
            // `ru_maxrss` is in KiB on Linux.
            break (end, u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024, cpu_time(&usage));
        }
        if reaped < 0 {
            return Err(format!("wait4: {}", std::io::Error::last_os_error()));
        }
        if started.elapsed() > kill_after {
            kill_group(&child);
            // SAFETY: as above; reaps the killed child.
            unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
            break (End::TimedOut(kill_after), u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024, cpu_time(&usage));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let elapsed = started.elapsed();
    let stdout = stdout.join().map_err(|_| "reading stdout failed".to_owned())?;
    let stderr = stderr.join().map_err(|_| "reading stderr failed".to_owned())?;
    Ok(Measured { run: Run { end, stdout, stderr }, elapsed, cpu, peak_memory })
}

#[cfg(not(unix))]
pub fn run_measured(program: &str, dir: &Path, args: &[&str], kill_after: Duration) -> Result<Measured, String> {
    let started = Instant::now();
    let run = run_program(program, dir, args, kill_after)?;
    let elapsed = started.elapsed();
    Ok(Measured { run, elapsed, cpu: elapsed, peak_memory: 0 })
}
