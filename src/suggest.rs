//! Did-you-mean for flags SGLang does not know: `_` written for `-`, typos (edit distance),
//! flags removed or renamed in recent SGLang releases, and vLLM spellings.

use crate::diagnostic::Applicability;
use crate::schema::Schema;

/// One way to fix an unknown flag.
#[derive(Debug, Clone, PartialEq)]
pub struct Suggestion {
    pub title: String,
    /// Text replacing the flag word; `None` means: drop the flag (and `drop_values` values).
    pub replacement: Option<String>,
    pub applicability: Applicability,
    /// How many following value words go with the flag when it is dropped.
    pub drop_values: usize,
    /// A sentence for the explanation.
    pub note: Option<String>,
}

impl Suggestion {
    fn rename(to: &str, applicability: Applicability, note: Option<&str>) -> Self {
        Suggestion {
            title: format!("Use {to}"),
            replacement: Some(to.to_string()),
            applicability,
            drop_values: 0,
            note: note.map(str::to_string),
        }
    }
    fn drop(title: &str, drop_values: usize, applicability: Applicability, note: &str) -> Self {
        Suggestion {
            title: title.to_string(),
            replacement: None,
            applicability,
            drop_values,
            note: Some(note.to_string()),
        }
    }
}

use Applicability::{Display, Safe, Unsafe};

/// Flags removed or renamed in SGLang, and other servers' spellings.
/// (old flag, replacement text or "" to drop, values the old flag took, applicability, note)
const KNOWN: &[(&str, &str, usize, Applicability, &str)] = &[
    ("--enable-ep-moe", "--ep-size <N>", 0, Display, "`--enable-ep-moe` was removed: expert parallelism is set with `--ep-size N` (often equal to `--tp-size`)."),
    ("--enable-deepep-moe", "--moe-a2a-backend deepep", 0, Unsafe, "`--enable-deepep-moe` was removed: use `--moe-a2a-backend deepep`."),
    ("--enable-flashinfer-mla", "--attention-backend flashinfer", 0, Unsafe, "`--enable-flashinfer-mla` was removed: choose the backend with `--attention-backend flashinfer`."),
    ("--enable-flashmla", "--attention-backend flashmla", 0, Unsafe, "`--enable-flashmla` was removed: choose the backend with `--attention-backend flashmla`."),
    ("--mamba-scheduler-strategy", "--mamba-radix-cache-strategy", 1, Unsafe, "`--mamba-scheduler-strategy` is not a flag of this SGLang release; the closest is `--mamba-radix-cache-strategy`."),
    ("--cuda-graph-max-bs", "--cuda-graph-max-bs-decode", 1, Unsafe, "`--cuda-graph-max-bs` was split into `--cuda-graph-max-bs-decode` and `--cuda-graph-max-bs-prefill`."),
    ("--cuda-graph-bs", "--cuda-graph-bs-decode", 1, Unsafe, "`--cuda-graph-bs` was split into `--cuda-graph-bs-decode` and `--cuda-graph-bs-prefill`."),
    ("--disable-cuda-graphs", "--disable-cuda-graph", 0, Safe, ""),
    // vLLM spellings
    ("--max-model-len", "--context-length", 1, Safe, "`--max-model-len` is vLLM's name; SGLang calls it `--context-length`."),
    ("--gpu-memory-utilization", "--mem-fraction-static", 1, Unsafe, "`--gpu-memory-utilization` is vLLM's; SGLang's `--mem-fraction-static` is the fraction of GPU memory for weights and KV cache (similar, not identical)."),
    ("--max-num-seqs", "--max-running-requests", 1, Safe, "`--max-num-seqs` is vLLM's name; SGLang calls it `--max-running-requests`."),
    ("--max-num-batched-tokens", "--chunked-prefill-size", 1, Unsafe, "`--max-num-batched-tokens` is vLLM's; the closest SGLang setting is `--chunked-prefill-size` (or `--max-prefill-tokens`)."),
    ("--enable-reasoning", "", 0, Unsafe, "`--enable-reasoning` is not an SGLang flag: reasoning output is separated by choosing a parser with `--reasoning-parser NAME` (e.g. deepseek-r1, qwen3)."),
    ("--enable-prefix-caching", "", 0, Safe, "Prefix caching (the radix cache) is on by default in SGLang; drop the flag (`--disable-radix-cache` turns it off)."),
    ("--no-enable-prefix-caching", "--disable-radix-cache", 0, Safe, "SGLang turns prefix caching off with `--disable-radix-cache`."),
    ("--enforce-eager", "--cuda-graph-backend-decode disabled --cuda-graph-backend-prefill disabled", 0, Unsafe, "`--enforce-eager` is vLLM's; SGLang turns CUDA graphs off per phase with `--cuda-graph-backend-{decode,prefill} disabled`."),
    ("--seed", "--random-seed", 1, Safe, "SGLang's seed flag is `--random-seed`."),
    ("--swap-space", "", 1, Unsafe, "SGLang has no CPU swap space setting; drop it (see `--enable-hierarchical-cache` for host-memory KV cache)."),
    ("--disable-log-requests", "", 0, Safe, "SGLang does not log requests unless `--log-requests` is given; drop the flag."),
    ("--disable-log-stats", "", 0, Safe, "SGLang has no `--disable-log-stats`; drop the flag."),
    ("--distributed-executor-backend", "", 1, Unsafe, "SGLang has no executor backend choice; drop the flag."),
    ("--model-name", "--served-model-name", 1, Safe, "The name served to clients is `--served-model-name`."),
    ("--tensor-parallel", "--tensor-parallel-size", 1, Safe, ""),
    ("--num-gpus", "--tp-size", 1, Unsafe, "SGLang sets the number of GPUs through its parallel sizes, e.g. `--tp-size`."),
];

fn long_options(schema: &Schema) -> impl Iterator<Item = &str> {
    schema.actions.iter().flat_map(|a| a.option_strings.iter().map(String::as_str)).filter(|o| o.starts_with("--"))
}

/// Suggestions for an unknown flag word (without any `=value`).
pub fn suggest_flag(schema: &Schema, flag: &str) -> Vec<Suggestion> {
    let mut out = Vec::new();
    if let Some(&(_, to, values, app, note)) = KNOWN.iter().find(|k| k.0 == flag) {
        let note = (!note.is_empty()).then_some(note);
        if to.is_empty() {
            out.push(Suggestion::drop(&format!("Remove {flag}"), values, app, note.unwrap_or("")));
        } else {
            let mut s = Suggestion::rename(to, app, note);
            if app == Display {
                s.title = format!("Use {to}");
            }
            out.push(s);
        }
        return out;
    }
    // single dash for a long flag: -tp-size
    let mut candidates: Vec<String> = vec![flag.to_string()];
    if !flag.starts_with("--") && flag.len() > 2 {
        candidates.push(format!("-{flag}"));
    }
    // underscores for dashes, any case
    for c in candidates.clone() {
        let body = c.trim_start_matches('-');
        let norm = format!("--{}", body.replace('_', "-").to_ascii_lowercase());
        if norm != c {
            candidates.push(norm);
        }
    }
    for c in candidates.iter().skip(1) {
        if schema.by_option.contains_key(c.as_str()) {
            out.push(Suggestion::rename(c, Safe, Some(&format!("SGLang spells it `{c}`."))));
            return out;
        }
        if let Some(known) = KNOWN.iter().find(|k| k.0 == c) {
            return suggest_flag(schema, known.0);
        }
        let prefixed: Vec<&str> = long_options(schema).filter(|o| o.starts_with(c.as_str())).collect();
        if prefixed.len() == 1 {
            if let Some(p) = prefixed.first() {
                out.push(Suggestion::rename(p, Safe, Some(&format!("SGLang spells it `{p}`."))));
                return out;
            }
        }
    }
    // edit distance over normalized forms
    let target = candidates.last().cloned().unwrap_or_else(|| flag.to_string());
    let limit = if target.len() <= 10 { 1 } else if target.len() <= 20 { 2 } else { 3 };
    // The distance is at least the length difference: only options of a near length are
    // compared, and a word far longer than any option is compared with none.
    let target_chars = target.chars().count(); // options are ASCII: their len() is their char count
    let mut scored: Vec<(usize, &str)> = long_options(schema)
        .filter(|o| o.len().abs_diff(target_chars) <= limit)
        .map(|o| (strsim::damerau_levenshtein(&target, o), o))
        .filter(|(d, _)| *d <= limit)
        .collect();
    crate::sorting::sort_by_key(&mut scored, |(d, _)| *d);
    let best = scored.first().map(|(d, _)| *d);
    let n_best = scored.iter().filter(|(d, _)| Some(*d) == best).count();
    for (i, (_, o)) in scored.iter().take(3).enumerate() {
        let app = if i == 0 && n_best == 1 { Safe } else { Unsafe };
        out.push(Suggestion::rename(o, app, None));
    }
    if out.is_empty() {
        // a flag word that contains a known flag name (`--enable-foo` for `--foo`)
        let stripped = target.trim_start_matches("--enable-").trim_start_matches("--disable-");
        if stripped.len() != target.len() && stripped.len() > 3 {
            let hits: Vec<&str> = long_options(schema).filter(|o| o.ends_with(stripped)).take(3).collect();
            for h in hits {
                out.push(Suggestion::rename(h, Unsafe, None));
            }
        }
    }
    out
}

/// The choice a mistyped value most likely meant: same letters in another case, `_` for `-`,
/// or one unique closest by edit distance.
pub fn closest_choice(value: &str, choices: &[String]) -> Option<String> {
    let norm = |s: &str| s.to_ascii_lowercase().replace('_', "-");
    let v = norm(value);
    // common short spellings of dtypes
    let alias = match v.as_str() {
        "bf16" => Some("bfloat16"),
        "fp16" | "half" => Some("float16"),
        "fp32" => Some("float32"),
        "fp8" => Some("fp8_e4m3"),
        _ => None,
    };
    if let Some(a) = alias {
        if let Some(c) = choices.iter().find(|c| c.as_str() == a) {
            return Some(c.clone());
        }
    }
    if let Some(c) = choices.iter().find(|c| norm(c) == v) {
        return Some(c.clone());
    }
    let limit = if value.len() <= 4 { 1 } else { 2 };
    let mut scored: Vec<(usize, &String)> = choices
        .iter()
        .filter(|c| c.chars().count().abs_diff(v.chars().count()) <= limit)
        .map(|c| (strsim::damerau_levenshtein(&v, &norm(c)), c))
        .filter(|(d, _)| *d <= limit)
        .collect();
    crate::sorting::sort_by_key(&mut scored, |(d, _)| *d);
    match scored.as_slice() {
        [(d, c), rest @ ..] if rest.first().map(|(d2, _)| d2 > d).unwrap_or(true) => Some((*c).clone()),
        _ => None,
    }
}

/// Fixes for a number Python's `int()` / `float()` (`ty`) rejected, as (title, value,
/// applicability): the same number written as Python reads it (`1e3` → `1000`, `0x10` → `16`,
/// `0,85` → `0.85`, `1__0` → `10`), or a reading of a size suffix or a percentage (unsafe: a
/// guess at what was meant). Empty when nothing sensible is close.
pub fn number_fixes(ty: &str, value: &str) -> Vec<(String, String, crate::diagnostic::Applicability)> {
    use crate::argparse::{py_float, py_int};
    use crate::diagnostic::Applicability::{Safe, Unsafe};
    let t = value.trim();
    let mut out = Vec::new();
    if t.is_empty() {
        return out;
    }
    let int_text = |f: f64| (f.is_finite() && f.fract() == 0.0 && f.abs() < 1e15).then(|| format!("{}", f as i64));
    match ty {
        "int" => {
            // an integral float (`1e3`, `2.0`)
            if let Some(n) = py_float(t).and_then(int_text) {
                out.push((format!("Write it as a whole number: {n}"), n, Safe));
                return out;
            }
            // another base
            let lower = t.to_ascii_lowercase();
            for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
                if let Some(n) = lower.strip_prefix(prefix).and_then(|d| i64::from_str_radix(&d.replace('_', ""), radix).ok()) {
                    out.push((format!("Write it in decimal: {n}"), n.to_string(), Safe));
                    return out;
                }
            }
            // separators Python does not take here (`1__0`, `_1`, `1,000`, `1 000`)
            let bare: String = t.chars().filter(|c| !matches!(c, '_' | ',' | ' ' | '\'')).collect();
            if bare != t && !bare.is_empty() && bare.bytes().all(|b| b.is_ascii_digit()) && py_int(&bare).is_some() {
                out.push((format!("Write it without separators: {bare}"), bare, Safe));
                return out;
            }
            // a size suffix (`8k`, `4K`, `1M`): binary multiples, as token counts usually are
            let (digits, suffix) = t.split_at(t.find(|c: char| !c.is_ascii_digit() && c != '.').unwrap_or(t.len()));
            let mult = match suffix.to_ascii_lowercase().as_str() {
                "k" | "ki" | "kib" => Some(1u64 << 10),
                "m" | "mi" | "mib" => Some(1 << 20),
                "g" | "gi" | "gib" => Some(1 << 30),
                _ => None,
            };
            if let (Some(m), Some(x)) = (mult, py_float(digits)) {
                if let Some(n) = int_text(x * m as f64) {
                    out.push((format!("Write {t} as {n} ({digits} × {m})"), n, Unsafe));
                    return out;
                }
            }
            let words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "sixteen"];
            let nums = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16];
            if let Some(k) = words.iter().position(|w| w.eq_ignore_ascii_case(t)) {
                if let Some(n) = nums.get(k) {
                    out.push((format!("Write it in digits: {n}"), n.to_string(), Safe));
                }
            }
        }
        "float" => {
            // a decimal comma
            if t.matches(',').count() == 1 && !t.contains('.') {
                let dotted = t.replace(',', ".");
                if py_float(&dotted).is_some() {
                    out.push((format!("Use a decimal point: {dotted}"), dotted, Safe));
                    return out;
                }
            }
            if let Some(p) = t.strip_suffix('%').and_then(py_float) {
                let f = p / 100.0;
                if f.is_finite() {
                    let text = crate::pyvalue::PyValue::Float(f).repr();
                    out.push((format!("Write {t} as a fraction: {text}"), text, Unsafe));
                }
            }
        }
        _ => {}
    }
    out
}
