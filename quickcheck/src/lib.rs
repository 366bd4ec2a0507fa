//! `quickcheck`: will own test programs built from conjectures, the `random`, `exhaustive` and
//! `smart_exhaustive` testers, finite-type instantiation, outcomes and shrinking. It never prints:
//! a result is a function of (program, options, seed).
