//! Command-line arguments (clap derive): every flag is documented here, once. Nothing else
//! in `hol` knows how arguments are spelled.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

const EXIT_STATUS: &str = "\
Exit status:
  0  no errors (and, once testing exists, every `expect` held)
  1  a `value` failed to evaluate (later also: an `expect` was not met)
  2  input errors: a file could not be read, has parse or type errors, or hol hit an
     internal error on it (reported, never a silent crash); usage errors also exit 2";

/// Counterexample generator for a subset of Isabelle/HOL theory files.
#[derive(Debug, Parser)]
#[command(name = "hol", version, after_help = EXIT_STATUS)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check theory files: report parse and type errors, evaluate `value` commands, and
    /// list lemmas with their quickcheck commands.
    ///
    /// Files are checked one after the other; an error in one file (even an internal one)
    /// does not stop the others. Each `value` gets a few seconds of evaluation.
    #[command(after_help = EXIT_STATUS)]
    Check(CheckArgs),
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Theory files to check, in order.
    #[arg(required = true, value_name = "FILE.thy")]
    pub files: Vec<PathBuf>,

    /// Output format: `human` (rustc-style diagnostics; colored only when stdout is a
    /// terminal and NO_COLOR is unset) or `json` (JSON Lines, one record per diagnostic,
    /// `value` and lemma).
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,

    /// Parse, type-check and run `value` commands only; do not test lemmas. Testing is
    /// not built yet, so today lemmas are only listed, with or without this flag.
    #[arg(long)]
    pub skip_tests: bool,

    /// Print the core IR of each file (what `value` commands and monomorphic lemmas use).
    #[arg(long)]
    pub dump_ir: bool,

    /// Evaluate `value` commands with the reference interpreter instead of the Cranelift
    /// JIT (which hands the cases it cannot decide to the interpreter anyway).
    #[arg(long)]
    pub interpreter: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Human,
    Json,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_argument_definitions_are_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn check_takes_files_and_flags() {
        let cli = Cli::try_parse_from(["hol", "check", "--format", "json", "--skip-tests", "a.thy", "b.thy"])
            .expect("valid arguments");
        let Command::Check(args) = cli.command;
        assert_eq!(args.format, Format::Json);
        assert!(args.skip_tests && !args.dump_ir && !args.interpreter);
        assert_eq!(args.files, [PathBuf::from("a.thy"), PathBuf::from("b.thy")]);
    }

    #[test]
    fn check_needs_a_file() {
        assert!(Cli::try_parse_from(["hol", "check"]).is_err());
    }
}
