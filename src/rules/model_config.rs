//! Model-config construction (`sglang/srt/configs/model_config.py::ModelConfig.__init__`): the
//! flag-only parts. `--json-model-override-args` is parsed with `json.loads` when SGLang first
//! builds the model config, so invalid JSON surfaces there, as Python's `JSONDecodeError`.

use super::{Ctx, Rule};
use crate::diagnostic::Applicability;
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
        // object keys written without quotes (`{rope_theta: 1000000}`): quote them
        let fixes = quote_bare_keys(&text)
            .filter(|fixed| pyjson::loads(fixed).is_ok())
            .map(|fixed| ctx.fix_set("Quote the keys", f::json_model_override_args, &crate::shell::single_quote(&fixed), Applicability::Safe))
            .into_iter()
            .collect();
        let raised = ctx.raise(&OVERRIDE_ARGS_JSON, &[], &[f::json_model_override_args], fixes);
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

/// `text` with each bare object key (a name right after `{` or `,`, followed by `:`) put in
/// double quotes; None when there is none.
fn quote_bare_keys(text: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 8);
    let mut in_string = false;
    let mut last_sig = ' ';
    let mut changed = false;
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        if in_string {
            out.push(c);
            if c == '\\' {
                if let Some(&n) = chars.get(i + 1) {
                    out.push(n);
                    i += 1;
                }
            } else if c == '"' {
                in_string = false;
                last_sig = '"';
            }
            i += 1;
            continue;
        }
        if c == '"' {
            in_string = true;
        } else if (c.is_ascii_alphabetic() || c == '_') && matches!(last_sig, '{' | ',') {
            let start = i;
            while chars.get(i).is_some_and(|&k| k.is_ascii_alphanumeric() || matches!(k, '_' | '-' | '.')) {
                i += 1;
            }
            let mut j = i;
            while chars.get(j).is_some_and(|k| k.is_whitespace()) {
                j += 1;
            }
            let word: String = chars.get(start..i).unwrap_or(&[]).iter().collect();
            if chars.get(j) == Some(&':') {
                out.push('"');
                out.push_str(&word);
                out.push('"');
                changed = true;
            } else {
                out.push_str(&word);
            }
            last_sig = 'a';
            continue;
        }
        out.push(c);
        if !c.is_whitespace() {
            last_sig = c;
        }
        i += 1;
    }
    changed.then_some(out)
}
