//! Building a peer's Haskell program for a bench that times it in its own run: `ghc -O2`
//! into a directory of the target directory, the modules beside the source found from its
//! directory; and running the peers' Lazy SmallCheck program.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// `source` compiled with `ghc -O2` into `target/<dir>/<dir>` (next to the running bench's
/// `deps/`), or why not.
pub fn build(source: &Path, dir: &str) -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let out = exe.parent().and_then(Path::parent).ok_or("no target directory")?.join(dir);
    std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
    let bin = out.join(dir);
    let result = Command::new("ghc")
        .args(["-O2", "-v0", "-outputdir"])
        .arg(&out)
        .arg("-o")
        .arg(&bin)
        .arg(source.file_name().ok_or("a source file")?)
        .current_dir(source.parent().ok_or("a source directory")?)
        .output()
        .map_err(|e| format!("ghc not found ({e}): `shared/peers/run.sh` installs it"))?;
    if !result.status.success() {
        return Err(format!("ghc failed: {}", String::from_utf8_lossy(&result.stderr)));
    }
    Ok(bin)
}

/// One run of the peers' Lazy SmallCheck program (`shared/peers/LSC.hs`) on `workload` at
/// `depth`: the partial cases it reports ("required N tests") and the seconds it measured
/// around its check (`internal_s=`).
pub fn lazy_smallcheck_run(lsc: &Path, workload: &str, depth: &str) -> (u64, f64) {
    let out = Command::new(lsc).args([workload, depth]).output().expect("Lazy SmallCheck runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.starts_with("OK"), "Lazy SmallCheck on {workload}: {text}");
    let number_after = |key: &str| text.split(key).nth(1).and_then(|r| r.split_whitespace().next());
    let cases = number_after("required ").and_then(|n| n.parse().ok()).expect("LSC reports its cases");
    let seconds = number_after("internal_s=").and_then(|n| n.parse().ok()).expect("LSC reports its time");
    (cases, seconds)
}
