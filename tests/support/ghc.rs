//! Building a peer's Haskell program for a bench that times it in its own run: `ghc -O2`
//! into a directory of the target directory, the modules beside the source found from its
//! directory.

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
