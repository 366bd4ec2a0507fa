//! `hol`: the command-line front end. Glue only: take the standard tester registry, parse
//! the flags against it (`cli`), choose the output (`report` for people, `json` for tools),
//! run the checks (`check`, over the `analysis` library) on a thread with a large stack (`guard`), and turn the result
//! into an exit status. This binary is the only part of the workspace that prints, reads
//! the environment, or chooses exit codes.

mod check;
mod cli;
mod guard;
mod interrupt;
mod json;
mod lsp;
mod mutants;
mod progress;
mod render;
mod report;
#[cfg(test)]
mod toy_tester;

use check::{Options, Output, Session, Status, Tally};
use cli::{Command, Format};
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let registry = std::sync::Arc::new(analysis::testers::standard());
    let cli = cli::parse_from(&registry, std::env::args_os()).unwrap_or_else(|e| e.exit());
    if let Command::Check(cli::CheckArgs { smt_solver: Some(solver), .. }) = &cli.command {
        // Where the smt tester looks for its solver (`quickcheck::smt::solver::find`); set
        // before any thread starts.
        std::env::set_var(quickcheck::smt::solver::SOLVER_VAR, solver);
    }
    guard::install_panic_hook();
    interrupt::install();
    let args = match cli.command {
        Command::Check(args) => args,
        Command::Lsp => return serve_lsp(registry),
        Command::Mutants(cli::MutantsCommand { action: Some(cli::MutantsAction::Merge(merge)), .. }) => {
            return ExitCode::from(mutants::merge(&merge));
        }
        Command::Mutants(cli::MutantsCommand { action: Some(cli::MutantsAction::Replay(replay)), .. }) => {
            return ExitCode::from(guard::with_large_stack_watched(
                || mutants::replay(&replay, &registry),
                || {
                    if let Some(signal) = interrupt::received() {
                        std::process::exit(128 + signal);
                    }
                },
            ));
        }
        Command::Mutants(cli::MutantsCommand { action: None, run: args }) => {
            if !(args.timeout.is_finite() && (0.0..=86_400.0).contains(&args.timeout)) {
                let _ = writeln!(io::stderr(), "error: --timeout: must be between 0 and 86400 seconds");
                return ExitCode::from(Status::InputError as u8);
            }
            // SIGINT and SIGTERM end the run at once, with 128 + the signal.
            let status = guard::with_large_stack_watched(
                || mutants::run(&args, &registry),
                || {
                    if let Some(signal) = interrupt::received() {
                        let _ = writeln!(io::stderr(), "hol mutants: {}, stopped", interrupt::name(signal));
                        std::process::exit(128 + signal);
                    }
                },
            );
            return ExitCode::from(status);
        }
    };
    let color = args.format == Format::Human
        && io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    // The same ranges as `quickcheck[size = ...]` in a theory.
    let numeric = [
        ("size", args.size.map(|n| n.to_string())),
        ("timeout", args.timeout.map(|s| format!("{s:?}"))),
        ("counterexamples", args.counterexamples.map(|n| n.to_string())),
    ];
    for (name, value) in numeric {
        if let Some(Err(why)) = value.map(|v| lang::types::options::check_numeric(name, &v)) {
            let _ = writeln!(io::stderr(), "error: --{name}: {why}");
            return ExitCode::from(Status::InputError as u8);
        }
    }
    let timeout = args.timeout.map(std::time::Duration::from_secs_f64);
    let options = Options {
        analysis: analysis::Options {
            skip_tests: args.skip_tests,
            dump_ir: args.dump_ir,
            interpreter: args.interpreter,
            registry,
            overrides: quickcheck::Overrides {
                tester: args.tester.map(quickcheck::TesterName::from),
                size: args.size,
                timeout,
                seed: args.seed,
                counterexamples: args.counterexamples,
            },
            ..analysis::Options::default()
        },
        progress: args.format == Format::Human && io::stderr().is_terminal(),
    };
    // Once per run: a portfolio tester this machine cannot run (`smt` without a solver).
    if !args.skip_tests && options.analysis.overrides.tester.is_none() {
        for t in options.analysis.registry.portfolio() {
            if let Some(why) = t.unavailable() {
                eprintln!("note: the default portfolio runs without the `{}` tester: {why}", t.name());
            }
        }
    }
    let format = args.format;
    let skip_tests = args.skip_tests;
    let files = args.files;
    let deny = args.deny;

    let out: Box<dyn Output + Send> = match format {
        Format::Human => Box::new(report::Human::new(io::stdout(), color, skip_tests)),
        Format::Json => Box::new(json::Json::new(io::stdout())),
    };
    let tally = Tally { deny: deny.iter().map(|d| d.finding()).collect(), ..Tally::default() };
    let session = std::sync::Mutex::new(Session::new(out, tally));
    // While the checks run, the main thread watches for SIGINT/SIGTERM: it then writes the
    // summary of what was reported, between two records, and ends the process, whatever
    // the worker is doing.
    let written = guard::with_large_stack_watched(
        || check::run(&files, &options, &session),
        || {
            if let Some(signal) = interrupt::received() {
                let mut s = check::lock(&session);
                s.tally.interrupted = Some(signal);
                let _ = s.summarize();
                std::process::exit(i32::from(s.tally.exit_status()));
            }
        },
    );
    let tally = check::lock(&session).tally.clone();
    match written {
        Ok(()) => {}
        // The reader went away (`hol check … | head`): nothing more to say.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
        Err(e) => {
            let _ = writeln!(io::stderr(), "error: cannot write the output: {e}");
            return ExitCode::from(Status::InputError as u8);
        }
    }
    ExitCode::from(tally.exit_status())
}

/// `hol lsp`: the language server on stdin and stdout until the client says `exit`.
fn serve_lsp(registry: std::sync::Arc<quickcheck::Registry>) -> ExitCode {
    let (connection, transport) = lsp::stdio();
    // The editor's time limit and other settings are the server's (`lsp/settings.rs`).
    let options = analysis::Options { registry, ..analysis::Options::default() };
    // Hover checks the text on the server's own thread: it gets the large stack too.
    let served = guard::with_large_stack_watched(|| lsp::serve(&connection, &options), || {});
    // The writer thread ends when the connection's sender is dropped.
    drop(connection);
    match served.and(transport.join()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            let _ = writeln!(io::stderr(), "error: hol lsp: {why}");
            ExitCode::from(1)
        }
    }
}
