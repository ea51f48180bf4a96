//! "What SGLang will run with": the resolved values of accepted commands, their unknowns, and
//! the pin fixes (conformance with SGLang's recorded values is `tests/conformance.rs`).
#![allow(clippy::indexing_slicing, clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use sglang_preflight::check::{check, CheckOptions};
use sglang_preflight::resolved::UnknownReason;
use sglang_preflight::resolved_report::Source;

const CMD: &str = "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp 2 --dp-size 2 --enable-dp-attention";

#[test]
fn accepted_command_has_resolved_values_with_their_steps() {
    let report = check(CMD, &CheckOptions::default());
    let c = &report.commands[0];
    assert!(c.accepted);
    let r = c.resolved.as_ref().expect("an accepted command is resolved");
    let tp = r.get("tp_size").expect("tp_size is known");
    assert_eq!((tp.repr().as_str(), tp.source, tp.differs_from_default), ("2", Source::Command, true));
    let dp_attn = r.get("enable_dp_attention").expect("enable_dp_attention is known");
    assert_eq!(dp_attn.set_by, Some("parallel_hook.handle_deprecated_dp_attention"));
    // the attention backend SGLang picks by default depends on the model: a catalog model's is
    // known; the model's config gives the context length (SGLang does not write it back)
    let why = |f: &str| r.unknown.iter().find(|u| u.field == f).map(|u| u.reason);
    assert_eq!(why("attention_backend"), None, "{:?}", r.unknown);
    assert!(r.get("attention_backend").is_some_and(|v| v.source == Source::Derived));
    assert_eq!(why("context_length"), Some(UnknownReason::ModelConfig));
    // a model nothing is known of: its backend is not known
    let unknown = check("python -m sglang.launch_server --model-path /models/private-model --tp 2", &CheckOptions::default());
    let r = unknown.commands[0].resolved.as_ref().unwrap();
    assert!(r.get("attention_backend").is_none() && r.unknown.iter().any(|u| u.field == "attention_backend"), "{:?}", r.unknown);
    // JSON: `resolved` is a map in the reported order, floats as numbers, None as null
    let text = serde_json::to_string(&report).unwrap();
    assert!(text.contains(r#""resolved":{"tp_size":2,"#), "{text}");
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let resolved = json["commands"][0]["resolved"].as_object().unwrap();
    assert_eq!(resolved["hicache_ratio"], serde_json::json!(2.0));
    assert_eq!(resolved["reasoning_parser"], serde_json::Value::Null);
}

#[test]
fn rejected_command_has_no_resolved_values() {
    let report = check("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp-size two", &CheckOptions::default());
    assert!(!report.commands[0].accepted);
    assert!(report.commands[0].resolved.is_none());
}

#[test]
fn resolved_values_left_out_when_asked_and_the_rest_unchanged() {
    let without = CheckOptions { resolved_values: false, ..CheckOptions::default() };
    let full = check(CMD, &CheckOptions::default());
    let lean = check(CMD, &without);
    assert!(lean.commands[0].resolved.is_none() && lean.commands[0].resolved_left_out);
    assert!(!full.commands[0].resolved_left_out);
    // a command SGLang rejects has none to leave out
    let rejected = check("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp-size two", &without);
    assert!(!rejected.commands[0].resolved_left_out);
    // the page's JSON: the marker instead of the three keys, everything else as it was
    let page = |r| -> serde_json::Value { serde_json::from_str(&sglang_preflight::located::to_json(CMD, r)).unwrap() };
    let (mut full_json, mut lean_json) = (page(&full), page(&lean));
    assert!(full_json["commands"][0].get("resolved_left_out").is_none());
    assert_eq!(lean_json["commands"][0]["resolved_left_out"], serde_json::json!(true));
    for key in ["resolved", "resolved_unknown", "resolved_details"] {
        assert!(lean_json["commands"][0].get(key).is_none(), "{key}");
        assert!(full_json["commands"][0].as_object_mut().unwrap().remove(key).is_some(), "{key}");
    }
    lean_json["commands"][0].as_object_mut().unwrap().remove("resolved_left_out");
    assert_eq!(full_json, lean_json);
}

#[test]
fn each_pin_writes_the_flag_and_keeps_the_value() {
    let report = check(CMD, &CheckOptions::default());
    let r = report.commands[0].resolved.as_ref().unwrap();
    let pins: Vec<_> = r.values.iter().filter_map(|v| v.pin().map(|p| (v, p))).collect();
    assert!(!pins.is_empty());
    for (v, pin) in pins {
        let fixed = sglang_preflight::edits::apply(CMD, &pin.edits).expect("pin applies").text;
        let again = check(&fixed, &CheckOptions::default());
        let c = &again.commands[0];
        assert!(c.accepted, "{}: {fixed}", pin.title);
        let after = c.resolved.as_ref().and_then(|r| r.get(v.field)).unwrap_or_else(|| panic!("{} unknown after {fixed}", v.field));
        assert_eq!(after.value, v.value, "{fixed}");
        assert!(after.pin().is_none(), "{}: pinned, nothing more to pin", v.field);
    }
}

#[test]
fn values_computed_from_model_config_values_say_so() {
    // model_hook derives page size, MoE runner and more from the model's config; what later
    // steps compute from those needs the model's config too, and says so (not "a value not
    // known here", which is for the text's own unknowns: an unset variable, say)
    // (gpt-oss-120b: a catalog model whose path through the model hooks is not modelled yet; the
    // DeepSeek family's is on an H100 since its provider and passes are replayed)
    let plain = check("python -m sglang.launch_server --model-path openai/gpt-oss-120b --tp-size 4", &CheckOptions::default());
    let r = plain.commands[0].resolved.as_ref().unwrap();
    let why = |f: &str| r.unknown.iter().find(|u| u.field == f).map(|u| (u.reason, u.step));
    assert_eq!(why("moe_a2a_backend").map(|w| w.0), Some(UnknownReason::ModelConfig), "{:?}", r.unknown);
    assert_eq!(why("max_running_requests").map(|w| w.0), Some(UnknownReason::ModelConfig), "{:?}", r.unknown);
    assert_eq!(why("ep_size").map(|w| w.0), Some(UnknownReason::ModelConfig), "{:?}", r.unknown);
    // a template variable's value is a value not known here, whatever reads it
    let opts = CheckOptions { unknown_variables: vec!["TP".into()], ..CheckOptions::default() };
    let templated = check("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp-size $TP --dp-size 2 --enable-dp-attention", &opts);
    let r = templated.commands[0].resolved.as_ref().unwrap();
    let why = |f: &str| r.unknown.iter().find(|u| u.field == f).map(|u| u.reason);
    assert_eq!(why("tp_size"), Some(UnknownReason::UnknownValue), "{:?}", r.unknown);
    // ep_size follows tp_size here (the MoE hook reads it): a value not known here
    assert_eq!(why("ep_size"), Some(UnknownReason::UnknownValue), "{:?}", r.unknown);
}
