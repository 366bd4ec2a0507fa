//! The settings a client may change: the time limit of each quickcheck run in the editor,
//! how long typing must pause before lemmas are tested, a tester for every run, and the
//! random tester's seed (so an editor can show what `hol check --seed N` shows). They
//! come in `initializationOptions` and `workspace/didChangeConfiguration`, either bare
//! (`{"timeout": 1}`) or under a `hol` section (`{"hol": {"timeout": 1}}`), as editors send
//! them. A value out of range or of the wrong kind is refused with a message and leaves the
//! setting as it was: a typo in an editor's configuration must not stop the server.

use serde_json::Value;
use std::time::Duration;

/// The limit of each run unless the client sets one: short, because an editor re-tests on
/// every pause in typing, and a lemma that needs longer is better checked by `hol check`.
pub const TIMEOUT: Duration = Duration::from_secs(2);
/// The pause after a change before its lemmas are tested: long enough that a burst of
/// keystrokes starts one round of testing, short enough to stay well inside the 200 ms in
/// which a counterexample should show.
pub const DEBOUNCE: Duration = Duration::from_millis(50);

#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Time limit of each quickcheck run (`timeout`, seconds).
    pub timeout: Duration,
    /// Pause before testing (`debounce`, milliseconds); parse and type errors never wait.
    pub debounce: Duration,
    /// The tester of every run (`tester`; `null` restores the theory's own choice).
    pub tester: Option<String>,
    /// The seed of every random run (`seed`; `null`: a fresh one each run).
    pub seed: Option<u64>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings { timeout: TIMEOUT, debounce: DEBOUNCE, tester: None, seed: None }
    }
}

impl Settings {
    /// Applies the settings in `value` that it names; returns a message for each it refused.
    /// `testers` are the names a `tester` may have.
    pub fn update(&mut self, value: &Value, testers: &[&str]) -> Vec<String> {
        let section = value.get("hol").unwrap_or(value);
        let Some(fields) = section.as_object() else { return Vec::new() };
        let mut refused = Vec::new();
        for (name, v) in fields {
            match name.as_str() {
                "timeout" => match v.as_f64().filter(|s| (0.0..=lang::types::options::MAX_TIMEOUT_SECONDS).contains(s))
                {
                    Some(s) => self.timeout = Duration::from_secs_f64(s),
                    None => {
                        refused.push(format!("hol: `timeout` must be a number of seconds from 0 to 86400, not {v}"))
                    }
                },
                "debounce" => match v.as_u64().filter(|ms| *ms <= 10_000) {
                    Some(ms) => self.debounce = Duration::from_millis(ms),
                    None => refused.push(format!("hol: `debounce` must be milliseconds from 0 to 10000, not {v}")),
                },
                "tester" => match v {
                    Value::Null => self.tester = None,
                    Value::String(t) if testers.contains(&t.as_str()) => self.tester = Some(t.clone()),
                    _ => refused.push(format!("hol: `tester` must be null or one of {}, not {v}", testers.join(", "))),
                },
                "seed" => match v {
                    Value::Null => self.seed = None,
                    Value::Number(n) if n.as_u64().is_some() => self.seed = n.as_u64(),
                    _ => {
                        refused.push(format!("hol: `seed` must be null or a whole number from 0 to 2^64 - 1, not {v}"))
                    }
                },
                // Settings of other tools, or of a later hol: not ours to refuse.
                _ => {}
            }
        }
        refused
    }

    /// The analysis options of a run under these settings, over the server's own.
    pub fn apply(&self, base: &analysis::Options) -> analysis::Options {
        let mut options = base.clone();
        options.overrides.timeout = Some(self.timeout);
        if let Some(t) = &self.tester {
            options.overrides.tester = Some(quickcheck::TesterName::from(t.clone()));
        }
        if self.seed.is_some() {
            options.overrides.seed = self.seed;
        }
        options
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn settings_bare_or_in_a_section_and_bad_values_refused() {
        let testers = ["random", "exhaustive"];
        let mut s = Settings::default();
        assert!(s.update(&json!({ "timeout": 0.5, "debounce": 0 }), &testers).is_empty());
        assert_eq!((s.timeout, s.debounce), (Duration::from_millis(500), Duration::ZERO));
        assert!(s.update(&json!({ "hol": { "tester": "random", "seed": 7 } }), &testers).is_empty());
        assert_eq!((s.tester.as_deref(), s.seed), (Some("random"), Some(7)));
        let refused =
            s.update(&json!({ "timeout": -1, "debounce": "x", "tester": "nitpick", "seed": -1, "other": 1 }), &testers);
        assert_eq!(refused.len(), 4, "{refused:?}");
        assert_eq!((s.timeout, s.tester.as_deref()), (Duration::from_millis(500), Some("random")));
        assert!(s.update(&json!(null), &testers).is_empty());
        assert!(s.update(&json!({ "tester": null }), &testers).is_empty());
        assert_eq!(s.tester, None);
    }
}
