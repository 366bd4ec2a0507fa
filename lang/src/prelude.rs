//! The prelude `theories/Main.thy` and the library theories hol bundles, compiled into the
//! crate so `lang` needs no file access.

/// The text of `theories/Main.thy`.
pub const MAIN_THY: &str = include_str!("../../theories/Main.thy");

/// Library theories hol bundles, by the name a theory imports them with
/// (`imports "HOL-Library.Tree"`).
pub const LIBRARY: &[(&str, &str)] = &[("HOL-Library.Tree", include_str!("../../theories/Library/Tree.thy"))];
