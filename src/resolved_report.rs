//! "What SGLang will run with": the resolved values of a command SGLang accepts, for the fields
//! of [`crate::resolved::REPORTED`], each known one with where it came from (the command, the
//! flag's default, or the pipeline step that derived it) and a fix that pins a derived value by
//! writing its flag; the others listed as unknown, with why.

use crate::diagnostic::{Applicability, Fix};
use crate::fields::Field;
use crate::pyvalue::PyValue;
use crate::resolved::{UnknownReason, FROM_MODEL_CONFIG, REPORTED};
use crate::rules::Ctx;
use serde::ser::{SerializeMap, SerializeStruct, Serializer};
use serde::Serialize;

/// One known value. Serialized with `repr`, the value as Python prints it (written out only
/// when the report is: most checks never print it).
#[derive(Debug, Clone)]
pub struct ResolvedValue {
    pub field: &'static str,
    /// The flag that sets it in this release (None: no flag does).
    pub flag: Option<&'static str>,
    pub value: PyValue,
    /// Whether it differs from the flag's default (what argparse leaves when the flag is absent).
    pub differs_from_default: bool,
    /// `command` (the command or its config file set it), `default`, or `derived`.
    pub source: Source,
    /// The pipeline step that assigned it (`parallel_hook.handle_dwdp`), for a derived value.
    pub set_by: Option<&'static str>,
    /// How a pin would write the flag with this value (see `pin`).
    pin_spec: Option<PinSpec>,
}

/// Where a pin writes its flag. The fix itself (title, replacement text) is built only when
/// shown: most checks never show it, and an accepted command has several.
#[derive(Debug, Clone)]
enum PinSpec {
    /// Built at once (a switch added or removed).
    Built(Fix),
    /// `flag value` over `start..end` (where the command sets it), or appended at `start`; only
    /// advice when the text cannot take it there.
    Set { start: usize, end: usize, append: bool, advice: bool },
}

impl ResolvedValue {
    /// The value as Python prints it (`repr`).
    pub fn repr(&self) -> String {
        self.value.repr()
    }

    /// The fix that writes the flag explicitly with this value (a derived value that differs
    /// from what the command says now).
    pub fn pin(&self) -> Option<Fix> {
        match self.pin_spec.as_ref()? {
            PinSpec::Built(fix) => Some(fix.clone()),
            PinSpec::Set { start, end, append, advice } => {
                let flag = self.flag?;
                let written = self.value.py_str();
                let title = ["Pin ", flag, " ", &written].concat();
                if *advice {
                    return Some(Fix::advice(title));
                }
                let replacement = if *append { [" ", flag, " ", &written].concat() } else { [flag, " ", &written].concat() };
                Some(Fix { title, applicability: Applicability::Unsafe, edits: vec![crate::diagnostic::Edit { start: *start, end: *end, replacement }] })
            }
        }
    }
}

impl Serialize for ResolvedValue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut out = s.serialize_struct("ResolvedValue", 8)?;
        out.serialize_field("field", self.field)?;
        out.serialize_field("flag", &self.flag)?;
        out.serialize_field("value", &self.value)?;
        out.serialize_field("repr", &self.repr())?;
        out.serialize_field("differs_from_default", &self.differs_from_default)?;
        out.serialize_field("source", &self.source)?;
        if let Some(step) = self.set_by {
            out.serialize_field("set_by", step)?;
        }
        if let Some(pin) = self.pin() {
            out.serialize_field("pin", &pin)?;
        }
        out.end()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    Command,
    Default,
    Derived,
}

/// A field whose value the text does not decide here.
#[derive(Debug, Clone, Serialize)]
pub struct UnknownField {
    pub field: &'static str,
    pub reason: UnknownReason,
    /// The step that may assign it ("" when it is the model's config or the text).
    pub step: &'static str,
}

/// The resolved configuration of one accepted command.
#[derive(Debug, Clone, Default)]
pub struct Resolved {
    pub values: Vec<ResolvedValue>,
    pub unknown: Vec<UnknownField>,
}

impl Resolved {
    /// The known value of `field`, if reported.
    pub fn get(&self, field: &str) -> Option<&ResolvedValue> {
        self.values.iter().find(|v| v.field == field)
    }
}

/// `{"tp_size": 2, ...}` in `REPORTED` order.
pub struct ValuesMap<'a>(pub &'a [ResolvedValue]);

impl Serialize for ValuesMap<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for v in self.0 {
            map.serialize_entry(v.field, &v.value)?;
        }
        map.end()
    }
}

/// Serialized flattened into a command: `resolved`, `resolved_unknown`, `resolved_details`.
impl Serialize for Resolved {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(3))?;
        map.serialize_entry("resolved", &ValuesMap(&self.values))?;
        map.serialize_entry("resolved_unknown", &self.unknown)?;
        map.serialize_entry("resolved_details", &self.values)?;
        map.end()
    }
}

/// The resolved configuration after the pipeline and `check_server_args` ran on `ctx`.
pub fn build(ctx: &Ctx) -> Resolved {
    let schema: &'static crate::schema::Schema = &ctx.release.schema;
    let mut out = Resolved { values: Vec::with_capacity(REPORTED.len()), unknown: Vec::with_capacity(REPORTED.len()) };
    for &field in REPORTED {
        let name = field.name();
        let in_schema = schema.action_for_field(field).is_some();
        let derived = ctx.cfg.derived_by(field);
        let written = ctx.release.may_write(field);
        // A field with no flag that no step of the release may assign is not a field of its
        // ServerArgs (0.5.18 has no attn_dp_size): nothing to report, whatever our steps derived.
        if !in_schema && !written && !ctx.release.data.writes.is_empty() {
            continue;
        }
        if !in_schema && derived.is_none() {
            if written {
                // a field without a flag that no modelled step assigned: its value is SGLang's
                // dataclass default, which the schema does not give
                out.unknown.push(UnknownField { field: name, reason: UnknownReason::NotModelled, step: "" });
            }
            continue;
        }
        if let Some(u) = ctx.cfg.uncertain(field) {
            out.unknown.push(UnknownField { field: name, reason: u.reason, step: u.step });
            continue;
        }
        let explicit = ctx.cfg.setting_place(field).is_some();
        if derived.is_none() && !explicit && FROM_MODEL_CONFIG.contains(&field) {
            out.unknown.push(UnknownField { field: name, reason: UnknownReason::ModelConfig, step: "" });
            continue;
        }
        let value = ctx.cfg.peek(field).clone();
        let default = schema.default_of_field(field).unwrap_or(&PyValue::None);
        let source = match (derived, explicit) {
            (Some(_), _) => Source::Derived,
            (None, true) => Source::Command,
            (None, false) => Source::Default,
        };
        let flag = schema.flag_of(field);
        let pin_spec = match derived {
            // A value translated from deprecated flags: writing the new flag beside the old ones is
            // another command (SGLang rejects `--dp-size 2 --enable-dp-attention --attn-dp-size 2`);
            // the deprecation's own fix replaces them.
            Some(step) if step.contains("handle_deprecated") => None,
            // A step that adjusted the command's own value, or a value the field already had (a
            // default scaled under DP attention, a filled size divided by the DP size): writing
            // the result would be adjusted again.
            Some(_) if explicit || ctx.cfg.rewritten(field) => None,
            Some(_) => pin_fix(ctx, field, flag, &value),
            None => None,
        };
        out.values.push(ResolvedValue {
            field: name,
            differs_from_default: value != *default,
            flag,
            value,
            source,
            set_by: derived,
            pin_spec,
        });
    }
    out
}

/// How to write `field`'s flag with `value` (None when the command already says so, or the value
/// has no spelling on the command line).
fn pin_fix(ctx: &Ctx, field: Field, flag: Option<&str>, value: &PyValue) -> Option<PinSpec> {
    let flag = flag?;
    let action = &ctx.release.schema.action(flag)?;
    let setting = ctx.cfg.setting_place(field);
    if setting.is_some_and(|s| s.value == *value) {
        return None;
    }
    // What `Ctx::fix_set` would edit, without building the texts now.
    let set = || match setting {
        Some(s) => PinSpec::Set { start: s.whole_span.start, end: s.whole_span.end, append: false, advice: s.from_config },
        None => PinSpec::Set { start: ctx.append_at, end: ctx.append_at, append: true, advice: !ctx.can_append },
    };
    let title = || ["Pin ", flag, " ", &value.py_str()].concat();
    let spec = match (action.action.as_str(), value) {
        ("_StoreTrueAction", PyValue::Bool(true)) => PinSpec::Built(ctx.fix_add_flag(title(), field, Applicability::Unsafe)),
        ("_StoreTrueAction", PyValue::Bool(false)) if setting.is_some() => PinSpec::Built(ctx.fix_remove(title(), field, Applicability::Unsafe)),
        ("_StoreAction", PyValue::Int(_) | PyValue::Float(_)) => set(),
        ("_StoreAction", PyValue::Str(s)) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_./:".contains(&b)) => set(),
        _ => return None,
    };
    Some(spec)
}
