//! The prelude's image, made from `Main.thy` when this crate is built (`build.rs`) and
//! embedded here: every check in this process starts from it instead of checking the
//! prelude's text again (about 4 ms of each `hol check`).

/// The image `build.rs` wrote.
const IMAGE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/prelude.image"));

/// Starts the process's prelude from the embedded image, once; later calls cost an atomic
/// load. Every check in this crate calls it first.
pub fn load() {
    static LOADED: std::sync::Once = std::sync::Once::new();
    LOADED.call_once(|| {
        // The image was made from this build's own `Main.thy` by this build's `lang`, so it
        // reads; if it ever did not, the prelude is checked from its text, as without one
        // (the test below fails).
        let _ = lang::theory::load_prelude_image(IMAGE);
    });
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_embedded_image_is_this_builds_prelude() {
        let image = lang::theory::prelude_image().expect("the prelude checks");
        assert!(image == super::IMAGE, "the embedded image is not the one this build's lang makes");
        // Checked above, so the prelude is there already: the image still reads.
        assert_eq!(lang::theory::load_prelude_image(super::IMAGE), Ok(false));
    }
}
