//! The report as JavaScript wants it: every byte span (diagnostics, commands, fix edits) also
//! given in UTF-16 code units (what JS strings index by) and as 1-based line/column.
//!
//! Serialized straight from the report (no intermediate `serde_json::Value`): in the browser
//! this is on every keystroke, and building then walking a `Value` tree cost a third of a check.
//! A test keeps these views in step with the report types: dropping the added keys must give
//! exactly the CLI's JSON.

use crate::check::{CommandReport, Report};
use crate::diagnostic::{Diagnostic, Edit, Fix};
use crate::span::Span;
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

/// Byte offset → UTF-16 offset and line/column, for one text.
pub struct Offsets {
    /// UTF-16 offset of each byte offset 0..=len (bytes inside a character map to its start);
    /// empty for ASCII text, where the two are the same.
    utf16: Vec<u32>,
    /// Byte offset of the start of each line.
    line_starts: Vec<usize>,
    len: usize,
}

impl Offsets {
    pub fn new(text: &str) -> Self {
        let mut line_starts = vec![0usize];
        line_starts.extend(text.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i + 1));
        let mut utf16 = Vec::new();
        if !text.is_ascii() {
            utf16.reserve(text.len() + 1);
            let mut n: u32 = 0;
            for c in text.chars() {
                for _ in 0..c.len_utf8() {
                    utf16.push(n);
                }
                n += c.len_utf16() as u32;
            }
            utf16.push(n);
        }
        Offsets { utf16, line_starts, len: text.len() }
    }

    /// UTF-16 offset of a byte offset (clamped to the text).
    pub fn u16(&self, byte: usize) -> u32 {
        let byte = byte.min(self.len);
        if self.utf16.is_empty() {
            return u32::try_from(byte).unwrap_or(u32::MAX);
        }
        self.utf16.get(byte).copied().unwrap_or(0)
    }

    /// 1-based line and 1-based UTF-16 column.
    pub fn line_col(&self, byte: usize) -> (usize, u32) {
        let idx = match self.line_starts.binary_search(&byte) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let start = self.line_starts.get(idx).copied().unwrap_or(0);
        (idx + 1, self.u16(byte).saturating_sub(self.u16(start)) + 1)
    }
}

#[derive(Serialize)]
struct Span16 {
    start: u32,
    end: u32,
}

fn located<M: SerializeMap>(map: &mut M, o: &Offsets, start: usize, end: usize) -> Result<(), M::Error> {
    let (line, column) = o.line_col(start);
    let (end_line, end_column) = o.line_col(end);
    map.serialize_entry("line", &line)?;
    map.serialize_entry("column", &column)?;
    map.serialize_entry("endLine", &end_line)?;
    map.serialize_entry("endColumn", &end_column)
}

fn span_located<M: SerializeMap>(map: &mut M, o: &Offsets, span: Span) -> Result<(), M::Error> {
    map.serialize_entry("span", &span)?;
    map.serialize_entry("span16", &Span16 { start: o.u16(span.start), end: o.u16(span.end) })?;
    located(map, o, span.start, span.end)
}

/// A report to serialize with JavaScript positions added.
pub struct LocatedReport<'a> {
    pub report: &'a Report,
    pub offsets: &'a Offsets,
}

struct With<'a, T: ?Sized>(&'a T, &'a Offsets);

/// A list of views, serialized as an array.
struct Each<'a, T>(&'a [T], &'a Offsets);

impl<'a, T> Serialize for Each<'a, T>
where
    With<'a, T>: Serialize,
{
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|item| With(item, self.1)))
    }
}

fn report_entries<M: SerializeMap>(map: &mut M, r: &Report, o: &Offsets) -> Result<(), M::Error> {
    map.serialize_entry("sglang_version", &r.sglang_version)?;
    map.serialize_entry("hardware", &r.hardware)?;
    map.serialize_entry("accepted", &r.accepted)?;
    map.serialize_entry("commands", &Each(&r.commands, o))?;
    map.serialize_entry("diagnostics", &Each(&r.diagnostics, o))?;
    map.serialize_entry("also_runs", &Each(&r.also_runs, o))
}

impl Serialize for With<'_, crate::invocation::AlsoRuns> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (a, o) = (self.0, self.1);
        let mut map = s.serialize_map(None)?;
        span_located(&mut map, o, a.span)?;
        map.serialize_entry("text", &a.text)?;
        map.end()
    }
}

impl Serialize for LocatedReport<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        report_entries(&mut map, self.report, self.offsets)?;
        map.end()
    }
}

/// What the page gets for a check: the located report, what it comes to
/// ([`crate::summary::Summary`]) and the `--config` paths its commands name.
pub struct PageReport<'a> {
    pub report: &'a Report,
    pub offsets: &'a Offsets,
    pub summary: crate::summary::Summary,
    pub config_paths: Vec<String>,
}

impl<'a> PageReport<'a> {
    pub fn new(report: &'a Report, offsets: &'a Offsets) -> Self {
        // From the argv the report already holds: parsing the text again would double the cost
        // of a check of a long paste.
        let config_paths = report.commands.iter().flat_map(|c| crate::invocation::config_paths_in(c.argv.iter().map(String::as_str))).collect();
        PageReport { report, offsets, summary: crate::summary::summarize(report), config_paths }
    }
}

impl Serialize for PageReport<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        report_entries(&mut map, self.report, self.offsets)?;
        map.serialize_entry("summary", &self.summary)?;
        map.serialize_entry("config_paths", &self.config_paths)?;
        map.end()
    }
}

impl Serialize for With<'_, CommandReport> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (c, o) = (self.0, self.1);
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("entry", &c.entry)?;
        map.serialize_entry("argv", &c.argv)?;
        map.serialize_entry("accepted", &c.accepted)?;
        span_located(&mut map, o, c.span)?;
        map.serialize_entry("diagnostics", &Each(&c.diagnostics, o))?;
        map.serialize_entry("not_run", &c.not_run)?;
        map.serialize_entry("not_modelled_hooks", &c.not_modelled_hooks)?;
        if let Some(m) = &c.model {
            map.serialize_entry("model", m)?;
        }
        if let Some(m) = &c.draft_model {
            map.serialize_entry("draft_model", m)?;
        }
        if let Some(r) = &c.resolved {
            map.serialize_entry("resolved", &crate::resolved_report::ValuesMap(&r.values))?;
            map.serialize_entry("resolved_unknown", &r.unknown)?;
            map.serialize_entry("resolved_details", &Each(&r.values, o))?;
        }
        if c.resolved_left_out {
            map.serialize_entry("resolved_left_out", &true)?;
        }
        map.end()
    }
}

impl Serialize for With<'_, Diagnostic> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (d, o) = (self.0, self.1);
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("code", &d.code)?;
        map.serialize_entry("severity", &d.severity)?;
        map.serialize_entry("origin", &d.origin)?;
        map.serialize_entry("stage", &d.stage)?;
        if let Some(exception) = &d.exception {
            map.serialize_entry("exception", exception)?;
        }
        map.serialize_entry("message", &d.message)?;
        span_located(&mut map, o, d.span)?;
        map.serialize_entry("explanation", &d.explanation)?;
        map.serialize_entry("fixes", &Each(&d.fixes, o))?;
        map.end()
    }
}

impl Serialize for With<'_, crate::resolved_report::ResolvedValue> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (v, o) = (self.0, self.1);
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("field", v.field)?;
        map.serialize_entry("flag", &v.flag)?;
        map.serialize_entry("value", &v.value)?;
        map.serialize_entry("repr", &v.repr())?;
        map.serialize_entry("differs_from_default", &v.differs_from_default)?;
        map.serialize_entry("source", &v.source)?;
        if let Some(step) = v.set_by {
            map.serialize_entry("set_by", step)?;
        }
        if let Some(pin) = v.pin() {
            map.serialize_entry("pin", &With(&pin, o))?;
        }
        map.end()
    }
}

impl Serialize for With<'_, Fix> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (f, o) = (self.0, self.1);
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("title", &f.title)?;
        map.serialize_entry("applicability", &f.applicability)?;
        map.serialize_entry("edits", &Each(&f.edits, o))?;
        map.end()
    }
}

impl Serialize for With<'_, Edit> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (e, o) = (self.0, self.1);
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("start", &e.start)?;
        map.serialize_entry("end", &e.end)?;
        map.serialize_entry("replacement", &e.replacement)?;
        map.serialize_entry("start16", &o.u16(e.start))?;
        map.serialize_entry("end16", &o.u16(e.end))?;
        located(&mut map, o, e.start, e.end)?;
        map.end()
    }
}

impl Serialize for With<'_, crate::upgrade::MigrationNote> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (n, o) = (self.0, self.1);
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("kind", &n.kind)?;
        if let Some(flag) = &n.flag {
            map.serialize_entry("flag", flag)?;
        }
        if let Some(span) = n.span {
            span_located(&mut map, o, span)?;
        }
        map.serialize_entry("note", &n.note)?;
        if let Some(d) = &n.finding {
            map.serialize_entry("finding", &With(d, o))?;
        }
        map.serialize_entry("fixes", &Each(&n.fixes, o))?;
        map.end()
    }
}

impl Serialize for With<'_, crate::upgrade::CommandUpgrade> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (c, o) = (self.0, self.1);
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("command", &c.command)?;
        map.serialize_entry("accepted_before", &c.accepted_before)?;
        map.serialize_entry("accepted_after", &c.accepted_after)?;
        map.serialize_entry("notes", &Each(&c.notes, o))?;
        map.end()
    }
}

/// A move between releases ([`crate::upgrade::upgrade`]) as JSON with JavaScript positions
/// (what the wasm `upgradeJson` returns).
pub fn upgrade_to_json(text: &str, u: &crate::upgrade::Upgrade) -> String {
    struct Located<'a>(&'a crate::upgrade::Upgrade, &'a Offsets);
    impl Serialize for Located<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut map = s.serialize_map(None)?;
            map.serialize_entry("from", &self.0.from)?;
            map.serialize_entry("to", &self.0.to)?;
            map.serialize_entry("parser_only", &self.0.parser_only)?;
            map.serialize_entry("commands", &Each(&self.0.commands, self.1))?;
            map.end()
        }
    }
    let offsets = Offsets::new(text);
    serde_json::to_string(&Located(u, &offsets)).unwrap_or_else(|e| serde_json::json!({ "error": e.to_string() }).to_string())
}

/// The report as JSON with JavaScript positions, its summary and `--config` paths (what the
/// wasm `checkJson` returns).
pub fn to_json(text: &str, report: &Report) -> String {
    let offsets = Offsets::new(text);
    serde_json::to_string(&PageReport::new(report, &offsets)).unwrap_or_else(|e| {
        // Serializing plain strings and numbers cannot fail; say so rather than panic if it does.
        serde_json::json!({ "error": e.to_string() }).to_string()
    })
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)] // JSON paths in assertions: a missing key fails the test
mod tests {
    use super::*;
    use serde_json::Value;

    // (`summary` and `config_paths` are top-level only: the page's additions to the report)
    const ADDED: [&str; 9] = ["span16", "start16", "end16", "line", "column", "endLine", "endColumn", "summary", "config_paths"];

    fn strip(v: &mut Value) {
        match v {
            Value::Array(items) => items.iter_mut().for_each(strip),
            Value::Object(map) => {
                map.retain(|k, _| !ADDED.contains(&k.as_str()));
                // a recognized model is the same in both (its `summary` is the model's own)
                map.iter_mut().filter(|(k, _)| !matches!(k.as_str(), "model" | "draft_model")).for_each(|(_, v)| strip(v));
            }
            _ => {}
        }
    }

    fn located_and_plain(text: &str) -> (Value, Value) {
        let report = crate::check(text, &crate::CheckOptions::default());
        let located: Value = serde_json::from_str(&to_json(text, &report)).unwrap_or(Value::Null);
        (located, serde_json::to_value(&report).unwrap_or(Value::Null))
    }

    #[test]
    fn located_report_is_the_cli_report_plus_positions() {
        let texts = [
            "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --dcp-size 2 --disaggregation-decode-retraction-backup host_pool",
            "sglang serve Qwen/Qwen3-8B --tp 2 --max-model-len 4096 --enable-ep-moe",
            "echo hi",
            "",
            "python -m sglang.launch_server --model-path “m” --tp-size 2 --tp-size 4 \\\n  --reasoning_parser qwen3",
        ];
        for text in texts {
            let (mut located, plain) = located_and_plain(text);
            assert!(located.get("commands").is_some(), "{text}");
            strip(&mut located);
            assert_eq!(located, plain, "{text}");
        }
    }

    #[test]
    fn positions_count_utf16_and_lines() {
        // "é" is 2 bytes / 1 UTF-16 unit, "𝔸" 4 bytes / 2 units.
        let text = "é𝔸\nab";
        let o = Offsets::new(text);
        assert_eq!(o.u16(0), 0);
        assert_eq!(o.u16(2), 1);
        assert_eq!(o.u16(6), 3);
        assert_eq!(o.line_col(7), (2, 1));
        assert_eq!(o.line_col(8), (2, 2));
        assert_eq!(o.u16(100), 6);
        let ascii = Offsets::new("ab\ncd");
        assert_eq!(ascii.u16(4), 4);
        assert_eq!(ascii.line_col(4), (2, 2));
        assert_eq!(ascii.u16(99), 5);
    }

    #[test]
    fn diagnostics_and_edits_carry_positions() {
        let text = "python -m sglang.launch_server --model-path m \\\n  --reasoning_parser qwen3";
        let (located, _) = located_and_plain(text);
        let diag = &located["commands"][0]["diagnostics"][0];
        assert_eq!(diag["line"], 2, "{diag}");
        assert_eq!(diag["span16"]["start"], diag["span"]["start"]);
        let edit = &diag["fixes"][0]["edits"][0];
        assert_eq!(edit["line"], 2, "{edit}");
        assert_eq!(edit["start16"], edit["start"]);
    }
}
