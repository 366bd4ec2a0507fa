//! Checking `quickcheck[...]`, `quickcheck_params[...]` and `declare [[quickcheck_...]]`
//! options as written: known names, values of the right kind, `default_type` a known type.
//! What the options mean is the testers' business; a misspelt option is caught here, where
//! the theory is checked, so it is reported with its span like any other error.

use super::elab::suggest;
use super::env::Env;
use crate::diagnostic::Diagnostic;
use crate::syntax::ast::QcOption;

/// The testers, also usable as bare options (`quickcheck[random]`).
pub const TESTERS: &[&str] = &["random", "exhaustive", "smart_exhaustive", "narrowing"];

#[derive(Clone, Copy)]
enum Kind {
    Tester,
    Nat,
    Seconds,
    Bool,
    Expect,
    TypeName,
}

const OPTIONS: &[(&str, Kind)] = &[
    ("tester", Kind::Tester),
    ("size", Kind::Nat),
    ("iterations", Kind::Nat),
    ("depth", Kind::Nat),
    ("finite_type_size", Kind::Nat),
    ("timeout", Kind::Seconds),
    ("expect", Kind::Expect),
    ("finite_types", Kind::Bool),
    ("genuine_only", Kind::Bool),
    ("quiet", Kind::Bool),
    ("verbose", Kind::Bool),
    ("report", Kind::Bool),
    ("default_type", Kind::TypeName),
];

/// Checks one option. In `declare [[...]]` the names carry the `quickcheck_` prefix; other
/// attributes there are not quickcheck's and give `Ok(Some(warning))`.
pub fn check_option(o: &QcOption, in_declare: bool, env: &Env) -> Result<Option<Diagnostic>, Diagnostic> {
    let written = o.name.name.as_str();
    let name = if in_declare {
        match written.strip_prefix("quickcheck_") {
            Some(n) => n,
            None => {
                return Ok(Some(
                    Diagnostic::warning(o.name.span, format!("attribute `{written}` is ignored"))
                        .with_label("hol only reads `quickcheck_...` attributes"),
                ))
            }
        }
    } else {
        written
    };
    let value = o.value.as_ref().map(|v| v.name.as_str());
    if value.is_none() && TESTERS.contains(&name) {
        return Ok(None);
    }
    let Some((_, kind)) = OPTIONS.iter().find(|(n, _)| *n == name) else {
        let known = OPTIONS.iter().map(|(n, _)| *n).chain(TESTERS.iter().copied());
        let mut d = Diagnostic::error(o.name.span, format!("unknown quickcheck option `{written}`"))
            .with_label("not a tester or a test parameter");
        if let Some(s) = suggest(name, known) {
            d = d.with_help(format!("an option with a similar name exists: `{s}`"));
        }
        return Err(d);
    };
    let Some(v) = value else {
        return match kind {
            Kind::Bool => Ok(None),
            _ => {
                Err(Diagnostic::error(o.span, format!("option `{name}` needs a value"))
                    .with_label("write `name = value`"))
            }
        };
    };
    let span = o.value.as_ref().map_or(o.span, |v| v.span);
    let bad = |what: &str| {
        Err(Diagnostic::error(span, format!("`{v}` is not {what}")).with_label(format!("the value of `{name}`")))
    };
    match kind {
        Kind::Tester if TESTERS.contains(&v) => Ok(None),
        Kind::Tester => bad("a tester (random, exhaustive, smart_exhaustive or narrowing)"),
        Kind::Nat if v.parse::<u64>().is_ok() => Ok(None),
        Kind::Nat => bad("a natural number"),
        Kind::Seconds if v.parse::<f64>().is_ok_and(|s| s.is_finite() && s >= 0.0) => Ok(None),
        Kind::Seconds => bad("a number of seconds"),
        Kind::Bool if v == "true" || v == "false" => Ok(None),
        Kind::Bool => bad("`true` or `false`"),
        Kind::Expect if ["counterexample", "no_counterexample", "no_expectation"].contains(&v) => Ok(None),
        Kind::Expect => bad("an expectation (counterexample, no_counterexample or no_expectation)"),
        Kind::TypeName if env.types.contains_key(v) => Ok(None),
        Kind::TypeName => bad("a known type"),
    }
}
