//! sglang-preflight: SGLang's launch-time errors, found before launch.
//!
//! The pure core (no wasm types): [`shell`] reads pasted text, [`invocation`] finds the SGLang
//! launch, [`frontend`] and [`argparse`] replay SGLang's command-line handling over the
//! [`schema`] generated from the real package, [`resolved`] and [`rules`] replay its
//! resolution and validation, and [`check`] puts it together into a [`check::Report`].
//! [`summary`] words a report's verdict; [`edits`] and [`flag_edit`] change the pasted text
//! (fixes, the command builder) one exact byte span at a time.

/// A rule's example command (`Rule::example_bad`, `Rule::example_good`), as written in the native
/// build; the page's wasm goes without them (it never shows them: ~127 KB, ~18 KB gzipped), so
/// its `rules()` gives them empty. The rule pages and the site's `rules/examples.json`
/// (scripts/build-web.sh, from the native `reference --json`) carry them.
#[cfg(not(target_arch = "wasm32"))]
macro_rules! ex {
    ($s:expr) => {
        $s
    };
}
#[cfg(target_arch = "wasm32")]
macro_rules! ex {
    ($s:expr) => {
        ""
    };
}

/// A rule's kebab-case name (`Rule::name`), as written in the native build; the page's wasm goes
/// without them (it never shows them: ~29 KB, ~7 KB gzipped), so its `rules()` gives them empty.
/// The rule pages and the reference carry them.
#[cfg(not(target_arch = "wasm32"))]
macro_rules! kebab {
    ($s:expr) => {
        $s
    };
}
#[cfg(target_arch = "wasm32")]
macro_rules! kebab {
    ($s:expr) => {
        ""
    };
}

/// A rule's explanation (`Rule::explanation`), as written in the native build. The page's wasm
/// goes without the texts (~125 KB, ~44 KB gzipped): there every rule's explanation is
/// [`RULE_EXPLANATION`], so a diagnostic built from it carries that marker where the text was,
/// and the page puts in the text of the diagnostic's code from the site's
/// `rules/explanations/<family>.json` (scripts/build-web.sh, from the native `reference --json`).
#[cfg(not(target_arch = "wasm32"))]
macro_rules! expl {
    ($s:expr) => {
        $s
    };
}
#[cfg(target_arch = "wasm32")]
macro_rules! expl {
    ($s:expr) => {
        $crate::RULE_EXPLANATION
    };
}

/// What stands for a rule's explanation in the page's wasm (`expl!`): www/render.js replaces it
/// with the text of the diagnostic's code.
pub const RULE_EXPLANATION: &str = "{explanation}";

pub mod argparse;
pub mod changes;
pub mod check;
pub mod codes;
pub mod diagnostic;
pub mod docs;
pub mod edits;
pub mod examples;
pub mod explain;
pub mod fields;
pub mod fix_all;
pub mod flag_edit;
pub mod flag_search;
pub mod from_json;
pub mod frontend;
pub mod hardware;
pub mod invocation;
pub mod located;
pub mod models;
pub mod output;
pub mod pairs;
pub mod pydantic_json;
pub mod pyjson;
pub mod pyvalue;
pub mod release;
pub mod release_hint;
pub mod resolved;
pub mod resolved_report;
pub mod rules;
pub mod schema;
pub mod secrets;
pub mod shell;
pub mod site_pages;
pub mod snapshot;
pub mod sorting;
pub mod sources;
pub mod span;
pub mod suggest;
pub mod summary;
pub mod typography;
pub mod upgrade;
pub mod vllm;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use check::{check, CheckOptions, Report};
