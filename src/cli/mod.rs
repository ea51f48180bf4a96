//! The `check` subcommand: arguments, settings, walking trees, fixing files, and today's
//! report for one pasted text. Part of the binary; the library stays free of file systems.

pub mod args;
pub mod check;
pub mod fix;
pub mod paste;
pub mod settings;
pub mod walk;

/// Print to stdout. A reader that went away (`| head`) is not an error worth a panic: the
/// exit code still says what was found.
pub fn emit(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// A line to stderr (what was fixed, what could not be written), never a panic.
pub fn note(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}
