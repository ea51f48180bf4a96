//! A typed view of the configuration SGLang resolves: explicit values from the command,
//! defaults from the schema, and values SGLang's hooks derive as resolution goes on.
//! Rules read and write it in pipeline order, as SGLang's hooks read and write `ServerArgs`,
//! through typed field keys (`crate::fields::f`): a misspelt field does not compile.

use crate::argparse::{Namespace, Setting};
use crate::fields::{f, Field};
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
    /// Fields a step computed from a value they already had (a default or the command's value
    /// adjusted, a filled value adjusted again): writing the result as the flag's value would be
    /// adjusted again. Empty until one is.
    rewritten: Vec<bool>,
    /// Each value, whether it is unknown here (assigned after reading an unknown value, or a
    /// value an unmodelled step may have written), and the pipeline step that assigned it.
    /// (The last: computed from a value an unmodelled step may have written; reported as
    /// unknown, but it does not turn a hook's finding into a check not run.)
    /// The last is why, when computed from such a value: the model's config when every such
    /// value it read needs it, else a value not known here.
    derived: Vec<(PyValue, bool, &'static str, Option<UnknownReason>)>,
    /// The command's settings by field (one vector read per lookup).
    explicit_by_field: Vec<Option<&'s Setting>>,
    /// Set when a value not known here is read (a setting's `value_unknown`, a value derived
    /// from one); cleared when a hook starts (`Ctx::run`), so a finding the hook reports is known
    /// to depend on it. Defaults are always known: reading one costs nothing more.
    read_unknown: Cell<bool>,
    /// Set when a field is read that a step reached but not modelled (or run on values not
    /// known here) may have written; cleared with `read_unknown`. It does not change what a hook
    /// reports (today's verdicts), only whether what it assigns is reported as known.
    read_uncertain: Cell<bool>,
    /// Of those reads, one whose value is uncertain for another reason than the model's config.
    read_uncertain_not_model: Cell<bool>,
    /// Whether the running step read an unknown or uncertain value (any of its hooks).
    step_read_unknown: Cell<bool>,
    /// Of those reads, one not known for another reason than the model's config.
    step_read_not_model: Cell<bool>,
    /// Fields whose derived value SGLang takes from the model's config (`set_model_dependent`).
    model_dependent: Vec<bool>,
    /// Set when a value SGLang derives from the model's config is read; cleared with the others.
    read_model_dependent: Cell<bool>,
    /// The pipeline step running now (`Ctx::run` is called under it): what `set` records.
    step: &'static str,
    /// Per field: why its value may not be SGLang's (the step, and why), when it may not.
    uncertain: Vec<Option<Uncertain>>,
    /// Per field: the value it held before a resolution pass declared another (SGLang stashes
    /// declarations and applies them to the fields only at `materialize_declarations`, where a
    /// release's pipeline has that step; until then the field itself still holds this). Empty
    /// until a pass declares one.
    before_declarations: Vec<Option<PyValue>>,
}

/// Why a field's resolved value is not known here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum UnknownReason {
    /// A step SGLang runs here that this build does not model may assign it.
    NotModelled,
    /// The step that may assign it needs the model's config (or SGLang takes it from there).
    ModelConfig,
    /// It depends on a value the text does not give (a template's variable).
    UnknownValue,
    /// The step that may assign it did not run a check here (files, network ...).
    CheckNotRun,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Uncertain {
    pub step: &'static str,
    pub reason: UnknownReason,
}

/// The fields the report's `resolved` lists, in this order (those the checked release has):
/// the list, then the other values today's hooks derive. The recorder records the same
/// ones (`tools/recorder/sgl_oracle.py`, `RESOLVED_FIELDS`).
pub const REPORTED: &[Field] = &[
    f::tp_size, f::pp_size, f::dp_size, f::attn_dp_size, f::ep_size, f::moe_dp_size, f::dcp_size,
    f::attn_cp_size, f::enable_dp_attention, f::nnodes, f::device, f::dtype, f::quantization,
    f::kv_cache_dtype, f::attention_backend, f::prefill_attention_backend, f::decode_attention_backend,
    f::sampling_backend, f::grammar_backend, f::moe_runner_backend, f::moe_a2a_backend,
    f::mem_fraction_static, f::chunked_prefill_size, f::max_prefill_tokens, f::max_running_requests,
    f::max_total_tokens, f::page_size, f::context_length, f::disable_radix_cache, f::disable_cuda_graph,
    f::disable_overlap_schedule, f::enable_mixed_chunk, f::speculative_algorithm, f::speculative_num_steps,
    f::speculative_eagle_topk, f::speculative_num_draft_tokens, f::disaggregation_mode,
    f::disaggregation_transfer_backend, f::enable_hierarchical_cache, f::enable_lora, f::schedule_policy,
    f::reasoning_parser, f::tool_call_parser,
    // others
    f::model_path, f::served_model_name, f::lora_paths, f::hicache_ratio, f::hicache_mem_layout,
    f::hicache_write_policy, f::hicache_io_backend, f::dcp_comm_backend, f::enable_dp_lm_head,
    f::moe_dense_tp_size, f::schedule_conservativeness, f::enable_dp_attention_local_control_broadcast,
    f::enable_tp_lm_head_all_to_all, f::enable_lora_overlap_loading, f::speculative_attention_mode,
    f::expert_distribution_recorder_mode, f::ep_dispatch_algorithm, f::eplb_algorithm,
    f::disaggregation_ib_device,
];

/// Fields whose effective value SGLang takes from the model's config when the command leaves
/// them unset (the model's config is not read here).
pub const FROM_MODEL_CONFIG: &[Field] = &[f::context_length, f::dtype, f::quantization];

static NONE: PyValue = PyValue::None;

impl<'s> ResolvedConfig<'s> {
    pub fn new(schema: &'s Schema, explicit: &'s Namespace) -> Self {
        let mut explicit_by_field: Vec<Option<&'s Setting>> = vec![None; Field::COUNT];
        for setting in explicit.explicit.values() {
            if let Some(slot) = setting.field.and_then(|f| explicit_by_field.get_mut(f.index())) {
                *slot = Some(setting);
            }
        }
        ResolvedConfig {
            schema,
            explicit,
            derived_at: vec![0; Field::COUNT],
            rewritten: Vec::new(),
            // a typical check assigns a few dozen fields: one allocation instead of a growing vector's copies
            derived: Vec::with_capacity(64),
            explicit_by_field,
            read_unknown: Cell::new(false),
            read_uncertain: Cell::new(false),
            read_uncertain_not_model: Cell::new(false),
            step_read_unknown: Cell::new(false),
            step_read_not_model: Cell::new(false),
            model_dependent: vec![false; Field::COUNT],
            read_model_dependent: Cell::new(false),
            step: "",
            uncertain: Vec::new(),
            before_declarations: Vec::new(),
        }
    }

    /// A resolution pass declares `value` for `field` (`declare_resolution`,
    /// `run_post_process_pass`): readers of the resolving view see it from here on, while the
    /// field keeps the value it had until the declarations are materialized.
    pub fn declare(&mut self, field: Field, value: PyValue) {
        if self.before_declarations.is_empty() {
            self.before_declarations = vec![None; Field::COUNT];
        }
        let held = self.current(field).clone();
        if let Some(slot @ None) = self.before_declarations.get_mut(field.index()) {
            *slot = Some(held);
        }
        self.set(field, value);
    }

    /// `field` itself (`self.x` in a `ServerArgs` method), not the resolving view: the value
    /// before any declaration not materialized yet. Read as `get` reads the field.
    pub fn undeclared(&self, field: Field) -> &PyValue {
        let resolved = self.get(field);
        match self.before_declarations.get(field.index()) {
            Some(Some(held)) => held,
            _ => resolved,
        }
    }

    /// SGLang's `materialize_declarations`: the fields take the declared values.
    pub fn materialize_declarations(&mut self) {
        self.before_declarations.clear();
    }

    /// Whether a field whose value is not known here was read since [`Self::forget_reads`].
    pub fn read_unknown(&self) -> bool {
        self.read_unknown.get()
    }

    /// Start tracking reads afresh (a hook starts).
    pub fn forget_reads(&self) {
        self.read_unknown.set(false);
        self.read_uncertain.set(false);
        self.read_uncertain_not_model.set(false);
        self.read_model_dependent.set(false);
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

    fn note_read(&self, unknown: bool) {
        if unknown {
            self.read_unknown.set(true);
            self.step_read_unknown.set(true);
            self.step_read_not_model.set(true);
        }
    }

    /// A value that may not be SGLang's (for `reason`) was read.
    fn note_uncertain_read(&self, reason: UnknownReason) {
        self.read_uncertain.set(true);
        self.step_read_unknown.set(true);
        if reason != UnknownReason::ModelConfig {
            self.read_uncertain_not_model.set(true);
            self.step_read_not_model.set(true);
        }
    }

    /// Why what the running step assigns may not be SGLang's, when it read such a value: the
    /// model's config when each such value needs it, else a value not known here.
    pub fn step_unknown_reason(&self) -> Option<UnknownReason> {
        match (self.step_read_unknown.get(), self.step_read_not_model.get()) {
            (false, _) => None,
            (true, false) => Some(UnknownReason::ModelConfig),
            (true, true) => Some(UnknownReason::UnknownValue),
        }
    }

    /// A pipeline step starts: later `set`s are recorded as its (the pipeline calls this; hooks
    /// need not).
    pub fn start_step(&mut self, step: &'static str) {
        self.step = step;
        self.step_read_unknown.set(false);
        self.step_read_not_model.set(false);
    }

    /// The step running now.
    pub fn step(&self) -> &'static str {
        self.step
    }

    /// Whether the running step read a value not known here (or one an unmodelled step may
    /// have written).
    pub fn step_read_unknown(&self) -> bool {
        self.step_read_unknown.get()
    }

    /// `field`'s value may have been assigned by `step` in a way not modelled here.
    pub fn mark_uncertain(&mut self, field: Field, step: &'static str, reason: UnknownReason) {
        if self.uncertain.is_empty() {
            self.uncertain = vec![None; Field::COUNT];
        }
        if let Some(slot) = self.uncertain.get_mut(field.index()) {
            *slot = Some(Uncertain { step, reason });
        }
    }

    /// Why `field`'s value may not be SGLang's here (None: it is known).
    pub fn uncertain(&self, field: Field) -> Option<Uncertain> {
        if let Some(u) = self.uncertain.get(field.index()).copied().flatten() {
            return Some(u);
        }
        let i = field.index();
        if let Some((_, unknown, step, uncertain)) = self.derived_at.get(i).and_then(|&at| self.derived.get(usize::from(at).checked_sub(1)?)) {
            if self.model_dependent.get(i).copied().unwrap_or(false) {
                return Some(Uncertain { step, reason: UnknownReason::ModelConfig });
            }
            if *unknown {
                return Some(Uncertain { step, reason: UnknownReason::UnknownValue });
            }
            if let Some(reason) = *uncertain {
                return Some(Uncertain { step, reason });
            }
        }
        if let Some(Some(s)) = self.explicit_by_field.get(i) {
            if s.value_unknown {
                return Some(Uncertain { step: "", reason: UnknownReason::UnknownValue });
            }
        }
        None
    }

    /// The step that assigned `field` (None: it holds the command's value or the default).
    pub fn derived_by(&self, field: Field) -> Option<&'static str> {
        let at = *self.derived_at.get(field.index())?;
        self.derived.get(usize::from(at).checked_sub(1)?).map(|d| d.2)
    }

    /// `field`'s value now, as `get` finds it, without noting the read anywhere.
    fn current(&self, field: Field) -> &PyValue {
        let i = field.index();
        if let Some((v, ..)) = self.derived_at.get(i).and_then(|&at| self.derived.get(usize::from(at).checked_sub(1)?)) {
            return v;
        }
        if let Some(Some(s)) = self.explicit_by_field.get(i) {
            return &s.value;
        }
        match self.schema.dest_of_field.get(i) {
            Some(Some(d)) => self.schema.defaults_by_index.get(*d).and_then(Option::as_ref).unwrap_or(&NONE),
            _ => &NONE,
        }
    }

    /// `field`'s current value without counting it as a hook's read (for the report).
    pub fn peek(&self, field: Field) -> &PyValue {
        let (ru, rc, sr, rm) = (self.read_unknown.get(), self.read_uncertain.get(), self.step_read_unknown.get(), self.read_model_dependent.get());
        let (rcn, srn) = (self.read_uncertain_not_model.get(), self.step_read_not_model.get());
        let v = self.get(field);
        self.read_unknown.set(ru);
        self.read_uncertain.set(rc);
        self.step_read_unknown.set(sr);
        self.read_model_dependent.set(rm);
        self.read_uncertain_not_model.set(rcn);
        self.step_read_not_model.set(srn);
        v
    }

    /// Current value of a `ServerArgs` field, as SGLang would read it now.
    pub fn get(&self, field: Field) -> &PyValue {
        let i = field.index();
        if let Some(Some(u)) = self.uncertain.get(i) {
            self.note_uncertain_read(u.reason);
        }
        if let Some((v, unknown, _, uncertain)) = self.derived_at.get(i).and_then(|&at| self.derived.get(usize::from(at).checked_sub(1)?)) {
            self.note_read(*unknown);
            if self.model_dependent.get(i).copied().unwrap_or(false) {
                self.read_model_dependent.set(true);
            }
            if let Some(reason) = *uncertain {
                self.note_uncertain_read(reason);
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

    /// A derived value moved out for a hook to update in place (read as `get` reads it); the
    /// hook then `set`s the new value or [`Self::put_back`]s the old one. None when the field's
    /// value is not a derived one (the command's or the default: the hook clones it).
    pub fn take_derived(&mut self, field: Field) -> Option<PyValue> {
        let _ = self.get(field);
        let at = usize::from(*self.derived_at.get(field.index())?).checked_sub(1)?;
        self.derived.get_mut(at).map(|(v, ..)| std::mem::replace(v, PyValue::None))
    }

    /// Put back a value taken with [`Self::take_derived`], unchanged and as it was recorded.
    pub fn put_back(&mut self, field: Field, value: PyValue) {
        let at = self.derived_at.get(field.index()).and_then(|&at| usize::from(at).checked_sub(1));
        if let Some((v, ..)) = at.and_then(|at| self.derived.get_mut(at)) {
            *v = value;
        }
    }

    /// `set(field, v)` for `v` the field's value (read as `get` reads it) after `change`, unless
    /// `change` returns false (nothing is assigned then). A derived value is changed where it is
    /// kept instead of copied (a resolved `cuda_graph_config` holds lists of batch sizes).
    pub fn set_changed(&mut self, field: Field, change: impl FnOnce(&mut PyValue) -> bool) {
        let _ = self.get(field);
        let at = self.derived_at.get(field.index()).and_then(|&at| usize::from(at).checked_sub(1));
        let Some(slot) = at.and_then(|at| self.derived.get_mut(at)) else {
            let mut value = self.current(field).clone();
            if change(&mut value) {
                self.set(field, value);
            }
            return;
        };
        let adjusts = !matches!(slot.0, PyValue::None | PyValue::Bool(_));
        let mut value = std::mem::replace(&mut slot.0, PyValue::None);
        if !change(&mut value) {
            slot.0 = value;
            return;
        }
        let from_model = self.read_model_dependent.get();
        self.assign_adjusting(field, value, from_model, adjusts);
    }

    /// Assign a field, as a hook does.
    pub fn set(&mut self, field: Field, value: PyValue) {
        // A value computed after reading a model-dependent one depends on the model too.
        let from_model = self.read_model_dependent.get();
        self.assign(field, value, from_model);
    }

    /// Assign `field` a value computed from the reads `compute` makes, when nothing else in the
    /// hook depends on them (no branch, no other value): a value they leave unknown makes `field`
    /// unknown, not every later value of the hook and every field its step may assign. (What the
    /// hook read before still counts for `field`.)
    pub fn set_computed(&mut self, field: Field, compute: impl FnOnce(&Self) -> PyValue) {
        let flags = [&self.read_unknown, &self.read_uncertain, &self.read_uncertain_not_model, &self.step_read_unknown, &self.step_read_not_model, &self.read_model_dependent];
        let before = flags.map(Cell::get);
        let value = compute(self);
        self.set(field, value);
        let flags = [&self.read_unknown, &self.read_uncertain, &self.read_uncertain_not_model, &self.step_read_unknown, &self.step_read_not_model, &self.read_model_dependent];
        for (flag, was) in flags.into_iter().zip(before) {
            flag.set(was);
        }
    }

    /// Assign a field a value SGLang takes from the model's config, not known here (`value` is
    /// a stand-in): a check that reads it is reported as needing the model's config.
    pub fn set_model_dependent(&mut self, field: Field, value: PyValue) {
        self.assign(field, value, true);
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
        if let Some((_, unknown, _, _)) = self.derived_at.get(i).and_then(|&at| self.derived.get(usize::from(at).checked_sub(1)?)) {
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

    fn assign(&mut self, field: Field, value: PyValue, from_model: bool) {
        let adjusts = !matches!(self.current(field), PyValue::None | PyValue::Bool(_));
        self.assign_adjusting(field, value, from_model, adjusts);
    }

    /// [`Self::assign`], told whether the field's value before it was one a flag adjusts.
    fn assign_adjusting(&mut self, field: Field, value: PyValue, from_model: bool, adjusts: bool) {
        // Filling an unset field (or switching a bool) is reproduced by writing the flag; any other
        // assignment adjusts the value the field had.
        if adjusts {
            if self.rewritten.is_empty() {
                self.rewritten = vec![false; Field::COUNT];
            }
            if let Some(r) = self.rewritten.get_mut(field.index()) {
                *r = true;
            }
        }
        if let Some(slot) = self.model_dependent.get_mut(field.index()) {
            *slot = from_model;
        }
        // A value computed after reading an unknown one is unknown too; any other is known.
        let uncertain = self.read_uncertain.get().then(|| if self.read_uncertain_not_model.get() { UnknownReason::UnknownValue } else { UnknownReason::ModelConfig });
        let entry = (value, self.read_unknown.get(), self.step, uncertain);
        if let Some(slot) = self.uncertain.get_mut(field.index()) {
            *slot = None; // assigned here, as modelled: no longer an unmodelled step's
        }
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

    /// Whether a step adjusted the value `field` already had (see `rewritten`).
    pub fn rewritten(&self, field: Field) -> bool {
        self.rewritten.get(field.index()).copied().unwrap_or(false)
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
