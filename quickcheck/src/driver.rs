//! The shared driver, written once for every tester: the type instances a lemma is tested
//! at, which tester a run's options name (resolved through the `Registry`), the sizes and
//! their order over the instances (`schedule`), the time limit and cancellation, the
//! verdict on every failing case (re-checked by the interpreter, `case::recheck`; passed
//! over under `genuine_only` when only potentially spurious), the verbose log lines, and the
//! report with every message it carries. A tester only searches one instance at one size
//! at a time (`testers::Search`).

use crate::budget::{deadline_after, Budget, Cancel};
use crate::case::{recheck, Recheck};
use crate::generalize;
use crate::options::Options;
use crate::outcome::{Counterexample, Generalization, OutcomeKind, Report, SolverStats};
use crate::portfolio;
use crate::program::Schedule;
use crate::registry::{Registry, TesterName};
use crate::runner::{self, Engine};
use crate::schedule::schedule;
use crate::testers::{Coverage, End, Search, Setup, Tester};
use lang::core::conjecture::{needs_numeric, Conjecture, TypeChoice};
use lang::interp::Value;
use lang::CheckedTheory;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The type instances a lemma is tested at: finite types of 1 to `finite_type_size` elements
/// for every type variable (those whose sort asks for arithmetic get `default_type`), or
/// `default_type` everywhere when `finite_types` is false.
pub fn instances(theory: &CheckedTheory, index: usize, opts: &Options) -> Vec<Vec<TypeChoice>> {
    let lemma = theory.lemma(index);
    if lemma.params.is_empty() {
        return vec![Vec::new()];
    }
    let named = TypeChoice::Named(opts.default_type.clone());
    if !opts.finite_types {
        return vec![vec![named; lemma.params.len()]];
    }
    let mut out: Vec<Vec<TypeChoice>> = Vec::new();
    for k in 1..=opts.finite_type_size.max(1) {
        let inst: Vec<TypeChoice> = (0..lemma.params.len())
            .map(|i| if needs_numeric(lemma, i) { named.clone() } else { TypeChoice::Finite(k) })
            .collect();
        if !out.contains(&inst) {
            out.push(inst);
        }
    }
    out
}

/// A seed when none was given: different on every run, printed with the result.
pub fn fresh_seed() -> u64 {
    let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let mut x = t.as_nanos() as u64 ^ (u64::from(std::process::id()) << 32);
    // SplitMix64 finalizer, so close clock readings give unrelated seeds.
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Tests lemma item `index` of `theory` with `opts`, running cases on `engine`
/// (`Engine::Tiered` for the front ends; a `bool` says compiled or interpreted): with the
/// testers `opts.testers` name in `registry` (side by side when several), or the
/// registry's portfolio. The run ends
/// early, with a report that says so, once `cancel` is cancelled.
pub fn check_lemma(
    theory: &CheckedTheory,
    index: usize,
    opts: &Options,
    engine: impl Into<Engine>,
    registry: &Registry,
    cancel: &Cancel,
) -> Report {
    let engine = engine.into();
    let conjectures: Vec<Conjecture> =
        instances(theory, index, opts).iter().map(|inst| theory.lower_conjecture(index, inst)).collect();
    let seed = opts.seed.unwrap_or_else(fresh_seed);
    let mut named = Vec::new();
    for name in &opts.testers {
        match registry.get(name.name()) {
            Some(t) => named.push(t),
            // Only a caller that bypassed `lang`'s checks gets here.
            None => {
                return Report::new(name.clone(), OutcomeKind::Error)
                    .with_message(format!("unknown tester `{name}` (the testers are {})", registry.names().join(", ")))
            }
        }
    }
    match named[..] {
        [] => portfolio::run(registry.portfolio(), true, &conjectures, opts, seed, engine, cancel.flag()),
        [t] => run(t, &conjectures, opts, seed, engine, cancel.flag(), None),
        _ => portfolio::run(named, false, &conjectures, opts, seed, engine, cancel.flag()),
    }
}

/// Runs `tester` over every instance of `conjectures` (`check_lemma` resolves the tester
/// and lowers the instances).
pub fn run_tester(
    tester: &dyn Tester,
    conjectures: &[Conjecture],
    opts: &Options,
    seed: u64,
    engine: Engine,
    cancel: &Cancel,
) -> Report {
    run(tester, conjectures, opts, seed, engine, cancel.flag(), None)
}

/// The first genuine counterexample `tester` finds, instance by instance and size by size
/// up to `opts.size`, before `deadline`: the instance and the generated variables' values
/// (for the tools that work on values, generalization's benches and tests). No re-check, no
/// report.
pub fn first_counterexample(
    tester: &dyn Tester,
    conjectures: &[Conjecture],
    opts: &Options,
    engine: Engine,
    deadline: Instant,
) -> Option<(usize, Vec<Option<Value>>)> {
    if conjectures.iter().any(|c| tester.not_executable(c).is_some() || tester.applies(c).is_err()) {
        return None;
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(opts.seed.unwrap_or(1));
    for (i, c) in conjectures.iter().enumerate() {
        let mut search = tester.search(c, &Setup { options: opts, deadline, engine });
        for size in 0..opts.size {
            match search.run_size(&mut Turn::new(size, Budget::until(deadline), false, &mut rng)).end {
                Some(End::Genuine(_, generated)) => return Some((i, generated)),
                None | Some(End::Spurious(_)) => {}
                Some(_) => break,
            }
        }
    }
    None
}

/// What a search is handed at each step of the schedule.
pub struct Turn<'t> {
    /// Generator size: Isabelle's size `k` is generator size `k - 1`.
    pub size: u64,
    pub budget: Budget<'t>,
    pub judge: Judge<'t>,
    /// The run's one random stream, drawn from across the schedule in its order, so a run
    /// is replayed from its seed.
    pub rng: &'t mut Xoshiro256PlusPlus,
}

impl<'t> Turn<'t> {
    pub fn new(size: u64, budget: Budget<'t>, genuine_only: bool, rng: &'t mut Xoshiro256PlusPlus) -> Turn<'t> {
        Turn { size, budget, judge: Judge { genuine_only, deadline: budget.deadline, known: None }, rng }
    }
}

/// Whether a failing case, by its generated variables' values, is to be passed over.
pub type PassOver<'t> = &'t dyn Fn(&[Option<Value>]) -> bool;

/// The verdict on a failing case, the same for every tester.
#[derive(Clone, Copy)]
pub struct Judge<'t> {
    pub genuine_only: bool,
    /// The re-check's deadline.
    pub deadline: Instant,
    /// Failing cases to pass over, by their generated values: instances of counterexamples
    /// already reported (`counterexamples = k`).
    pub known: Option<PassOver<'t>>,
}

impl std::fmt::Debug for Judge<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Judge")
            .field("genuine_only", &self.genuine_only)
            .field("deadline", &self.deadline)
            .field("known", &self.known.is_some())
            .finish()
    }
}

impl Judge<'_> {
    /// Whether a failing case can end the search: not a potentially spurious one (a
    /// premise or the conclusion met an underspecified function) under `genuine_only`. A
    /// tester may skip work on a case it will not keep (random does not shrink it).
    pub fn keeps(&self, spurious: bool) -> bool {
        !(spurious && self.genuine_only)
    }

    /// A failing case, the generated variables' values `generated[v]` (`None` for the
    /// others), re-checked by the reference interpreter (unless `known`, when it is passed
    /// over): `Some(end)` ends the search
    /// (a counterexample, a disagreement between compiled code and the interpreter, a
    /// case that did not finish), `None` goes on past it.
    pub fn verdict(&self, c: &Conjecture, sched: &Schedule, generated: &[Option<Value>]) -> Option<End> {
        if self.known.is_some_and(|known| known(generated)) {
            return None;
        }
        match recheck(c, sched, generated, self.deadline) {
            Recheck::Genuine(cx) => Some(End::Genuine(cx, generated.to_vec())),
            Recheck::Spurious(_) if self.genuine_only => None,
            Recheck::Spurious(cx) => Some(End::Spurious(cx)),
            Recheck::Disagrees(why) => Some(End::Disagreement(why)),
            Recheck::Stopped(s) => Some(End::Stopped(s)),
        }
    }
}

/// Runs one tester over every instance. As in Isabelle, instance `i` (finite types of `i`
/// elements) and size `k` are tried in the order of `i + k`, and size `k` means generator
/// size `k - 1`. `answered` is the portfolio's flag: set when another tester answered.
pub(crate) fn run(
    tester: &dyn Tester,
    conjectures: &[Conjecture],
    opts: &Options,
    seed: u64,
    engine: Engine,
    cancel: &AtomicBool,
    answered: Option<&AtomicBool>,
) -> Report {
    let t0 = Instant::now();
    let not_answered = AtomicBool::new(false);
    let budget = Budget {
        deadline: deadline_after(t0, opts.timeout.max(Duration::from_millis(1))),
        cancel,
        answered: answered.unwrap_or(&not_answered),
        enough: None,
    };
    let sampled = tester.coverage() == Coverage::Sampled;
    let mut report = Report::new(TesterName::new(tester.name()), OutcomeKind::NoCounterexample);
    if sampled {
        report.seed = Some(seed);
    }
    if let Some(why) = conjectures.iter().find_map(|c| tester.applies(c).err()) {
        report.outcome = OutcomeKind::Error;
        report.message = Some(why);
        return report;
    }
    if let Some(why) = conjectures.iter().find_map(|c| tester.not_executable(c)) {
        report.outcome = OutcomeKind::NotExecutable;
        report.message = Some(why);
        return report;
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let setup = Setup { options: opts, deadline: budget.deadline, engine };
    let mut searches: Vec<Box<dyn Search>> = conjectures.iter().map(|c| tester.search(c, &setup)).collect();
    let order: Vec<(usize, u64)> = schedule(searches.len(), opts.size.max(1)).collect();
    if opts.verbose && engine.compiles() {
        // Functions too large to compile cheaply run in the interpreter, which is slower:
        // say so, as a timeout may follow from it.
        for (c, inst) in conjectures.iter().zip(instance_names(conjectures)) {
            for f in codegen::too_large_to_compile(&c.program) {
                report.log.push(format!("{inst}`{}` runs in the interpreter: {}", f.name, f.why));
            }
        }
    }
    let mut first = Sweep::new(searches.len());
    let mut slice = (searches.len() > 1).then(|| opts.timeout / SLICE_SHARE);
    let pass = Pass { slice, ..Pass::new(&order, budget, opts) };
    sweep(&mut searches, conjectures, &pass, &mut rng, &mut report, &mut first);
    // The steps put off, each instance from the size it was cut at, on new searches (a
    // search cut in the middle of a size is not taken up again), with twice the time per
    // step; the last instance left has all the time there is.
    while first.end.is_none() && first.put_off.iter().any(Option::is_some) && !budget.exceeded() {
        let put_off = std::mem::replace(&mut first.put_off, vec![None; searches.len()]);
        for (i, from) in put_off.iter().enumerate() {
            if from.is_some() {
                searches[i] = tester.search(&conjectures[i], &setup);
            }
        }
        let rest: Vec<(usize, u64)> =
            order.iter().copied().filter(|&(i, k)| put_off[i].is_some_and(|from| k >= from)).collect();
        let left = put_off.iter().flatten().count();
        slice = slice.map(|s| s * 2).filter(|_| left > 1);
        let pass = Pass { slice, ..Pass::new(&rest, budget, opts) };
        sweep(&mut searches, conjectures, &pass, &mut rng, &mut report, &mut first);
    }
    if matches!(first.end, Some(End::Spurious(_))) && !opts.genuine_only {
        // A potentially spurious counterexample (`hd []` on the way) says less than a
        // genuine one: `hd (xs @ ys) = hd ys` fails first at `xs = [], ys = []`, genuinely
        // at `xs = [a1], ys = [a2]` a size later. So the search goes on from where it was
        // found, passing over potentially spurious cases (as under `genuine_only`), for a
        // share of the time left (`GENUINE_SHARE`); a genuine counterexample found then is
        // the answer, otherwise the potentially spurious one stands.
        let from = order.iter().position(|&(i, k)| i == first.end_at && k == first.size).unwrap_or(0);
        let now = Instant::now();
        let own = Budget { deadline: now + budget.deadline.saturating_duration_since(now) / GENUINE_SHARE, ..budget };
        let genuine_only = Options { genuine_only: true, ..opts.clone() };
        if opts.verbose {
            report.log.push(format!(
                "a potentially spurious counterexample at size {}: searching on for a genuine one",
                first.size
            ));
        }
        let mut next = Sweep::new(searches.len());
        let pass = Pass::new(&order[from..], own, &genuine_only);
        sweep(&mut searches, conjectures, &pass, &mut rng, &mut report, &mut next);
        if matches!(next.end, Some(End::Genuine(..))) {
            first = next;
        }
    }
    let Sweep { mut end, end_at, mut covered, too_big, mut note, size, .. } = first;
    report.size = size;
    for (i, s) in searches.iter().enumerate() {
        if s.exhausted() {
            covered[i] = opts.size.max(1);
        }
    }
    if let Some(End::Genuine(cx, generated)) = &mut end {
        // The verdict is in: the other testers of a portfolio stop while this one
        // generalizes, within its own share of time, and looks for more counterexamples.
        budget.answered.store(true, std::sync::atomic::Ordering::Relaxed);
        let mut known = Known::default();
        cx.generalizations = known.add(conjectures, end_at, cx, generated, opts, engine, cancel);
        report.log.append(&mut known.log);
        // Further counterexamples (`counterexamples = k`), each outside the generalizations
        // of those before it: the search again from the start, passing over their
        // instances, until the time limit.
        // Its own budget: the flag above is set now.
        let unanswered = AtomicBool::new(false);
        let own = Budget { answered: &unanswered, ..budget };
        // The figures say how the first was found and shrunk; the tests of every search add up.
        let shrink = report.shrink.clone();
        while report.further.len() + 1 < opts.counterexamples as usize && !own.exceeded() {
            let mut again: Vec<Box<dyn Search>> = conjectures.iter().map(|c| tester.search(c, &setup)).collect();
            let covers = |g: &[Option<Value>]| known.covers(g);
            let mut next = Sweep::new(again.len());
            let pass = Pass { known: Some(&covers), ..Pass::new(&order, own, opts) };
            sweep(&mut again, conjectures, &pass, &mut rng, &mut report, &mut next);
            let Some(End::Genuine(mut cx, generated)) = next.end else { break };
            // A tester that cannot pass over them (narrowing on a statement with quantifiers
            // inside, the smt tester's models made smaller) finds the same one again.
            if known.values.contains(&generated) {
                break;
            }
            cx.generalizations = known.add(conjectures, next.end_at, &cx, &generated, opts, engine, cancel);
            report.log.append(&mut known.log);
            report.further.push(cx);
        }
        report.shrink = shrink;
    }
    // A time limit met after every instance covered some sizes completely still answers
    // for those sizes: the report names the bound that was searched.
    let bound = covered.iter().copied().min().unwrap_or(0);
    let (outcome, message, cx) = match end {
        None => (OutcomeKind::NoCounterexample, None, None),
        Some(End::Stopped(runner::Stop::Timeout)) if bound > 0 => {
            report.size = bound;
            (
                OutcomeKind::NoCounterexample,
                Some(format!(
                    "none up to size {bound}; size {} was cut short by the time limit ({} s)",
                    bound + 1,
                    opts.timeout.as_secs_f64()
                )),
                None,
            )
        }
        Some(End::Genuine(cx, _)) => (OutcomeKind::Counterexample, None, Some(cx)),
        Some(End::Spurious(cx)) => (OutcomeKind::PotentiallySpurious, None, Some(cx)),
        Some(End::Stopped(runner::Stop::Timeout)) => {
            (OutcomeKind::Timeout, Some(format!("no answer within {} s", opts.timeout.as_secs_f64())), None)
        }
        Some(End::Stopped(runner::Stop::NotExecutable(why))) => (OutcomeKind::NotExecutable, Some(why), None),
        Some(End::Stopped(runner::Stop::Diverged(why))) => {
            (OutcomeKind::Error, Some(format!("a test case did not finish: {why}")), None)
        }
        Some(End::Disagreement(why)) => (OutcomeKind::Error, Some(why), None),
        Some(End::Cancelled) if budget.cancelled_from_outside() => {
            report.cancelled = true;
            (OutcomeKind::Timeout, Some("cancelled before an answer".into()), None)
        }
        Some(End::Cancelled) => (OutcomeKind::Timeout, Some("cancelled: another tester answered first".into()), None),
        Some(End::TooBig | End::Enough) => (OutcomeKind::NoCounterexample, None, None),
    };
    report.outcome = outcome;
    report.message = message;
    report.counterexample = cx;
    if report.outcome == OutcomeKind::NoCounterexample && report.message.is_none() {
        let exhausted = searches.iter().all(|s| s.exhausted());
        report.exhausted = exhausted;
        report.message = Some(if exhausted {
            // A statement with quantifiers inside is decided, not tested value by value.
            note.take().unwrap_or_else(|| "the statement holds for these types: every value was tested".into())
        } else if too_big.iter().any(|b| *b) {
            // Every instance covered at least `bound`; the ones cut short by a space too big
            // to enumerate covered no more.
            report.size = bound;
            format!("none up to size {bound} (larger spaces are too big to enumerate)")
        } else if sampled {
            format!("none in {} random tests up to size {}", report.tests, opts.size)
        } else {
            format!("none up to size {}", report.size)
        });
        if let (Some(m), Some(n)) = (&mut report.message, note) {
            m.push_str(&format!("; {n}"));
        }
    }
    if report.too_large > 0 {
        // Said, so that "none in n tests" is not read as covering cases that never ran.
        let n = report.too_large;
        let skipped = format!(
            "{n} random case{} too large to build {} skipped",
            if n == 1 { "" } else { "s" },
            if n == 1 { "was" } else { "were" }
        );
        report.message = Some(match report.message.take() {
            Some(m) => format!("{m}; {skipped}"),
            None => skipped,
        });
    }
    report.seconds = t0.elapsed().as_secs_f64();
    report
}

/// The share of the time left that the search for a genuine counterexample may take after
/// a potentially spurious one (`run`): a tenth, as for generalizing.
const GENUINE_SHARE: u32 = 10;

/// What the passes over the schedule ended with.
struct Sweep {
    end: Option<End>,
    /// The instance it ended at.
    end_at: usize,
    /// The largest size each instance covered completely.
    covered: Vec<u64>,
    /// The instances whose spaces grew too big to enumerate.
    too_big: Vec<bool>,
    /// Per instance, the size whose step took longer than the pass's time slice: put off,
    /// with the instance's larger sizes, for the other instances first (`Pass::slice`).
    put_off: Vec<Option<u64>>,
    /// What the last size searched adds to the report.
    note: Option<String>,
    /// The size reached.
    size: u64,
}

impl Sweep {
    fn new(instances: usize) -> Sweep {
        Sweep {
            end: None,
            end_at: 0,
            covered: vec![0; instances],
            too_big: vec![false; instances],
            put_off: vec![None; instances],
            note: None,
            size: 0,
        }
    }
}

/// One pass over the schedule: its steps (instance, size) in order, until `budget` ends;
/// with a `slice`, a step may take that long before it is put off (`Sweep::put_off`); a
/// failing case that `known` covers is passed over (an instance of a counterexample
/// reported before).
struct Pass<'p> {
    order: &'p [(usize, u64)],
    budget: Budget<'p>,
    slice: Option<Duration>,
    opts: &'p Options,
    known: Option<PassOver<'p>>,
}

impl<'p> Pass<'p> {
    fn new(order: &'p [(usize, u64)], budget: Budget<'p>, opts: &'p Options) -> Pass<'p> {
        Pass { order, budget, slice: None, opts, known: None }
    }
}

/// The share of the time limit that one step of the schedule (an instance at a size) may
/// take in the first pass, when there are other instances: a step that needs more is put
/// off, with the instance's larger sizes, until the other instances had their sizes, then
/// resumed with twice the time per step, and so on (`run`). Without it, a one-element
/// instance whose size-4 space takes the whole limit starves the two-element instance
/// whose size 3 holds the counterexample. Steps that fit keep Isabelle's order.
const SLICE_SHARE: u32 = 20;

/// Runs `searches` (one per instance of `conjectures`) through `pass`, until one ends the
/// run, into `out`, adding their figures and verbose lines to `report`.
fn sweep(
    searches: &mut [Box<dyn Search + '_>],
    conjectures: &[Conjecture],
    pass: &Pass<'_>,
    rng: &mut Xoshiro256PlusPlus,
    report: &mut Report,
    out: &mut Sweep,
) {
    let (budget, opts) = (pass.budget, pass.opts);
    for &(i, k) in pass.order {
        if searches[i].exhausted() || out.too_big[i] || out.put_off[i].is_some() {
            continue;
        }
        // A search may cover a small size without looking at its budget: a cancelled run
        // ends here at the latest.
        if budget.cancelled() {
            out.size = k;
            out.end = Some(End::Cancelled);
            break;
        }
        let step = match pass.slice {
            Some(slice) => Budget { deadline: budget.deadline.min(Instant::now() + slice), ..budget },
            None => budget,
        };
        let mut turn = Turn::new(k - 1, step, opts.genuine_only, rng);
        turn.judge.known = pass.known;
        let res = searches[i].run_size(&mut turn);
        // The step's slice ended, not the run's time: the other instances go first, and
        // the step is run again later, its figures then.
        let put_off =
            pass.slice.is_some() && matches!(res.end, Some(End::Stopped(runner::Stop::Timeout))) && !budget.exceeded();
        if !put_off {
            report.tests += res.tests;
            report.passed_premises += res.passed;
            report.too_large += res.too_large;
            if let Some(n) = res.refinements {
                *report.refinements.get_or_insert(0) += n;
            }
        }
        let inst = || {
            let inst: Vec<String> = conjectures[i].instance.iter().map(|(a, t)| format!("{a} = {t}")).collect();
            if inst.is_empty() {
                String::new()
            } else {
                format!(" ({})", inst.join(", "))
            }
        };
        if opts.verbose {
            let inst = inst();
            let plural = if res.tests == 1 { "" } else { "s" };
            let skipped =
                if res.too_large > 0 { format!(", {} too large to build", res.too_large) } else { String::new() };
            report.log.push(match res.refinements {
                Some(r) => format!(
                    "size {k}{inst}: {} partial case{plural}, {r} refinement{}, {} passed the premises",
                    res.tests,
                    if r == 1 { "" } else { "s" },
                    res.passed
                ),
                None => {
                    format!("size {k}{inst}: {} test{plural}, {} passed the premises{skipped}", res.tests, res.passed)
                }
            });
            report.log.extend(res.log);
        }
        if res.shrink.is_some() {
            report.shrink = res.shrink;
        }
        if let Some(sv) = res.solver {
            let total = report.solver.get_or_insert(SolverStats { name: sv.name.clone(), models: 0, seconds: 0.0 });
            total.models += sv.models;
            total.seconds += sv.seconds;
        }
        // The last size's word (of the last instance) stands.
        out.note = res.note;
        match res.end {
            None | Some(End::Enough) => {
                out.size = out.size.max(k);
                out.covered[i] = k;
            }
            Some(End::TooBig) => out.too_big[i] = true,
            Some(_) if put_off => {
                out.put_off[i] = Some(k);
                if opts.verbose {
                    let slice = pass.slice.unwrap_or_default().as_secs_f64();
                    report
                        .log
                        .push(format!("size {k}{}: put off after {slice:.2} s, the other instances first", inst()));
                }
            }
            Some(e) => {
                out.size = k;
                out.end = Some(e);
                out.end_at = i;
                break;
            }
        }
    }
}

/// The counterexamples reported so far, for `counterexamples = k`: their values and their
/// tested generalizations, whose instances the next search passes over.
#[derive(Default)]
struct Known<'c> {
    values: Vec<Vec<Option<Value>>>,
    claims: Vec<generalize::Claims<'c>>,
    /// Lines for `verbose`, one per generalized counterexample.
    log: Vec<String>,
}

impl<'c> Known<'c> {
    /// Adds counterexample `cx` with the generated values `generated`, found at instance
    /// `at`, and returns its generalizations (none under `generalize = false`).
    #[allow(clippy::too_many_arguments)]
    fn add(
        &mut self,
        conjectures: &'c [Conjecture],
        at: usize,
        cx: &Counterexample,
        generated: &[Option<Value>],
        opts: &Options,
        engine: Engine,
        cancel: &AtomicBool,
    ) -> Vec<Generalization> {
        self.values.push(generated.to_vec());
        if !opts.generalize {
            return Vec::new();
        }
        let start = Instant::now();
        let deadline = deadline_after(start, generalize::share(opts.timeout));
        let (shown, claims) = generalize::generalize(conjectures, at, cx, generated, engine, deadline, cancel);
        // The report's time includes generalizing: `verbose` says how much of it.
        if let (Some(c), true) = (&claims, opts.verbose) {
            self.log.push(format!(
                "generalization: {} patterns tested on {} cases, {:.3} s",
                c.tested,
                c.cases,
                start.elapsed().as_secs_f64()
            ));
        }
        self.claims.extend(claims);
        shown
    }

    /// Whether a failing case is a counterexample reported before or an instance of one of
    /// their generalizations.
    fn covers(&self, generated: &[Option<Value>]) -> bool {
        self.values.iter().any(|v| v.as_slice() == generated) || self.claims.iter().any(|c| c.covers(generated))
    }
}

/// For verbose lines about one instance: `"(a = a2) "`, or nothing for a lemma with one.
fn instance_names(conjectures: &[Conjecture]) -> Vec<String> {
    conjectures
        .iter()
        .map(|c| {
            let inst: Vec<String> = c.instance.iter().map(|(a, t)| format!("{a} = {t}")).collect();
            if inst.is_empty() || conjectures.len() == 1 {
                String::new()
            } else {
                format!("({}) ", inst.join(", "))
            }
        })
        .collect()
}
