//! A tester added through the registry alone (the toy `smallest`,
//! `quickcheck/tests/support/smallest.rs`: one `Tester` impl and
//! `Registry::standard().with(Smallest)`, nothing else) is offered by the command line
//! (`--tester`, `--help`), accepted in theories, run, and named in the JSON records: the
//! front end has no list of testers of its own.

#[path = "../../quickcheck/tests/support/smallest.rs"]
mod smallest;

use crate::check::{self, Options, Session, Tally};
use crate::cli::{self, Command};
use crate::json::Json;
use quickcheck::{Registry, Tester};
use serde_json::Value;
use smallest::Smallest;
use std::io::Write;
use std::sync::{Arc, Mutex};

/// Output kept for the test to read.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

const THEORY: &str = "theory Toy imports Main begin
lemma \"n + m > (0 :: nat)\"
  quickcheck[tester = smallest]
  quickcheck[smallest, expect = counterexample]
  oops
lemma \"n = (0 :: nat)\"
  quickcheck[tester = smalest]
  oops
lemma \"rev (rev xs) = (xs :: nat list)\"
  oops
end
";

/// `hol check --format json` on `THEORY` with `registry` and `overrides`: the records.
fn check_json(registry: &Arc<Registry>, overrides: quickcheck::Overrides) -> Vec<Value> {
    let dir = std::env::temp_dir().join(format!("hol-toy-tester-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("Toy.thy");
    std::fs::write(&path, THEORY).unwrap();
    let out = Shared::default();
    let session = Mutex::new(Session::new(Box::new(Json::new(out.clone())), Tally::default()));
    let analysis = analysis::Options { overrides, registry: registry.clone(), ..analysis::Options::default() };
    let options = Options { analysis, progress: false };
    check::run(&[&path], &options, &session).expect("output written");
    std::fs::remove_dir_all(&dir).unwrap();
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    text.lines().map(|l| serde_json::from_str(l).expect("a JSON record")).collect()
}

#[test]
fn a_tester_added_through_the_registry_is_offered_accepted_run_and_named() {
    let registry = Arc::new(Registry::standard().with(Smallest));

    // The command line: listed in `--help` with its description, taken by `--tester`.
    let mut cmd = cli::command(&registry);
    let help = cmd.find_subcommand_mut("check").expect("check").render_long_help().to_string();
    assert!(help.contains("smallest") && help.contains(Smallest.about()), "{help}");
    let cli = cli::parse_from(&registry, ["hol", "check", "--tester", "smallest", "Toy.thy"]).expect("valid");
    let Command::Check(args) = cli.command else { panic!("not `check`") };
    assert_eq!(args.tester.as_deref(), Some("smallest"));
    assert!(cli::parse_from(&Registry::standard(), ["hol", "check", "--tester", "smallest", "Toy.thy"]).is_err());

    // A theory: both spellings accepted and run, the lemma refuted at the smallest values,
    // the tester named in each record; an unknown name is still an error.
    let records = check_json(&registry, quickcheck::Overrides::default());
    let runs: Vec<&Value> = records.iter().filter(|r| r["kind"] == "quickcheck").collect();
    // The third lemma's command was dropped for its error: it runs with the defaults.
    assert_eq!(runs.len(), 4, "{records:?}");
    for run in &runs[..2] {
        assert_eq!((run["tester"].as_str(), run["outcome"].as_str()), (Some("smallest"), Some("counterexample")));
        assert_eq!(run["counterexample"], serde_json::json!({"n": "0", "m": "0"}));
        assert_eq!(run["tests"], 1);
    }
    assert_eq!(runs[1]["expect_met"], true);
    // The lemmas without a command run the portfolio, which the toy does not join: a lemma
    // that holds is answered by the exhaustive tester.
    assert_eq!(
        (runs[3]["tester"].as_str(), runs[3]["outcome"].as_str()),
        (Some("exhaustive"), Some("no_counterexample"))
    );
    let errors: Vec<&Value> = records.iter().filter(|r| r["kind"] == "error").collect();
    assert_eq!(errors.len(), 1, "{records:?}");
    assert_eq!(
        errors[0]["message"],
        "`smalest` is not a tester (random, exhaustive, smart_exhaustive, narrowing, smt or smallest)"
    );
    assert_eq!(errors[0]["line"], 7);

    // `--tester smallest` runs it on every lemma.
    let overrides =
        quickcheck::Overrides { tester: args.tester.map(quickcheck::TesterName::from), ..Default::default() };
    let records = check_json(&registry, overrides);
    let testers: Vec<&str> =
        records.iter().filter(|r| r["kind"] == "quickcheck").filter_map(|r| r["tester"].as_str()).collect();
    assert_eq!(testers, ["smallest"; 4]);
}
