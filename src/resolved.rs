//! A typed view of the configuration SGLang resolves: explicit values from the command,
//! defaults from the schema, and values SGLang's hooks derive as resolution goes on.
//! Rules read and write it in pipeline order, as SGLang's hooks read and write `ServerArgs`,
//! through typed field keys (`crate::fields::f`): a misspelt field does not compile.

use crate::argparse::{Namespace, Setting};
use crate::fields::Field;
use crate::pyvalue::PyValue;
use crate::schema::Schema;
use std::cell::Cell;

pub struct ResolvedConfig<'s> {
    pub schema: &'s Schema,
    pub explicit: &'s Namespace,
    /// Values assigned during resolution (SGLang's hooks writing `server_args.x = ...`):
    /// `derived_at[field]` is 1 + the value's place in `derived`, or 0 when unset. A check
    /// assigns a few dozen of the ~540 fields, so the dense part is a small index, not values.
    derived_at: Vec<u16>,
    /// Each value, and whether it is unknown here (assigned after reading an unknown value).
    derived: Vec<(PyValue, bool)>,
    /// Fields whose derived value SGLang takes from the model's config (`set_model_dependent`).
    model_dependent: Vec<bool>,
    /// The command's settings by field (one vector read per lookup).
    explicit_by_field: Vec<Option<&'s Setting>>,
    /// Set when a value not known here is read (a setting's `value_unknown`, a value derived
    /// from one); cleared when a hook starts (`Ctx::run`), so a finding the hook reports is known
    /// to depend on it. Defaults are always known: reading one costs nothing more.
    read_unknown: Cell<bool>,
    /// Same, for a value SGLang derives from the model's config (not known here).
    read_model_dependent: Cell<bool>,
}

static NONE: PyValue = PyValue::None;

impl<'s> ResolvedConfig<'s> {
    pub fn new(schema: &'s Schema, explicit: &'s Namespace) -> Self {
        let mut explicit_by_field: Vec<Option<&'s Setting>> = vec![None; Field::COUNT];
        for (dest, setting) in &explicit.explicit {
            if let Some(slot) = Field::from_name(dest).and_then(|f| explicit_by_field.get_mut(f.index())) {
                *slot = Some(setting);
            }
        }
        ResolvedConfig { schema, explicit, derived_at: vec![0; Field::COUNT], derived: Vec::new(), model_dependent: vec![false; Field::COUNT], explicit_by_field, read_unknown: Cell::new(false), read_model_dependent: Cell::new(false) }
    }

    /// Whether a field whose value is not known here was read since [`Self::forget_reads`].
    pub fn read_unknown(&self) -> bool {
        self.read_unknown.get()
    }

    /// Whether a field whose value SGLang takes from the model's config was read since
    /// [`Self::forget_reads`].
    pub fn read_model_dependent(&self) -> bool {
        self.read_model_dependent.get()
    }

    /// Whether `field`'s current value is one SGLang takes from the model's config (a stand-in
    /// here). Not a read of the value.
    pub fn is_model_dependent(&self, field: Field) -> bool {
        self.derived_at.get(field.index()).is_some_and(|&at| at > 0) && self.model_dependent.get(field.index()).copied().unwrap_or(false)
    }

    /// Start tracking reads afresh (a hook starts).
    pub fn forget_reads(&self) {
        self.read_unknown.set(false);
        self.read_model_dependent.set(false);
    }

    fn note_read(&self, unknown: bool) {
        if unknown {
            self.read_unknown.set(true);
        }
    }

    /// Current value of a `ServerArgs` field, as SGLang would read it now.
    pub fn get(&self, field: Field) -> &PyValue {
        let i = field.index();
        if let Some((v, unknown)) = self.derived_at.get(i).and_then(|&at| self.derived.get(usize::from(at).checked_sub(1)?)) {
            self.note_read(*unknown);
            if self.model_dependent.get(i).copied().unwrap_or(false) {
                self.read_model_dependent.set(true);
            }
            return v;
        }
        if let Some(Some(s)) = self.explicit_by_field.get(i) {
            self.note_read(s.value_unknown);
            return &s.value;
        }
        match self.schema.dest_of_field.get(i) {
            Some(Some(d)) => self.schema.defaults_by_index.get(*d).and_then(Option::as_ref).unwrap_or(&NONE),
            _ => &NONE,
        }
    }

    /// Assign a field, as a hook does.
    pub fn set(&mut self, field: Field, value: PyValue) {
        // A value computed after reading a model-dependent one depends on the model too.
        let from_model = self.read_model_dependent.get();
        self.assign(field, value, from_model);
    }

    /// Assign a field a value SGLang takes from the model's config, not known here (`value` is
    /// a stand-in): a check that reads it is reported as needing the model's config.
    pub fn set_model_dependent(&mut self, field: Field, value: PyValue) {
        self.assign(field, value, true);
    }

    fn assign(&mut self, field: Field, value: PyValue, from_model: bool) {
        if let Some(slot) = self.model_dependent.get_mut(field.index()) {
            *slot = from_model;
        }
        // A value computed after reading an unknown one is unknown too; any other is known.
        let entry = (value, self.read_unknown.get());
        let Some(at) = self.derived_at.get_mut(field.index()) else { return };
        match usize::from(*at).checked_sub(1).and_then(|j| self.derived.get_mut(j)) {
            Some(slot) => *slot = entry,
            None => {
                self.derived.push(entry);
                // More assignments than u16 can count cannot happen (one per field at most).
                *at = u16::try_from(self.derived.len()).unwrap_or(u16::MAX);
            }
        }
    }

    /// Assign a field with a value not known here (it depends on what the check does not know:
    /// the model's config, the machine): reading it makes a finding not run. `value` is what is
    /// kept for display and later arithmetic.
    pub fn set_unknown(&mut self, field: Field, value: PyValue) {
        let was = self.read_unknown.replace(true);
        self.set(field, value);
        self.read_unknown.set(was);
    }

    /// Whether the field's current value is not known here (without counting as a read).
    pub fn is_unknown(&self, field: Field) -> bool {
        let i = field.index();
        if let Some((_, unknown)) = self.derived_at.get(i).and_then(|&at| self.derived.get(usize::from(at).checked_sub(1)?)) {
            return *unknown;
        }
        matches!(self.explicit_by_field.get(i), Some(Some(s)) if s.value_unknown)
    }

    /// A hook assigns this field a value that depends on what is not known here (the model's
    /// config, the serving machine): its value stays as it was, but reading it now reads an
    /// unknown value.
    pub fn mark_unknown(&mut self, field: Field) {
        let outer = self.read_unknown.get();
        let value = self.get(field).clone();
        self.read_unknown.set(true);
        self.set(field, value);
        self.read_unknown.set(outer);
    }

    /// Whether the command (or its config file) set this field.
    pub fn is_explicit(&self, field: Field) -> bool {
        self.setting(field).is_some()
    }

    /// Where the command set this field, and to what (a read of the value).
    pub fn setting(&self, field: Field) -> Option<&'s Setting> {
        let setting = self.setting_place(field);
        self.note_read(setting.is_some_and(|s| s.value_unknown));
        setting
    }

    /// Where the command set this field, for spans and fixes only: not a read of its value.
    pub fn setting_place(&self, field: Field) -> Option<&'s Setting> {
        self.explicit_by_field.get(field.index()).copied().flatten()
    }

    pub fn truthy(&self, field: Field) -> bool {
        self.get(field).truthy()
    }
    pub fn int(&self, field: Field) -> Option<i64> {
        self.get(field).as_int()
    }
    pub fn float(&self, field: Field) -> Option<f64> {
        self.get(field).as_float()
    }
    pub fn str(&self, field: Field) -> Option<&str> {
        self.get(field).as_str()
    }
    pub fn is_none(&self, field: Field) -> bool {
        self.get(field).is_none()
    }
    /// `x == "value"` for string fields.
    pub fn is(&self, field: Field, value: &str) -> bool {
        self.str(field) == Some(value)
    }
}
