//! A theory's imports, resolved: Isabelle's own theories (Main and its parts, which the
//! prelude stands for; library theories hol bundles; library theories it only knows the
//! constants of), and sibling theories, read through a `TheoryLoader` because `lang` does no
//! IO (the binary reads files beside the importing one; an editor can supply unsaved
//! buffers). Each theory is loaded once, dependencies first; a cycle is an error.
//!
//! What cannot be loaded never silently shrinks the set of known names: a sibling that does
//! not load makes every later name unknowable (`Scope::opaque`), a library theory hol does
//! not bundle brings its constants' names as errors (`Scope::isabelle`).

use super::isabelle::catalog;
use super::scope::Failure;
use crate::diagnostic::Diagnostic;
use crate::span::Span;
use crate::syntax::notation::Table;
use crate::syntax::{ast, parse_theory, parse_theory_with};
use std::collections::HashMap;
use std::rc::Rc;

/// Where sibling theories come from.
pub trait TheoryLoader {
    /// The text of the theory imported as `path` (`Foo`, `Dir/Foo`: relative to the
    /// directory of the file being checked, without `.thy`), or why it cannot be had.
    fn load(&self, path: &str) -> Result<String, String>;
}

/// A loader that has no sibling theories (a text checked on its own).
pub struct NoSiblings;

impl TheoryLoader for NoSiblings {
    fn load(&self, path: &str) -> Result<String, String> {
        Err(format!("no file `{path}.thy` is available to this check"))
    }
}

/// A theory to check before the importing file: its definitions, not its lemmas.
pub struct Loaded {
    /// As imported (`Foo`, `HOL-Library.Tree`).
    pub name: String,
    pub theory: ast::Theory,
    pub text: String,
    /// The import in the checked file that led to it.
    pub via: Span,
    /// Parse errors in it.
    pub errors: Vec<Diagnostic>,
}

#[derive(Default)]
pub struct Imports {
    /// Something under Main is imported: the prelude is loaded.
    pub uses_main: bool,
    /// Catalog theories imported, directly or through the theories loaded.
    pub roots: Vec<&'static str>,
    /// Theories to check before the file, dependencies first.
    pub loaded: Vec<Loaded>,
    /// Errors and warnings at the file's imports.
    pub diagnostics: Vec<Diagnostic>,
    /// An import that did not load: the names it defines are unknown.
    pub opaque: Option<Failure>,
    /// The user notations of the file's imports (and theirs), in force in the file.
    pub notations: Rc<Table>,
}

/// Theories that are not in the catalog but stand for (a part of) Main.
fn stands_for_main(name: &str) -> bool {
    matches!(name, "Main" | "HOL" | "HOL.HOL" | "Complex_Main" | "HOL.Complex_Main")
}

/// Isabelle's name for an import written as a path into its distribution, as theories
/// before Isabelle2017 did: `"~~/src/HOL/Library/Tree"` is `HOL-Library.Tree`,
/// `"~~/src/HOL/Main"` is `HOL.Main`.
fn distribution_path(import: &str) -> Option<String> {
    let rest = import.strip_prefix("~~/src/").or_else(|| import.strip_prefix("$ISABELLE_HOME/src/"))?;
    let (session, theory) = rest.rsplit_once('/')?;
    let session = match session {
        "HOL" => "HOL".to_owned(),
        s => s.strip_prefix("HOL/").map(|sub| format!("HOL-{}", sub.replace('/', "-")))?,
    };
    Some(format!("{session}.{theory}"))
}

/// Resolves `imports` of the checked file, the theory `name`.
pub fn resolve(name: &str, imports: &[ast::Ident], loader: &dyn TheoryLoader) -> Imports {
    let mut r = Resolver {
        loader,
        out: Imports::default(),
        stack: vec![name.to_owned()],
        done: Vec::new(),
        notations: HashMap::new(),
    };
    if imports.is_empty() {
        r.out.uses_main = true;
        r.out.roots.push("HOL.Main");
    }
    let keys: Vec<String> = imports.iter().filter_map(|i| r.import(&i.name, "", i.span)).collect();
    r.out.notations = r.notations_of(&keys);
    r.out
}

struct Resolver<'l> {
    loader: &'l dyn TheoryLoader,
    out: Imports,
    /// The checked theory and the sibling theories being loaded (for cycles).
    stack: Vec<String>,
    /// Sibling and library theories already loaded.
    done: Vec<String>,
    /// The user notations in force at the end of each theory loaded.
    notations: HashMap<String, Rc<Table>>,
}

impl Resolver<'_> {
    /// The notations of the theories loaded under `keys`, together.
    fn notations_of(&self, keys: &[String]) -> Rc<Table> {
        let tables: Vec<&Table> = keys.iter().filter_map(|k| self.notations.get(k)).map(|t| &**t).collect();
        match tables[..] {
            [] => Rc::default(),
            [one] => Rc::new(one.clone()),
            _ => Rc::new(Table::merged(tables)),
        }
    }

    /// `name` imported by the theory at `dir` (a path prefix, `""` for the checked file);
    /// `via` is the checked file's import that leads here. Returns the key of the theory
    /// loaded for it (now or before), if one was.
    fn import(&mut self, name: &str, dir: &str, via: Span) -> Option<String> {
        self.import_theory(name, dir, via);
        let normalized = distribution_path(name);
        let name = normalized.as_deref().unwrap_or(name);
        let key = match catalog().resolve_import(name) {
            Some(t) => t.name.to_owned(),
            None if dir.is_empty() => name.to_owned(),
            None => format!("{dir}/{name}"),
        };
        self.notations.contains_key(&key).then_some(key)
    }

    fn import_theory(&mut self, name: &str, dir: &str, via: Span) {
        let normalized = distribution_path(name);
        let name = normalized.as_deref().unwrap_or(name);
        let nested = self.stack.len() > 1;
        let say = |message: String| if nested { format!("in an imported theory: {message}") } else { message };
        if name == "Pure" {
            return;
        }
        if let Some(t) = catalog().resolve_import(name) {
            self.out.roots.push(t.name);
            if t.in_main() || t.name == "HOL.Complex_Main" {
                self.out.uses_main = true;
            }
            if t.name == "HOL.Complex_Main" && !nested {
                self.out.diagnostics.push(
                    Diagnostic::warning(via, "hol has no real or complex numbers: `Complex_Main` is read as `Main`")
                        .with_label("only the part of this import that is Main is available")
                        .with_note("constants of the reals (`sqrt`, `real`, `ln`, ...) are errors where they are used"),
                );
            }
            if t.in_main() || t.name == "HOL.Complex_Main" || self.done.iter().any(|d| d == t.name) {
                return;
            }
            self.done.push(t.name.to_owned());
            match crate::prelude::LIBRARY.iter().find(|(n, _)| *n == t.name) {
                Some((_, text)) => self.load_text(t.name, text.to_string(), via),
                None if !nested => self.out.diagnostics.push(
                    Diagnostic::warning(via, format!("theory `{}` is not available in hol", t.name))
                        .with_label("its types and constants are unknown here")
                        .with_note("a lemma that uses one of its constants is an error, not a lemma about a variable"),
                ),
                None => {}
            }
            return;
        }
        if stands_for_main(name) {
            self.out.uses_main = true;
            self.out.roots.push("HOL.Main");
            return;
        }
        if name.starts_with("HOL") && name.contains('.') || name.starts_with("HOL-") {
            // A theory of Isabelle's distribution that the catalog does not list.
            let message = say(format!("theory `{name}` is not available in hol, and its constants are unknown"));
            self.unknowable(via, message, "not available", format!("the import of `{name}` is not available"));
            return;
        }
        let path = if dir.is_empty() { name.to_owned() } else { format!("{dir}/{name}") };
        if self.stack.contains(&path) {
            let from = self.stack.iter().position(|p| *p == path).unwrap_or(0);
            self.out.diagnostics.push(
                Diagnostic::error(via, format!("a cycle of imports: {} → {path}", self.stack[from..].join(" → ")))
                    .with_label("this import leads back to a theory that imports it"),
            );
            return;
        }
        if self.done.contains(&path) {
            return;
        }
        self.done.push(path.clone());
        match self.loader.load(&path) {
            Ok(text) => {
                self.stack.push(path.clone());
                self.load_text(&path, text, via);
                self.stack.pop();
            }
            Err(why) => {
                let message = say(format!("cannot load theory `{path}`: {why}"));
                self.unknowable(
                    via,
                    message,
                    "this import did not load",
                    format!("the import of `{path}` did not load"),
                );
            }
        }
    }

    /// An import whose theory is not there: an error at it, and every later name unknowable.
    fn unknowable(&mut self, via: Span, message: String, label: &str, what: String) {
        self.out.diagnostics.push(Diagnostic::error(via, message).with_label(label).with_note(
            "lemmas after this import that have free variables are not tested: hol cannot tell its constants from variables",
        ));
        self.out.opaque.get_or_insert(Failure { what, span: Some(via) });
    }

    /// Parses a loaded theory, resolves its own imports first, then queues it. Notations
    /// its imports declare are in force in it, so it is parsed again if they declare any.
    fn load_text(&mut self, name: &str, text: String, via: Span) {
        let mut parsed = parse_theory(&text);
        let dir = name.rsplit_once('/').map_or("", |(d, _)| d).to_owned();
        let keys: Vec<String> = parsed.theory.imports.iter().filter_map(|i| self.import(&i.name, &dir, via)).collect();
        let imported = self.notations_of(&keys);
        if !imported.is_empty() {
            parsed = parse_theory_with(&text, imported);
        }
        self.notations.insert(name.to_owned(), parsed.notations.clone());
        let errors = parsed.diagnostics.into_iter().filter(|d| d.severity == crate::Severity::Error).collect();
        self.out.loaded.push(Loaded { name: name.to_owned(), theory: parsed.theory, text, via, errors });
    }
}

#[cfg(test)]
mod tests {
    use super::distribution_path;

    #[test]
    fn distribution_paths_are_theory_names() {
        assert_eq!(distribution_path("~~/src/HOL/Library/Tree").as_deref(), Some("HOL-Library.Tree"));
        assert_eq!(distribution_path("~~/src/HOL/Main").as_deref(), Some("HOL.Main"));
        assert_eq!(
            distribution_path("$ISABELLE_HOME/src/HOL/Library/Multiset").as_deref(),
            Some("HOL-Library.Multiset")
        );
        assert_eq!(distribution_path("Foo"), None);
        assert_eq!(distribution_path("~~/src/Pure/Pure"), None);
    }
}
