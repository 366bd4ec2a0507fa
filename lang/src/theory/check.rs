//! The per-file driver: parses a theory, resolves its imports, checks the prelude (once per
//! thread), the imported theories' definitions and then the file command by command, and
//! collects the `Item`s later stages act on. An error in one command is reported and the
//! next command is checked as if the bad one were absent; what a failed command would have
//! defined is recorded, so a later use of it is "not tested", never a free variable.

use super::{CheckedTheory, Item, ItemKind, QuickcheckCmd, RawOption};
use crate::diagnostic::{Diagnostic, Severity};
use crate::span::Span;
use crate::syntax::ast;
use crate::types::check::Checker;
use crate::types::env::{Env, NameRef};
use crate::types::image::ImageError;
use crate::types::{imports, options, scope};
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

type Names = Arc<HashMap<Arc<str>, NameRef>>;

/// The checked prelude, shared by every thread of the process. A static, not a thread-local:
/// it is checked once however many threads check files (the language server, the test
/// harness), and a static is never dropped, so the process does not spend its last
/// milliseconds freeing it.
static PRELUDE: OnceLock<Result<(Env, Names), Vec<Diagnostic>>> = OnceLock::new();

/// The image of the prelude's environment (`types::image`), checked from its text: what a
/// build embeds so that its processes start with `load_prelude_image`.
pub fn prelude_image() -> Result<Vec<u8>, Vec<Diagnostic>> {
    let (env, _) = prelude()?;
    Ok(crate::types::image::encode(&env, crate::prelude::MAIN_THY))
}

/// Starts this process's prelude from `image` (made by `prelude_image` from this very
/// `Main.thy`) instead of checking the text. `Ok(false)` when the prelude was already there
/// (loaded or checked); an image that cannot be read is an error and changes nothing, so
/// the prelude is then checked from its text as without an image.
pub fn load_prelude_image(image: &[u8]) -> Result<bool, ImageError> {
    if PRELUDE.get().is_some() {
        return Ok(false);
    }
    let env = crate::types::image::decode(image, crate::prelude::MAIN_THY)?;
    let names = Arc::new(env.names.clone());
    Ok(PRELUDE.set(Ok((env, names))).is_ok())
}

/// The prelude's environment, checked once per process.
fn prelude() -> Result<(Env, Names), Vec<Diagnostic>> {
    PRELUDE
        .get_or_init(|| {
            let text = crate::prelude::MAIN_THY;
            let mut c = Checker::new(Env::default(), None, text);
            let parsed = crate::syntax::parse_theory(text);
            c.diagnostics = parsed.diagnostics;
            let errors = check_definitions(&mut c, &parsed.theory.commands, "Main");
            c.diagnostics.extend(errors);
            if c.diagnostics.is_empty() {
                let names = Arc::new(c.env.names.clone());
                Ok((c.env, names))
            } else {
                Err(c.diagnostics)
            }
        })
        .clone()
}

/// Checks the definitions and `[code]` lemmas of an imported theory (the prelude, a library
/// or sibling theory `theory`) into `c`; its other lemmas and its values are its own to test.
/// What failed is recorded in `c.scope`; the errors are returned.
fn check_definitions(c: &mut Checker, commands: &[ast::Command], theory: &str) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    let mut failed_at: Option<Span> = None;
    for cmd in commands {
        c.scope.generate(&cmd.kind);
        // As in the checked file: the other parts of a source command that failed fail with it.
        if failed_at == Some(cmd.span) {
            record_failure(c, cmd, Some(theory));
            continue;
        }
        let result = match &cmd.kind {
            ast::CommandKind::Lemma(lemma) if lemma.code => c.lemma_command(lemma, cmd.span).map(|_| ()),
            ast::CommandKind::Lemma(_) | ast::CommandKind::Value(_) => Ok(()),
            _ => c.command(cmd),
        };
        if result.is_err() || matches!(cmd.kind, ast::CommandKind::Unparsed { .. }) {
            record_failure(c, cmd, Some(theory));
            failed_at = Some(cmd.span);
        } else {
            record_success(c, cmd);
        }
        errors.extend(result.err());
    }
    errors
}

/// 1-based line of `span` in `text`.
fn line_of(text: &str, span: Span) -> usize {
    let end = (span.start as usize).min(text.len());
    text.as_bytes()[..end].iter().filter(|&&b| b == b'\n').count() + 1
}

/// Records in `scope` what a command that failed would have defined (`theory`: the imported
/// theory it is in, `None` for the checked file): its constants, or, when they cannot be
/// told, that later names are unknowable.
fn record_failure(c: &mut Checker, cmd: &ast::Command, theory: Option<&str>) {
    use ast::CommandKind as K;
    let line = line_of(c.src, cmd.span);
    let (place, span) = match theory {
        Some(t) => (format!("in the imported theory `{t}` (line {line})"), None),
        None => (format!("(line {line})"), Some(cmd.span)),
    };
    let types = defined_types(cmd);
    for t in &types {
        // An imported type (not one of the theory's own) is hidden by the failure.
        if (c.env.types.contains_key(*t) || c.env.shadows.contains_key(*t)) && !c.types_here.contains(*t) {
            c.scope.hidden_types.insert(Arc::from(*t));
        }
        c.scope.fail_type(t, scope::Failure { what: format!("the definition of `{t}` {place} failed"), span });
    }
    match defined_names(cmd) {
        Some(names) => {
            for n in names {
                if c.imported(&n) {
                    c.scope.hidden.insert(Arc::from(n.as_str()));
                }
                let what = format!("the definition of `{n}` {place} failed");
                c.scope.fail(&n, scope::Failure { what, span });
            }
        }
        None => {
            let keyword = match &cmd.kind {
                K::Unsupported(k) | K::Unparsed { keyword: k, .. } => k.name.as_str(),
                _ => "a definition",
            };
            let what = format!("`{keyword}` {place} could not be read, so what it defines is unknown");
            c.scope.fail_opaque(scope::Failure { what, span });
        }
    }
}

/// Records that `cmd` succeeded: what it defines is no longer hidden by an earlier failure.
fn record_success(c: &mut Checker, cmd: &ast::Command) {
    if c.scope.hidden.is_empty() && c.scope.hidden_types.is_empty() {
        return;
    }
    for t in defined_types(cmd) {
        c.scope.hidden_types.remove(t);
    }
    for n in defined_names(cmd).unwrap_or_default() {
        c.scope.hidden.remove(n.as_str());
    }
}

/// The types `cmd` defines.
fn defined_types(cmd: &ast::Command) -> Vec<&str> {
    use ast::CommandKind as K;
    match &cmd.kind {
        K::Datatype(decls) => decls.iter().map(|d| d.name.name.as_str()).collect(),
        K::TypeSynonym { name, .. } => vec![name.name.as_str()],
        K::Declares { types, .. } => types.iter().map(|t| t.name.as_str()).collect(),
        _ => Vec::new(),
    }
}

/// The constants, constructors and selectors `cmd` defines; `None` when they cannot be told.
fn defined_names(cmd: &ast::Command) -> Option<Vec<String>> {
    use ast::CommandKind as K;
    let named = |names: &mut dyn Iterator<Item = &ast::Ident>| names.map(|n| n.name.clone()).collect::<Vec<_>>();
    match &cmd.kind {
        K::Datatype(decls) => Some(named(&mut decls.iter().flat_map(|d| {
            d.ctors
                .iter()
                .flat_map(|c| std::iter::once(&c.name).chain(c.args.iter().filter_map(|a| a.selector.as_ref())))
        }))),
        K::Fun { consts, .. } | K::Inductive { consts, .. } => Some(named(&mut consts.iter().map(|c| &c.name))),
        K::Definition { decl: Some(d), .. } => Some(vec![d.name.name.clone()]),
        K::Definition { decl: None, equation } => defined_by(&equation.term).map(|n| vec![n]),
        K::Unparsed { defines, .. } => defines.as_ref().map(|ds| named(&mut ds.iter())),
        K::TypeSynonym { .. } | K::Lemma(_) | K::Value(_) | K::Quickcheck(_) => Some(Vec::new()),
        K::QuickcheckParams(_) | K::Declare(_) | K::Proof | K::Text | K::Ignored(_) | K::Skipped(_) => Some(Vec::new()),
        K::Unsupported(_) => None,
        // A locale defines its predicate (`foo`, with assumptions) and that of its own
        // assumptions (`foo_axioms`); its parameters are names only in its context.
        K::Locale { name, .. } => Some(vec![name.name.clone(), format!("{}_axioms", name.name)]),
        K::Target(_) => Some(Vec::new()),
        K::Declares { consts, .. } => Some(named(&mut consts.iter())),
    }
}

/// Where `cmd` names the constant it would define in a locale's context (`fun`,
/// `definition`, `inductive`, ...: constants that take the locale's parameters as hidden
/// arguments); `None` for any other command.
fn defined_in_locale(cmd: &ast::Command) -> Option<Span> {
    use ast::CommandKind as K;
    match &cmd.kind {
        K::Fun { consts, .. } | K::Inductive { consts, .. } => consts.first().map(|c| c.name.span),
        K::Definition { decl: Some(d), .. } => Some(d.name.span),
        K::Definition { decl: None, equation } => Some(equation.term.span),
        _ => None,
    }
}

/// The constant an unannotated `definition "f x = t"` defines: the head of its left side.
fn defined_by(t: &ast::Term) -> Option<String> {
    use ast::TermKind as T;
    let T::BinOp(ast::BinOp::Eq | ast::BinOp::Iff | ast::BinOp::Defeq, _, lhs, _) = &t.kind else { return None };
    match &lhs.spine().0.kind {
        T::Name(id) => Some(id.name.clone()),
        _ => None,
    }
}

fn raw_options(opts: &[ast::QcOption]) -> Vec<RawOption> {
    opts.iter()
        .map(|o| RawOption { name: o.name.name.clone(), value: o.value.as_ref().map(|v| v.name.clone()), span: o.span })
        .collect()
}

pub(super) fn check_theory(text: &str, loader: &dyn imports::TheoryLoader, testers: &[&str]) -> CheckedTheory {
    let mut parsed = crate::syntax::parse_theory(text);
    let imports = imports::resolve(&parsed.theory.name.name, &parsed.theory.imports, loader);
    // Notations the imports declare are in force in the file from its start.
    if !imports.notations.is_empty() {
        parsed = crate::syntax::parse_theory_with(text, imports.notations.clone());
    }
    let mut diagnostics = parsed.diagnostics;
    diagnostics.extend(imports.diagnostics);
    let (env, prelude_names) = if imports.uses_main {
        match prelude() {
            Ok((env, names)) => (env, Some(names)),
            Err(ds) => {
                let first = ds.first().map(|d| {
                    let line = crate::prelude::MAIN_THY[..d.primary.span.start as usize].lines().count().max(1);
                    format!("{} (Main.thy line {line})", d.message)
                });
                diagnostics.push(
                    Diagnostic::error(Span::new(0, 0), "internal error: the prelude Main.thy has errors")
                        .with_note(first.unwrap_or_default()),
                );
                (Env::default(), None)
            }
        }
    } else {
        (Env::default(), None)
    };
    let mut scope = scope::Scope::new(&imports.roots);
    scope.opaque = imports.opaque;
    // Imported theories: their definitions (and `[code]` lemmas) in order, each on the
    // environment the one before left; their other lemmas are theirs to test.
    let mut env = env;
    for l in &imports.loaded {
        let mut c = Checker::new(env, prelude_names.clone(), &l.text);
        c.scope = scope;
        c.theory = Arc::from(l.name.as_str());
        let mut errors = l.errors.clone();
        errors.extend(check_definitions(&mut c, &l.theory.commands, &l.name));
        errors.extend(c.diagnostics.drain(..).filter(|d| d.severity == Severity::Error));
        if let Some(first) = errors.iter().min_by_key(|d| d.primary.span.start) {
            diagnostics.push(
                Diagnostic::error(l.via, format!("the imported theory `{}` has errors", l.name))
                    .with_label("what failed to define there is unknown here")
                    .with_note(format!(
                        "the first, at line {}: {}",
                        line_of(&l.text, first.primary.span),
                        first.message
                    ))
                    .with_help(format!("`hol check` on `{}` shows them all", l.name)),
            );
        }
        scope = std::mem::take(&mut c.scope);
        env = c.env;
    }
    let mut c = Checker::new(env, prelude_names, text);
    c.scope = scope;
    c.theory = Arc::from(parsed.theory.name.name.as_str());
    let mut items: Vec<Item> = Vec::new();
    // The items of the lemma that quickcheck commands attach to (one per proposition):
    // Some(None) after a lemma that had an error (its quickchecks are skipped silently).
    let mut last_lemma: Option<Option<Vec<usize>>> = None;
    // The source command whose definition just failed: the others it stands for (a
    // `record`'s update functions, the synonyms of one `types`) fail with it, unreported.
    let mut failed_at: Option<Span> = None;
    // The locale whose context the commands are in, if any.
    let mut target: Option<ast::Ident> = None;
    for cmd in &parsed.theory.commands {
        use ast::CommandKind as K;
        if failed_at == Some(cmd.span) {
            record_failure(&mut c, cmd, None);
            continue;
        }
        c.scope.generate(&cmd.kind);
        // Options are checked first: a command with a bad option is reported and dropped.
        let options = match &cmd.kind {
            K::Quickcheck(opts) | K::QuickcheckParams(opts) => Some((opts, false)),
            K::Declare(opts) => Some((opts, true)),
            _ => None,
        };
        if let Some((opts, in_declare)) = options {
            let mut bad = None;
            for o in opts.iter() {
                match options::check_option(o, in_declare, &c.env, testers) {
                    Ok(None) => {}
                    Ok(Some(w)) => c.warnings.push(w),
                    Err(d) => {
                        bad.get_or_insert(d);
                    }
                }
            }
            if let Some(d) = bad {
                c.diagnostics.push(d);
                continue;
            }
        }
        let result = match &cmd.kind {
            // Where the context changes: a lemma's `quickcheck` commands stay attached to it.
            K::Target(t) => {
                target = t.clone();
                Ok(())
            }
            K::Lemma(l) => {
                let statement = l.shows.iter().map(|t| t.span).reduce(Span::to).unwrap_or(cmd.span);
                // Elaborated, or not tested with a reason, or an error. A lemma in a locale
                // holds under the locale's assumptions, which hol does not read: tested
                // without them, it could be refuted where Isabelle proves it.
                let elaborated = match &target {
                    Some(t) => {
                        Err(Ok(format!("it is stated in locale `{}`, whose assumptions hol does not read", t.name)))
                    }
                    // Not tested when the lemma uses what failed before it.
                    None => {
                        c.lemma_command(l, cmd.span).map_err(|d| c.scope.take_skip().map(|skip| skip.reason).ok_or(d))
                    }
                };
                match elaborated {
                    Ok(indices) => {
                        // One item per proposition, at its own span, named as Isabelle names
                        // the facts: `l(1)`, `l(2)`.
                        let several = indices.len() > 1 && indices.len() == l.shows.len();
                        let mut lemma_items = Vec::new();
                        for (k, index) in indices.into_iter().enumerate() {
                            let (name, statement, span) = if several {
                                let name = l.name.as_ref().map(|n| format!("{}({})", n.name, k + 1));
                                (name, l.shows[k].span, l.shows[k].span)
                            } else {
                                (l.name.as_ref().map(|n| n.name.clone()), statement, cmd.span)
                            };
                            items.push(Item {
                                span,
                                kind: ItemKind::Lemma { name, statement, quickchecks: vec![], index },
                            });
                            lemma_items.push(items.len() - 1);
                        }
                        last_lemma = Some(Some(lemma_items));
                        Ok(())
                    }
                    Err(Ok(reason)) => {
                        items.push(Item {
                            span: cmd.span,
                            kind: ItemKind::Untested {
                                name: l.name.as_ref().map(|n| n.name.clone()),
                                statement,
                                quickchecks: vec![],
                                reason,
                            },
                        });
                        last_lemma = Some(Some(vec![items.len() - 1]));
                        Ok(())
                    }
                    Err(Err(d)) => {
                        last_lemma = Some(None);
                        Err(d)
                    }
                }
            }
            K::Quickcheck(opts) => match &last_lemma {
                Some(Some(lemma_items)) => {
                    for &i in lemma_items {
                        if let ItemKind::Lemma { quickchecks, .. } | ItemKind::Untested { quickchecks, .. } =
                            &mut items[i].kind
                        {
                            quickchecks.push(QuickcheckCmd { span: cmd.span, options: raw_options(opts) });
                        }
                    }
                    Ok(())
                }
                Some(None) => Ok(()),
                None => Err(Diagnostic::error(cmd.span, "`quickcheck` needs a lemma to test")
                    .with_label("no lemma before this command")),
            },
            K::Proof | K::Text => Ok(()),
            // `nitpick`, `thm`, ... may stand between a lemma and its `quickcheck`.
            K::Ignored(_) => c.command(cmd),
            K::QuickcheckParams(opts) | K::Declare(opts) => {
                // `declare [[quickcheck_size = 3]]` is `size = 3`; other attributes were warned about.
                let options: Vec<RawOption> = raw_options(opts)
                    .into_iter()
                    .filter_map(|mut o| {
                        if matches!(cmd.kind, K::Declare(_)) {
                            o.name = o.name.strip_prefix("quickcheck_")?.to_string();
                        }
                        Some(o)
                    })
                    .collect();
                if !options.is_empty() {
                    items.push(Item { span: cmd.span, kind: ItemKind::Params { options } });
                }
                Ok(())
            }
            K::Value(t) => {
                last_lemma = None;
                c.value(t)
                    .map(|index| items.push(Item { span: cmd.span, kind: ItemKind::Value { term: t.span, index } }))
            }
            K::Unparsed { keyword, .. } => {
                // A `quickcheck` that did not parse leaves the lemma's later ones attached.
                if keyword.name != "quickcheck" {
                    last_lemma = None;
                }
                record_failure(&mut c, cmd, None);
                Ok(())
            }
            _ => {
                last_lemma = None;
                let r = match (&target, defined_in_locale(cmd)) {
                    (Some(t), Some(at)) => Err(Diagnostic::error(at, "definitions inside a locale are not supported")
                        .with_label(format!("defined in the context of locale `{}`", t.name))
                        .with_note("lemmas that use it are not tested")),
                    _ => c.command(cmd),
                };
                // A generated function that hol cannot define is not the user's error: its
                // uses are not tested, saying why.
                let generated = matches!(cmd.kind, K::Fun { kind: ast::FunKind::Generated, .. });
                match &r {
                    Err(_) => {
                        record_failure(&mut c, cmd, None);
                        if !generated {
                            failed_at = Some(cmd.span);
                        }
                    }
                    Ok(()) => record_success(&mut c, cmd),
                }
                if generated {
                    Ok(())
                } else {
                    r
                }
            }
        };
        if let Err(d) = result {
            c.diagnostics.push(d);
        }
    }
    diagnostics.append(&mut c.diagnostics);
    diagnostics.append(&mut c.warnings);
    diagnostics.sort_by_key(|d| d.primary.span.start);
    let prelude = c.prelude.clone().unwrap_or_else(|| Arc::new(c.env.names.clone()));
    CheckedTheory {
        name: parsed.theory.name.name.clone(),
        name_span: parsed.theory.name.span,
        diagnostics,
        items,
        env: Arc::new(c.env),
        prelude,
        lemmas: c.lemmas,
        values: c.values,
        lowerer: None,
        value_funs: HashMap::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prelude_image_decodes_to_the_checked_prelude() {
        let image = prelude_image().expect("the prelude checks");
        let (env, names) = prelude().expect("the prelude checks");
        let decoded = crate::types::image::decode(&image, crate::prelude::MAIN_THY).expect("the image reads");
        assert!(decoded == env, "the decoded prelude differs from the checked one");
        assert_eq!(decoded.names, *names);
        // Loading it now changes nothing: the prelude was checked above.
        assert_eq!(load_prelude_image(&image), Ok(false));
        assert!(crate::types::image::decode(&image, "theory Other imports Main begin end").is_err());
        // A damaged image is refused or read as some environment, never a panic.
        for i in (20..image.len()).step_by(61) {
            let mut damaged = image.clone();
            damaged[i] ^= 0x5a;
            let _ = crate::types::image::decode(&damaged, crate::prelude::MAIN_THY);
        }
    }
}
