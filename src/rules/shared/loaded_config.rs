//! Which config `ModelConfig.__init__` loads (`sglang/srt/configs/model_config.py`): the revision
//! it fetches, and `--json-model-override-args` (`json.loads(model_override_args)`, then
//! `config.update(...)`), which several hook modules need to know before they trust the
//! catalog's facts (the published config.json at its main revision).

use crate::fields::{f, Field};
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

/// Whether `revision` (`--revision`, or the draft model's) names another revision than the
/// published one the catalog read (unset or `main`).
pub fn other_revision(ctx: &Ctx, revision: Field) -> bool {
    !matches!(ctx.cfg.get(revision), PyValue::None) && !ctx.cfg.is(revision, "main")
}

/// `parse_connector_type(model_path) == ConnectorType.INSTANCE` (`re.match(r"(.+)://(.*)")`:
/// greedy, so the scheme is everything before the last `://` of the first line): a remote
/// instance's weights, whose config is not loaded from a model path.
pub fn is_instance_connector(path: &str) -> bool {
    let line = path.split('\n').next().unwrap_or("");
    line.rfind("://").map(|i| line.get(..i) == Some("instance")).unwrap_or(false)
}
