//! Test parameters: Isabelle's `quickcheck` options with their defaults, and how options as
//! written (`quickcheck[random, size = 8]`, `quickcheck_params`, `declare [[...]]`, the
//! command line) are layered. The names were checked where the theory was checked
//! (`lang::types::options`, against the registry's tester names); a value that does not
//! parse here keeps the default. A tester is kept by name, resolved when a run starts.

use crate::registry::TesterName;
use lang::RawOption;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    Counterexample,
    NoCounterexample,
    NoExpectation,
}

impl Expect {
    pub fn name(self) -> &'static str {
        match self {
            Expect::Counterexample => "counterexample",
            Expect::NoCounterexample => "no_counterexample",
            Expect::NoExpectation => "no_expectation",
        }
    }
}

/// The parameters of one quickcheck run.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The testers named (`quickcheck[random, exhaustive]`), run side by side as a
    /// portfolio as Isabelle runs them; empty: the registry's default portfolio.
    pub testers: Vec<TesterName>,
    pub size: u64,
    pub iterations: u64,
    pub timeout: Duration,
    pub expect: Option<Expect>,
    pub finite_types: bool,
    pub finite_type_size: u32,
    /// The type for type variables when `finite_types` is false.
    pub default_type: String,
    pub genuine_only: bool,
    pub quiet: bool,
    pub verbose: bool,
    pub report: bool,
    /// Depth bound of the smart generators at the last size; `None` (not given): the larger
    /// of 5 and `size`, so a larger `size` searches deeper too.
    pub depth: Option<u64>,
    /// `None`: a seed is drawn and printed.
    pub seed: Option<u64>,
    /// Generalize a counterexample (`generalize = false` skips it).
    pub generalize: bool,
    /// How many counterexamples to report, each not an instance of an earlier one's
    /// generalizations (`counterexamples = k`).
    pub counterexamples: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            testers: Vec::new(),
            size: 5,
            iterations: 100,
            // Isabelle waits 30 s; a lemma that takes that long in native code is almost
            // always a search space that will not finish, so `hol` gives up sooner.
            timeout: Duration::from_secs(10),
            expect: None,
            finite_types: true,
            finite_type_size: 3,
            default_type: "int".into(),
            genuine_only: false,
            quiet: false,
            verbose: false,
            report: false,
            depth: None,
            seed: None,
            generalize: true,
            counterexamples: 1,
        }
    }
}

impl Options {
    /// Applies options as written, later ones winning. In `declare [[...]]` the names carry
    /// the `quickcheck_` prefix (`strip_prefix`). The testers named in one list all run
    /// (`quickcheck[exhaustive, random]`, or `tester = ` twice), and replace those of an
    /// earlier list (a `declare`), as in Isabelle.
    pub fn apply(&mut self, opts: &[RawOption], strip_prefix: bool) {
        let mut named: Vec<TesterName> = Vec::new();
        for o in opts {
            let name = if strip_prefix { o.name.strip_prefix("quickcheck_").unwrap_or(&o.name) } else { &o.name };
            match tester_named(name, o.value.as_deref()) {
                Some(t) if !named.contains(&t) => named.push(t),
                Some(_) => {}
                None => self.set(name, o.value.as_deref()),
            }
        }
        if !named.is_empty() {
            self.testers = named;
        }
    }

    /// Sets one option; unknown names and unparsable values are ignored (the checker has
    /// already reported them).
    pub fn set(&mut self, name: &str, value: Option<&str>) {
        if let Some(t) = tester_named(name, value) {
            self.testers = vec![t];
            return;
        }
        let flag = |v: Option<&str>| v.is_none_or(|v| v == "true");
        match (name, value) {
            ("size", Some(v)) => self.size = v.parse().unwrap_or(self.size),
            ("iterations", Some(v)) => self.iterations = v.parse().unwrap_or(self.iterations),
            ("depth", Some(v)) => self.depth = v.parse().ok().or(self.depth),
            ("finite_type_size", Some(v)) => self.finite_type_size = v.parse().unwrap_or(self.finite_type_size),
            ("timeout", Some(v)) => {
                if let Ok(s) = v.parse::<f64>() {
                    if s.is_finite() && s >= 0.0 {
                        self.timeout = Duration::from_secs_f64(s);
                    }
                }
            }
            ("expect", Some(v)) => {
                self.expect = match v {
                    "counterexample" => Some(Expect::Counterexample),
                    "no_counterexample" => Some(Expect::NoCounterexample),
                    "no_expectation" => Some(Expect::NoExpectation),
                    _ => self.expect,
                }
            }
            ("finite_types", v) => self.finite_types = flag(v),
            ("genuine_only", v) => self.genuine_only = flag(v),
            ("quiet", v) => self.quiet = flag(v),
            ("verbose", v) => self.verbose = flag(v),
            ("report", v) => self.report = flag(v),
            ("generalize", v) => self.generalize = flag(v),
            ("counterexamples", Some(v)) => self.counterexamples = v.parse().unwrap_or(self.counterexamples),
            ("default_type", Some(v)) => self.default_type = v.to_string(),
            _ => {}
        }
    }
}

/// The tester an option names: `tester = t`, or any other name without a value
/// (`quickcheck[random]`; the checker let only the registry's through). A parameter
/// written bare is a flag (`quiet`), never a tester.
fn tester_named(name: &str, value: Option<&str>) -> Option<TesterName> {
    match (name, value) {
        ("tester", Some(v)) => Some(TesterName::from(v.to_owned())),
        (t, None) if !lang::types::options::is_parameter(t) => Some(TesterName::from(t.to_owned())),
        _ => None,
    }
}

/// Command-line settings that override everything written in the theory.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overrides {
    pub tester: Option<TesterName>,
    pub size: Option<u64>,
    pub timeout: Option<Duration>,
    pub seed: Option<u64>,
    pub counterexamples: Option<u64>,
}

impl Overrides {
    pub fn apply(&self, o: &mut Options) {
        if let Some(t) = &self.tester {
            o.testers = vec![t.clone()];
        }
        if let Some(s) = self.size {
            o.size = s;
        }
        if let Some(t) = self.timeout {
            o.timeout = t;
        }
        if let Some(s) = self.seed {
            o.seed = Some(s);
        }
        if let Some(k) = self.counterexamples {
            o.counterexamples = k;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lang::span::Span;

    fn written(opts: &[(&str, Option<&str>)]) -> Vec<RawOption> {
        let raw = |(n, v): &(&str, Option<&str>)| RawOption {
            name: n.to_string(),
            value: v.map(str::to_owned),
            span: Span::new(0, 0),
        };
        opts.iter().map(raw).collect()
    }

    fn testers(o: &Options) -> Vec<&str> {
        o.testers.iter().map(|t| t.name()).collect()
    }

    /// Testers named in one list all run, once each; a later list's replace them; flags
    /// written bare are flags, not testers.
    #[test]
    fn testers_of_one_list_accumulate_and_a_later_list_replaces_them() {
        let mut o = Options::default();
        o.apply(&written(&[("quickcheck_tester", Some("narrowing"))]), true);
        assert_eq!(testers(&o), ["narrowing"]);
        o.apply(
            &written(&[("exhaustive", None), ("quiet", None), ("tester", Some("random")), ("exhaustive", None)]),
            false,
        );
        assert_eq!(testers(&o), ["exhaustive", "random"]);
        assert!(o.quiet);
        o.apply(&written(&[("size", Some("3")), ("verbose", None)]), false);
        assert_eq!((testers(&o), o.size, o.verbose), (vec!["exhaustive", "random"], 3, true));
        o.set("tester", Some("smt"));
        assert_eq!(testers(&o), ["smt"]);
        Overrides { tester: Some(TesterName::new("random")), ..Overrides::default() }.apply(&mut o);
        assert_eq!(testers(&o), ["random"]);
    }
}
