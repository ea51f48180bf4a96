//! SGLang's flag schema, generated from the real package by `tools/dump_schema.py` and
//! checked in under `data/sglang-<version>/schema.json` (Apache-2.0, from SGLang).

use crate::from_json::{Fields, FromJson};
use crate::pyvalue::PyValue;
use rustc_hash::FxHashMap;
use std::collections::HashMap;
use std::sync::OnceLock;

pub use crate::release::{DEFAULT_VERSION, SUPPORTED_VERSIONS};
use crate::fields::Field;

/// One argparse action, as `dump_schema.py` recorded it.
#[derive(Debug, Clone, Default)]
pub struct Action {
    pub option_strings: Vec<String>,
    pub dest: String,
    /// argparse class name: `_StoreAction`, `_StoreTrueAction`, `BooleanOptionalAction`, ...
    pub action: String,
    /// Type callable name: `int`, `float`, `str`, `json.loads`, `...human_readable_int`, ...
    /// (the key `type`)
    pub type_name: Option<String>,
    pub choices: Option<Vec<serde_json::Value>>,
    /// `null`, an integer, or one of `"?"`, `"*"`, `"+"`.
    pub nargs: Option<serde_json::Value>,
    pub r#const: serde_json::Value,
    /// `"==SUPPRESS=="` for suppressed defaults.
    pub default: serde_json::Value,
    /// Not loaded in the page's wasm until it is given them ([`crate::release::register_help`]).
    pub help: HelpText,
    pub metavar: Option<serde_json::Value>,
    pub required: bool,
    pub group: Option<String>,
    pub deprecated: bool,
    /// Extra attributes of custom actions (`new_flag`, `const_value`, ...).
    pub extra: Option<HashMap<String, serde_json::Value>>,
    /// The choices are a Python set: argparse lists them in an order that changes from run to
    /// run (the string hash seed), so SGLang's "choose from" list has no fixed order.
    pub choices_unordered: bool,
    /// Choices SGLang adds when a boolean environment variable is set when it builds the parser
    /// (variable -> the added choices).
    pub choices_env: Option<std::collections::BTreeMap<String, Vec<serde_json::Value>>>,
    /// What a custom type function checks in this release (`--cuda-graph-config`'s phases and
    /// keys, a removed backend's message), probed on the real package by `tools/dump_schema.py`.
    pub type_facts: Option<serde_json::Value>,
}

/// An action's help text, or that it has none. The page's wasm carries its schema without them
/// (they are only shown, never checked: the page fetches `help/<version>.json` when it shows
/// them); everywhere else they are read with the schema.
#[derive(Debug, Clone, Default)]
pub struct HelpText(OnceLock<Option<String>>);

impl HelpText {
    /// The help text; None also while it is not loaded (see [`Schema::has_help`]).
    pub fn get(&self) -> Option<&str> {
        self.0.get().and_then(Option::as_deref)
    }

    fn is_loaded(&self) -> bool {
        self.0.get().is_some()
    }

    /// Sets it once; a second text for the same action is ignored.
    fn load(&self, help: Option<String>) {
        let _ = self.0.set(help);
    }
}

impl FromJson for HelpText {
    fn from_json(v: &serde_json::Value) -> Result<Self, String> {
        Option::<String>::from_json(v).map(|h| HelpText(OnceLock::from(h)))
    }
}

// `schema.json`'s keys; a missing `help` is a help text not loaded (the page's schema has none).
impl FromJson for Action {
    fn from_json(v: &serde_json::Value) -> Result<Self, String> {
        let mut fields = Fields::of(v, "Action")?;
        let action = Action {
            option_strings: fields.read("option_strings"),
            dest: fields.read("dest"),
            action: fields.read("action"),
            type_name: fields.read("type"),
            choices: fields.read("choices"),
            nargs: fields.read("nargs"),
            r#const: fields.read("const"),
            default: fields.read("default"),
            help: fields.read_or_default("help"),
            metavar: fields.read("metavar"),
            required: fields.read("required"),
            group: fields.read("group"),
            deprecated: fields.read_or_default("deprecated"),
            extra: fields.read("extra"),
            choices_unordered: fields.read_or_default("choices_unordered"),
            choices_env: fields.read("choices_env"),
            type_facts: fields.read("type_facts"),
        };
        fields.finish(action)
    }
}

#[derive(Debug, Clone, Default)]
pub struct Schema {
    pub sglang_version: String,
    pub prog: String,
    pub allow_abbrev: bool,
    pub python: String,
    /// The release's `--config` merger (tools/config_merger.py): `dest_keyed` (YAML keys are
    /// dests; only store and store-true actions are taken) or `option_keyed` (dests and long
    /// options; every single-value action).
    pub config_merger: Option<String>,
    pub actions: Vec<Action>,
    /// option string -> index into `actions`
    pub by_option: FxHashMap<String, usize>,
    /// dest -> index of the first action with that dest
    pub by_dest: FxHashMap<String, usize>,
    /// dest -> default value as Python sees it (absent for suppressed defaults)
    pub defaults: FxHashMap<String, PyValue>,
    /// dest -> a dense index (0..dest_count), so per-command state can live in vectors
    pub dest_index: FxHashMap<String, usize>,
    /// default by dest index
    pub defaults_by_index: Vec<Option<PyValue>>,
    /// [`Field`] index -> dest index (None: no flag of this release writes the field)
    pub dest_of_field: Vec<Option<usize>>,
    /// dest index -> [`Field`]
    pub field_of_dest: Vec<Option<Field>>,
    /// [`Field`] index -> index of the first action with that dest
    pub action_of_field: Vec<Option<usize>>,
    /// action index -> the [`Field`] its dest is
    pub field_of_action: Vec<Option<Field>>,
    /// The environment variables that add choices to some action (`Action::choices_env`):
    /// each check asks only about these.
    choice_env_variables: Vec<String>,
}
crate::from_json!(Schema { sglang_version, prog, allow_abbrev, python, config_merger, actions } ..);

impl Schema {
    /// This schema as SGLang builds its parser where `set(variable)` tells which boolean
    /// environment variables are on: None when none that adds choices is.
    pub fn under_env(&self, set: impl Fn(&str) -> bool) -> Option<Schema> {
        if !self.choice_env_variables.iter().any(|name| set(name)) {
            return None;
        }
        let mut schema = self.clone();
        for a in &mut schema.actions {
            let Some(by_env) = a.choices_env.clone() else { continue };
            let Some(choices) = a.choices.as_mut() else { continue };
            for (name, added) in by_env {
                if set(&name) {
                    for c in added {
                        if !choices.contains(&c) {
                            choices.push(c);
                        }
                    }
                }
            }
        }
        Some(schema)
    }

    pub(crate) fn parse(text: &str) -> Option<Schema> {
        let mut schema: Schema = crate::from_json::parse(text).ok()?;
        for (i, a) in schema.actions.iter().enumerate() {
            for o in &a.option_strings {
                schema.by_option.entry(o.clone()).or_insert(i);
            }
            schema.by_dest.entry(a.dest.clone()).or_insert(i);
            if a.default.as_str() != Some("==SUPPRESS==") {
                schema.defaults.entry(a.dest.clone()).or_insert_with(|| PyValue::from_json(&a.default));
            }
            let next = schema.dest_index.len();
            schema.dest_index.entry(a.dest.clone()).or_insert(next);
        }
        let mut by_index = vec![None; schema.dest_index.len()];
        for (dest, &i) in &schema.dest_index {
            if let Some(slot) = by_index.get_mut(i) {
                *slot = schema.defaults.get(dest).cloned();
            }
        }
        schema.defaults_by_index = by_index;
        schema.dest_of_field = vec![None; Field::COUNT];
        schema.field_of_dest = vec![None; schema.dest_index.len()];
        for (dest, &i) in &schema.dest_index {
            if let Some(field) = Field::from_name(dest) {
                if let Some(slot) = schema.dest_of_field.get_mut(field.index()) {
                    *slot = Some(i);
                }
                if let Some(slot) = schema.field_of_dest.get_mut(i) {
                    *slot = Some(field);
                }
            }
        }
        schema.field_of_action = schema.actions.iter().map(|a| Field::from_name(&a.dest)).collect();
        let mut variables: Vec<String> = schema.actions.iter().filter_map(|a| a.choices_env.as_ref()).flat_map(|m| m.keys().cloned()).collect();
        variables.sort();
        variables.dedup();
        schema.choice_env_variables = variables;
        schema.action_of_field = vec![None; Field::COUNT];
        for (dest, &i) in &schema.by_dest {
            if let Some(slot) = Field::from_name(dest).and_then(|f| schema.action_of_field.get_mut(f.index())) {
                *slot = Some(i);
            }
        }
        Some(schema)
    }

    /// Whether its help texts are loaded (always, but in the page's wasm before
    /// [`crate::release::register_help`]).
    pub fn has_help(&self) -> bool {
        self.actions.iter().all(|a| a.help.is_loaded())
    }

    /// Gives each action whose help text is not loaded the help text of `from`'s action with the
    /// same dest, when `from`'s is loaded (the page's older releases leave out the texts that are
    /// the carried release's, scripts/build-web.sh).
    pub(crate) fn inherit_help(&self, from: &Schema) {
        for a in self.actions.iter().filter(|a| !a.help.is_loaded()) {
            // (`by_dest` holds a dest's first action, as the page's build script pairs them)
            if let Some(theirs) = from.action_for_dest(&a.dest).filter(|b| b.help.is_loaded()) {
                a.help.load(theirs.help.get().map(str::to_string));
            }
        }
    }

    /// Gives the actions their help texts, one per action in order (`help/<version>.json` of the
    /// page). False, and nothing changes, when the count is not the actions'.
    pub(crate) fn load_help(&self, help: Vec<Option<String>>) -> bool {
        if help.len() != self.actions.len() {
            return false;
        }
        for (a, h) in self.actions.iter().zip(help) {
            a.help.load(h);
        }
        true
    }

    pub fn action(&self, option: &str) -> Option<&Action> {
        self.by_option.get(option).and_then(|&i| self.actions.get(i))
    }

    /// The default of a field, as argparse leaves it when the flag is absent.
    pub fn default_of(&self, dest: &str) -> Option<&PyValue> {
        self.defaults.get(dest)
    }

    pub fn action_for_dest(&self, dest: &str) -> Option<&Action> {
        self.by_dest.get(dest).and_then(|&i| self.actions.get(i))
    }

    /// The action that writes `field` in this release (the first with its dest), if any.
    pub fn action_for_field(&self, field: Field) -> Option<&Action> {
        self.action_of_field.get(field.index()).copied().flatten().and_then(|i| self.actions.get(i))
    }

    /// The default of a field, as argparse leaves it when the flag is absent.
    pub fn default_of_field(&self, field: Field) -> Option<&PyValue> {
        self.dest_of_field.get(field.index()).copied().flatten().and_then(|d| self.defaults_by_index.get(d)).and_then(Option::as_ref)
    }

    /// The flag that writes `field` in this release (its first option string), if any.
    pub fn flag_of(&self, field: Field) -> Option<&str> {
        self.action_for_field(field)?.option_strings.first().map(String::as_str)
    }
}

/// The schema of a supported SGLang version, parsed once.
pub fn get(version: &str) -> Option<&'static Schema> {
    crate::release::get(version).map(|r| &r.schema)
}

#[cfg(test)]
mod tests {
    #[test]
    fn schema_0_5_23_has_every_option_string() {
        let s = super::get("0.5.23");
        assert!(s.is_some());
        let s = s.into_iter().next();
        let n: usize = s.map(|s| s.actions.iter().filter(|a| a.dest != "help").map(|a| a.option_strings.len()).sum()).unwrap_or(0);
        assert_eq!(n, 559);
    }

    /// The page's wasm schema has no help texts (build.rs): they are loaded afterwards, once,
    /// only with one text per action.
    #[test]
    fn help_texts_load_once_with_one_per_action() {
        let text = r#"{"sglang_version": "9.9.9", "prog": "x", "allow_abbrev": true, "python": "3.11", "actions": [
            {"option_strings": ["--a"], "dest": "a", "action": "_StoreAction", "type": null, "choices": null, "nargs": null, "const": null, "default": null, "metavar": null, "required": false, "group": null},
            {"option_strings": ["--b"], "dest": "b", "action": "_StoreAction", "type": null, "choices": null, "nargs": null, "const": null, "default": null, "metavar": null, "required": false, "group": null}]}"#;
        let parsed = super::Schema::parse(text);
        assert!(parsed.is_some(), "the schema does not parse");
        let Some(s) = parsed else { return };
        assert!(!s.has_help());
        assert!(!s.load_help(vec![Some("A.".to_string())]));
        assert!(!s.has_help());
        assert!(s.load_help(vec![Some("A.".to_string()), None]));
        assert!(s.has_help());
        assert_eq!(s.actions.iter().map(|a| a.help.get()).collect::<Vec<_>>(), [Some("A."), None]);
        assert!(s.load_help(vec![Some("other".to_string()), Some("B.".to_string())]));
        assert_eq!(s.actions.iter().map(|a| a.help.get()).collect::<Vec<_>>(), [Some("A."), None]);
    }

    #[test]
    fn an_older_release_takes_the_help_texts_it_leaves_out_from_the_newest_by_dest() {
        let action = |dest: &str, help: &str| {
            format!(r#"{{"option_strings": ["--{dest}"], "dest": "{dest}", "action": "_StoreAction", "type": null, "choices": null, "nargs": null, "const": null, "default": null, "metavar": null, "required": false, "group": null{help}}}"#)
        };
        let schema = |v: &str, actions: &[String]| format!(r#"{{"sglang_version": "{v}", "prog": "x", "allow_abbrev": true, "python": "3.11", "actions": [{}]}}"#, actions.join(","));
        let newest = super::Schema::parse(&schema("9.9.9", &[action("a", ""), action("b", "")]));
        // "a" is left out (the newest's), "b" is its own, "c" is gone from the newest
        let older = super::Schema::parse(&schema("9.9.8", &[action("a", ""), action("b", r#", "help": "Old B.""#), action("c", "")]));
        assert!(newest.is_some() && older.is_some(), "the schemas do not parse");
        let (Some(newest), Some(older)) = (newest, older) else { return };
        older.inherit_help(&newest);
        assert!(!older.has_help(), "nothing to take before the newest's texts are loaded");
        assert!(newest.load_help(vec![Some("New A.".to_string()), Some("New B.".to_string())]));
        older.inherit_help(&newest);
        assert_eq!(older.actions.iter().map(|a| a.help.get()).collect::<Vec<_>>(), [Some("New A."), Some("Old B."), None]);
        assert!(!older.has_help(), "an action the newest does not have keeps no text");
    }

    /// Natively every release's help texts are read with its schema.
    #[test]
    fn native_releases_have_their_help_texts() {
        assert_eq!(crate::release::without_help(), Vec::<&str>::new());
        let tp = super::get("0.5.23").and_then(|s| s.action("--tp-size")).and_then(|a| a.help.get());
        assert_eq!(tp, Some("The tensor parallelism size."));
    }
}
