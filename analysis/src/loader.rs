//! Where theory text comes from. An analysis is given its file's text; the sibling
//! theories it imports (`imports Foo` → `Foo.thy` in the importing file's directory) come
//! through a `Loader`, so an editor can supply unsaved buffers (`Overlay`) and a mutation
//! runner a mutated file. `FsLoader` reads files as `hol check` does, with its guards:
//! regular files only, opened without blocking (a FIFO never hangs the run), a size cap,
//! and text that is not UTF-8 located at its first bad byte. A front end reads the files it
//! is given through the same loader (`LoadError::event` reports a failure).

use crate::event::{Event, Origin};
use crate::position::LineMap;
use lang::{Diagnostic, Span};
use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};

/// A source of theory files, by path.
pub trait Loader {
    /// The text of the file at `path`, or why it cannot be had.
    fn load(&self, path: &Path) -> Result<String, LoadError>;
}

impl<L: Loader + ?Sized> Loader for &L {
    fn load(&self, path: &Path) -> Result<String, LoadError> {
        (**self).load(path)
    }
}

/// Why a file's text cannot be had.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// Missing, unreadable, not a regular file, too large: a message naming the file.
    Message(String),
    /// Not UTF-8: the text with the bad bytes replaced by U+FFFD (offsets before the first
    /// one unchanged), the first bad byte's offset and the length of the bad sequence.
    NotUtf8 { text: String, at: u32, len: u32 },
}

impl LoadError {
    /// One line saying why, the first bad byte's line and column included (`shown`: the
    /// file as messages name it).
    pub fn message(&self, shown: &str) -> String {
        match self {
            LoadError::Message(m) => m.clone(),
            LoadError::NotUtf8 { text, at, .. } => {
                let p = LineMap::new(text).position(*at);
                format!("cannot read `{shown}`: not valid UTF-8 (line {}, column {})", p.line, p.column)
            }
        }
    }

    /// The text the file reads as, which `event`'s spans point into: the text as far as it
    /// decodes for a file that is not UTF-8, empty otherwise.
    pub fn text(&self) -> &str {
        match self {
            LoadError::Message(_) => "",
            LoadError::NotUtf8 { text, .. } => text,
        }
    }

    /// The event reporting a file given to check that could not be read (`shown`: the file
    /// as messages name it): an error about the whole file, or one at the first byte that
    /// is not UTF-8.
    pub fn event(&self, shown: &str) -> Event {
        match self {
            LoadError::Message(message) => Event::FileError { message: message.clone(), notes: vec![], help: vec![] },
            LoadError::NotUtf8 { at, .. } => {
                // Located at the first bad byte, in the text as far as it reads: the bad bytes
                // are shown as U+FFFD, which keeps the offsets before them.
                let at = *at as usize;
                let diagnostic = Diagnostic::error(
                    Span::new(at, at + char::REPLACEMENT_CHARACTER.len_utf8()),
                    format!("`{shown}` is not valid UTF-8"),
                )
                .with_label("the first byte that is not UTF-8")
                .with_note("theory files are read as UTF-8; nothing in this file was checked")
                .with_help("convert the file to UTF-8 (e.g. `iconv -f LATIN1 -t UTF-8`)");
                Event::Diagnostic { diagnostic, origin: Origin::Check }
            }
        }
    }
}

/// The largest file read: spans are 32-bit byte offsets, and one past the end must fit.
pub const MAX_FILE: u64 = u32::MAX as u64 - 1;

/// Files on disk, read with `hol check`'s guards (see `read_capped`).
#[derive(Clone, Copy, Debug)]
pub struct FsLoader {
    /// The largest file read, in bytes.
    pub limit: u64,
}

impl Default for FsLoader {
    fn default() -> FsLoader {
        FsLoader { limit: MAX_FILE }
    }
}

impl Loader for FsLoader {
    fn load(&self, path: &Path) -> Result<String, LoadError> {
        read_capped(path, self.limit)
    }
}

/// Unsaved buffers over another loader: a path that has a buffer reads as the buffer, any
/// other path as `base` reads it. Paths are compared as given (an editor normalises them).
#[derive(Clone, Debug, Default)]
pub struct Overlay<L> {
    pub base: L,
    buffers: HashMap<PathBuf, String>,
}

impl<L> Overlay<L> {
    pub fn new(base: L) -> Overlay<L> {
        Overlay { base, buffers: HashMap::new() }
    }

    /// Makes `path` read as `text`, replacing any buffer it had.
    pub fn insert(&mut self, path: impl Into<PathBuf>, text: impl Into<String>) {
        self.buffers.insert(path.into(), text.into());
    }

    /// Makes `path` read as `base` reads it again; returns the buffer it had.
    pub fn remove(&mut self, path: &Path) -> Option<String> {
        self.buffers.remove(path)
    }
}

impl<L: Loader> Loader for Overlay<L> {
    fn load(&self, path: &Path) -> Result<String, LoadError> {
        match self.buffers.get(path) {
            Some(text) => Ok(text.clone()),
            None => self.base.load(path),
        }
    }
}

/// The contents of the file at `path`, with a size limit of `limit` bytes. Only regular
/// files are read: a FIFO would block forever (it is opened without waiting for a writer,
/// then refused) and a device such as `/dev/zero` would be read until memory runs out. Even
/// a regular file is read with a cap, since its size may grow while it is read (or be
/// reported as 0 by `/proc`).
pub fn read_capped(path: &Path, limit: u64) -> Result<String, LoadError> {
    use std::io::Read;
    let shown = path.display();
    let fail = |why: String| LoadError::Message(format!("cannot read `{shown}`: {why}"));
    let mut open = std::fs::OpenOptions::new();
    open.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut open, libc::O_NONBLOCK);
    let file = open.open(path).map_err(|e| fail(io_reason(&e)))?;
    let meta = file.metadata().map_err(|e| fail(io_reason(&e)))?;
    if !meta.is_file() {
        return Err(fail(format!("not a regular file ({})", file_kind(&meta.file_type()))));
    }
    if meta.len() > limit {
        return Err(fail(too_large(limit)));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit + 1).read_to_end(&mut bytes).map_err(|e| fail(io_reason(&e)))?;
    if bytes.len() as u64 > limit {
        return Err(fail(too_large(limit)));
    }
    String::from_utf8(bytes).map_err(|e| {
        let bad = e.utf8_error();
        let at = bad.valid_up_to() as u32;
        let len = bad.error_len().unwrap_or(e.as_bytes().len() - bad.valid_up_to()) as u32;
        LoadError::NotUtf8 { text: String::from_utf8_lossy(e.as_bytes()).into_owned(), at, len }
    })
}

fn too_large(limit: u64) -> String {
    if limit == MAX_FILE {
        "larger than 4 GiB".to_owned()
    } else {
        format!("larger than {limit} bytes")
    }
}

/// What a file that is not a regular file is, for the message.
fn file_kind(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a named pipe";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a directory"
    } else {
        "not a file"
    }
}

/// `io::Error`'s text without the `(os error N)` suffix.
fn io_reason(e: &io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(cut) => text[..cut].to_owned(),
        None => text,
    }
}

/// Sibling theories for `lang`: `imports Foo` reads `Foo.thy` in the importing file's
/// directory, through `loader`.
pub(crate) struct Siblings<'a> {
    pub dir: PathBuf,
    pub loader: &'a dyn Loader,
}

impl lang::TheoryLoader for Siblings<'_> {
    fn load(&self, path: &str) -> Result<String, String> {
        let file = self.dir.join(format!("{path}.thy"));
        self.loader.load(&file).map_err(|e| e.message(&file.display().to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(path: &Path) -> Result<String, LoadError> {
        FsLoader::default().load(path)
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("hol-read-test-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn unreadable_and_non_utf8_files_are_messages() {
        let err = read(Path::new("/nonexistent/dir/x.thy")).unwrap_err();
        assert_eq!(err, LoadError::Message("cannot read `/nonexistent/dir/x.thy`: No such file or directory".into()));
        let dir = temp_dir("utf8");
        let bad = dir.join("bad.thy");
        std::fs::write(&bad, b"theory\n  \xe2\x9f\xb9 \xff").unwrap();
        let err = read(&bad).unwrap_err();
        assert_eq!(err, LoadError::NotUtf8 { text: "theory\n  ⟹ \u{fffd}".into(), at: 13, len: 1 });
        let message = err.message("bad.thy");
        assert!(message.ends_with("not valid UTF-8 (line 2, column 5)"), "{message}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_truncated_character_at_the_end_is_located() {
        let dir = temp_dir("truncated");
        let bad = dir.join("bad.thy");
        std::fs::write(&bad, b"ab\xe2\x9f").unwrap();
        let Err(LoadError::NotUtf8 { at, len, .. }) = read(&bad) else { panic!("not an encoding error") };
        assert_eq!((at, len), (2, 2));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn only_regular_files_are_read() {
        let dir = temp_dir("kinds");
        let err = read(&dir).unwrap_err();
        assert!(matches!(&err, LoadError::Message(m) if m.ends_with("not a regular file (a directory)")), "{err:?}");
        #[cfg(unix)]
        {
            let err = read(Path::new("/dev/zero")).unwrap_err();
            assert_eq!(
                err,
                LoadError::Message("cannot read `/dev/zero`: not a regular file (a character device)".into())
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn files_are_read_up_to_the_limit() {
        let dir = temp_dir("limit");
        let f = dir.join("big.thy");
        std::fs::write(&f, "0123456789").unwrap();
        assert_eq!(read_capped(&f, 10), Ok("0123456789".to_owned()));
        let err = read_capped(&f, 9).unwrap_err();
        assert_eq!(err, LoadError::Message(format!("cannot read `{}`: larger than 9 bytes", f.display())));
        assert_eq!(FsLoader { limit: 9 }.load(&f), Err(err));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_overlay_reads_its_buffers_first() {
        let mut overlay = Overlay::new(FsLoader::default());
        overlay.insert("/nonexistent/A.thy", "theory A begin end");
        assert_eq!(overlay.load(Path::new("/nonexistent/A.thy")), Ok("theory A begin end".to_owned()));
        assert!(matches!(overlay.load(Path::new("/nonexistent/B.thy")), Err(LoadError::Message(_))));
        assert_eq!(overlay.remove(Path::new("/nonexistent/A.thy")).as_deref(), Some("theory A begin end"));
        assert!(overlay.load(Path::new("/nonexistent/A.thy")).is_err());
    }
}
