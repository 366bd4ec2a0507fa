//! Generates the LR parsers from the grammars in `src/syntax/*.lalrpop`.

fn main() {
    // Also notices grammar files being added.
    println!("cargo:rerun-if-changed=src/syntax");
    lalrpop::Configuration::new()
        .use_cargo_dir_conventions()
        .emit_rerun_directives(true)
        .process()
        .expect("the lalrpop grammars must build");
}
