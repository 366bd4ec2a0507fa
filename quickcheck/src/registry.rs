//! The one table of testers. A `Registry` lists the `Tester`s a front end offers, in the
//! order they are listed to people (Isabelle's: random, exhaustive, smart_exhaustive,
//! narrowing; then hol's own: smt); everything that names testers reads it: which names `lang` accepts in
//! `quickcheck[...]`, the command line's `--tester` values and their help, which testers
//! the default portfolio runs, and which tester a run's options name. Adding a tester is a
//! module implementing `Tester` and one row here (`Registry::standard`), or, for a front
//! end of its own, `Registry::standard().with(...)`.
//!
//! Options, reports and JSON records carry a tester by name (`TesterName`); the name is
//! resolved here when a run starts.

use crate::testers::{exhaustive, random, smart_exhaustive, smt, unavailable::Unavailable, Coverage, Tester};
use std::borrow::Cow;
use std::fmt;

/// A tester's name, as options name it and reports carry it. The registry's rows have
/// static names; a name written in a theory or on the command line is kept as written
/// until a run resolves it (`Registry::get`).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct TesterName(Cow<'static, str>);

impl TesterName {
    pub const fn new(name: &'static str) -> TesterName {
        TesterName(Cow::Borrowed(name))
    }

    pub fn name(&self) -> &str {
        &self.0
    }
}

impl From<&'static str> for TesterName {
    fn from(name: &'static str) -> TesterName {
        TesterName::new(name)
    }
}

impl From<String> for TesterName {
    fn from(name: String) -> TesterName {
        TesterName(Cow::Owned(name))
    }
}

impl PartialEq<str> for TesterName {
    fn eq(&self, other: &str) -> bool {
        self.name() == other
    }
}

impl PartialEq<&str> for TesterName {
    fn eq(&self, other: &&str) -> bool {
        self.name() == *other
    }
}

impl fmt::Display for TesterName {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for TesterName {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        fmt::Debug::fmt(self.name(), f)
    }
}

/// The testers a front end offers, in the order they are listed.
pub struct Registry {
    rows: Vec<Box<dyn Tester>>,
}

impl Registry {
    /// No testers.
    pub fn empty() -> Registry {
        Registry { rows: Vec::new() }
    }

    /// Isabelle's testers, in Isabelle's order, then hol's own (`smt`).
    pub fn standard() -> Registry {
        Registry::empty()
            .with(random::RandomTester)
            .with(exhaustive::ExhaustiveTester)
            .with(smart_exhaustive::SmartExhaustiveTester)
            .with(Unavailable { name: "narrowing", does: "Symbolic testing with partial values (not available yet)" })
            .with(smt::SmtTester::STANDARD)
    }

    /// This registry with `tester` added as its last row, or in place of the row of the
    /// same name.
    pub fn with(mut self, tester: impl Tester + 'static) -> Registry {
        let row: Box<dyn Tester> = Box::new(tester);
        match self.rows.iter().position(|t| t.name() == row.name()) {
            Some(i) => self.rows[i] = row,
            None => self.rows.push(row),
        }
        self
    }

    /// The tester named `name`.
    pub fn get(&self, name: &str) -> Option<&dyn Tester> {
        self.rows.iter().find(|t| t.name() == name).map(|t| &**t)
    }

    /// Every tester, in the registry's order.
    pub fn testers(&self) -> impl Iterator<Item = &dyn Tester> {
        self.rows.iter().map(|t| &**t)
    }

    /// The testers' names, in the registry's order (what `lang` accepts as a tester).
    pub fn names(&self) -> Vec<&'static str> {
        self.testers().map(|t| t.name()).collect()
    }

    /// The testers of the default portfolio, those whose "no counterexample" says most
    /// first (`Coverage::Complete`), otherwise in the registry's order: the order they are
    /// started in, and the one whose report stands for the portfolio when none ran.
    pub fn portfolio(&self) -> Vec<&dyn Tester> {
        let mut rows: Vec<&dyn Tester> = self.testers().filter(|t| t.in_portfolio()).collect();
        rows.sort_by_key(|t| t.coverage() != Coverage::Complete);
        rows
    }

    /// The tester a report names when no tester ran (a lemma that cannot be tested): the
    /// portfolio's first, or the first row.
    pub fn default_name(&self) -> TesterName {
        let first = self.portfolio().first().copied().or_else(|| self.testers().next());
        first.map_or(TesterName::new("none"), |t| TesterName::new(t.name()))
    }
}

impl Default for Registry {
    fn default() -> Registry {
        Registry::standard()
    }
}

impl fmt::Debug for Registry {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.debug_list().entries(self.names()).finish()
    }
}
