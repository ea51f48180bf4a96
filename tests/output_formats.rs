//! The reports of checked files as tools read them: SARIF 2.1.0 (validated against the
//! official OASIS schema in `tests/sarif/`) and GitHub workflow commands.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use serde_json::{json, Value};
use sglang_preflight::output::{github, sarif};
use sglang_preflight::sources::{check_file, FileReport, Kind};
use sglang_preflight::CheckOptions;

/// A script whose launch SGLang rejects twice: an unknown flag (argparse, a safe fix) and a
/// decode-context-parallel size of 0 (a rule, an unsafe fix). Line 2 has a non-ASCII value
/// before both, so character columns differ from byte offsets.
const BAD_SCRIPT: &str = "# Démarrer SGLang\n\
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --served-model-name modèle --dcp-size 0 --tp-sise 2\n";

const GOOD_SCRIPT: &str = "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2\n";

fn report(path: &str, text: &str) -> FileReport {
    check_file(path, Kind::Shell, text, &CheckOptions::default())
}

fn schema_validator() -> jsonschema::Validator {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/sarif/sarif-schema-2.1.0.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

fn schema_errors(log: &Value) -> Vec<String> {
    schema_validator().iter_errors(log).map(|e| format!("{} at {}", e, e.instance_path())).collect()
}

fn bad_and_good_log() -> Value {
    let bad = report("./scripts/serve.sh", BAD_SCRIPT);
    let good = report("scripts/ok.sh", GOOD_SCRIPT);
    sarif::render(&[(&bad, BAD_SCRIPT), (&good, GOOD_SCRIPT)])
}

#[test]
fn sarif_log_is_valid_against_the_official_schema() {
    let log = bad_and_good_log();
    assert_eq!(schema_errors(&log), Vec::<String>::new());
    let empty = sarif::render(&[]);
    assert_eq!(schema_errors(&empty), Vec::<String>::new());
}

#[test]
fn the_schema_check_rejects_broken_logs() {
    let log = bad_and_good_log();
    type Breakage = (&'static str, fn(&mut Value));
    let breakages: [Breakage; 6] = [
        ("no version", |l| {
            l.as_object_mut().unwrap().remove("version");
        }),
        ("a level SARIF does not have", |l| l["runs"][0]["results"][0]["level"] = json!("fatal")),
        ("line 0", |l| l["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = json!(0)),
        ("a fix that changes nothing", |l| l["runs"][0]["results"][0]["fixes"][0]["artifactChanges"] = json!([])),
        ("a help link that is no URI", |l| l["runs"][0]["tool"]["driver"]["rules"][0]["helpUri"] = json!("docs rules.md")),
        ("a property SARIF does not define", |l| l["runs"][0]["tool"]["driver"]["ruleset"] = json!("x")),
    ];
    for (what, breakage) in breakages {
        let mut broken = log.clone();
        breakage(&mut broken);
        assert!(!schema_errors(&broken).is_empty(), "the schema accepted a log with {what}");
    }
}

#[test]
fn sarif_tool_rules_and_run() {
    let log = bad_and_good_log();
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "sglang-preflight");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    // Only the rules that have a result, in code order.
    let ids: Vec<&str> = driver["rules"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["ARG008", "PAR001"]);

    let par001 = &driver["rules"][1];
    let info = sglang_preflight::rules::by_code("PAR001").unwrap().info();
    assert_eq!(par001["name"], "dcp-size-must-be-positive");
    assert_eq!(par001["shortDescription"]["text"], format!("ValueError: {}", info.template));
    assert_eq!(par001["fullDescription"]["text"], info.explanation);
    assert_eq!(par001["helpUri"], format!("{}#par001-dcp-size-must-be-positive", sarif::RULE_REFERENCE_URL));
    assert_eq!(par001["defaultConfiguration"]["level"], "error");
    assert_eq!(par001["properties"]["origin"], "sglang");
    assert_eq!(par001["properties"]["sglang_site"], info.site);

    // A code of the argparse layer: described by the codes table, linked to its section.
    let arg008 = &driver["rules"][0];
    assert_eq!(arg008["shortDescription"]["text"], "Unrecognized arguments.");
    assert_eq!(arg008["helpUri"], format!("{}#other-codes", sarif::RULE_REFERENCE_URL));
}

#[test]
fn sarif_results_have_sglang_messages_locations_and_fixes() {
    let log = bad_and_good_log();
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 2, "the good script has no result");
    let artifact = json!({"uri": "scripts/serve.sh", "uriBaseId": "%SRCROOT%"});

    let unknown = &results[0];
    assert_eq!(unknown["ruleId"], "ARG008");
    assert_eq!(unknown["ruleIndex"], 0);
    assert_eq!(unknown["level"], "error");
    assert_eq!(unknown["message"]["text"], "SystemExit: unrecognized arguments: --tp-sise 2");
    assert_eq!(
        unknown["locations"][0]["physicalLocation"],
        json!({"artifactLocation": artifact, "region": {
            "startLine": 2, "startColumn": 118, "endLine": 2, "endColumn": 129, "byteOffset": 137, "byteLength": 11}})
    );
    assert_eq!(unknown["properties"]["origin"], "sglang");
    assert_eq!(unknown["properties"]["stage"], "argparse");
    assert_eq!(unknown["properties"]["exception"], "SystemExit");
    assert_eq!(
        unknown["fixes"],
        json!([{
            "description": {"text": unknown["fixes"][0]["description"]["text"]},
            "artifactChanges": [{"artifactLocation": artifact, "replacements": [{
                "deletedRegion": {"startLine": 2, "startColumn": 118, "endLine": 2, "endColumn": 127, "byteOffset": 137, "byteLength": 9},
                "insertedContent": {"text": "--tp-size"}}]}],
            "properties": {"applicability": "safe"}}])
    );

    let dcp = &results[1];
    assert_eq!(dcp["ruleId"], "PAR001");
    assert_eq!(dcp["ruleIndex"], 1);
    assert!(dcp["message"]["text"].as_str().unwrap().starts_with("ValueError: Decode context parallel size"));
    assert_eq!(dcp["locations"][0]["physicalLocation"]["region"]["startColumn"], 105);
    assert_eq!(dcp["fixes"][0]["artifactChanges"][0]["replacements"][0]["insertedContent"]["text"], "--dcp-size 1");
    assert_eq!(dcp["fixes"][0]["properties"]["applicability"], "unsafe");
}

#[test]
fn sarif_uris_are_relative_references_or_file_uris() {
    let text = "python -m sglang.launch_server --model-path m --tp-sise 2\n";
    for (path, uri, base) in [
        ("docs\\guides\\run it.sh", "docs/guides/run%20it.sh", Some("%SRCROOT%")),
        ("c:odd.sh", "c%3Aodd.sh", Some("%SRCROOT%")),
        ("/srv/app/serve.sh", "file:///srv/app/serve.sh", None),
    ] {
        let file = report(path, text);
        let log = sarif::render(&[(&file, text)]);
        let location = &log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
        assert_eq!(location["uri"], uri, "{path}");
        assert_eq!(location.get("uriBaseId").and_then(Value::as_str), base, "{path}");
        assert_eq!(schema_errors(&log), Vec::<String>::new(), "{path}");
    }
}

#[test]
fn outputs_are_deterministic() {
    let first = serde_json::to_string(&bad_and_good_log()).unwrap();
    let second = serde_json::to_string(&bad_and_good_log()).unwrap();
    assert_eq!(first, second);
    let bad = report("scripts/serve.sh", BAD_SCRIPT);
    assert_eq!(github::render(&[(&bad, BAD_SCRIPT)]), github::render(&[(&bad, BAD_SCRIPT)]));
}

#[test]
fn github_annotations_one_per_finding() {
    let bad = report("./scripts/serve.sh", BAD_SCRIPT);
    let good = report("scripts/ok.sh", GOOD_SCRIPT);
    let out = github::render(&[(&bad, BAD_SCRIPT), (&good, GOOD_SCRIPT)]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with(
            "::error file=scripts/serve.sh,line=2,col=118,endLine=2,endColumn=129,title=ARG008::SystemExit: unrecognized arguments: --tp-sise 2%0A"
        ),
        "{}",
        lines[0]
    );
    assert!(lines[1].starts_with("::error file=scripts/serve.sh,line=2,col=105,endLine=2,endColumn=117,title=PAR001::ValueError: Decode context parallel size"));
    // Explanation and fixes follow the headline, on escaped new lines.
    assert!(lines[1].contains("%0AFix: "), "{}", lines[1]);
}

#[test]
fn github_escaping_of_data_and_properties() {
    assert_eq!(github::escape_data("100% done\r\nnext: a, b"), "100%25 done%0D%0Anext: a, b");
    assert_eq!(github::escape_property("dir,1/a:b%\n.sh"), "dir%2C1/a%3Ab%25%0A.sh");
    // Escaping `%` first: an escape sequence already in the text is kept as text.
    assert_eq!(github::escape_data("%0A"), "%250A");

    let text = "python -m sglang.launch_server --model-path m --tp-sise 2\n";
    let file = report("deploy/a,b:c%.sh", text);
    let out = github::render(&[(&file, text)]);
    assert!(out.starts_with("::error file=deploy/a%2Cb%3Ac%25.sh,line=1,col=47,endLine=1,endColumn=58,title=ARG008::"), "{out}");
    assert_eq!(out.lines().count(), 1, "one finding, one line: new lines in the message are escaped");
}

#[test]
fn warnings_and_notes_use_their_own_commands_and_levels() {
    // `--tp-size 2 --tp-size 4`: argparse keeps the last (ARG010, a preflight warning).
    let text = "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --tp-size 4\n";
    let file = report("w.sh", text);
    let severities: Vec<_> = sglang_preflight::output::locate::findings(&file).map(|d| (d.code.clone(), d.severity)).collect();
    let out = github::render(&[(&file, text)]);
    let log = sarif::render(&[(&file, text)]);
    for ((code, severity), line) in severities.iter().zip(out.lines()) {
        let (command, level) = match severity {
            sglang_preflight::diagnostic::Severity::Error => ("::error ", "error"),
            sglang_preflight::diagnostic::Severity::Warning => ("::warning ", "warning"),
            sglang_preflight::diagnostic::Severity::Info => ("::notice ", "note"),
        };
        assert!(line.starts_with(command), "{code}: {line}");
        assert!(log["runs"][0]["results"].as_array().unwrap().iter().any(|r| r["ruleId"] == code.as_str() && r["level"] == level));
    }
    assert!(severities.iter().any(|(code, _)| code == "ARG010"), "{severities:?}");
    assert_eq!(schema_errors(&log), Vec::<String>::new());
}

#[test]
fn findings_outside_launches_and_spans_past_the_end_stay_in_the_file() {
    use sglang_preflight::diagnostic::{Diagnostic, Severity, Stage};
    use sglang_preflight::span::Span;
    let text = "ab\ncd";
    let file = FileReport {
        file: "notes.md".into(),
        kind: Kind::Markdown,
        accepted: true,
        commands: vec![],
        diagnostics: vec![Diagnostic::preflight("P0002", Severity::Info, Stage::Shell, "No launch, 100%: none", Span::new(4, 99))],
        suppressed: 3,
        sglang_version: "0.5.23".into(),
        parser_only: false,
    };
    let log = sarif::render(&[(&file, text)]);
    assert_eq!(schema_errors(&log), Vec::<String>::new());
    let result = &log["runs"][0]["results"][0];
    assert_eq!(result["level"], "note");
    assert_eq!(
        result["locations"][0]["physicalLocation"]["region"],
        json!({"startLine": 2, "startColumn": 2, "endLine": 2, "endColumn": 3, "byteOffset": 4, "byteLength": 1})
    );
    assert_eq!(log["runs"][0]["properties"]["suppressed"], 3);
    assert_eq!(
        github::render(&[(&file, text)]),
        "::notice file=notes.md,line=2,col=2,endLine=2,endColumn=3,title=P0002::No launch, 100%25: none\n"
    );
}

#[test]
fn every_rule_and_code_makes_a_valid_rule_descriptor() {
    use sglang_preflight::diagnostic::{Diagnostic, Severity, Stage};
    use sglang_preflight::span::Span;
    let codes: Vec<String> = sglang_preflight::rules::all_rules()
        .iter()
        .map(|r| r.code.to_string())
        .chain(sglang_preflight::codes::CODES.iter().map(|c| c.code.to_string()))
        .chain(["NEW999".to_string()])
        .collect();
    let file = FileReport {
        file: "all.sh".into(),
        kind: Kind::Shell,
        accepted: false,
        commands: vec![],
        diagnostics: codes.iter().map(|code| Diagnostic::preflight(code, Severity::Error, Stage::Check, "m", Span::new(0, 1))).collect(),
        suppressed: 0,
        sglang_version: "0.5.23".into(),
        parser_only: false,
    };
    let log = sarif::render(&[(&file, "x\n")]);
    assert_eq!(schema_errors(&log), Vec::<String>::new());
    let rules = log["runs"][0]["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), codes.len());
    for rule in rules {
        let uri = rule["helpUri"].as_str().unwrap();
        assert!(uri.starts_with(sarif::RULE_REFERENCE_URL), "{uri}");
        assert!(!rule["shortDescription"]["text"].as_str().unwrap().is_empty(), "{rule}");
    }
    // Each rule's anchor is the heading docs/rules.md gives it.
    let reference = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rules.md")).unwrap();
    for rule in sglang_preflight::rules::all_rules() {
        assert!(reference.contains(&format!("## {} `{}`", rule.code, rule.name)), "{}", rule.code);
        // GitHub's heading slug keeps exactly these characters, so the anchor is code-name.
        assert!(rule.name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'), "{}", rule.name);
        assert_eq!(sarif::help_uri(rule.code), format!("{}#{}-{}", sarif::RULE_REFERENCE_URL, rule.code.to_lowercase(), rule.name));
    }
}
