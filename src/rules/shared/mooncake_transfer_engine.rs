//! `sglang/srt/distributed/device_communicators/mooncake_transfer_engine.py::parse_ib_device_config`:
//! an IB device setting given as a per-GPU JSON mapping (`{"0": "mlx5_0", ...}`) or a `.json`
//! file holding one. `validation_hook.validate_ib_devices` (`shared::ib_devices`) calls it for
//! `--disaggregation-ib-device` (PD disaggregation with Mooncake) and `--mooncake-ib-device`
//! (elastic EP with Mooncake). A `.json` file is read on the serving machine: not run here.

use crate::diagnostic::Applicability;
use crate::fields::Field;
use crate::pyjson;
use crate::pyvalue::PyValue;
use crate::rules::{raises, site, Ctx, NotRunReason, Rule};
const FLAGS: &[&str] = &["--disaggregation-ib-device", "--mooncake-ib-device"];

pub static INVALID_JSON: Rule = Rule {
    code: "MTE001",
    name: kebab!("ib-device-mapping-invalid-json"),
    sglang: raises("distributed.device_communicators.mooncake_transfer_engine.parse_ib_device_config", "Invalid JSON mapping: {normalized_input}"),
    explanation: expl!("An IB device setting that starts with '{' is read as a JSON mapping from GPU id to devices, and this one is not valid JSON (keys and strings need double quotes, and the whole value must be one shell word). For one device list for all GPUs, give it without braces: mlx5_0,mlx5_1."),
    flags: FLAGS,
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-ib-device '{0: mlx5_0}'"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-ib-device '{\"0\": \"mlx5_0\"}'"),
};

pub static BAD_ENTRY: Rule = Rule {
    code: "MTE002",
    name: kebab!("ib-device-mapping-bad-entry"),
    sglang: raises("distributed.device_communicators.mooncake_transfer_engine.parse_ib_device_config", "Invalid format: keys must be integers"),
    explanation: expl!("In a JSON IB device mapping each key is a GPU id (digits, such as \"0\") and each value a string of comma-separated device names."),
    flags: FLAGS,
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-ib-device '{\"gpu0\": \"mlx5_0\"}'"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-ib-device '{\"0\": \"mlx5_0\"}'"),
};

pub static EMPTY_MAPPING: Rule = Rule {
    code: "MTE003",
    name: kebab!("ib-device-mapping-empty"),
    sglang: raises("distributed.device_communicators.mooncake_transfer_engine.parse_ib_device_config", "No valid GPU mappings found in JSON"),
    explanation: expl!("An empty JSON IB device mapping names no device for any GPU; leave the flag out to let Mooncake discover devices."),
    flags: FLAGS,
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-ib-device '{}'"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill"),
};

pub static RULES: &[&Rule] = &[&INVALID_JSON, &BAD_ENTRY, &EMPTY_MAPPING];

/// `parse_ib_device_config` for a JSON-shaped `normalized` (it ends with `.json` or starts with
/// `{`): the mapping from GPU id to its device list, in Python's dict order. None when it raised
/// or could not be checked here.
pub fn parse_ib_device_config(ctx: &mut Ctx, normalized: &str, dest: Field) -> Option<Vec<(i64, String)>> {
    if normalized.ends_with(".json") {
        // The file is read on the serving machine: whether it exists, reads, parses and holds a mapping.
        ctx.skip(site("distributed.device_communicators.mooncake_transfer_engine.parse_ib_device_config", "File {normalized_input} does not exist."), NotRunReason::Files);
        ctx.skip(site("distributed.device_communicators.mooncake_transfer_engine.parse_ib_device_config", "Failed to parse JSON content from file"), NotRunReason::Files);
        ctx.skip(site("distributed.device_communicators.mooncake_transfer_engine.parse_ib_device_config", "Failed to read JSON file"), NotRunReason::Files);
        ctx.skip(site("distributed.device_communicators.mooncake_transfer_engine.parse_ib_device_config", "Invalid format: expected a mapping"), NotRunReason::Files);
        return None;
    }
    let drop = |ctx: &Ctx| ctx.fix_remove("Drop the device mapping (auto discovery)", dest, Applicability::Unsafe);
    let mapping = match pyjson::loads(normalized) {
        Ok(v) => v,
        Err(e) if e.exception == "JSONDecodeError" => {
            let fixes = vec![drop(ctx)];
            let _ = ctx.raise(&INVALID_JSON, &[("normalized_input", &normalized)], &[dest], fixes);
            return None;
        }
        Err(_) => {
            ctx.skip(site("distributed.device_communicators.mooncake_transfer_engine.parse_ib_device_config", "Invalid JSON mapping: {normalized_input}"), NotRunReason::NotImplemented);
            return None;
        }
    };
    // A JSON text that starts with '{' is an object: #5 (not a mapping) is for `.json` files.
    let PyValue::Dict(items) = mapping else { return None };
    // json.loads keeps a repeated key once, at its first place, with its last value.
    let mut keys: Vec<(&str, &PyValue)> = Vec::new();
    for (k, v) in &items {
        match keys.iter_mut().find(|(kk, _)| *kk == k.as_str()) {
            Some(slot) => slot.1 = v,
            None => keys.push((k.as_str(), v)),
        }
    }
    let mut out: Vec<(i64, String)> = Vec::new();
    for (key, value) in keys {
        if !key.is_ascii() {
            // str.isdigit() takes other Unicode digits, which int() may then reject.
            ctx.skip(site("distributed.device_communicators.mooncake_transfer_engine.parse_ib_device_config", "Invalid format: keys must be integers"), NotRunReason::NotImplemented);
            return None;
        }
        let id = if !key.is_empty() && key.bytes().all(|b| b.is_ascii_digit()) { key.parse::<i64>().ok() } else { None };
        let (Some(id), PyValue::Str(devices)) = (id, value) else {
            let fixes = vec![drop(ctx)];
            let _ = ctx.raise(&BAD_ENTRY, &[], &[dest], fixes);
            return None;
        };
        let devices = devices.trim().to_string();
        match out.iter_mut().find(|(k, _)| *k == id) {
            Some(slot) => slot.1 = devices,
            None => out.push((id, devices)),
        }
    }
    if out.is_empty() {
        let fixes = vec![drop(ctx)];
        let _ = ctx.raise(&EMPTY_MAPPING, &[], &[dest], fixes);
        return None;
    }
    Some(out)
}
