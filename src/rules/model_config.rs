//! Model-config construction (`sglang/srt/configs/model_config.py::ModelConfig.__init__`): the
//! flag-only parts. `--json-model-override-args` is parsed with `json.loads` when SGLang first
//! builds the model config, so invalid JSON surfaces there, as Python's `JSONDecodeError`.

use super::{Ctx, Rule};
use crate::pyjson;
use crate::fields::f;
use crate::rules::{Sglang, Step};

pub static OVERRIDE_ARGS_JSON: Rule = Rule {
    code: "MC001",
    name: "json-model-override-args-invalid-json",
    sglang: Sglang::Python { function: "configs.model_config.ModelConfig.__init__", raised_by: "json.loads", exception: "JSONDecodeError", template: "{json error}: line {l} column {c} (char {n})" },
    explanation: "--json-model-override-args must be a JSON object, parsed by Python's json.loads when SGLang builds the model config. Keys and strings need double quotes, and the whole value must be one shell word: wrap it in single quotes, e.g. '{\"rope_scaling\": {\"factor\": 4.0}}'.",
    flags: &["--json-model-override-args"],
    example_bad: "--model-path meta-llama/Llama-3.1-8B-Instruct --json-model-override-args '{rope_theta: 1000000}'",
    example_good: "--model-path meta-llama/Llama-3.1-8B-Instruct --json-model-override-args '{\"rope_theta\": 1000000}'",
};

pub static RULES: &[&Rule] = &[&OVERRIDE_ARGS_JSON];

/// Runs where SGLang first constructs `ModelConfig` (at `apply_inkling_prefill_cuda_graph_default`).
pub fn model_config_init(ctx: &mut Ctx) -> Step {
    let Some(text) = ctx.cfg.str(f::json_model_override_args).map(str::to_string) else { return Ok(()) };
    if let Err(e) = pyjson::loads(&text) {
        let span = ctx.span_of(&[f::json_model_override_args]);
        let raised = ctx.raise(&OVERRIDE_ARGS_JSON, &[], &[f::json_model_override_args], Vec::new());
        // Python's own exception: its class and message are json.loads' (JSONDecodeError, or
        // RecursionError for deep nesting), not the rule's template, so they are set as printed.
        if raised.is_err() {
            if let Some(d) = ctx.diagnostics.last_mut() {
                d.exception = Some(e.exception.to_string());
                d.message = e.message;
                d.span = span;
            }
        }
        return raised;
    }
    Ok(())
}
