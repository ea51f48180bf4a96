//! A vLLM launch (`vllm serve MODEL ...`, `python -m vllm.entrypoints.openai.api_server ...`)
//! pasted where an SGLang one was expected: its SGLang equivalent, flag by flag. A flag SGLang
//! spells the same way is kept; a known vLLM flag is mapped (the table below, with what differs);
//! any other is dropped and said to have no equivalent. The whole launch is one edit, so the
//! words around it (environment, wrappers, comments) stay as written.

use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Severity, Stage};
use crate::schema::Schema;
use crate::shell::{quote_word, ShellParse, Word};
use crate::span::Span;

/// What SGLang does with one vLLM flag.
enum Map {
    /// SGLang's flag for the same setting (the value is kept).
    To(&'static str),
    /// SGLang's words for a vLLM switch.
    Switch(&'static str),
    /// No SGLang counterpart is needed (SGLang's default already does it).
    Default,
    /// SGLang has no such setting.
    Nothing,
}

/// vLLM flags whose SGLang spelling differs: (vLLM flag, takes a value, SGLang, what differs).
const VLLM: &[(&str, bool, Map, &str)] = &[
    ("--model", true, Map::To("--model-path"), ""),
    ("--tokenizer", true, Map::To("--tokenizer-path"), ""),
    ("--max-model-len", true, Map::To("--context-length"), ""),
    ("--gpu-memory-utilization", true, Map::To("--mem-fraction-static"), "vLLM's share of GPU memory for everything; SGLang's is for weights and KV cache, so a slightly lower value is usual"),
    ("--max-num-seqs", true, Map::To("--max-running-requests"), ""),
    ("--max-num-batched-tokens", true, Map::To("--chunked-prefill-size"), "the closest setting: the most tokens one prefill chunk takes"),
    ("--tensor-parallel-size", true, Map::To("--tp-size"), ""),
    ("-tp", true, Map::To("--tp-size"), ""),
    ("--pipeline-parallel-size", true, Map::To("--pp-size"), ""),
    ("-pp", true, Map::To("--pp-size"), ""),
    ("--data-parallel-size", true, Map::To("--dp-size"), ""),
    ("-dp", true, Map::To("--dp-size"), ""),
    ("--seed", true, Map::To("--random-seed"), ""),
    ("--block-size", true, Map::To("--page-size"), "tokens per KV-cache page"),
    ("--hf-overrides", true, Map::To("--json-model-override-args"), "a JSON object of config.json values, as in vLLM"),
    ("--max-loras", true, Map::To("--max-loras-per-batch"), ""),
    ("--lora-modules", true, Map::To("--lora-paths"), "NAME=PATH pairs, as in vLLM"),
    ("--uvicorn-log-level", true, Map::To("--log-level"), ""),
    ("--enforce-eager", false, Map::Switch("--cuda-graph-backend-decode disabled --cuda-graph-backend-prefill disabled"), "CUDA graphs are turned off per phase"),
    ("--no-enable-prefix-caching", false, Map::Switch("--disable-radix-cache"), ""),
    ("--enable-prefix-caching", false, Map::Default, "SGLang's radix cache is on by default"),
    ("--enable-chunked-prefill", false, Map::Default, "SGLang chunks prefills by default (--chunked-prefill-size)"),
    ("--enable-auto-tool-choice", false, Map::Default, "SGLang parses tool calls whenever --tool-call-parser is given"),
    ("--disable-log-requests", false, Map::Default, "SGLang does not log requests unless --log-requests is given"),
    ("--enable-log-requests", false, Map::Switch("--log-requests"), ""),
    ("--disable-log-stats", false, Map::Default, "SGLang logs no periodic statistics to turn off"),
    ("--enable-expert-parallel", false, Map::Nothing, "SGLang sets expert parallelism with --ep-size N (often the --tp-size)"),
    ("--swap-space", true, Map::Nothing, "SGLang has no CPU swap space; see --enable-hierarchical-cache for host-memory KV cache"),
    ("--distributed-executor-backend", true, Map::Nothing, "SGLang has no executor backend choice"),
    ("--limit-mm-per-prompt", true, Map::Nothing, ""),
    ("--num-scheduler-steps", true, Map::Nothing, ""),
    ("--speculative-config", true, Map::Nothing, "SGLang takes speculative decoding as flags: --speculative-algorithm, --speculative-draft-model-path, --speculative-num-steps ..."),
    ("--compilation-config", true, Map::Nothing, "SGLang's torch.compile switch is --enable-torch-compile"),
    ("-O", true, Map::Nothing, ""),
    ("--async-scheduling", false, Map::Nothing, "SGLang overlaps scheduling by default (--disable-overlap-schedule turns it off)"),
    ("--enable-sleep-mode", false, Map::Nothing, "see --enable-memory-saver"),
];

/// vLLM flags and the SGLang flag for the same setting (the first of SGLang's words for a vLLM
/// switch), for finding a flag by its vLLM name.
pub fn renamed_flags() -> impl Iterator<Item = (&'static str, &'static str)> {
    VLLM.iter().filter_map(|(vllm, _, map, _)| match map {
        Map::To(sglang) => Some((*vllm, *sglang)),
        Map::Switch(words) => words.split_whitespace().next().map(|w| (*vllm, w)),
        Map::Default | Map::Nothing => None,
    })
}

/// One flag of the vLLM command and what it becomes.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FlagMapping {
    /// The flag (and value) as written.
    pub vllm: String,
    /// SGLang's words for it; `None` when it is dropped.
    pub sglang: Option<String>,
    /// What differs, or why it is dropped.
    pub note: String,
    pub span: Span,
}

/// One vLLM launch and its SGLang equivalent.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Translation {
    /// The vLLM launch's words in the text (from `vllm`/`python` to its last argument).
    pub span: Span,
    /// The SGLang launch that replaces them.
    pub sglang: String,
    pub flags: Vec<FlagMapping>,
}

/// Index of the first argument after a vLLM launcher at `words[j]`, if one starts there.
fn vllm_launcher_at(words: &[Word], j: usize) -> Option<usize> {
    let w = words.get(j)?.text.as_str();
    let base = w.rsplit('/').next().unwrap_or(w);
    if base == "vllm" {
        return (words.get(j + 1)?.text == "serve").then_some(j + 2);
    }
    if crate::invocation::is_python(w) {
        let (m, next) = match words.get(j + 1)?.text.as_str() {
            "-m" => (words.get(j + 2)?.text.as_str(), j + 3),
            other => (other.strip_prefix("-m").filter(|m| !m.is_empty())?, j + 2),
        };
        return matches!(m, "vllm.entrypoints.openai.api_server" | "vllm.entrypoints.api_server").then_some(next);
    }
    None
}

fn takes_value_in_sglang(schema: &Schema, flag: &str) -> Option<bool> {
    schema.action(flag).map(|a| !crate::flag_edit::takes_no_value(a))
}

/// The vLLM launches of `text` and their SGLang equivalents.
pub fn translate(parsed: &ShellParse, schema: &Schema) -> Vec<Translation> {
    let text = parsed.text.as_str();
    let mut out = Vec::new();
    for cmd in &parsed.commands {
        let Some((start_word, first_arg)) = (0..cmd.words.len()).find_map(|j| vllm_launcher_at(&cmd.words, j).map(|a| (j, a))) else { continue };
        let (Some(first), Some(last)) = (cmd.words.get(start_word), cmd.words.last()) else { continue };
        let args = cmd.words.get(first_arg..).unwrap_or_default();
        let mut words: Vec<String> = vec!["python".into(), "-m".into(), "sglang.launch_server".into()];
        let mut flags = Vec::new();
        let mut model_given = false;
        let mut i = 0;
        while let Some(w) = args.get(i) {
            let (flag, inline) = match w.text.split_once('=') {
                Some((f, v)) if w.text.starts_with('-') => (f.to_string(), Some(v.to_string())),
                _ => (w.text.clone(), None),
            };
            if !flag.starts_with('-') || flag == "-" {
                // vLLM's positional model
                if !model_given {
                    words.push("--model-path".into());
                    words.push(quote_word(&w.text));
                    flags.push(FlagMapping { vllm: w.text.clone(), sglang: Some(format!("--model-path {}", quote_word(&w.text))), note: "the model, as --model-path".into(), span: w.span });
                    model_given = true;
                }
                i += 1;
                continue;
            }
            let known = VLLM.iter().find(|k| k.0 == flag);
            let takes_value = match known {
                Some(k) => k.1,
                None => takes_value_in_sglang(schema, &flag).unwrap_or_else(|| args.get(i + 1).is_some_and(|n| !n.text.starts_with('-'))),
            };
            let value: Option<&Word> = if takes_value && inline.is_none() { args.get(i + 1) } else { None };
            let value_text = inline.clone().or_else(|| value.map(|v| v.text.clone()));
            let end = value.map(|v| v.span.end).unwrap_or(w.span.end);
            let written = text.get(w.span.start..end).unwrap_or("").to_string();
            let span = Span::new(w.span.start, end);
            let with_value = |to: &str| match &value_text {
                Some(v) if takes_value => format!("{to} {}", quote_word(v)),
                _ => to.to_string(),
            };
            let (sglang, note) = match known.map(|k| (&k.2, k.3)) {
                Some((Map::To(to), note)) => {
                    if *to == "--model-path" {
                        model_given = true;
                    }
                    (Some(with_value(to)), note.to_string())
                }
                Some((Map::Switch(to), note)) => (Some((*to).to_string()), note.to_string()),
                Some((Map::Default, note)) => (None, format!("not needed: {note}")),
                Some((Map::Nothing, note)) => (None, if note.is_empty() { "no SGLang equivalent".to_string() } else { format!("no SGLang equivalent: {note}") }),
                None if schema.action(&flag).is_some() => (Some(with_value(&flag)), "the same flag in SGLang".to_string()),
                None => (None, "no SGLang flag of this name: check SGLang's flags for a counterpart".to_string()),
            };
            if let Some(s) = &sglang {
                words.extend(s.split(' ').map(str::to_string));
            }
            flags.push(FlagMapping { vllm: written, sglang, note, span });
            i += if value.is_some() { 2 } else { 1 };
        }
        let span = Span::new(first.span.start, last.span.end);
        let multiline = text.get(span.start..span.end).is_some_and(|t| t.contains("\\\n"));
        let sglang = if multiline {
            // One flag per line, as the original was written.
            let mut lines = vec![words.get(..3).unwrap_or_default().join(" ")];
            let mut cur = String::new();
            for w in words.get(3..).unwrap_or_default() {
                if w.starts_with("--") && !cur.is_empty() {
                    lines.push(std::mem::take(&mut cur));
                }
                if !cur.is_empty() {
                    cur.push(' ');
                }
                cur.push_str(w);
            }
            if !cur.is_empty() {
                lines.push(cur);
            }
            lines.join(" \\\n  ")
        } else {
            words.join(" ")
        };
        out.push(Translation { span, sglang, flags });
    }
    out
}

/// The finding for one vLLM launch: what it is, each flag's fate, and the edit to SGLang's.
pub fn diagnostic(t: &Translation) -> Diagnostic {
    let dropped = t.flags.iter().filter(|f| f.sglang.is_none()).count();
    let mut lines: Vec<String> = t
        .flags
        .iter()
        .map(|f| match &f.sglang {
            Some(s) if f.note.is_empty() => format!("`{}` → `{s}`", f.vllm),
            Some(s) => format!("`{}` → `{s}` ({})", f.vllm, f.note),
            None => format!("`{}` dropped: {}", f.vllm, f.note),
        })
        .collect();
    lines.insert(0, "This is a vLLM launch; SGLang's own launch takes other flags for some settings. Flag by flag:".to_string());
    let message = if dropped == 0 {
        "This is a vLLM launch, not SGLang's: its SGLang equivalent is offered as a fix.".to_string()
    } else {
        format!("This is a vLLM launch, not SGLang's: its SGLang equivalent is offered as a fix ({dropped} flag{} without an SGLang counterpart dropped).", if dropped == 1 { "" } else { "s" })
    };
    Diagnostic::preflight("P0006", Severity::Info, Stage::Shell, message, t.span).with_explanation(lines.join("\n")).with_fix(Fix {
        title: "Replace it with the SGLang launch".into(),
        applicability: Applicability::Unsafe,
        edits: vec![Edit { start: t.span.start, end: t.span.end, replacement: t.sglang.clone() }],
    })
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::indexing_slicing)] // a failed expectation fails the test
mod tests {
    use super::*;

    fn tr(text: &str) -> Vec<Translation> {
        translate(&crate::shell::parse(text), crate::schema::get(crate::schema::DEFAULT_VERSION).unwrap())
    }

    #[test]
    fn a_vllm_serve_becomes_an_sglang_launch_flag_by_flag() {
        let text = "CUDA_VISIBLE_DEVICES=0,1 vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2 --max-model-len=8192 --gpu-memory-utilization 0.85 --enable-prefix-caching --trust-remote-code --swap-space 4 --port 8000";
        let t = &tr(text)[0];
        assert_eq!(t.sglang, "python -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp-size 2 --context-length 8192 --mem-fraction-static 0.85 --trust-remote-code --port 8000");
        assert_eq!(text.get(t.span.start..t.span.end), text.get("CUDA_VISIBLE_DEVICES=0,1 ".len()..));
        let dropped: Vec<&str> = t.flags.iter().filter(|f| f.sglang.is_none()).map(|f| f.vllm.as_str()).collect();
        assert_eq!(dropped, ["--enable-prefix-caching", "--swap-space 4"]);
    }

    #[test]
    fn the_translation_is_accepted_by_sglang_parser() {
        let text = "python -m vllm.entrypoints.openai.api_server --model meta-llama/Llama-3.1-8B-Instruct -tp 4 --enforce-eager --max-num-seqs 64 --seed 1";
        let t = &tr(text)[0];
        assert_eq!(t.sglang, "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 4 --cuda-graph-backend-decode disabled --cuda-graph-backend-prefill disabled --max-running-requests 64 --random-seed 1");
        let report = crate::check(&t.sglang, &crate::CheckOptions::default());
        assert!(report.accepted, "{:?}", report.commands[0].diagnostics);
    }

    #[test]
    fn a_multiline_command_stays_one_flag_per_line() {
        let text = "vllm serve m \\\n  --max-model-len 4096 \\\n  --port 1";
        assert_eq!(tr(text)[0].sglang, "python -m sglang.launch_server \\\n  --model-path m \\\n  --context-length 4096 \\\n  --port 1");
    }

    #[test]
    fn sglang_launches_and_other_commands_are_not_vllm() {
        assert!(tr("python -m sglang.launch_server --model-path m").is_empty());
        assert!(tr("pip install vllm && echo serve").is_empty());
    }
}
