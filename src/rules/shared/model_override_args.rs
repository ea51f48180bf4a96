//! `--json-model-override-args` as `ModelConfig.__init__` reads it
//! (`sglang/srt/configs/model_config.py`: `json.loads(model_override_args)`, then
//! `config.update(...)`): the keys a command changes in the model's config, which several hook
//! modules need to know before they trust the catalog's facts.

use crate::fields::f;
use crate::pyvalue::PyValue;
use crate::rules::Ctx;

/// The override's keys and values: none when the flag is unset; `None` when its text is not a
/// JSON object (SGLang stops at that first, so a caller decides nothing from it).
pub fn items(ctx: &Ctx) -> Option<Vec<(String, PyValue)>> {
    match ctx.cfg.str(f::json_model_override_args) {
        None => Some(Vec::new()),
        Some(text) => match crate::pyjson::loads(text).ok()? {
            PyValue::Dict(items) => Some(items),
            _ => None,
        },
    }
}

/// Whether the command may change the model's config: the flag is set to anything but an empty
/// object (SGLang's default `{}`).
pub fn overrides_config(ctx: &Ctx) -> bool {
    items(ctx).map_or(true, |items| !items.is_empty())
}
