//! A typed view of the configuration SGLang resolves: explicit values from the command,
//! defaults from the schema, and values SGLang's hooks derive as resolution goes on.
//! Rules read and write it in pipeline order, as SGLang's hooks read and write `ServerArgs`.

use crate::argparse::{Namespace, Setting};
use crate::pyvalue::PyValue;
use crate::schema::Schema;
use rustc_hash::FxHashMap;

pub struct ResolvedConfig<'s> {
    pub schema: &'s Schema,
    pub explicit: &'s Namespace,
    /// Values assigned during resolution (SGLang's hooks writing `server_args.x = ...`):
    /// `derived_at[dest index]` is 1 + the value's place in `derived`, or 0 when unset. A check
    /// assigns a few dozen of the ~530 fields, so the dense part is a small index, not values.
    derived_at: Vec<u16>,
    derived: Vec<PyValue>,
    /// Assigned fields that are not flags.
    derived_extra: FxHashMap<String, PyValue>,
    /// The command's settings by dest index (one hash lookup per read instead of three).
    explicit_by_index: Vec<Option<&'s Setting>>,
    /// Fields read that are neither in the schema nor derived: a rule reading a misspelt
    /// field shows up here (checked in tests).
    unknown_reads: std::cell::RefCell<Vec<String>>,
}

static NONE: PyValue = PyValue::None;

impl<'s> ResolvedConfig<'s> {
    pub fn new(schema: &'s Schema, explicit: &'s Namespace) -> Self {
        let n = schema.defaults_by_index.len();
        let mut explicit_by_index: Vec<Option<&'s Setting>> = vec![None; n];
        for (dest, setting) in &explicit.explicit {
            if let Some(slot) = schema.dest_index.get(dest).and_then(|&i| explicit_by_index.get_mut(i)) {
                *slot = Some(setting);
            }
        }
        ResolvedConfig {
            schema,
            explicit,
            derived_at: vec![0; n],
            derived: Vec::new(),
            derived_extra: FxHashMap::default(),
            explicit_by_index,
            unknown_reads: Default::default(),
        }
    }

    /// Current value of a `ServerArgs` field (`dest`), as SGLang would read it now.
    pub fn get(&self, dest: &str) -> &PyValue {
        if let Some(&i) = self.schema.dest_index.get(dest) {
            if let Some(v) = self.derived_at.get(i).and_then(|&at| self.derived.get(usize::from(at).checked_sub(1)?)) {
                return v;
            }
            if let Some(Some(s)) = self.explicit_by_index.get(i) {
                return &s.value;
            }
            if let Some(Some(v)) = self.schema.defaults_by_index.get(i) {
                return v;
            }
            return &NONE;
        }
        if let Some(v) = self.derived_extra.get(dest) {
            return v;
        }
        if let Some(s) = self.explicit.explicit.get(dest) {
            return &s.value;
        }
        self.unknown_reads.borrow_mut().push(dest.to_string());
        &NONE
    }

    /// Assign a field, as a hook does.
    pub fn set(&mut self, dest: &str, value: PyValue) {
        match self.schema.dest_index.get(dest).and_then(|&i| self.derived_at.get_mut(i)) {
            Some(at) => match usize::from(*at).checked_sub(1).and_then(|j| self.derived.get_mut(j)) {
                Some(slot) => *slot = value,
                None => {
                    self.derived.push(value);
                    // More assignments than u16 can count cannot happen (one per field at most).
                    *at = u16::try_from(self.derived.len()).unwrap_or(u16::MAX);
                }
            },
            None => {
                if let Some(v) = self.derived_extra.get_mut(dest) {
                    *v = value;
                } else {
                    self.derived_extra.insert(dest.to_string(), value);
                }
            }
        }
    }

    /// Whether the command (or its config file) set this field.
    pub fn is_explicit(&self, dest: &str) -> bool {
        self.explicit.explicit.contains_key(dest)
    }

    /// Where the command set this field, for spans and fixes.
    pub fn setting(&self, dest: &str) -> Option<&Setting> {
        self.explicit.explicit.get(dest)
    }

    pub fn truthy(&self, dest: &str) -> bool {
        self.get(dest).truthy()
    }
    pub fn int(&self, dest: &str) -> Option<i64> {
        self.get(dest).as_int()
    }
    pub fn float(&self, dest: &str) -> Option<f64> {
        self.get(dest).as_float()
    }
    pub fn str(&self, dest: &str) -> Option<&str> {
        self.get(dest).as_str()
    }
    pub fn is_none(&self, dest: &str) -> bool {
        self.get(dest).is_none()
    }
    /// `x == "value"` for string fields.
    pub fn is(&self, dest: &str, value: &str) -> bool {
        self.str(dest) == Some(value)
    }

    pub fn unknown_reads(&self) -> Vec<String> {
        self.unknown_reads.borrow().clone()
    }
}
