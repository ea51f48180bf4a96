//! The `check` subcommand: arguments, settings, walking trees, fixing files, and today's
//! report for one pasted text. Part of the binary; the library stays free of file systems.

pub mod args;
pub mod check;
pub mod fix;
pub mod paste;
pub mod settings;
pub mod walk;
