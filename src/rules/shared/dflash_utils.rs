//! SGLang's `sglang/srt/speculative/dflash_utils.py`, the part the launch runs on a DFLASH
//! draft's config: `parse_dflash_draft_config` (with `_parse_optional_int`) and
//! `get_dflash_layer_types`, over the draft config's keys as SGLang's `get_config` gives them
//! (`RawFacts::speculative_draft_keys`, `--json-model-override-args` applied).
//!
//! A value whose handling by Python is not reproduced here (an `int()` of an unusual string, a
//! `dict()` of a list) makes the outcome [`Failure::Unknown`]: the caller records the check as
//! not run rather than guess.

use crate::pyvalue::PyValue;

pub const DEFAULT_DFLASH_MASK_TOKEN: &str = "<|MASK|>";

/// Why a parse did not give a config.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// SGLang raises this message (a ValueError of these modules, or Python's own TypeError).
    Raises(String),
    /// What SGLang does with this value is not reproduced here.
    Unknown,
}

pub type Parsed<T> = Result<T, Failure>;

/// A draft's config as `get_config` returns it, reduced to the keys the DFlash / DSpark parsers
/// read: attribute lookups (`_cfg_get`) answer `None` for a key the config does not have.
#[derive(Debug, Clone, PartialEq)]
pub struct DraftHfConfig {
    top: Vec<(String, PyValue)>,
    /// `text_config`, when the config has one (as an object).
    text: Option<Vec<(String, PyValue)>>,
    /// The keys are the loaded config's attributes (its class's defaults included), not only
    /// what its file writes: a key left out is one the config does not have.
    pub complete: bool,
}

fn dict_items(v: &PyValue) -> Option<&[(String, PyValue)]> {
    match v {
        PyValue::Dict(items) => Some(items),
        _ => None,
    }
}

fn set(items: &mut Vec<(String, PyValue)>, key: &str, value: PyValue) {
    match items.iter_mut().find(|(k, _)| k == key) {
        Some(slot) => slot.1 = value,
        None => items.push((key.to_string(), value)),
    }
}

/// `dict.get(key)` on a list of items: the value of a key present (even `None`).
pub fn get<'v>(items: &'v [(String, PyValue)], key: &str) -> Option<&'v PyValue> {
    items.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

impl DraftHfConfig {
    /// The config's `keys` with `get_config`'s `model_override_args` applied: each key set
    /// (a dict given for `text_config` updates that sub-config).
    pub fn new(keys: &serde_json::Map<String, serde_json::Value>, overrides: &[(String, PyValue)], complete: bool) -> Self {
        let mut top: Vec<(String, PyValue)> = keys.iter().filter(|(k, _)| k.as_str() != "text_config").map(|(k, v)| (k.clone(), PyValue::from_json(v))).collect();
        let mut text: Option<Vec<(String, PyValue)>> =
            keys.get("text_config").and_then(serde_json::Value::as_object).map(|o| o.iter().map(|(k, v)| (k.clone(), PyValue::from_json(v))).collect());
        for (key, value) in overrides {
            match (key.as_str(), dict_items(value), text.as_mut()) {
                ("text_config", Some(update), Some(sub)) => {
                    for (k, v) in update {
                        set(sub, k, v.clone());
                    }
                }
                ("text_config", Some(update), None) => text = Some(update.to_vec()),
                _ => set(&mut top, key, value.clone()),
            }
        }
        DraftHfConfig { top, text, complete }
    }

    /// `_cfg_get(config, key, None)`.
    pub fn attr(&self, key: &str) -> Option<&PyValue> {
        get(&self.top, key).filter(|v| !matches!(v, PyValue::None))
    }

    /// `_cfg_get(config, key, default)` keeping a `None` the config sets.
    pub fn attr_or<'v>(&'v self, key: &str, default: &'v PyValue) -> &'v PyValue {
        get(&self.top, key).unwrap_or(default)
    }

    /// `_cfg_get(_get_text_config(config), key, default)`.
    pub fn text_attr_or<'v>(&'v self, key: &str, default: &'v PyValue) -> &'v PyValue {
        match &self.text {
            Some(text) => get(text, key).unwrap_or(default),
            None => self.attr_or(key, default),
        }
    }

    /// `_get_dflash_config(config)` (also dspark_config's `_get_nested_config(config, key)`): the
    /// nested dict, `{}` when absent or when `dict()` of it fails.
    pub fn nested(&self, key: &str) -> Parsed<Vec<(String, PyValue)>> {
        match get(&self.top, key) {
            None | Some(PyValue::None) => Ok(Vec::new()),
            Some(PyValue::Dict(items)) => Ok(items.clone()),
            // dict() of a list of pairs would succeed: not reproduced
            Some(PyValue::List(_)) => Err(Failure::Unknown),
            // dict() of a scalar raises, and the helper answers {}
            Some(_) => Ok(Vec::new()),
        }
    }
}

/// Python's `int(v)`: Ok(value), Err(Raises) when int() raises (its message is not needed: the
/// callers catch it or raise their own), Err(Unknown) where Python's answer is not reproduced.
pub fn py_int(v: &PyValue) -> Parsed<i64> {
    let invalid = || Failure::Raises(String::new());
    match v {
        PyValue::Bool(b) => Ok(i64::from(*b)),
        PyValue::Int(i) => Ok(*i),
        PyValue::Float(f) if f.is_finite() && f.abs() < 9.0e18 => Ok(f.trunc() as i64),
        PyValue::Str(s) => {
            let t = s.trim();
            if !t.is_ascii() {
                return Err(Failure::Unknown);
            }
            let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
            let well_formed = !digits.is_empty()
                && !digits.starts_with('_')
                && !digits.ends_with('_')
                && !digits.contains("__")
                && digits.chars().all(|c| c.is_ascii_digit() || c == '_');
            if !well_formed {
                return Err(invalid());
            }
            // Python also refuses leading zeros ("012"), unless the number is zero
            let plain: String = t.chars().filter(|c| *c != '_').collect();
            let body = plain.trim_start_matches(['+', '-']);
            if body.len() > 1 && body.starts_with('0') && body.chars().any(|c| c != '0') {
                return Err(invalid());
            }
            plain.parse::<i64>().map_err(|_| Failure::Unknown)
        }
        PyValue::None | PyValue::List(_) | PyValue::Dict(_) => Err(invalid()),
        PyValue::BigInt(_) | PyValue::Float(_) => Err(Failure::Unknown),
    }
}

/// Python's `float(v)` (Err(Raises) with Python's TypeError message for a non-number).
fn py_float(v: &PyValue) -> Parsed<f64> {
    match v {
        PyValue::Bool(b) => Ok(if *b { 1.0 } else { 0.0 }),
        PyValue::Int(i) => Ok(*i as f64),
        PyValue::Float(f) => Ok(*f),
        PyValue::Str(s) => s.trim().parse::<f64>().map_err(|_| Failure::Unknown),
        PyValue::None | PyValue::List(_) | PyValue::Dict(_) => {
            Err(Failure::Raises(format!("float() argument must be a string or a real number, not '{}'", v.type_name())))
        }
        PyValue::BigInt(_) => Err(Failure::Unknown),
    }
}

/// `_parse_optional_int(value, field_name=..., min_value=...)`.
pub fn parse_optional_int(value: &PyValue, field_name: &str, min_value: Option<i64>) -> Parsed<Option<i64>> {
    if matches!(value, PyValue::None) {
        return Ok(None);
    }
    let parsed = match py_int(value) {
        Ok(i) => i,
        Err(Failure::Raises(_)) => return Err(Failure::Raises(format!("Invalid {field_name}={}.", value.repr()))),
        Err(Failure::Unknown) => return Err(Failure::Unknown),
    };
    if let Some(min) = min_value {
        if parsed < min {
            let comparator = if min == 1 { "positive".to_string() } else { format!(">= {min}") };
            return Err(Failure::Raises(format!("{field_name} must be {comparator}, got {parsed}.")));
        }
    }
    Ok(Some(parsed))
}

/// `[int(x) for x in layer_ids]` (Python's own error for an element int() refuses: not
/// reproduced).
pub fn int_list(items: &[PyValue]) -> Parsed<Vec<i64>> {
    items.iter().map(|x| py_int(x).map_err(|_| Failure::Unknown)).collect()
}

/// What the launch uses of `DFlashDraftConfig`.
#[derive(Debug, Clone, PartialEq)]
pub struct DFlashDraftConfig {
    pub num_hidden_layers: Option<i64>,
    pub num_target_layers: Option<i64>,
    pub block_size: Option<i64>,
    pub target_layer_ids: Option<Vec<i64>>,
    pub mask_token: String,
    pub mask_token_id: Option<i64>,
}

/// `parse_dflash_draft_config(draft_hf_config=...)`.
pub fn parse_dflash_draft_config(cfg: &DraftHfConfig) -> Parsed<DFlashDraftConfig> {
    parse_dflash_draft_config_of(cfg, true)
}

/// `parse_dflash_draft_config` of a release with (0.5.23) or without (0.5.18) the fields added
/// later: grouped convolution, selector, output multiplier and soft-capping, attention sink
/// bias and value scale, the Domino projector.
pub fn parse_dflash_draft_config_of(cfg: &DraftHfConfig, with_later_fields: bool) -> Parsed<DFlashDraftConfig> {
    let dflash_cfg = cfg.nested("dflash_config")?;
    let none = PyValue::None;
    // dflash_cfg.get(key, _cfg_get(draft_hf_config, key, None))
    let nested_or_top = |key: &str| -> PyValue { get(&dflash_cfg, key).unwrap_or_else(|| cfg.attr_or(key, &none)).clone() };
    let nested_or = |key: &str, default: PyValue| -> PyValue { get(&dflash_cfg, key).cloned().unwrap_or(default) };

    let num_hidden_layers = parse_optional_int(cfg.text_attr_or("num_hidden_layers", &none), "DFLASH draft num_hidden_layers", Some(1))?;
    let num_target_layers = parse_optional_int(&nested_or_top("num_target_layers"), "DFLASH draft num_target_layers", Some(1))?;
    let block_size = parse_optional_int(&nested_or_top("block_size"), "DFLASH block_size", Some(1))?;
    if with_later_fields {
        let conv_kernel_size = parse_optional_int(&nested_or("conv_kernel_size", PyValue::Int(0)), "DFLASH conv_kernel_size", Some(0))?;
        let conv_group_size = parse_optional_int(&nested_or("conv_group_size", PyValue::Int(0)), "DFLASH conv_group_size", Some(0))?;
        let truthy = |v: Option<i64>| v.is_some_and(|i| i != 0);
        let show = |v: Option<i64>| v.map_or_else(|| "None".to_string(), |i| i.to_string());
        if truthy(conv_kernel_size) != truthy(conv_group_size) {
            return Err(Failure::Raises(format!(
                "DFLASH grouped convolution needs conv_kernel_size and conv_group_size together. Got conv_kernel_size={}, conv_group_size={}.",
                show(conv_kernel_size),
                show(conv_group_size)
            )));
        }
        let selector_rank = parse_optional_int(&nested_or("selector_rank", PyValue::Int(0)), "DFLASH selector rank", Some(0))?;
        let selector_top_k = parse_optional_int(&nested_or("selector_top_k", PyValue::Int(0)), "DFLASH selector top_k", Some(0))?;
        if truthy(selector_rank) != truthy(selector_top_k) {
            return Err(Failure::Raises(format!(
                "DFLASH selector needs rank and top_k together. Got rank={}, top_k={}.",
                show(selector_rank),
                show(selector_top_k)
            )));
        }
        let output_multiplier = py_float(&nested_or("output_multiplier", PyValue::Float(1.0)))?;
        if output_multiplier <= 0.0 {
            return Err(Failure::Raises("DFLASH output_multiplier must be positive.".into()));
        }
        // float(dflash_cfg.get("final_logit_softcapping") or 0.0)
        let softcap = nested_or("final_logit_softcapping", PyValue::None);
        if softcap.truthy() {
            py_float(&softcap)?;
        }
    }

    let target_layer_ids = match nested_or_top("target_layer_ids") {
        PyValue::None => None,
        PyValue::List(items) => {
            let ids = int_list(&items)?;
            if ids.is_empty() {
                return Err(Failure::Raises("DFLASH dflash_config.target_layer_ids must be non-empty. Got len(target_layer_ids)=0.".into()));
            }
            Some(ids)
        }
        other => {
            return Err(Failure::Raises(format!("DFLASH dflash_config.target_layer_ids must be a list of ints, got type={}.", other.type_name())));
        }
    };

    let mask_token = match nested_or_top("mask_token") {
        PyValue::None => DEFAULT_DFLASH_MASK_TOKEN.to_string(),
        PyValue::Str(s) if !s.is_empty() => s,
        other => return Err(Failure::Raises(format!("DFLASH dflash_config.mask_token must be a non-empty string, got {}.", other.repr()))),
    };
    let mask_token_id = match nested_or_top("mask_token_id") {
        PyValue::None => None,
        PyValue::Int(i) if i < 0 => return Err(Failure::Raises(format!("DFLASH dflash_config.mask_token_id must be non-negative, got {i}."))),
        PyValue::Int(i) => Some(i),
        PyValue::BigInt(_) => return Err(Failure::Unknown),
        other => {
            return Err(Failure::Raises(format!(
                "DFLASH dflash_config.mask_token_id must be an integer, got {} (type={}).",
                other.repr(),
                other.type_name()
            )))
        }
    };

    if with_later_fields {
        let sink_bias = nested_or("attention_sink_bias", PyValue::Bool(false));
        if !matches!(sink_bias, PyValue::Bool(_)) {
            return Err(Failure::Raises(format!(
                "DFLASH dflash_config.attention_sink_bias must be a bool, got {} (type={}).",
                sink_bias.repr(),
                sink_bias.type_name()
            )));
        }
        let value_scale = nested_or("attention_value_scale", PyValue::None);
        if !matches!(value_scale, PyValue::None | PyValue::Int(_) | PyValue::BigInt(_) | PyValue::Float(_)) {
            return Err(Failure::Raises(format!(
                "DFLASH dflash_config.attention_value_scale must be int|float|None, got {} (type={}).",
                value_scale.repr(),
                value_scale.type_name()
            )));
        }

        if matches!(nested_or_top("projector_type"), PyValue::Str(ref p) if p == "domino") {
            domino(cfg, &dflash_cfg, block_size)?;
        }
    }

    Ok(DFlashDraftConfig { num_hidden_layers, num_target_layers, block_size, target_layer_ids, mask_token, mask_token_id })
}

/// The Domino projector's fields, in `parse_dflash_draft_config`'s order.
fn domino(cfg: &DraftHfConfig, dflash_cfg: &[(String, PyValue)], block_size: Option<i64>) -> Parsed<()> {
    let none = PyValue::None;
    let nested_or_top = |key: &str| -> PyValue { get(dflash_cfg, key).unwrap_or_else(|| cfg.attr_or(key, &none)).clone() };
    let shift_label = nested_or_top("shift_label");
    let pure_draft_prefix_len = parse_optional_int(&nested_or_top("pure_draft_prefix_len"), "DFLASH Domino pure_draft_prefix_len", Some(0))?;
    let gru_hidden_dim = parse_optional_int(&nested_or_top("gru_hidden_dim"), "DFLASH Domino gru_hidden_dim", Some(1))?;
    let nested_emb_dim = parse_optional_int(get(dflash_cfg, "emb_dim").unwrap_or(&none), "DFLASH Domino dflash_config.emb_dim", Some(1))?;
    let top_level_emb_dim = parse_optional_int(cfg.attr_or("emb_dim", &none), "DFLASH Domino top-level emb_dim", Some(1))?;
    if let (Some(n), Some(t)) = (nested_emb_dim, top_level_emb_dim) {
        if n != t {
            return Err(Failure::Raises(format!("DFLASH Domino emb_dim differs between dflash_config and the top-level config: {n} != {t}.")));
        }
    }
    if !matches!(shift_label, PyValue::Bool(_)) {
        return Err(Failure::Raises(format!("DFLASH Domino requires dflash_config.shift_label to be a bool, got {}.", shift_label.repr())));
    }
    if pure_draft_prefix_len != Some(1) {
        let shown = pure_draft_prefix_len.map_or_else(|| "None".to_string(), |i| i.to_string());
        return Err(Failure::Raises(format!("DFLASH Domino currently requires pure_draft_prefix_len=1, got {shown}.")));
    }
    if gru_hidden_dim.is_none() {
        return Err(Failure::Raises("DFLASH Domino requires dflash_config.gru_hidden_dim.".into()));
    }
    if nested_emb_dim.or(top_level_emb_dim).is_none() {
        return Err(Failure::Raises("DFLASH Domino requires dflash_config.emb_dim.".into()));
    }
    if let Some(b) = block_size.filter(|b| *b <= 1) {
        return Err(Failure::Raises(format!("DFLASH Domino requires block_size > 1, got {b}.")));
    }
    Ok(())
}

/// `get_dflash_layer_types(config)`: `layer_types` of the text config (else the config's); None
/// when neither has it. Err(Raises) for a string or a non-sequence.
pub fn get_dflash_layer_types(cfg: &DraftHfConfig) -> Parsed<Option<Vec<PyValue>>> {
    let none = PyValue::None;
    let outer = cfg.attr_or("layer_types", &none);
    match cfg.text_attr_or("layer_types", outer) {
        PyValue::None => Ok(None),
        PyValue::List(items) => Ok(Some(items.clone())),
        _ => Err(Failure::Raises("DFLASH config.layer_types must be a sequence of attention type strings.".into())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(json: &str, overrides: &[(String, PyValue)]) -> DraftHfConfig {
        let v: serde_json::Value = serde_json::from_str(json).unwrap_or_default();
        let map = v.as_object().cloned().unwrap_or_default();
        DraftHfConfig::new(&map, overrides, false)
    }

    #[test]
    fn nested_block_size_wins_over_the_top_level_one() {
        let c = config(r#"{"block_size": 8, "dflash_config": {"block_size": 16, "mask_token_id": 5}}"#, &[]);
        let parsed = parse_dflash_draft_config(&c).ok();
        assert_eq!(parsed.as_ref().and_then(|p| p.block_size), Some(16));
        assert_eq!(parsed.and_then(|p| p.mask_token_id), Some(5));
    }

    #[test]
    fn overrides_replace_a_nested_dict_whole() {
        let over = vec![("dflash_config".to_string(), PyValue::Dict(vec![("block_size".into(), PyValue::Int(0))]))];
        let c = config(r#"{"dflash_config": {"block_size": 16}}"#, &over);
        assert_eq!(parse_dflash_draft_config(&c), Err(Failure::Raises("DFLASH block_size must be positive, got 0.".into())));
    }

    #[test]
    fn messages_follow_python() {
        let c = config(r#"{"dflash_config": {"mask_token_id": true}}"#, &[]);
        assert_eq!(parse_dflash_draft_config(&c), Err(Failure::Raises("DFLASH dflash_config.mask_token_id must be an integer, got True (type=bool).".into())));
        let c = config(r#"{"block_size": "x"}"#, &[]);
        assert_eq!(parse_dflash_draft_config(&c), Err(Failure::Raises("Invalid DFLASH block_size='x'.".into())));
        let c = config(r#"{"dflash_config": {"conv_kernel_size": 2}}"#, &[]);
        assert_eq!(
            parse_dflash_draft_config(&c),
            Err(Failure::Raises("DFLASH grouped convolution needs conv_kernel_size and conv_group_size together. Got conv_kernel_size=2, conv_group_size=0.".into()))
        );
        let c = config(r#"{"layer_types": "sliding_attention"}"#, &[]);
        assert!(matches!(get_dflash_layer_types(&c), Err(Failure::Raises(_))));
    }

    #[test]
    fn python_int_of_strings() {
        assert_eq!(py_int(&PyValue::Str(" 12 ".into())), Ok(12));
        assert_eq!(py_int(&PyValue::Str("1_0".into())), Ok(10));
        assert!(matches!(py_int(&PyValue::Str("012".into())), Err(Failure::Raises(_))));
        assert!(matches!(py_int(&PyValue::Str("1.5".into())), Err(Failure::Raises(_))));
        assert_eq!(py_int(&PyValue::Str("00".into())), Ok(0));
    }
}
