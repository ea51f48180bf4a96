//! SGLang's `sglang/srt/speculative/dspark_components/dspark_config.py`, the part the launch runs
//! on a DSpark draft's config: `parse_dspark_draft_config` (over
//! [`parse_dflash_draft_config`]'s result) and `checkpoint_bundles_dspark_draft`.

use super::dflash_utils::{get, int_list, parse_dflash_draft_config_of, py_int, DraftHfConfig, Failure, Parsed};
use crate::pyvalue::PyValue;

pub const DEFAULT_DSPARK_GAMMA: i64 = 7;
const SUPPORTED_DSPARK_MARKOV_HEAD_TYPES: &[&str] = &["vanilla", "gated", "rnn"];

/// What the launch uses of `DSparkDraftConfig`.
#[derive(Debug, Clone, PartialEq)]
pub struct DSparkDraftConfig {
    pub gamma: Option<i64>,
    pub target_layer_ids: Option<Vec<i64>>,
    pub mask_token_id: Option<i64>,
    pub markov_rank: i64,
    pub markov_head_type: Option<String>,
}

/// `int(x)` where Python's own error would propagate (its message is not reproduced).
fn int_or_unknown(v: &PyValue) -> Parsed<i64> {
    py_int(v).map_err(|_| Failure::Unknown)
}

/// `checkpoint_bundles_dspark_draft(hf_config)`: the target's config carries the prefixed
/// `dspark_*` keys of a bundled draft head.
pub fn checkpoint_bundles_dspark_draft(cfg: &DraftHfConfig) -> bool {
    ["dspark_block_size", "dspark_markov_rank", "dspark_noise_token_id", "dspark_target_layer_ids"].iter().any(|k| cfg.attr(k).is_some())
}

/// How a release's `parse_dspark_draft_config` reads a draft's config.
pub struct DSparkParser {
    /// `_get_dspark_config`'s nested sections, later ones winning.
    sections: &'static [&'static str],
    /// Whether its `parse_dflash_draft_config` reads the fields added after 0.5.18.
    dflash_later_fields: bool,
}

/// 0.5.23's: `{**dflash_config, **dspark_config}` (published drafts nest their fields under
/// dflash_config).
pub const DSPARK_PARSER: DSparkParser = DSparkParser { sections: &["dflash_config", "dspark_config"], dflash_later_fields: true };
/// 0.5.18's: dspark_config alone, and the DFLASH part without the fields added later.
pub const DSPARK_PARSER_0518: DSparkParser = DSparkParser { sections: &["dspark_config"], dflash_later_fields: false };

/// `parse_dspark_draft_config(draft_hf_config=...)`.
pub fn parse_dspark_draft_config(cfg: &DraftHfConfig) -> Parsed<DSparkDraftConfig> {
    parse_dspark_draft_config_as(cfg, &DSPARK_PARSER)
}

/// `parse_dspark_draft_config` as the release `parser` describes writes it.
pub fn parse_dspark_draft_config_as(cfg: &DraftHfConfig, parser: &DSparkParser) -> Parsed<DSparkDraftConfig> {
    let base = parse_dflash_draft_config_of(cfg, parser.dflash_later_fields)?;
    let mut dspark_cfg = Vec::new();
    for (k, v) in parser.sections.iter().map(|section| cfg.nested(section)).collect::<Result<Vec<_>, _>>()?.into_iter().flatten() {
        match dspark_cfg.iter_mut().find(|(key, _)| *key == k) {
            Some(slot) => slot.1 = v,
            None => dspark_cfg.push((k, v)),
        }
    }
    let prefixed_block_size = cfg.attr("dspark_block_size");
    let prefixed_markov_rank = cfg.attr("dspark_markov_rank");
    let prefixed_markov_head_type = cfg.attr("dspark_markov_head_type");
    let prefixed_noise_token_id = cfg.attr("dspark_noise_token_id");
    let prefixed_target_layer_ids = cfg.attr("dspark_target_layer_ids");
    let uses_prefixed = prefixed_block_size.is_some() || prefixed_markov_rank.is_some() || prefixed_noise_token_id.is_some() || prefixed_target_layer_ids.is_some();
    // dspark_cfg.get(key, _cfg_get(text_config, key, _cfg_get(draft_hf_config, key, default)))
    let layered = |key: &str, default: PyValue| -> PyValue {
        match get(&dspark_cfg, key) {
            Some(v) => v.clone(),
            None => {
                let outer = cfg.attr_or(key, &default).clone();
                cfg.text_attr_or(key, &outer).clone()
            }
        }
    };

    let raw_markov_rank = prefixed_markov_rank.cloned().unwrap_or_else(|| layered("markov_rank", PyValue::Int(0)));
    let markov_rank = if matches!(raw_markov_rank, PyValue::None) { 0 } else { int_or_unknown(&raw_markov_rank)? };
    if markov_rank < 0 {
        return Err(Failure::Raises(format!("DSpark markov_rank must be >= 0, got {markov_rank}.")));
    }
    let raw_head_type = prefixed_markov_head_type.cloned().unwrap_or_else(|| layered("markov_head_type", PyValue::None));
    if markov_rank > 0 && matches!(raw_head_type, PyValue::None) && !uses_prefixed {
        return Err(Failure::Raises("DSpark requires markov_head_type when markov_rank > 0, got None.".into()));
    }
    let markov_head_type = match raw_head_type {
        PyValue::None => None,
        // str(x).lower(): other types' str() is their repr here (True, 5, [..])
        ref v => {
            let lowered = v.py_str().to_lowercase();
            if !SUPPORTED_DSPARK_MARKOV_HEAD_TYPES.contains(&lowered.as_str()) {
                return Err(Failure::Raises(format!(
                    "Unsupported DSpark markov_head_type={}. Supported: ('vanilla', 'gated', 'rnn').",
                    PyValue::Str(lowered).repr()
                )));
            }
            Some(lowered)
        }
    };

    let base_mask = base.mask_token_id.map_or(PyValue::None, PyValue::Int);
    let raw_mask_token_id = prefixed_noise_token_id.cloned().unwrap_or_else(|| layered("mask_token_id", base_mask));
    let mask_token_id = if matches!(raw_mask_token_id, PyValue::None) { None } else { Some(int_or_unknown(&raw_mask_token_id)?) };
    if let Some(id) = mask_token_id.filter(|id| *id < 0) {
        return Err(Failure::Raises(format!("DSpark mask_token_id must be non-negative, got {id}.")));
    }

    let gamma = match prefixed_block_size {
        Some(v) => Some(int_or_unknown(v)?),
        None => base.block_size,
    };

    let target_layer_ids = match prefixed_target_layer_ids {
        None => base.target_layer_ids,
        Some(PyValue::List(items)) if !items.is_empty() => Some(int_list(items)?),
        Some(other) => {
            return Err(Failure::Raises(format!("DSpark dspark_target_layer_ids must be a non-empty list of ints, got {}.", other.repr())));
        }
    };
    Ok(DSparkDraftConfig { gamma, target_layer_ids, mask_token_id, markov_rank, markov_head_type })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(json: &str) -> DraftHfConfig {
        let v: serde_json::Value = serde_json::from_str(json).unwrap_or_default();
        DraftHfConfig::new(&v.as_object().cloned().unwrap_or_default(), &[], false)
    }

    #[test]
    fn gamma_from_block_size_and_prefixed_keys() {
        let c = config(r#"{"dflash_config": {"block_size": 7, "markov_rank": 256, "markov_head_type": "Vanilla", "mask_token_id": 3}}"#);
        let parsed = parse_dspark_draft_config(&c);
        assert_eq!(parsed.as_ref().ok().and_then(|p| p.gamma), Some(7));
        assert_eq!(parsed.ok().and_then(|p| p.markov_head_type), Some("vanilla".to_string()));
        let c = config(r#"{"dspark_block_size": 3, "dspark_markov_rank": 8}"#);
        assert_eq!(parse_dspark_draft_config(&c).ok().and_then(|p| p.gamma), Some(3));
        assert!(checkpoint_bundles_dspark_draft(&c));
    }

    #[test]
    fn refusals() {
        let c = config(r#"{"markov_rank": 4}"#);
        assert_eq!(parse_dspark_draft_config(&c), Err(Failure::Raises("DSpark requires markov_head_type when markov_rank > 0, got None.".into())));
        let c = config(r#"{"markov_rank": 4, "markov_head_type": "lstm"}"#);
        assert_eq!(
            parse_dspark_draft_config(&c),
            Err(Failure::Raises("Unsupported DSpark markov_head_type='lstm'. Supported: ('vanilla', 'gated', 'rnn').".into()))
        );
        let c = config(r#"{"dspark_target_layer_ids": []}"#);
        assert_eq!(parse_dspark_draft_config(&c), Err(Failure::Raises("DSpark dspark_target_layer_ids must be a non-empty list of ints, got [].".into())));
    }
}
