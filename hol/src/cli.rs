//! Command-line arguments (clap derive): every flag is documented here, once. Nothing else
//! in `hol` knows how arguments are spelled. The `--tester` values and their help come from
//! the tester registry (`command`), so a tester added there is offered here.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use quickcheck::Registry;
use std::ffi::OsString;
use std::path::PathBuf;

const EXIT_STATUS: &str = "\
Exit status (the highest that applies):
  0  no errors, and every `expect` of a quickcheck command held; counterexamples to
     lemmas without `expect` are warnings and do not change it (see --deny)
  1  a `value` failed to evaluate, an `expect` was not met, or a finding named by
     --deny was made
  2  input errors: a file could not be read, has parse or type errors, a definition
     failed or a name is not supported (the lemmas that use it are not tested), an
     import did not load, or hol hit an internal error on it (reported, never a silent
     crash); usage errors also exit 2";

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
    /// test every lemma for counterexamples (with its `quickcheck` commands, or with the
    /// defaults when it has none).
    ///
    /// Files are checked one after the other; an error in one file (even an internal one)
    /// does not stop the others. Each `value` gets a few seconds of evaluation.
    #[command(after_help = EXIT_STATUS)]
    Check(CheckArgs),
    /// Serve the Language Server Protocol on stdin and stdout, for editors: parse and type
    /// errors and each lemma's quickcheck findings on the open `.thy` documents, updated as
    /// they change.
    ///
    /// The editor sets `timeout` (seconds per quickcheck run, 2), `debounce` (milliseconds of
    /// pause in typing before lemmas are tested, 50), `tester` and `seed` through
    /// `initializationOptions` or `workspace/didChangeConfiguration`.
    Lsp,
    /// Mutate every lemma of theory files (replaced constants, swapped subterms, as
    /// Isabelle's Mutabelle does), test each mutant with each strategy, and print a table per
    /// theory: per strategy, genuine counterexamples of executable mutants, as Table 1 of
    /// the paper on Isabelle's Quickcheck does. First part of issue 19.
    Mutants(MutantsCommand),
}

/// `hol mutants FILE...`, or `hol mutants merge LOG...`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct MutantsCommand {
    #[command(subcommand)]
    pub action: Option<MutantsAction>,
    #[command(flatten)]
    pub run: MutantsArgs,
}

#[derive(Debug, Subcommand)]
pub enum MutantsAction {
    /// Combine the logs (`--log`) of the shards of one run into the table of the whole run,
    /// refusing logs of different runs, a shard given twice or missing, and a mutant in two
    /// shards.
    Merge(MergeArgs),
    /// Test one mutant of a log (`--log`) again, with the run's settings, and compare each
    /// strategy's outcome with the logged one (exit status 1 when one differs).
    Replay(ReplayArgs),
}

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The log of the run.
    #[arg(value_name = "LOG")]
    pub log: PathBuf,

    /// The mutant's id (16 hex digits).
    #[arg(value_name = "ID")]
    pub id: String,
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shards' logs.
    #[arg(required = true, value_name = "LOG")]
    pub logs: Vec<PathBuf>,

    /// Output format, as for a run.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

#[derive(Debug, Args)]
pub struct MutantsArgs {
    /// Theory files whose lemmas to mutate, in order.
    #[arg(required = true, value_name = "FILE.thy")]
    pub files: Vec<PathBuf>,

    /// Mutants per lemma (fewer when a lemma offers fewer that type-check).
    #[arg(long, value_name = "M", default_value_t = analysis::mutants::DEFAULT_PER_LEMMA)]
    pub per_lemma: usize,

    /// Seed of the mutant sample (each lemma's own stream is derived from it, so one
    /// lemma's mutants do not change when another lemma is added) and of the random tester.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,

    /// Strategies to run, comma-separated: tester names and `portfolio` (default: every
    /// tester and the portfolio).
    #[arg(long, value_delimiter = ',', value_name = "S,...")]
    pub strategies: Vec<String>,

    /// Seconds each strategy may take on each mutant.
    #[arg(long, value_name = "SECONDS", default_value_t = 1.0)]
    pub timeout: f64,

    /// A deterministic budget instead of a time limit: every strategy searches up to size
    /// N with no time limit, so the table and the log (which then leaves out times, and
    /// the portfolio's race) are the same on every machine and for every `--jobs`.
    #[arg(long, value_name = "N", conflicts_with_all = ["timeout", "size"])]
    pub budget: Option<u64>,

    /// The size bound of every run.
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub size: u64,

    /// Threads testing mutants at once (default: one per core). The table does not depend
    /// on it.
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,

    /// Test only shard I of N (0 ≤ I < N): the lemmas whose id (a fixed hash of theory and
    /// lemma) is I modulo N. `auto/N` takes I from `JOB_COMPLETION_INDEX` (a Kubernetes
    /// Indexed Job) or else `SLURM_ARRAY_TASK_ID` (a Slurm job array numbered from 0).
    /// `hol mutants merge` combines the shards' logs.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,

    /// Write one JSON line per mutant to this file: its id, theory, lemma, operator, edit
    /// and text, and each strategy's outcome, counterexample, tests, seconds and seed.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,

    /// Draw an SVG plot to this file: per strategy, the mutants refuted within each time
    /// limit up to the run's (a cactus plot), and per theory the share of executable mutants
    /// the union refuted.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,

    /// Output format: `human` (a table per theory and the total) or `json` (one record per
    /// table).
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Theory files to check, in order.
    #[arg(required = true, value_name = "FILE.thy")]
    pub files: Vec<PathBuf>,

    /// Output format: `human` (rustc-style diagnostics; colored only when stdout is a
    /// terminal and NO_COLOR is unset) or `json` (JSON Lines, one record per diagnostic,
    /// `value`, lemma and quickcheck run).
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,

    /// Parse, type-check and run `value` commands only; do not test lemmas.
    #[arg(long)]
    pub skip_tests: bool,

    /// Test every lemma with this tester, whatever its quickcheck commands say. (Its values
    /// and help come from the tester registry: `command`.)
    #[arg(long, value_name = "TESTER")]
    pub tester: Option<String>,

    /// The size bound of every quickcheck run (overrides `size = n` in the theory).
    #[arg(long, value_name = "N")]
    pub size: Option<u64>,

    /// Seconds each quickcheck run may take (overrides `timeout = s`; default 10).
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,

    /// Seed of the random tester, to replay a run exactly (every random result prints
    /// its seed).
    #[arg(long, value_name = "SEED")]
    pub seed: Option<u64>,

    /// Report up to K counterexamples per lemma, each not an instance of the
    /// generalizations of those before it (overrides `counterexamples = k`).
    #[arg(long, value_name = "K")]
    pub counterexamples: Option<u64>,

    /// Print the core IR of each file (what `value` commands and monomorphic lemmas use).
    #[arg(long)]
    pub dump_ir: bool,

    /// Evaluate `value` commands and test cases with the reference interpreter instead of
    /// the Cranelift JIT (which hands the cases it cannot decide to the interpreter anyway).
    #[arg(long)]
    pub interpreter: bool,

    /// Make a finding on a lemma without `expect` fail the run (exit status 1), as
    /// `-D warnings` does in rustc; for projects that keep `hol check` in CI. Repeatable.
    #[arg(long, value_enum, value_name = "FINDING")]
    pub deny: Vec<DenyArg>,

    /// The SMT solver of the `smt` tester, a binary speaking SMT-LIB 2 on its standard
    /// input (default: the one `HOL_SMT_SOLVER` names, else `z3` on `PATH`).
    #[arg(long, value_name = "PATH")]
    pub smt_solver: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DenyArg {
    /// A counterexample.
    Counterexample,
    /// A potentially spurious counterexample (it depends on an underspecified value).
    PotentiallySpurious,
    /// A run that did not test its lemma (not executable, or a definition it uses failed).
    NotTested,
}

impl DenyArg {
    pub fn finding(self) -> crate::check::Finding {
        match self {
            DenyArg::Counterexample => crate::check::Finding::Counterexample,
            DenyArg::PotentiallySpurious => crate::check::Finding::PotentiallySpurious,
            DenyArg::NotTested => crate::check::Finding::NotTested,
        }
    }
}

/// The command line, with `--tester` taking the names of `registry`'s testers (also
/// spelled with `-` for `_`, as clap spells values: `smart-exhaustive`), each listed in
/// `--help` with its description and the options of its own it reads.
pub fn command(registry: &Registry) -> clap::Command {
    let values: Vec<PossibleValue> = registry
        .testers()
        .map(|t| {
            let mut help = t.about().to_owned();
            if !t.reads().is_empty() {
                let reads: Vec<String> = t.reads().iter().map(|o| format!("`{o}`")).collect();
                help = format!("{help} (reads {})", reads.join(", "));
            }
            let value = PossibleValue::new(t.name()).help(help);
            let dashed = t.name().replace('_', "-");
            if dashed == t.name() {
                value
            } else {
                value.alias(dashed)
            }
        })
        .collect();
    // Whatever spelling was typed, the tester's own name.
    let names = values.clone();
    let parser = PossibleValuesParser::new(values).map(move |typed: String| {
        names.iter().find(|v| v.matches(&typed, false)).map_or(typed, |v| v.get_name().to_owned())
    });
    let portfolio: Vec<&str> = registry.testers().filter(|t| t.in_portfolio()).map(|t| t.name()).collect();
    let help = format!(
        "Test every lemma with this tester, whatever its quickcheck commands say (default: each command's own, or \
         the portfolio of {}; a tester runs where it suits the lemma: smart_exhaustive where there are premises, smt where there are numbers and every part has an encoding)",
        and_list(&portfolio)
    );
    Cli::command().mut_subcommand("check", |check| check.mut_arg("tester", |arg| arg.value_parser(parser).help(help)))
}

/// Parses `args` (the program's name first) against `command(registry)`.
pub fn parse_from<I, T>(registry: &Registry, args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let mut matches = command(registry).try_get_matches_from(args)?;
    Cli::from_arg_matches_mut(&mut matches)
}

/// `a, b and c`.
fn and_list(names: &[&str]) -> String {
    match names {
        [] => "none".to_owned(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Human,
    Json,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_argument_definitions_are_consistent() {
        command(&Registry::standard()).debug_assert();
    }

    #[test]
    fn check_takes_files_and_flags() {
        let cli =
            parse_from(&Registry::standard(), ["hol", "check", "--format", "json", "--skip-tests", "a.thy", "b.thy"])
                .expect("valid arguments");
        let Command::Check(args) = cli.command else { panic!("not `check`") };
        assert_eq!(args.format, Format::Json);
        assert!(args.skip_tests && !args.dump_ir && !args.interpreter);
        assert_eq!(args.files, [PathBuf::from("a.thy"), PathBuf::from("b.thy")]);
    }

    #[test]
    fn quickcheck_flags() {
        let cli = parse_from(
            &Registry::standard(),
            [
                "hol",
                "check",
                "--tester",
                "smart-exhaustive",
                "--size",
                "7",
                "--timeout",
                "2.5",
                "--seed",
                "42",
                "a.thy",
            ],
        )
        .expect("valid arguments");
        let Command::Check(args) = cli.command else { panic!("not `check`") };
        assert_eq!(args.tester.as_deref(), Some("smart_exhaustive"));
        assert_eq!((args.size, args.timeout, args.seed), (Some(7), Some(2.5), Some(42)));
    }

    /// Every tester of the registry is a value of `--tester`, in either spelling, and is
    /// listed in `--help` with its description; nothing else is a value.
    #[test]
    fn tester_values_and_help_come_from_the_registry() {
        let registry = Registry::standard();
        let tester = |spelling: &str| {
            let cli = parse_from(&registry, ["hol", "check", "--tester", spelling, "a.thy"]);
            cli.map(|cli| {
                let Command::Check(args) = cli.command else { panic!("not `check`") };
                args.tester
            })
        };
        for t in registry.testers() {
            assert_eq!(tester(t.name()).unwrap().as_deref(), Some(t.name()));
            assert_eq!(tester(&t.name().replace('_', "-")).unwrap().as_deref(), Some(t.name()));
        }
        assert!(tester("smallest").is_err());
        let mut cmd = command(&registry);
        let help = cmd.find_subcommand_mut("check").expect("check").render_long_help().to_string();
        for t in registry.testers() {
            assert!(help.contains(t.name()) && help.contains(t.about()), "{}: {help}", t.name());
        }
        assert!(help.contains("the portfolio of random, exhaustive, smart_exhaustive and smt"), "{help}");
    }

    #[test]
    fn deny_is_repeatable() {
        let cli = parse_from(
            &Registry::standard(),
            ["hol", "check", "--deny", "counterexample", "--deny", "not-tested", "a.thy"],
        )
        .expect("valid arguments");
        let Command::Check(args) = cli.command else { panic!("not `check`") };
        assert_eq!(args.deny, [DenyArg::Counterexample, DenyArg::NotTested]);
        assert!(parse_from(&Registry::standard(), ["hol", "check", "--deny", "warnings", "a.thy"]).is_err());
    }

    #[test]
    fn check_needs_a_file() {
        assert!(parse_from(&Registry::standard(), ["hol", "check"]).is_err());
    }
}
