//! Reusing quickcheck runs across analyses of a changing text: a run is keyed by everything
//! its result depends on, so a front end that analyses every version of a file (an editor)
//! tests again only the lemmas an edit can have changed.
//!
//! The key of a run (`RunKey`) is a digest of the lemma's text (the item and its quickcheck
//! commands, relative to where the lemma starts, so a lemma that merely moved keeps its key),
//! the run's layered options, and the lemma's test programs: the core IR of the lemma at
//! each type instance it is tested at. Lowering is demand-driven and the IR has no spans, so
//! that program holds exactly the definitions the lemma reaches (functions, predicates,
//! datatypes, code equations), as they are, wherever they are written: editing a function
//! changes the key of the lemmas that reach it and of no other.
//!
//! A cached run is stored relative to its lemma's start and moved to the lemma's new place
//! when reused (`relocated`). Runs that were cancelled, or that hol itself failed, are never
//! stored.

use crate::event::QuickcheckRun;
use lang::core::conjecture::TypeChoice;
use lang::{CheckedTheory, Span};
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Mutex;

/// What a run's result depends on, digested.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RunKey(u64, u64);

/// Where an analysis looks for runs before testing, and keeps the runs it tested. Shared by
/// the analyses of successive versions, possibly on different threads.
pub trait RunCache: Send + Sync + std::fmt::Debug {
    /// The run stored under `key`, with its spans relative to its lemma's start.
    fn get(&self, key: &RunKey) -> Option<QuickcheckRun>;
    /// Stores `run` (spans relative to its lemma's start) under `key`.
    fn put(&self, key: RunKey, run: QuickcheckRun);
}

/// A `RunCache` in memory that forgets what the latest analyses did not use: `sweep`, after
/// an analysis that completed, drops every run that neither it nor the one before it looked
/// up or stored. The cache holds what the current text needs, and what the text before it
/// needed, so undoing an edit finds its runs again.
#[derive(Debug, Default)]
pub struct MemoryCache {
    /// Each run, and how many sweeps ago it was last used.
    runs: Mutex<HashMap<RunKey, (QuickcheckRun, u8)>>,
}

/// A run unused by this many analyses in a row is dropped.
const KEPT_FOR: u8 = 2;

impl MemoryCache {
    /// Drops the runs the last `KEPT_FOR` analyses did not use, and ages the rest.
    pub fn sweep(&self) {
        let mut runs = lock(&self.runs);
        runs.retain(|_, (_, age)| {
            *age += 1;
            *age <= KEPT_FOR
        });
    }

    /// How many runs are stored.
    pub fn len(&self) -> usize {
        lock(&self.runs).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl RunCache for MemoryCache {
    fn get(&self, key: &RunKey) -> Option<QuickcheckRun> {
        let mut runs = lock(&self.runs);
        let (run, age) = runs.get_mut(key)?;
        *age = 0;
        Some(run.clone())
    }

    fn put(&self, key: RunKey, run: QuickcheckRun) {
        lock(&self.runs).insert(key, (run, 0));
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The lemma's part of every key: its text relative to its start, and its test program at
/// each instance asked for so far (lowered once per instance, shared by its runs).
pub(crate) struct LemmaDigest<'a> {
    theory: &'a CheckedTheory,
    index: usize,
    /// The lemma's text and its commands' text and places, relative to its start.
    text: u64,
    programs: HashMap<Vec<TypeChoice>, Option<u64>>,
}

impl<'a> LemmaDigest<'a> {
    /// `spans`: the lemma item and its quickcheck commands in `text`.
    pub fn new(theory: &'a CheckedTheory, index: usize, text: &str, item: Span, commands: &[Span]) -> Self {
        let mut h = DefaultHasher::new();
        let slice = |s: Span| text.get(s.start as usize..s.end as usize).unwrap_or_default();
        slice(item).hash(&mut h);
        for c in commands {
            (c.start.wrapping_sub(item.start), slice(*c)).hash(&mut h);
        }
        LemmaDigest { theory, index, text: h.finish(), programs: HashMap::new() }
    }

    /// The key of a run with options `opts` (layered), or `None` when a test program could
    /// not be made (the run then finds out why, and is not cached).
    pub fn key(&mut self, opts: &quickcheck::Options, interpreter: bool) -> Option<RunKey> {
        let mut parts = Vec::new();
        for instance in quickcheck::instances(self.theory, self.index, opts) {
            let (theory, index) = (self.theory, self.index);
            let digest = *self.programs.entry(instance).or_insert_with_key(|instance| {
                crate::barrier::catch(|| {
                    let conjecture = theory.lower_conjecture(index, instance);
                    let mut h = DefaultHasher::new();
                    lang::core::print::print_program(&conjecture.program).hash(&mut h);
                    format!("{:?}", conjecture.program.code).hash(&mut h);
                    conjecture.instance.hash(&mut h);
                    conjecture.not_executable.hash(&mut h);
                    for v in &conjecture.vars {
                        v.name.hash(&mut h);
                    }
                    h.finish()
                })
                .ok()
            });
            parts.push(digest?);
        }
        let options = format!("{opts:?} {interpreter}");
        let digest = |salt: u64| {
            let mut h = DefaultHasher::new();
            (salt, self.text, &options, &parts).hash(&mut h);
            h.finish()
        };
        Some(RunKey(digest(0), digest(1)))
    }
}

/// `run` with its spans moved as its lemma moves from offset `from` to offset `to`.
pub fn relocated(mut run: QuickcheckRun, from: u32, to: u32) -> QuickcheckRun {
    let shift = |s: &mut Span| {
        s.start = s.start.wrapping_sub(from).wrapping_add(to);
        s.end = s.end.wrapping_sub(from).wrapping_add(to);
    };
    shift(&mut run.span);
    shift(&mut run.statement_span);
    for cx in run.report.counterexample.iter_mut().chain(&mut run.report.further) {
        for e in &mut cx.evaluated {
            shift(&mut e.span);
        }
    }
    run
}

#[cfg(test)]
mod tests {
    use super::*;
    use quickcheck::{OutcomeKind, Report};

    fn run(at: u32) -> QuickcheckRun {
        QuickcheckRun {
            span: Span::new(at as usize, at as usize + 4),
            lemma_name: None,
            statement: "x".into(),
            statement_span: Span::new(at as usize + 1, at as usize + 2),
            command: None,
            report: Report::new("exhaustive", OutcomeKind::NoCounterexample),
            evaluated: Vec::new(),
            expect: None,
            expect_met: None,
            quiet: false,
            verbose: false,
            show_report: false,
        }
    }

    #[test]
    fn a_run_survives_one_text_that_does_not_use_it_and_not_two() {
        let cache = MemoryCache::default();
        let (a, b) = (RunKey(1, 1), RunKey(2, 2));
        cache.put(a, run(0));
        cache.sweep();
        cache.put(b, run(0));
        cache.sweep();
        // An edit undone: the text before the last one finds its run.
        assert!(cache.get(&a).is_some());
        cache.sweep();
        cache.sweep();
        assert_eq!(cache.len(), 1, "b, unused by two analyses, is gone");
        assert!(cache.get(&b).is_none() && cache.get(&a).is_some());
    }

    #[test]
    fn a_run_moves_with_its_lemma() {
        let moved = relocated(relocated(run(100), 100, 0), 0, 7);
        assert_eq!((moved.span, moved.statement_span), (Span::new(7, 11), Span::new(8, 9)));
    }
}
