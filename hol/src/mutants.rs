//! `hol mutants FILE.thy...`: the mutation benchmark (issue 19, first part). Each lemma of
//! each file is mutated (`analysis::mutants`: replaced constants, swapped subterms, a
//! sample of `--per-lemma` per lemma drawn from `--seed`), each mutant is tested by each
//! strategy (every tester of the registry and the portfolio, or those `--strategies`
//! names) with `--size` and `--timeout`, on `--jobs` threads, and a table per theory and
//! in total says, per strategy, how many mutants it refuted with a genuine counterexample
//! of how many it could execute, as Table 1 of Bulwahn's paper does, with the union over
//! the strategies. Each original lemma is first tested by the portfolio: a counterexample to
//! one is reported on stderr and its mutants are left out.
//!
//! A progress bar shows on a terminal (stderr), none when piped. Results do not depend on
//! `--jobs`: jobs are mutants, each tested with a seed of its own
//! (derived from `--seed` and its id), and the table is summed in mutant order. With
//! `--timeout` a slow machine may time out where a fast one does not; `--budget N` (size N,
//! no time limit) gives the same table and log on every machine. `replay` (`hol mutants
//! replay LOG ID`) tests one logged mutant again. `--plot FILE.svg` draws the cactus plot
//! (per strategy, mutants refuted against the time limit) and a bar per theory. `--log FILE` writes JSON lines: the run
//! (files, strategies, seed, bounds, shard), each theory, each lemma (whether its original
//! was refuted, how many mutants it has), and each mutant (id, theory, lemma, operator,
//! edit, mutant text, and per strategy the outcome, counterexample, tests, seconds and
//! seed). `--shard I/N` tests the lemmas whose id is I modulo N; `merge` (`hol mutants
//! merge LOG...`) rebuilds the tables of the whole run from its shards' logs.

use crate::cli::{Format, MergeArgs, MutantsArgs, ReplayArgs};
use analysis::mutants::{self, Mutant, Settings};
use analysis::{FsLoader, Loader};
use quickcheck::{check_lemma, Cancel, OutcomeKind, Registry, TesterName};
use std::fmt::Write as _;
use std::io::{IsTerminal as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The strategy that runs the registry's portfolio (no tester named).
pub const PORTFOLIO: &str = "portfolio";

/// Outcome counts of one strategy over a set of mutants.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub mutants: usize,
    pub genuine: usize,
    pub spurious: usize,
    pub none: usize,
    pub timeout: usize,
    pub not_executable: usize,
    pub errors: usize,
}

impl Counts {
    fn add(&mut self, outcome: OutcomeKind) {
        self.mutants += 1;
        match outcome {
            OutcomeKind::Counterexample => self.genuine += 1,
            OutcomeKind::PotentiallySpurious => self.spurious += 1,
            OutcomeKind::NoCounterexample => self.none += 1,
            OutcomeKind::Timeout => self.timeout += 1,
            OutcomeKind::NotExecutable => self.not_executable += 1,
            OutcomeKind::Error => self.errors += 1,
        }
    }

    /// Mutants the strategy could run (Table 1's denominator).
    pub fn executable(&self) -> usize {
        self.mutants - self.not_executable - self.errors
    }

    fn merge(&mut self, other: &Counts) {
        self.mutants += other.mutants;
        self.genuine += other.genuine;
        self.spurious += other.spurious;
        self.none += other.none;
        self.timeout += other.timeout;
        self.not_executable += other.not_executable;
        self.errors += other.errors;
    }
}

/// The table of one theory (or of all): a row per strategy, then the union.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    pub name: String,
    pub lemmas: usize,
    pub rows: Vec<(String, Counts)>,
    pub union: Counts,
}

impl Table {
    fn merge(&mut self, other: &Table) {
        self.lemmas += other.lemmas;
        for (name, counts) in &other.rows {
            match self.rows.iter_mut().find(|(n, _)| n == name) {
                Some((_, c)) => c.merge(counts),
                None => self.rows.push((name.clone(), counts.clone())),
            }
        }
        self.union.merge(&other.union);
    }
}

/// What one strategy found on one mutant: the outcome, and what the log keeps of the run.
#[derive(Clone, Debug)]
struct RunResult {
    outcome: OutcomeKind,
    message: Option<String>,
    counterexample: Option<Vec<(String, String)>>,
    instance: Vec<(String, String)>,
    tests: u64,
    seconds: f64,
    seed: Option<u64>,
}

impl RunResult {
    fn error(message: &str) -> RunResult {
        RunResult {
            outcome: OutcomeKind::Error,
            message: Some(message.to_owned()),
            counterexample: None,
            instance: Vec::new(),
            tests: 0,
            seconds: 0.0,
            seed: None,
        }
    }

    fn of(report: quickcheck::Report) -> RunResult {
        RunResult {
            outcome: report.outcome,
            message: report.message,
            instance: report.counterexample.as_ref().map(|c| c.instance.clone()).unwrap_or_default(),
            counterexample: report.counterexample.map(|c| c.assignment),
            tests: report.tests,
            seconds: report.seconds,
            seed: report.seed,
        }
    }

    /// The run in the log. Under `--budget` (`exact`) only what does not depend on the
    /// machine: no times, and of the portfolio (`raced`: its testers race, and which one
    /// answers first depends on the machine) only the outcome.
    fn json(&self, exact: bool, raced: bool) -> serde_json::Value {
        let pairs = |v: &[(String, String)]| -> serde_json::Map<String, serde_json::Value> {
            v.iter().map(|(k, x)| (k.clone(), serde_json::Value::from(x.clone()))).collect()
        };
        if exact && raced {
            return serde_json::json!({ "outcome": self.outcome.name() });
        }
        serde_json::json!({
            "outcome": self.outcome.name(),
            "message": self.message,
            "counterexample": self.counterexample.as_deref().map(pairs),
            "instance": pairs(&self.instance),
            "tests": self.tests,
            "seconds": if exact { None } else { Some(self.seconds) },
            "seed": self.seed,
        })
    }
}

/// Each strategy's result on one mutant, in strategy order.
type MutantResult = Vec<RunResult>;

/// Runs `hol mutants`; returns the exit status.
pub fn run(args: &MutantsArgs, registry: &Registry) -> u8 {
    let strategies: Vec<String> = if args.strategies.is_empty() {
        registry.names().iter().map(|s| s.to_string()).chain([PORTFOLIO.to_owned()]).collect()
    } else {
        args.strategies.clone()
    };
    for s in &strategies {
        if s != PORTFOLIO && registry.get(s).is_none() {
            eprintln!(
                "error: --strategies: unknown strategy `{s}` (the strategies are {}, {PORTFOLIO})",
                registry.names().join(", ")
            );
            return 2;
        }
    }
    let (shard, shards) = match parse_shard(args.shard.as_deref()) {
        Ok(s) => s,
        Err(why) => {
            eprintln!("error: --shard: {why}");
            return 2;
        }
    };
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    // `--budget N`: size N and no time limit, so every machine gives the same table.
    let (size, timeout) = match args.budget {
        Some(n) => (n, Duration::from_secs(86_400)),
        None => (args.size, Duration::from_secs_f64(args.timeout)),
    };
    let exact = args.budget.is_some();
    let bounds = Bounds { size, timeout };
    let mut total = Table { name: "total".into(), ..Table::default() };
    let mut status = 0;
    let mut log = match &args.log {
        Some(path) => match std::fs::File::create(path) {
            Ok(f) => Some(std::io::BufWriter::new(f)),
            Err(e) => {
                eprintln!("error: --log {}: {e}", path.display());
                return 2;
            }
        },
        None => None,
    };
    let files: Vec<String> = args.files.iter().map(|f| f.display().to_string()).collect();
    // For the plot: each strategy's times of its genuine counterexamples, each theory's table.
    let mut refuted_in: Vec<Vec<f64>> = vec![Vec::new(); strategies.len()];
    let mut tables: Vec<Table> = Vec::new();
    if let Some(log) = &mut log {
        let header = serde_json::json!({
            "kind": "run",
            "files": files,
            "strategies": strategies,
            "seed": args.seed,
            "per_lemma": args.per_lemma,
            "size": size,
            "timeout": if exact { None } else { Some(args.timeout) },
            "budget": args.budget,
            "shard": [shard, shards],
        });
        if let Err(e) = writeln!(log, "{header}") {
            eprintln!("error: cannot write the log: {e}");
            return 2;
        }
    }
    for file in &args.files {
        let started = Instant::now();
        let text = match FsLoader::default().load(file) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("error: {}", e.message(&file.display().to_string()));
                status = 2;
                continue;
            }
        };
        let testers = registry.names();
        let settings = Settings { per_lemma: args.per_lemma, seed: args.seed };
        let mutation = mutants::mutate(file, &text, &FsLoader::default(), &testers, &settings);
        let original = mutants::check(file, &text, &FsLoader::default(), &testers);
        if original.diagnostics.iter().any(|d| d.severity == lang::Severity::Error) {
            eprintln!("error: {} has errors; `hol check {}` shows them", file.display(), file.display());
            status = 2;
        }
        // Originals refuted by the portfolio are a bug of the theory: their mutants go.
        let mut kept: Vec<(&str, &Mutant)> = Vec::new();
        let mut lemma_records = Vec::new();
        let mut lemma_index = 0;
        for item in &original.items {
            let lang::ItemKind::Lemma { index, .. } = item.kind else { continue };
            if original.lemma(index).code {
                continue;
            }
            let Some(lemma) = mutation.lemmas.get(lemma_index) else { break };
            lemma_index += 1;
            if mutants::fnv(&[mutation.theory.as_bytes(), lemma.key.as_bytes()]) % shards != shard {
                continue;
            }
            let mut record = serde_json::json!({
                "kind": "lemma",
                "theory": mutation.theory,
                "file": file.display().to_string(),
                "lemma": lemma.key,
                "original": "not refuted",
                "mutants": lemma.mutants.len(),
            });
            let opts = options(None, bounds, mutants::fnv(&[lemma.key.as_bytes()]));
            let report = check_lemma(&original, index, &opts, true, registry, &Cancel::new());
            if matches!(report.outcome, OutcomeKind::Counterexample | OutcomeKind::PotentiallySpurious) {
                eprintln!(
                    "warning: {}: the unmutated lemma `{}` has a {} ({}); its mutants are left out",
                    file.display(),
                    lemma.key,
                    report.outcome.name(),
                    report.counterexample.as_ref().map(|c| format!("{:?}", c.assignment)).unwrap_or_default()
                );
                record["original"] = report.outcome.name().into();
                record["mutants"] = 0.into();
                lemma_records.push(record);
                continue;
            }
            lemma_records.push(record);
            kept.extend(lemma.mutants.iter().map(|m| (lemma.key.as_str(), m)));
        }
        let results = run_mutants(file, &kept, &strategies, args.seed, bounds, registry, jobs);
        for result in &results {
            for (times, run) in refuted_in.iter_mut().zip(result) {
                if run.outcome == OutcomeKind::Counterexample {
                    times.push(run.seconds);
                }
            }
        }
        let outcomes = results.iter().map(|r| r.iter().map(|run| run.outcome).collect::<Vec<_>>());
        let table = table_of(&mutation.theory, lemma_records.len(), &strategies, outcomes);
        if let Some(log) = &mut log {
            let theory =
                serde_json::json!({"kind": "theory", "theory": mutation.theory, "file": file.display().to_string()});
            for record in [&theory].into_iter().chain(&lemma_records) {
                if let Err(e) = writeln!(log, "{record}") {
                    eprintln!("error: cannot write the log: {e}");
                    return 2;
                }
            }
            for ((key, mutant), result) in kept.iter().zip(&results) {
                let runs: serde_json::Map<String, serde_json::Value> =
                    strategies.iter().zip(result).map(|(s, r)| (s.clone(), r.json(exact, s == PORTFOLIO))).collect();
                let line = serde_json::json!({
                    "kind": "mutant",
                    "id": mutant.id,
                    "theory": mutation.theory,
                    "file": file.display().to_string(),
                    "lemma": key,
                    "operator": mutant.operator.name(),
                    "edit": mutant.edit,
                    "mutant": mutant.text,
                    "runs": runs,
                });
                if let Err(e) = writeln!(log, "{line}") {
                    eprintln!("error: cannot write the log: {e}");
                    return 2;
                }
            }
        }
        show(args.format, &table);
        tables.push(table.clone());
        eprintln!(
            "note: {}: {} mutants tested in {:.1} s",
            mutation.theory,
            kept.len(),
            started.elapsed().as_secs_f64()
        );
        total.merge(&table);
    }
    if let Some(mut log) = log {
        if let Err(e) = log.flush() {
            eprintln!("error: cannot write the log: {e}");
            status = 2;
        }
    }
    if args.files.len() > 1 {
        show(args.format, &total);
    }
    if let Some(path) = &args.plot {
        let limit = if exact { refuted_in.iter().flatten().fold(0.0, |a: f64, b| a.max(*b)) } else { args.timeout };
        let series: Vec<(String, Vec<f64>)> = strategies.iter().cloned().zip(refuted_in).collect();
        if let Err(why) = plot(path, &series, &tables, limit) {
            eprintln!("error: --plot {}: {why}", path.display());
            status = 2;
        }
    }
    status
}

/// The SVG of `--plot`: a cactus plot (per strategy, mutants refuted within each time limit
/// up to `limit`) and a bar per theory (the union's genuine / executable, in percent).
fn plot(path: &Path, series: &[(String, Vec<f64>)], tables: &[Table], limit: f64) -> Result<(), String> {
    use plotters::prelude::*;
    let e = |e: &dyn std::fmt::Display| e.to_string();
    let root = SVGBackend::new(path, (1200, 520)).into_drawing_area();
    root.fill(&WHITE).map_err(|x| e(&x))?;
    let (left, right) = root.split_horizontally(680);
    let most = series.iter().map(|(_, t)| t.len()).max().unwrap_or(0).max(1);
    let limit = if limit > 0.0 { limit } else { 1.0 };
    let mut chart = ChartBuilder::on(&left)
        .caption("mutants refuted within the time limit", ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0f64..limit, 0usize..most + most / 20 + 1)
        .map_err(|x| e(&x))?;
    chart.configure_mesh().x_desc("time limit (s)").y_desc("mutants refuted").draw().map_err(|x| e(&x))?;
    for (i, (name, times)) in series.iter().enumerate().filter(|(_, (_, t))| !t.is_empty()) {
        let mut times = times.clone();
        times.sort_by(f64::total_cmp);
        let mut points: Vec<(f64, usize)> = vec![(0.0, 0)];
        points.extend(times.iter().enumerate().map(|(k, t)| (t.min(limit), k + 1)));
        points.push((limit, times.len()));
        let color = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(points, color.stroke_width(2)))
            .map_err(|x| e(&x))?
            .label(name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .border_style(BLACK)
        .background_style(WHITE.mix(0.9))
        .draw()
        .map_err(|x| e(&x))?;
    let shares: Vec<(String, f64)> = tables
        .iter()
        .map(|t| {
            let share = 100.0 * t.union.genuine as f64 / t.union.executable().max(1) as f64;
            (t.name.clone(), share)
        })
        .collect();
    let mut bars = ChartBuilder::on(&right)
        .caption("refuted / executable mutants, union (%)", ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(90)
        .y_label_area_size(50)
        .build_cartesian_2d(0f64..shares.len().max(1) as f64, 0f64..100f64)
        .map_err(|x| e(&x))?;
    let names: Vec<String> = shares.iter().map(|(n, _)| n.clone()).collect();
    bars.configure_mesh()
        .disable_x_mesh()
        .x_labels(names.len().max(1) * 2 + 1)
        .x_label_formatter(&|x| {
            let i = x.floor();
            if (x - i - 0.5).abs() < 1e-6 {
                names.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .x_label_style(("sans-serif", 13).into_font().transform(FontTransform::Rotate90))
        .y_desc("%")
        .draw()
        .map_err(|x| e(&x))?;
    bars.draw_series(shares.iter().enumerate().map(|(i, (_, share))| {
        Rectangle::new([(i as f64 + 0.15, 0.0), (i as f64 + 0.85, *share)], Palette99::pick(0).filled())
    }))
    .map_err(|x| e(&x))?;
    root.present().map_err(|x| e(&x))?;
    Ok(())
}

/// `--shard`: `(I, N)`; `(0, 1)` without one.
fn parse_shard(spec: Option<&str>) -> Result<(u64, u64), String> {
    let Some(spec) = spec else { return Ok((0, 1)) };
    let Some((index, count)) = spec.split_once('/') else {
        return Err(format!("`{spec}` is not I/N (or auto/N)"));
    };
    let count: u64 = count.trim().parse().map_err(|_| format!("`{count}` is not a number of shards"))?;
    let index: u64 = if index.trim() == "auto" {
        let variables = ["JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"];
        let found = variables.iter().find_map(|v| std::env::var(v).ok().map(|value| (v, value)));
        let Some((variable, value)) = found else {
            return Err("auto: neither JOB_COMPLETION_INDEX nor SLURM_ARRAY_TASK_ID is set".to_owned());
        };
        value.trim().parse().map_err(|_| format!("auto: {variable} = `{value}` is not a shard index"))?
    } else {
        index.trim().parse().map_err(|_| format!("`{index}` is not a shard index"))?
    };
    if count == 0 || index >= count {
        return Err(format!("shard {index} of {count}: need 0 ≤ I < N"));
    }
    Ok((index, count))
}

/// `hol mutants replay LOG ID`: the mutant `ID` of the log mutated again from its file
/// with the run's seed and sample size, tested by each of the run's strategies with the
/// run's bounds and seed; each outcome printed beside the logged one. Exit status 1 when
/// one differs (under `--timeout`, a loaded machine may time out where the run did not),
/// 2 when the log or the mutant cannot be found.
pub fn replay(args: &ReplayArgs, registry: &Registry) -> u8 {
    match replayed(args, registry) {
        Ok(same) => u8::from(!same),
        Err(why) => {
            eprintln!("error: hol mutants replay: {why}");
            2
        }
    }
}

fn replayed(args: &ReplayArgs, registry: &Registry) -> Result<bool, String> {
    let text = std::fs::read_to_string(&args.log).map_err(|e| format!("{}: {e}", args.log.display()))?;
    let records: Vec<serde_json::Value> = text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    let run = records.iter().find(|r| r["kind"] == "run").ok_or("the log has no run record")?;
    let record = records
        .iter()
        .find(|r| r["kind"] == "mutant" && r["id"] == args.id.as_str())
        .ok_or_else(|| format!("no mutant {} in {}", args.id, args.log.display()))?;
    let file = PathBuf::from(record["file"].as_str().unwrap_or_default());
    let number = |key: &str| run[key].as_u64().ok_or_else(|| format!("the run record has no {key}"));
    let (seed, per_lemma, size) = (number("seed")?, number("per_lemma")?, number("size")?);
    let timeout = match run["timeout"].as_f64() {
        Some(t) if t.is_finite() && (0.0..=86_400.0).contains(&t) => Duration::from_secs_f64(t),
        _ => Duration::from_secs(86_400),
    };
    let strategies: Vec<String> =
        run["strategies"].as_array().into_iter().flatten().filter_map(|s| s.as_str().map(str::to_owned)).collect();
    let text = FsLoader::default().load(&file).map_err(|e| e.message(&file.display().to_string()))?;
    let settings = Settings { per_lemma: per_lemma as usize, seed };
    let mutation = mutants::mutate(&file, &text, &FsLoader::default(), &registry.names(), &settings);
    let mutant = mutation.lemmas.iter().flat_map(|l| l.mutants.iter()).find(|m| m.id == args.id).ok_or_else(|| {
        format!("{} no longer has the mutant {} (the theory changed since the run)", file.display(), args.id)
    })?;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "mutant {} of {} ({}): {}",
        mutant.id,
        record["lemma"].as_str().unwrap_or("?"),
        file.display(),
        mutant.text
    );
    let _ = writeln!(out, "  {}: {}", mutant.operator.name(), mutant.edit);
    let results = test_mutant(&file, mutant, &strategies, seed, Bounds { size, timeout }, registry);
    let mut same = true;
    for (strategy, result) in strategies.iter().zip(&results) {
        let logged = record["runs"][strategy.as_str()]["outcome"].as_str().unwrap_or("?");
        let agrees = logged == result.outcome.name();
        same &= agrees;
        let assignment = result
            .counterexample
            .as_ref()
            .map(|c| {
                let pairs: Vec<String> = c.iter().map(|(k, v)| format!("{k} = {v}")).collect();
                format!(": {}", pairs.join(", "))
            })
            .unwrap_or_default();
        let verdict = if agrees { "as logged".to_owned() } else { format!("logged: {logged}") };
        let _ = writeln!(out, "  {strategy}: {}{assignment} ({verdict})", result.outcome.name());
    }
    Ok(same)
}

/// The table of one theory from each mutant's outcomes, strategy by strategy.
fn table_of(
    name: &str,
    lemmas: usize,
    strategies: &[String],
    outcomes: impl Iterator<Item = Vec<OutcomeKind>>,
) -> Table {
    let mut table = Table { name: name.to_owned(), lemmas, ..Table::default() };
    table.rows = strategies.iter().map(|s| (s.clone(), Counts::default())).collect();
    for result in outcomes {
        for (row, outcome) in table.rows.iter_mut().zip(&result) {
            row.1.add(*outcome);
        }
        table.union.add(union(&result));
    }
    table
}

fn outcome_named(name: &str) -> Option<OutcomeKind> {
    [
        OutcomeKind::Counterexample,
        OutcomeKind::PotentiallySpurious,
        OutcomeKind::NoCounterexample,
        OutcomeKind::Timeout,
        OutcomeKind::NotExecutable,
        OutcomeKind::Error,
    ]
    .into_iter()
    .find(|o| o.name() == name)
}

/// `hol mutants merge LOG...`: the tables of the whole run from its shards' logs. Returns
/// the exit status (2 when the logs do not make one run).
pub fn merge(args: &MergeArgs) -> u8 {
    match merged(&args.logs) {
        Ok(tables) => {
            let several = tables.len() > 1;
            let mut total = Table { name: "total".into(), ..Table::default() };
            for table in &tables {
                show(args.format, table);
                total.merge(table);
            }
            if several {
                show(args.format, &total);
            }
            0
        }
        Err(why) => {
            eprintln!("error: hol mutants merge: {why}");
            2
        }
    }
}

fn merged(logs: &[std::path::PathBuf]) -> Result<Vec<Table>, String> {
    let mut header: Option<serde_json::Value> = None;
    let mut shards_seen: Vec<u64> = Vec::new();
    let mut ids = std::collections::HashSet::new();
    // Per theory, in the order of the run's files: lemma count and mutant outcomes.
    let mut theories: Vec<(usize, String, usize, Vec<Vec<OutcomeKind>>)> = Vec::new();
    for path in logs {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut records = text.lines().enumerate().map(|(i, line)| {
            serde_json::from_str::<serde_json::Value>(line)
                .map_err(|e| format!("{}:{}: not a JSON record: {e}", path.display(), i + 1))
        });
        let first = records.next().ok_or_else(|| format!("{}: empty", path.display()))??;
        if first["kind"] != "run" {
            return Err(format!("{}: does not start with the run's record", path.display()));
        }
        let shard = first["shard"].as_array().and_then(|s| Some((s.first()?.as_u64()?, s.get(1)?.as_u64()?)));
        let Some((index, count)) = shard else {
            return Err(format!("{}: no shard in the run's record", path.display()));
        };
        let mut same_run = first.clone();
        same_run["shard"] = count.into();
        match &header {
            None => header = Some(same_run),
            Some(h) if *h == same_run => {}
            Some(_) => {
                return Err(format!(
                    "{}: a log of another run (files, strategies, seed or bounds differ)",
                    path.display()
                ))
            }
        }
        if shards_seen.contains(&index) {
            return Err(format!("{}: shard {index} of {count} given twice", path.display()));
        }
        if shards_seen.len() as u64 >= count {
            return Err(format!("{}: more logs than the {count} shards", path.display()));
        }
        shards_seen.push(index);
        let files: Vec<String> = first["files"]
            .as_array()
            .map(|f| f.iter().filter_map(|x| x.as_str().map(str::to_owned)).collect())
            .unwrap_or_default();
        let strategies = first["strategies"].as_array().map_or(0, Vec::len);
        for record in records {
            let record = record?;
            let theory = record["theory"].as_str().unwrap_or_default().to_owned();
            let file = record["file"].as_str().unwrap_or_default();
            let position = files.iter().position(|f| f == file).unwrap_or(files.len());
            let at = match theories.iter().position(|(p, t, ..)| *p == position && *t == theory) {
                Some(at) => at,
                None => {
                    theories.push((position, theory.clone(), 0, Vec::new()));
                    theories.len() - 1
                }
            };
            match record["kind"].as_str() {
                Some("theory") => {}
                Some("lemma") => theories[at].2 += 1,
                Some("mutant") => {
                    let id = record["id"].as_str().unwrap_or_default().to_owned();
                    if !ids.insert(id.clone()) {
                        return Err(format!("{}: mutant {id} is in two shards", path.display()));
                    }
                    let runs = record["runs"]
                        .as_object()
                        .ok_or_else(|| format!("{}: mutant {id} has no runs", path.display()))?;
                    let outcomes: Option<Vec<OutcomeKind>> = first["strategies"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|s| outcome_named(runs.get(s.as_str()?)?["outcome"].as_str()?))
                        .collect();
                    match outcomes {
                        Some(o) if o.len() == strategies => theories[at].3.push(o),
                        _ => return Err(format!("{}: mutant {id} lacks a strategy's outcome", path.display())),
                    }
                }
                _ => return Err(format!("{}: an unknown record: {record}", path.display())),
            }
        }
    }
    let Some(header) = header else { return Err("no logs".to_owned()) };
    let count = header["shard"].as_u64().unwrap_or(0);
    let missing: Vec<u64> = (0..count).filter(|i| !shards_seen.contains(i)).collect();
    if !missing.is_empty() || shards_seen.is_empty() {
        return Err(format!("shards missing: {missing:?}"));
    }
    let strategies: Vec<String> =
        header["strategies"].as_array().into_iter().flatten().filter_map(|s| s.as_str().map(str::to_owned)).collect();
    // Stable: theories of one file keep the order they were met in.
    theories.sort_by_key(|(position, ..)| *position);
    Ok(theories
        .into_iter()
        .map(|(_, name, lemmas, outcomes)| table_of(&name, lemmas, &strategies, outcomes.into_iter()))
        .collect())
}

/// Writes a table as soon as it is done. A reader that went away (`| head`) ends the
/// output, not the run.
fn show(format: Format, table: &Table) {
    let mut stdout = std::io::stdout().lock();
    let _ = match format {
        Format::Human => write!(stdout, "{}", render(table)),
        Format::Json => writeln!(stdout, "{}", table_json(table)),
    };
    let _ = stdout.flush();
}

/// The union over the strategies: refuted by one is refuted; executable by one is
/// executable.
fn union(result: &[OutcomeKind]) -> OutcomeKind {
    let order = [
        OutcomeKind::Counterexample,
        OutcomeKind::PotentiallySpurious,
        OutcomeKind::Timeout,
        OutcomeKind::NoCounterexample,
        OutcomeKind::NotExecutable,
        OutcomeKind::Error,
    ];
    order.into_iter().find(|o| result.contains(o)).unwrap_or(OutcomeKind::Error)
}

/// The size bound and time limit of every run.
#[derive(Clone, Copy, Debug)]
struct Bounds {
    size: u64,
    timeout: Duration,
}

fn options(tester: Option<&str>, bounds: Bounds, seed: u64) -> quickcheck::Options {
    quickcheck::Options {
        testers: tester.map(|t| TesterName::from(t.to_owned())).into_iter().collect(),
        size: bounds.size,
        timeout: bounds.timeout,
        seed: Some(seed),
        // The benchmark counts counterexamples found; explaining them is not measured.
        generalize: false,
        ..quickcheck::Options::default()
    }
}

/// Tests every mutant with every strategy on `jobs` threads; results in mutant order.
fn run_mutants(
    file: &Path,
    mutants: &[(&str, &Mutant)],
    strategies: &[String],
    seed: u64,
    bounds: Bounds,
    registry: &Registry,
    jobs: usize,
) -> Vec<MutantResult> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<MutantResult>>> = Mutex::new(vec![None; mutants.len()]);
    // A progress bar on a terminal; none when stderr is piped.
    let bar = if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(mutants.len() as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template("{msg} {bar:30} {pos}/{len} mutants ({elapsed})") {
            bar.set_style(style);
        }
        bar.set_message(file.display().to_string());
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let work = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some((_, mutant)) = mutants.get(i) else { break };
        let result = analysis::barrier::catch(|| test_mutant(file, mutant, strategies, seed, bounds, registry))
            .unwrap_or_else(|panic| vec![RunResult::error(&format!("internal error: {panic}")); strategies.len()]);
        if let Ok(mut r) = results.lock() {
            r[i] = Some(result);
        }
        bar.inc(1);
    };
    std::thread::scope(|scope| {
        let mut spawned = 0;
        for _ in 0..jobs {
            // The checker and the testers recurse deeply on deep terms: big stacks.
            if std::thread::Builder::new().stack_size(256 << 20).spawn_scoped(scope, work).is_ok() {
                spawned += 1;
            }
        }
        if spawned == 0 {
            work();
        }
    });
    bar.finish_and_clear();
    let results = results.into_inner().unwrap_or_default();
    results.into_iter().map(|r| r.unwrap_or_else(|| vec![RunResult::error("not run"); strategies.len()])).collect()
}

fn test_mutant(
    file: &Path,
    mutant: &Mutant,
    strategies: &[String],
    seed: u64,
    bounds: Bounds,
    registry: &Registry,
) -> MutantResult {
    let theory = mutants::check(file, &mutant.theory_text, &FsLoader::default(), &registry.names());
    let Some(index) = mutants::mutant_lemma(&theory, mutant) else {
        return vec![RunResult::error("the mutant does not check"); strategies.len()];
    };
    let seed = mutants::fnv(&[&seed.to_le_bytes(), mutant.id.as_bytes()]);
    strategies
        .iter()
        .map(|s| {
            let tester = (s != PORTFOLIO).then_some(s.as_str());
            RunResult::of(check_lemma(&theory, index, &options(tester, bounds, seed), true, registry, &Cancel::new()))
        })
        .collect()
}

/// The table in words, as Table 1 of the paper: genuine / executable per strategy.
pub fn render(table: &Table) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}: {} lemmas, {} mutants", table.name, table.lemmas, table.union.mutants);
    let _ = writeln!(
        out,
        "  {:<18} {:>18} {:>9} {:>9} {:>8} {:>9} {:>7}",
        "strategy", "genuine/executable", "spurious", "no cex", "timeout", "not exec", "errors"
    );
    for (name, c) in table.rows.iter().map(|(n, c)| (n.as_str(), c)).chain([("union", &table.union)]) {
        let _ = writeln!(
            out,
            "  {:<18} {:>18} {:>9} {:>9} {:>8} {:>9} {:>7}",
            name,
            format!("{}/{}", c.genuine, c.executable()),
            c.spurious,
            c.none,
            c.timeout,
            c.not_executable,
            c.errors
        );
    }
    out
}

fn counts_json(name: &str, c: &Counts) -> serde_json::Value {
    serde_json::json!({
        "strategy": name,
        "mutants": c.mutants,
        "genuine": c.genuine,
        "executable": c.executable(),
        "potentially_spurious": c.spurious,
        "no_counterexample": c.none,
        "timeout": c.timeout,
        "not_executable": c.not_executable,
        "errors": c.errors,
    })
}

fn table_json(table: &Table) -> serde_json::Value {
    let rows: Vec<serde_json::Value> = table.rows.iter().map(|(n, c)| counts_json(n, c)).collect();
    serde_json::json!({
        "kind": "table",
        "theory": table.name,
        "lemmas": table.lemmas,
        "mutants": table.union.mutants,
        "rows": rows,
        "union": counts_json("union", &table.union),
    })
}
