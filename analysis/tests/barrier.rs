//! The panic barrier: a panic while a file is analysed is reported as an event about the
//! file, and the stream goes on to its end instead of unwinding into the caller.

use analysis::{analyse, Cancel, Ended, Event, FsLoader, Options};
use std::path::Path;

const TEXT: &str = "theory Two imports Main begin
value \"1 :: nat\"
value \"2 :: nat\"
end
";

#[test]
fn a_panic_is_an_event_not_the_end_of_the_stream() {
    let mut events = Vec::new();
    let mut values = 0;
    // The panic comes from inside the analysis (here: the first delivery of a value).
    let ended =
        analyse(Path::new("Two.thy"), TEXT, &FsLoader::default(), &Options::default(), &Cancel::new(), &mut |e| {
            if matches!(e, Event::Value { .. }) {
                values += 1;
                if values == 1 {
                    panic!("a bug");
                }
            }
            events.push(e);
        });
    assert_eq!(ended, Ended::Completed);
    let [Event::FileError { message, notes, .. }] = events.as_slice() else { panic!("{events:#?}") };
    assert_eq!(message, "internal error while checking `Two.thy`: hol panicked");
    assert!(notes[0].starts_with("panic: a bug"), "{notes:?}");
}
