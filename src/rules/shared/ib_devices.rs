//! `validation_hook.validate_ib_devices` (with `_normalize_device_group`): the InfiniBand device
//! lists of `--disaggregation-ib-device` and `--mooncake-ib-device`, checked against the hardware
//! profile. SGLang's PD disaggregation and elastic-EP hooks both call it.

use crate::diagnostic::Applicability;
use crate::fields::{f, Field};
use crate::pyvalue::{str_repr, PyValue};
use super::mooncake_transfer_engine::parse_ib_device_config;
use crate::rules::{raises, warns, Args, Ctx, Rule};

pub static IB_EMPTY: Rule = Rule {
    code: "PD040",
    name: kebab!("ib-device-empty"),
    sglang: raises("validation_hook.validate_ib_devices", "No valid IB devices specified"),
    explanation: expl!("An InfiniBand device list that is empty or only spaces names no device; leave the flag out to let Mooncake discover devices."),
    flags: &["--disaggregation-ib-device", "--mooncake-ib-device"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-ib-device ' '"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill"),
};
pub static IB_NO_SYSFS: Rule = Rule {
    code: "PD041",
    name: kebab!("ib-sysfs-missing"),
    sglang: raises("validation_hook.validate_ib_devices", "InfiniBand sysfs path not found: {ib_sysfs_path}."),
    explanation: expl!("Explicit IB devices are checked against /sys/class/infiniband; on a machine without InfiniBand drivers that folder does not exist."),
    flags: &["--disaggregation-ib-device", "--mooncake-ib-device"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-ib-device mlx5_0"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill"),
};
pub static IB_GROUP_EMPTY: Rule = Rule {
    code: "PD043",
    name: kebab!("ib-device-group-empty"),
    sglang: raises("validation_hook.validate_ib_devices._normalize_device_group", "No valid IB devices specified for {context}"),
    explanation: expl!("The comma-separated IB device list contains no device name."),
    flags: &["--disaggregation-ib-device", "--mooncake-ib-device"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-ib-device ,"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-ib-device mlx5_0"),
};
pub static IB_UNKNOWN: Rule = Rule {
    code: "PD044",
    name: kebab!("ib-device-unknown"),
    sglang: raises("validation_hook.validate_ib_devices._normalize_device_group", "Invalid IB devices specified for {context}:"),
    explanation: expl!("Every IB device named must exist under /sys/class/infiniband on this machine."),
    flags: &["--disaggregation-ib-device", "--mooncake-ib-device"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-ib-device mlx5_9"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-ib-device mlx5_0"),
};
pub static IB_AUTO_WARNING: Rule = Rule {
    code: "PD045",
    name: kebab!("ib-device-auto-discovery"),
    sglang: warns("validation_hook.validate_ib_devices", "No IB devices specified for Mooncake backend,"),
    explanation: expl!("Mooncake picks InfiniBand devices itself when none are named."),
    flags: &["--disaggregation-ib-device", "--mooncake-ib-device"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static IB_DUPLICATE_WARNING: Rule = Rule {
    code: "PD046",
    name: kebab!("ib-device-duplicate"),
    sglang: warns("validation_hook.validate_ib_devices._normalize_device_group", "Duplicate IB devices specified for {context}:"),
    explanation: expl!("An IB device listed twice is used once."),
    flags: &["--disaggregation-ib-device", "--mooncake-ib-device"],
    example_bad: ex!(""),
    example_good: ex!(""),
};

/// Every rule of this helper (codes kept from the PD family, which listed them first).
pub static RULES: &[&Rule] = &[&IB_EMPTY, &IB_NO_SYSFS, &IB_GROUP_EMPTY, &IB_UNKNOWN, &IB_AUTO_WARNING, &IB_DUPLICATE_WARNING];

/// `validation_hook.validate_ib_devices` for the plain comma-separated form, against the
/// profile's `/sys/class/infiniband` (`mlx5_0`.. as the recorder's profiles list them).
/// Returns the normalized value, or None when it raised (or the form could not be checked:
/// `.json` files are not read here).
pub fn validate_ib_devices(ctx: &mut Ctx, device: Option<&str>, dest: Field) -> Option<PyValue> {
    let Some(raw) = device else {
        // on the flag that chose Mooncake (the transfer backend is Mooncake by default), not
        // the launcher
        let chosen_by = [dest, f::elastic_ep_backend, f::disaggregation_transfer_backend, f::encoder_transfer_backend, f::disaggregation_mode];
        ctx.warn(&IB_AUTO_WARNING, &[], &chosen_by, vec![]);
        return Some(PyValue::None);
    };
    let normalized = raw.trim();
    if normalized.is_empty() {
        let fixes = vec![ctx.fix_remove("Drop the empty device list (auto discovery)", dest, Applicability::Safe)];
        ctx.raise(&IB_EMPTY, &[], &[dest], fixes).ok()?;
    }
    if ctx.hw.ib_devices == 0 {
        let fixes = vec![ctx.fix_remove("Drop the device list (auto discovery)", dest, Applicability::Unsafe)];
        ctx.raise(&IB_NO_SYSFS, &[("ib_sysfs_path", &"/sys/class/infiniband")], &[dest], fixes).ok()?;
    }
    if normalized.ends_with(".json") || normalized.starts_with('{') {
        let mapping = parse_ib_device_config(ctx, normalized, dest)?;
        let mut groups: Vec<String> = Vec::new();
        for (gpu, devices) in mapping {
            let group = normalize_device_group(ctx, &devices, &format!("GPU {gpu}"), dest)?;
            // json.dumps(..., separators=(",", ":")): device names that passed are sysfs names.
            groups.push(format!("\"{gpu}\":\"{group}\""));
        }
        return Some(PyValue::Str(format!("{{{}}}", groups.join(","))));
    }
    normalize_device_group(ctx, normalized, "all GPUs", dest).map(PyValue::Str)
}

/// `_normalize_device_group(raw_value, context)`: the comma-separated devices, deduplicated,
/// each present under `/sys/class/infiniband`. None when it raised.
fn normalize_device_group(ctx: &mut Ctx, normalized: &str, context: &str, dest: Field) -> Option<String> {
    let available: Vec<String> = (0..ctx.hw.ib_devices).map(|i| format!("mlx5_{i}")).collect();
    let devices: Vec<&str> = normalized.split(',').map(str::trim).filter(|d| !d.is_empty()).collect();
    if devices.is_empty() {
        ctx.raise(&IB_GROUP_EMPTY, &[("context", &context)], &[dest], vec![]).ok()?;
    }
    let mut unique: Vec<&str> = Vec::new();
    for d in &devices {
        if !unique.contains(d) {
            unique.push(d);
        }
    }
    if unique.len() != devices.len() {
        ctx.warn(
            &IB_DUPLICATE_WARNING,
            &[("context", &context), ("raw_value", &normalized), ("','.join(unique_devices)", &unique.join(","))],
            &[dest],
            vec![],
        );
    }
    let invalid: Vec<&str> = unique.iter().copied().filter(|d| !available.iter().any(|a| a == d)).collect();
    if !invalid.is_empty() {
        let mut sorted = available.clone();
        crate::sorting::sort(&mut sorted);
        let list = |v: &[&str]| format!("[{}]", v.iter().map(|s| str_repr(s)).collect::<Vec<_>>().join(", "));
        let avail: Vec<&str> = sorted.iter().map(String::as_str).collect();
        let valid: Vec<&str> = unique.iter().copied().filter(|d| available.iter().any(|a| a == d)).collect();
        let mut fixes = Vec::new();
        if context == "all GPUs" && !valid.is_empty() && ctx.cfg.setting(dest).is_some_and(|s| !s.option.is_empty()) {
            fixes.push(ctx.fix_set("Keep only the devices that exist", dest, &valid.join(","), Applicability::Unsafe));
        }
        fixes.push(ctx.fix_remove("Drop the device list (auto discovery)", dest, Applicability::Unsafe));
        let args: &Args = &[("context", &context), ("invalid_devices", &list(&invalid)), ("sorted(available_devices)", &list(&avail))];
        ctx.raise(&IB_UNKNOWN, args, &[dest], fixes).ok()?;
    }
    Some(unique.join(","))
}
