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
mod render;
mod report;

use check::{Options, Output, Status, Tally};
use clap::Parser;
use cli::{Cli, Command, Format};
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    guard::install_panic_hook();
    let Command::Check(args) = cli.command;
    let options = Options { skip_tests: args.skip_tests, dump_ir: args.dump_ir, interpreter: args.interpreter };
    let color = args.format == Format::Human
        && io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let format = args.format;
    let files = args.files;

    let (tally, written) = guard::with_large_stack(move || {
        let stdout = io::stdout().lock();
        let mut out: Box<dyn Output> = match format {
            Format::Human => Box::new(report::Human::new(stdout, color)),
            Format::Json => Box::new(json::Json::new(stdout)),
        };
        let mut tally = Tally::default();
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
