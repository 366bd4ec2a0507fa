//! Isabelle's own constants, by theory, as data (`lang/data/isabelle_constants.txt`): which
//! names Isabelle reads as constants once a theory is imported. Name resolution consults it
//! so that a name hol does not have is an error rather than a free variable that a tester
//! would then "refute", and the README's table of what hol supports is generated from it.
//!
//! The file is a list of blocks:
//!
//! ```text
//! theory HOL-Library.Tree_Multiset
//! imports HOL-Library.Multiset HOL-Library.Tree
//! const mset_tree ...
//! qualified ...
//! ```
//!
//! `const` names are visible unqualified; `qualified` ones (`hide_const (open)`) only as
//! `Theory.name`. Theories named `HOL.*` make up Main; the others are imported by name.

use std::collections::HashMap;
use std::sync::OnceLock;

/// The data file, compiled in (`lang` does no IO).
const DATA: &str = include_str!("../../data/isabelle_constants.txt");

/// One Isabelle theory's constants.
#[derive(Debug, Default)]
pub struct IsabelleTheory {
    /// `HOL.List`, `HOL-Library.Tree`.
    pub name: &'static str,
    /// Library theories it imports (`HOL.Main` for Main).
    pub imports: Vec<&'static str>,
    /// Names visible unqualified.
    pub consts: Vec<&'static str>,
    /// Names visible only qualified (`List.member`).
    pub qualified: Vec<&'static str>,
}

impl IsabelleTheory {
    /// The name without its session: `List` for `HOL.List`, `Tree` for `HOL-Library.Tree`.
    pub fn base_name(&self) -> &str {
        self.name.rsplit_once('.').map_or(self.name, |(_, b)| b)
    }

    /// Whether a qualifier `Q.` names this theory, by its base name or its full name.
    pub fn is_named(&self, qualifier: &str) -> bool {
        self.base_name() == qualifier || self.name == qualifier
    }

    /// Is this one of the theories that make up Main (`HOL.*`, the real numbers of
    /// `Complex_Main` aside)?
    pub fn in_main(&self) -> bool {
        self.name.starts_with("HOL.") && !COMPLEX_MAIN.contains(&self.name)
    }

    fn declares(&self, name: &str) -> bool {
        self.consts.iter().chain(&self.qualified).any(|c| *c == name)
    }
}

/// The prelude's constants that are Isabelle's qualified ones (`hide_const (open)`): hol
/// has them under their base name, Isabelle only as `Theory.name`.
const PRELUDE_QUALIFIED: &[(&str, &str)] = &[
    ("HOL.Option", "is_none"),
    ("HOL.List", "map_filter"),
    ("HOL.List", "maps"),
    ("HOL.List", "member"),
    ("HOL.List", "null"),
    ("HOL.List", "product"),
];

/// Theories of `Complex_Main` beyond `Main`: the reals, which hol does not have.
const COMPLEX_MAIN: &[&str] = &["HOL.Complex_Main"];

/// Every theory of the data file.
#[derive(Debug, Default)]
pub struct Catalog {
    pub theories: Vec<IsabelleTheory>,
    by_name: HashMap<&'static str, usize>,
}

/// The catalog of the compiled-in data file.
pub fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    // The data file is part of the build and a test parses it, so it cannot fail here.
    CATALOG.get_or_init(|| Catalog::parse(DATA).unwrap_or_default())
}

impl Catalog {
    /// Reads the data format above; an error names the line. Names are slices of `text`
    /// (the compiled-in data file), not copies.
    pub fn parse(text: &'static str) -> Result<Catalog, String> {
        let mut catalog = Catalog::default();
        for (n, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            let mut words = line.split_whitespace();
            let Some(key) = words.next() else { continue };
            if key == "theory" {
                let name = words.next().ok_or(format!("line {}: `theory` needs a name", n + 1))?;
                if catalog.by_name.insert(name, catalog.theories.len()).is_some() {
                    return Err(format!("line {}: theory `{name}` listed twice", n + 1));
                }
                catalog.theories.push(IsabelleTheory { name, ..IsabelleTheory::default() });
                continue;
            }
            let theory = catalog.theories.last_mut().ok_or(format!("line {}: `{key}` before any `theory`", n + 1))?;
            let list = match key {
                "imports" => &mut theory.imports,
                "const" => &mut theory.consts,
                "qualified" => &mut theory.qualified,
                _ => return Err(format!("line {}: unknown key `{key}`", n + 1)),
            };
            list.extend(words);
        }
        Ok(catalog)
    }

    pub fn get(&self, name: &str) -> Option<&IsabelleTheory> {
        self.by_name.get(name).map(|&i| &self.theories[i])
    }

    /// The catalog's theory an import names: `Main`, `HOL.List`, `"HOL-Library.Tree"`,
    /// `List` (a theory of Main by its base name).
    pub fn resolve_import(&self, import: &str) -> Option<&IsabelleTheory> {
        self.get(import)
            .or_else(|| self.get(&format!("HOL.{import}")))
            .or_else(|| self.theories.iter().find(|t| t.in_main() && t.base_name() == import))
    }

    /// The theories in scope after importing `roots` (catalog names), with what they import.
    /// Anything of Main brings all of Main, as Isabelle's `Main` is what users import.
    pub fn in_scope(&self, roots: &[&str]) -> Vec<&IsabelleTheory> {
        let mut seen = vec![false; self.theories.len()];
        let mut stack: Vec<&str> = roots.to_vec();
        // Main's theories are pushed once, by the first theory that brings Main.
        let mut main_pushed = false;
        while let Some(name) = stack.pop() {
            let Some(&i) = self.by_name.get(name) else { continue };
            if std::mem::replace(&mut seen[i], true) {
                continue;
            }
            let t = &self.theories[i];
            if (t.in_main() || t.name == "HOL.Complex_Main") && !std::mem::replace(&mut main_pushed, true) {
                stack.extend(self.theories.iter().filter(|t| t.in_main()).map(|t| t.name));
            }
            stack.extend(t.imports.iter().copied());
        }
        self.theories.iter().zip(seen).filter_map(|(t, s)| s.then_some(t)).collect()
    }

    /// The theory among `scope` that makes `name` a constant when written unqualified.
    pub fn exporter<'a>(scope: &[&'a IsabelleTheory], name: &str) -> Option<&'a IsabelleTheory> {
        scope.iter().copied().find(|t| t.consts.contains(&name))
    }

    /// For `Q.name` where hol has a constant `name`: whether Isabelle's `Q.name` is that
    /// constant. Theories are not namespaces in hol, so `List.rev` is `rev`; but `Set.filter`
    /// or `List.insert` is another constant than the `filter` or `insert` hol has (the
    /// unqualified one), and never means it. A qualifier that names no Isabelle theory in
    /// scope (the user's theory, `prod`) is left to the caller.
    pub fn qualifier_fits(scope: &[&IsabelleTheory], qualifier: &str, name: &str) -> bool {
        let mut named = scope.iter().filter(|t| t.is_named(qualifier)).peekable();
        named.peek().is_none()
            || named.any(|t| {
                t.consts.contains(&name) || (t.qualified.contains(&name) && PRELUDE_QUALIFIED.contains(&(t.name, name)))
            })
    }

    /// Whether `qualifier` names one of Isabelle's theories in `scope` (`Set`, `HOL.List`).
    pub fn names_theory(scope: &[&IsabelleTheory], qualifier: &str) -> bool {
        scope.iter().any(|t| t.is_named(qualifier))
    }

    /// For `Q.name`: the theory of `scope` whose base name (or full name) is `Q` and that
    /// declares `name`, qualified or not.
    pub fn qualified<'a>(scope: &[&'a IsabelleTheory], qualifier: &str, name: &str) -> Option<&'a IsabelleTheory> {
        scope.iter().copied().find(|t| t.is_named(qualifier) && t.declares(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_file_parses_and_covers_main() {
        let c = Catalog::parse(DATA).expect("lang/data/isabelle_constants.txt parses");
        let main = c.in_scope(&["HOL.Main"]);
        for name in ["rev", "wf", "trancl", "inj_on", "finite", "map_add", "transpose"] {
            assert!(Catalog::exporter(&main, name).is_some(), "Main exports `{name}`");
        }
        // Library theories are not part of Main.
        assert!(Catalog::exporter(&main, "height").is_none());
        let tree = c.in_scope(&["HOL-Library.Tree"]);
        assert!(Catalog::exporter(&tree, "height").is_some());
        assert!(Catalog::exporter(&tree, "rev").is_some(), "a library theory brings Main");
    }

    #[test]
    fn the_format_is_read_strictly() {
        let c =
            Catalog::parse("# x\ntheory A.B\nimports A.C\nconst f g\nqualified h\n\ntheory A.C\nconst k\n").unwrap();
        assert_eq!(c.get("A.B").map(|t| (t.consts.len(), t.qualified.len())), Some((2, 1)));
        let scope = c.in_scope(&["A.B"]);
        assert_eq!(scope.len(), 2);
        assert_eq!(Catalog::exporter(&scope, "k").map(|t| t.name), Some("A.C"));
        assert!(Catalog::exporter(&scope, "h").is_none());
        assert_eq!(Catalog::qualified(&scope, "B", "h").map(|t| t.name), Some("A.B"));
        assert!(Catalog::parse("const f\n").is_err());
        assert!(Catalog::parse("theory A\nfoo x\n").is_err());
        assert!(Catalog::parse("theory A\ntheory A\n").is_err());
    }
}
