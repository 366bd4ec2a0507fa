//! The prelude `theories/Main.thy`, compiled into the crate so `lang` needs no file access.

/// The text of `theories/Main.thy`.
pub const MAIN_THY: &str = include_str!("../../theories/Main.thy");
