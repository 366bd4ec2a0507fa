//! `hol`: the command-line front end. Glue only: parse the flags (`cli`), choose the output
//! (`report` for people, `json` for tools), run the checks (`check`) on a thread with a
//! large stack (`guard`), and turn the result into an exit status. This binary is the only
//! part of the workspace that prints, reads the environment, or chooses exit codes.

mod check;
mod cli;
mod evaluate;
mod guard;
mod json;
mod position;
mod progress;
mod render;
mod report;
mod testing;

use check::{Options, Output, Status, Tally};
use clap::Parser;
use cli::{Cli, Command, Format};
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    guard::install_panic_hook();
    let Command::Check(args) = cli.command;
    let color = args.format == Format::Human
        && io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    // The same ranges as `quickcheck[size = ...]` in a theory.
    let numeric = [("size", args.size.map(|n| n.to_string())), ("timeout", args.timeout.map(|s| format!("{s:?}")))];
    for (name, value) in numeric {
        if let Some(Err(why)) = value.map(|v| lang::types::options::check_numeric(name, &v)) {
            let _ = writeln!(io::stderr(), "error: --{name}: {why}");
            return ExitCode::from(Status::InputError as u8);
        }
    }
    let timeout = args.timeout.map(std::time::Duration::from_secs_f64);
    let options = Options {
        skip_tests: args.skip_tests,
        dump_ir: args.dump_ir,
        interpreter: args.interpreter,
        progress: args.format == Format::Human && io::stderr().is_terminal(),
        overrides: quickcheck::Overrides {
            tester: args.tester.map(cli::TesterArg::tester),
            size: args.size,
            timeout,
            seed: args.seed,
        },
    };
    let format = args.format;
    let skip_tests = args.skip_tests;
    let files = args.files;
    let deny = args.deny;

    let (tally, written) = guard::with_large_stack(move || {
        let stdout = io::stdout().lock();
        let mut out: Box<dyn Output> = match format {
            Format::Human => Box::new(report::Human::new(stdout, color, skip_tests)),
            Format::Json => Box::new(json::Json::new(stdout)),
        };
        let mut tally = Tally { deny: deny.iter().map(|d| d.finding()).collect(), ..Tally::default() };
        let written = check::run(&files, &options, out.as_mut(), &mut tally);
        (tally, written)
    });
    match written {
        Ok(()) => {}
        // The reader went away (`hol check … | head`): nothing more to say.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
        Err(e) => {
            let _ = writeln!(io::stderr(), "error: cannot write the output: {e}");
            return ExitCode::from(Status::InputError as u8);
        }
    }
    ExitCode::from(tally.status as u8)
}
