//! Checking `quickcheck[...]`, `quickcheck_params[...]` and `declare [[quickcheck_...]]`
//! options as written: known names, values of the right kind, `default_type` a known type.
//! What the options mean is the testers' business; a misspelt option is caught here, where
//! the theory is checked, so it is reported with its span like any other error. Which
//! testers exist is the caller's table (`quickcheck::Registry`), whose names are passed in
//! (`check_theory_with`); `ISABELLE_TESTERS` is only the default of `check_theory`.

use super::elab::suggest;
use super::env::Env;
use crate::diagnostic::Diagnostic;
use crate::syntax::ast::QcOption;

/// Isabelle's Quickcheck testers: the names `check_theory` accepts when no front end passes
/// its registry's (`check_theory_with`). hol's standard registry offers each of them (a
/// test in `quickcheck` checks it) and may offer more. Testers are also usable as bare
/// options (`quickcheck[random]`).
pub const ISABELLE_TESTERS: &[&str] = &["random", "exhaustive", "smart_exhaustive", "narrowing"];

#[derive(Clone, Copy)]
enum Kind {
    Tester,
    /// A whole number in a documented range, so that no value makes a run allocate without
    /// bound or overflow a deadline.
    Nat(u64, u64),
    /// Seconds, at most this many.
    Seconds(f64),
    Bool,
    Expect,
    TypeName,
    /// Isabelle's `locale` modes, `interpret` and/or `expand`: how a lemma in a locale is
    /// tested. hol tests no lemma in a locale, so the option is checked and changes nothing.
    LocaleModes,
}

/// The largest `size` (and `depth`): far beyond what any enumeration reaches in a day.
pub const MAX_SIZE: u64 = 10_000;
/// The largest `iterations`.
pub const MAX_ITERATIONS: u64 = 1_000_000_000;
/// The largest `finite_type_size`: a type variable's finite type has at most this many
/// elements (the spaces of functions over it grow as powers of it).
pub const MAX_FINITE_TYPE_SIZE: u64 = 64;
/// The largest `timeout`, one day: deadlines computed from it never overflow.
pub const MAX_TIMEOUT_SECONDS: f64 = 86_400.0;

const OPTIONS: &[(&str, Kind)] = &[
    ("tester", Kind::Tester),
    ("size", Kind::Nat(0, MAX_SIZE)),
    ("iterations", Kind::Nat(0, MAX_ITERATIONS)),
    ("depth", Kind::Nat(0, MAX_SIZE)),
    ("finite_type_size", Kind::Nat(1, MAX_FINITE_TYPE_SIZE)),
    ("timeout", Kind::Seconds(MAX_TIMEOUT_SECONDS)),
    ("expect", Kind::Expect),
    ("finite_types", Kind::Bool),
    ("genuine_only", Kind::Bool),
    ("quiet", Kind::Bool),
    ("verbose", Kind::Bool),
    ("report", Kind::Bool),
    ("default_type", Kind::TypeName),
    ("generalize", Kind::Bool),
    ("counterexamples", Kind::Nat(1, MAX_COUNTEREXAMPLES)),
    ("locale", Kind::LocaleModes),
];

/// Is `name` one of the options (`size`, `quiet`, `tester`, ...)? Written bare, an option
/// is a flag or an error; any other bare name is a tester.
pub fn is_parameter(name: &str) -> bool {
    OPTIONS.iter().any(|(n, _)| *n == name)
}

/// The most counterexamples one run reports (`counterexamples = k`).
pub const MAX_COUNTEREXAMPLES: u64 = 20;

/// Checks one option; `testers` are the tester names known. In `declare [[...]]` the names
/// carry the `quickcheck_` prefix; other attributes there are not quickcheck's and give
/// `Ok(Some(warning))`.
pub fn check_option(
    o: &QcOption,
    in_declare: bool,
    env: &Env,
    testers: &[&str],
) -> Result<Option<Diagnostic>, Diagnostic> {
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
    if value.is_none() && testers.contains(&name) {
        return Ok(None);
    }
    let Some((_, kind)) = OPTIONS.iter().find(|(n, _)| *n == name) else {
        let known = OPTIONS.iter().map(|(n, _)| *n).chain(testers.iter().copied());
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
    match check_value(*kind, name, v, env, testers) {
        Ok(()) if matches!(kind, Kind::LocaleModes) => Ok(Some(
            Diagnostic::warning(o.name.span, format!("`{written}` changes nothing in hol"))
                .with_label("how a lemma in a locale is tested")
                .with_note("hol does not test lemmas in a locale's context: their assumptions are not read"),
        )),
        Ok(()) => Ok(None),
        Err(what) => Err(Diagnostic::error(span, what).with_label(format!("the value of `{name}`"))),
    }
}

/// Checks a numeric option given on the command line (`--size`, `--timeout`) against the
/// same ranges as in a theory; `Err` says why not.
pub fn check_numeric(name: &str, value: &str) -> Result<(), String> {
    match OPTIONS.iter().find(|(n, _)| *n == name) {
        Some((_, kind @ (Kind::Nat(..) | Kind::Seconds(_)))) => check_value(*kind, name, value, &Env::default(), &[]),
        _ => Err(format!("`{name}` is not a numeric option")),
    }
}

fn check_value(kind: Kind, name: &str, v: &str, env: &Env, testers: &[&str]) -> Result<(), String> {
    let bad = |what: &str| Err(format!("`{v}` is not {what}"));
    match kind {
        Kind::Nat(lo, hi) => match v.parse::<u64>() {
            Ok(n) if (lo..=hi).contains(&n) => Ok(()),
            Ok(_) | Err(_) if v.bytes().all(|b| b.is_ascii_digit()) && !v.is_empty() => {
                Err(format!("`{name}` must be between {lo} and {hi}, not {v}"))
            }
            _ => bad("a natural number"),
        },
        Kind::Seconds(max) => match v.parse::<f64>() {
            Ok(s) if s.is_finite() && (0.0..=max).contains(&s) => Ok(()),
            Ok(s) if s.is_finite() || s == f64::INFINITY => {
                Err(format!("`{name}` must be between 0 and {max} seconds, not {v}"))
            }
            _ => bad("a number of seconds"),
        },
        _ => check_other(kind, v, env, testers).map_or(Ok(()), |what| bad(&what)),
    }
}

/// What a non-numeric option's value should have been, if it is not.
fn check_other(kind: Kind, v: &str, env: &Env, testers: &[&str]) -> Option<String> {
    let ok = |b: bool, what: &str| (!b).then(|| what.to_owned());
    match kind {
        Kind::Tester => ok(testers.contains(&v), &format!("a tester ({})", one_of(testers))),
        Kind::Bool => ok(v == "true" || v == "false", "`true` or `false`"),
        Kind::Expect => ok(
            ["counterexample", "no_counterexample", "no_expectation"].contains(&v),
            "an expectation (counterexample, no_counterexample or no_expectation)",
        ),
        Kind::TypeName => ok(env.types.contains_key(v), "a known type"),
        Kind::LocaleModes => ok(
            v.split_whitespace().all(|m| m == "interpret" || m == "expand"),
            "a list of locale modes (`interpret`, `expand`)",
        ),
        Kind::Nat(..) | Kind::Seconds(_) => None,
    }
}

/// `a, b or c`.
fn one_of(names: &[&str]) -> String {
    match names {
        [] => "none".to_owned(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every numeric option, given extreme or malformed values, is accepted in its range
    /// and otherwise refused with a reason; nothing panics.
    #[test]
    fn numeric_options_are_checked_against_their_ranges() {
        let extremes = [
            "0",
            "1",
            "2",
            "2147483648",
            "9223372036854775808",
            "18446744073709551615",
            "18446744073709551616",
            "1e300",
            "-1",
            "-0.5",
            "abc",
            "",
            "NaN",
            "inf",
            "2.5",
        ];
        for (name, kind) in OPTIONS {
            if !matches!(kind, Kind::Nat(..) | Kind::Seconds(_)) {
                continue;
            }
            for v in extremes {
                let result = check_numeric(name, v);
                let in_range = match kind {
                    Kind::Nat(lo, hi) => v.parse::<u64>().is_ok_and(|n| (*lo..=*hi).contains(&n)),
                    Kind::Seconds(max) => v.parse::<f64>().is_ok_and(|s| (0.0..=*max).contains(&s)),
                    _ => unreachable!(),
                };
                assert_eq!(result.is_ok(), in_range, "{name} = {v:?}: {result:?}");
            }
        }
        assert!(check_numeric("size", "10000").is_ok() && check_numeric("size", "10001").is_err());
        assert!(check_numeric("finite_type_size", "0").is_err());
        assert!(check_numeric("tester", "1").is_err());
    }

    /// The error for an unknown tester lists the testers passed in.
    #[test]
    fn testers_are_listed_from_the_callers_table() {
        let env = Env::default();
        let msg = |testers: &[&str]| check_value(Kind::Tester, "tester", "x", &env, testers).unwrap_err();
        assert_eq!(msg(ISABELLE_TESTERS), "`x` is not a tester (random, exhaustive, smart_exhaustive or narrowing)");
        assert_eq!(msg(&["a", "b"]), "`x` is not a tester (a or b)");
        assert_eq!(msg(&["a"]), "`x` is not a tester (a)");
        assert!(check_value(Kind::Tester, "tester", "b", &env, &["a", "b"]).is_ok());
    }
}
