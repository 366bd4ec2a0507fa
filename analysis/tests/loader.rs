//! Imports go through the loader: an editor's unsaved buffer of a sibling theory is what
//! an `imports` reads, not the file on disk.

use analysis::{analyse_all, Cancel, Ended, Event, FsLoader, Options, Overlay};
use std::path::PathBuf;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hol-analysis-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const USER: &str = "theory User imports Lib begin
value \"answer\"
end
";

fn lib(answer: u32) -> String {
    format!("theory Lib imports Main begin\ndefinition answer :: nat where \"answer = {answer}\"\nend\n")
}

fn values(events: &[Event]) -> Vec<&str> {
    events
        .iter()
        .map(|e| match e {
            Event::Value { result, .. } => result.as_str(),
            other => panic!("only values expected: {other:?}"),
        })
        .collect()
}

#[test]
fn an_unsaved_buffer_is_what_an_import_reads() {
    let dir = temp_dir("overlay");
    std::fs::write(dir.join("Lib.thy"), lib(1)).unwrap();
    let user = dir.join("User.thy");
    let options = Options::default();

    // From disk.
    let on_disk = analyse_all(&user, USER, &FsLoader::default(), &options, &Cancel::new());
    assert_eq!(on_disk.ended, Ended::Completed);
    assert_eq!(values(&on_disk.events), ["1"]);

    // The editor's buffer of Lib.thy, not yet saved.
    let mut overlay = Overlay::new(FsLoader::default());
    overlay.insert(dir.join("Lib.thy"), lib(42));
    let unsaved = analyse_all(&user, USER, &overlay, &options, &Cancel::new());
    assert_eq!(values(&unsaved.events), ["42"]);

    // A buffer for a theory that is not on disk at all.
    std::fs::remove_file(dir.join("Lib.thy")).unwrap();
    assert_eq!(values(&analyse_all(&user, USER, &overlay, &options, &Cancel::new()).events), ["42"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_missing_import_is_a_diagnostic() {
    let missing = analyse_all(
        &PathBuf::from("/nonexistent/User.thy"),
        USER,
        &FsLoader::default(),
        &Options::default(),
        &Cancel::new(),
    );
    let Some(Event::Diagnostic { diagnostic, .. }) = missing.events.first() else { panic!("{:?}", missing.events) };
    assert!(diagnostic.message.contains("cannot load theory `Lib`"), "{}", diagnostic.message);
}
