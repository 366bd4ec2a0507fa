//! Checks the prelude `Main.thy` once, when hol is built, and writes its environment's image
//! (`lang::theory::prelude_image`) for `prelude` to embed: a process then starts from the
//! checked prelude instead of checking it again, as Isabelle starts HOL from a heap image.

fn main() {
    // A prelude with errors gets no image (an empty file, which does not decode): processes
    // then check it from its text and report "the prelude Main.thy has errors" as they did
    // before images, and `prelude::tests` fails.
    let image = match lang::theory::prelude_image() {
        Ok(image) => image,
        Err(errors) => {
            let first = errors.first().map(|d| d.message.clone()).unwrap_or_default();
            println!("cargo:warning=the prelude Main.thy has {} errors, the first: {first}", errors.len());
            Vec::new()
        }
    };
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("prelude.image"), image).expect("OUT_DIR is writable");
    // `lang` (and with it `Main.thy`, which it embeds) is a build dependency: a change there
    // rebuilds and reruns this script; nothing else it reads can change.
    println!("cargo:rerun-if-changed=build.rs");
}
