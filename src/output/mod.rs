//! Reports of checked files written for people and for tools: compiler-style text, JSON,
//! SARIF 2.1.0 for code scanning, GitHub workflow commands.

pub mod github;
pub mod locate;
pub mod sarif;
pub mod text;
