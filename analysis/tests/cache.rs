//! The run cache through `analyse`: a second analysis of the same text tests nothing and
//! reports the same findings; an edit to one function tests again exactly the lemmas that
//! reach it (through other definitions too), wherever they now are; a lemma that only moved
//! keeps its run, at its new place; without a cache every lemma is tested, as `hol check`
//! does.

use analysis::{analyse_all, Cancel, Event, FsLoader, MemoryCache, Options};
use std::path::Path;
use std::sync::Arc;

fn theory(f: &str, g: &str, above: &str) -> String {
    format!(
        "theory T imports Main begin\n{above}\
         fun f :: \"nat ⇒ nat\" where \"f n = {f}\"\n\
         fun g :: \"nat ⇒ nat\" where \"g n = {g}\"\n\
         definition h :: \"nat ⇒ nat\" where \"h n = f (g n)\"\n\
         lemma on_f: \"f n = n\"\n  quickcheck[exhaustive]\n  oops\n\
         lemma on_g: \"g n = n\"\n  quickcheck[exhaustive]\n  oops\n\
         lemma on_h: \"h n = n\"\n  quickcheck[exhaustive]\n  oops\n\
         lemma on_none: \"rev [n] = [n :: nat]\"\n  quickcheck[exhaustive]\n  oops\n\
         end\n"
    )
}

/// A run's lemma, where its statement starts, and its finding (message and first note).
type Run = (String, u32, Option<String>);

/// The lemmas tested (not reused), and every run.
fn analyse(text: &str, options: &Options) -> (Vec<String>, Vec<Run>) {
    let analysis = analyse_all(Path::new("T.thy"), text, &FsLoader::default(), options, &Cancel::new());
    let mut tested = Vec::new();
    let mut runs = Vec::new();
    let mut lemma = String::new();
    for event in analysis.events {
        match event {
            Event::Lemma { name, .. } => lemma = name.unwrap_or_default(),
            Event::QuickcheckStarted { .. } => tested.push(lemma.clone()),
            Event::Quickcheck(run) => {
                let finding = run.finding().map(|d| format!("{} / {:?}", d.message, d.notes.first()));
                runs.push((lemma.clone(), run.statement_span.start, finding));
            }
            _ => {}
        }
    }
    (tested, runs)
}

#[test]
fn only_the_lemmas_that_reach_an_edited_function_are_tested_again() {
    let cache = Arc::new(MemoryCache::default());
    let options = Options { cache: Some(cache.clone()), ..Options::default() };
    let all = ["on_f", "on_g", "on_h", "on_none"];

    let text = theory("n + 1", "n * 2", "");
    let (tested, first) = analyse(&text, &options);
    assert_eq!(tested, all);
    let (tested, again) = analyse(&text, &options);
    assert!(tested.is_empty(), "{tested:?}");
    assert_eq!(again, first, "the same findings, at the same places");

    // `g` changes: `on_g`, and `on_h` through `h`.
    let (tested, _) = analyse(&theory("n + 1", "n * 3", ""), &options);
    assert_eq!(tested, ["on_g", "on_h"]);
    // `f` changes: `on_f` and `on_h`.
    let (tested, _) = analyse(&theory("n + 2", "n * 3", ""), &options);
    assert_eq!(tested, ["on_f", "on_h"]);

    // Text above moves every lemma: nothing is tested, and each run moves with its lemma.
    let above = "(* a comment that moves everything below *)\n";
    let (tested, moved) = analyse(&theory("n + 2", "n * 3", above), &options);
    assert!(tested.is_empty(), "{tested:?}");
    let (_, fresh) = analyse(&theory("n + 2", "n * 3", above), &Options::default());
    let places = |runs: &[Run]| runs.iter().map(|r| r.1).collect::<Vec<_>>();
    assert_eq!(places(&moved), places(&fresh));

    // No cache, as for `hol check`: everything is tested every time.
    let (tested, _) = analyse(&text, &Options::default());
    assert_eq!(tested, all);
}
