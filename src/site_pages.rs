//! The rule reference and the compatibility matrix as pages of the static site: one page per
//! code (`rules/<CODE>.html`, as ShellCheck's wiki has one per check), an index
//! (`rules/index.html`) and the flags × flags grid (`compatibility.html`). Generated at build
//! time from the same metadata as `docs/rules.md` and `docs/compatibility.md`
//! (`cargo run -- reference --html dist`, run by `scripts/build-web.sh`); the wasm has none of it.
//!
//! Every text goes through [`escape`]: SGLang's messages hold `<`, `>`, `&` and quotes.

use crate::docs::{example_command, fixes_offered, flag_pairs, range_text, rule_ranges_table, RangeCell};
use crate::rules::{all_rules, Rule, Sglang};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// The CSP `<meta>` of every page: `META_CSP` of `scripts/security-headers.mjs` (the build runs
/// its check on the generated pages too, so the two cannot drift).
pub const META_CSP: &str = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'";

/// Text as HTML text or attribute value.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// Where a code's page is, relative to the site root (`rules/PAR001.html`).
pub fn rule_page_path(code: &str) -> String {
    format!("rules/{code}.html")
}

/// Every page: (path relative to the site root, HTML).
pub fn rule_pages() -> Vec<(String, String)> {
    let mut ranges: BTreeMap<&str, Vec<(&'static str, RangeCell)>> = BTreeMap::new();
    for (rule, cells) in rule_ranges_table() {
        ranges.insert(rule.code, cells);
    }
    let matrix_flags: BTreeSet<&str> = flag_pairs().keys().flat_map(|(a, b)| [*a, *b]).collect();
    let mut pages = Vec::new();
    for rule in all_rules() {
        pages.push((rule_page_path(rule.code), rule_page(rule, ranges.get(rule.code).map(Vec::as_slice).unwrap_or_default(), &matrix_flags)));
    }
    for c in crate::codes::CODES {
        pages.push((rule_page_path(c.code), other_code_page(c)));
    }
    for (old, new) in crate::rules::lora::REDIRECTS {
        let body = format!(
            "<h1><code>{old}</code> is now <a href=\"{new}.html\"><code>{new}</code></a></h1>\n<p>The LoRA rules were part of the validation family; the old code still names the rule: see <a href=\"{new}.html\">{new}</a>.</p>\n",
            old = escape(old),
            new = escape(new)
        );
        pages.push((rule_page_path(old), page(&format!("{old} (now {new})"), "../", &body, false)));
    }
    pages.push(("rules/index.html".to_string(), index_page()));
    pages.push(("compatibility.html".to_string(), matrix_page()));
    pages
}

/// A whole page. `root` is the way back to the site root from the page ("" or "../").
fn page(title: &str, root: &str, body: &str, matrix_script: bool) -> String {
    let script = if matrix_script { format!("<script type=\"module\" src=\"{root}compatibility.js\"></script>\n") } else { String::new() };
    format!(
        "<!doctype html>
<html lang=\"en\">
<head>
<meta charset=\"utf-8\">
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">
<meta http-equiv=\"Content-Security-Policy\" content=\"{META_CSP}\">
<meta name=\"referrer\" content=\"no-referrer\">
<meta name=\"color-scheme\" content=\"light dark\">
<title>{title} — sglang-preflight</title>
<link rel=\"icon\" href=\"{root}favicon.svg\" type=\"image/svg+xml\">
<link rel=\"stylesheet\" href=\"{root}reference.css\">
{script}</head>
<body>
<nav class=\"crumbs\" aria-label=\"Site\"><a href=\"{root}index.html\">sglang-preflight</a> · <a href=\"{root}rules/index.html\">Rules</a> · <a href=\"{root}compatibility.html\">Compatibility matrix</a></nav>
<main>
{body}</main>
<footer>Generated from the rules' metadata. Messages are SGLang's own (Apache-2.0, SGLang project); explanations are ours.</footer>
</body>
</html>
",
        title = escape(title)
    )
}

/// A URL query value: unreserved characters as they are, every other byte percent-encoded.
fn query_value(text: &str) -> String {
    text.bytes()
        .map(|b| if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) { char::from(b).to_string() } else { format!("%{b:02X}") })
        .collect()
}

fn code(text: &str) -> String {
    format!("<code>{}</code>", escape(text))
}

fn severity_name(rule: &Rule) -> String {
    format!("{:?}", rule.info().severity).to_lowercase()
}

/// When SGLang reaches the rule's check, in a sentence (HTML).
fn when_it_happens(rule: &Rule) -> String {
    let r = rule.info();
    let kind = if r.exception.is_empty() { "warns".to_string() } else { format!("raises {}", code(r.exception)) };
    match rule.sglang {
        Sglang::Transfer { exception, .. } => {
            let kind = if exception.is_empty() { "reports it (no exception)".to_string() } else { format!("raises {}", code(exception)) };
            format!(
                "Each server of a PD pair starts on its own; when the two run together and connect, SGLang {kind} in {} ({}) — a {}.",
                code(&r.function),
                code(&r.file),
                severity_name(rule)
            )
        }
        Sglang::Runtime { exception, .. } => {
            let kind = if exception.is_empty() { "a CUDA error (no message of SGLang's)".to_string() } else { code(exception) };
            format!(
                "Preflight's runtime warning, not a recorded verdict: after the arguments are resolved, on the GPU node, SGLang fails in {} ({}) with {kind} when the server starts.",
                code(&r.function),
                code(&r.file)
            )
        }
        _ => format!("At start-up, before the server loads anything, SGLang {kind} in {} ({}).", code(&r.function), code(&r.file)),
    }
}

fn rule_page(rule: &Rule, cells: &[(&'static str, RangeCell)], matrix_flags: &BTreeSet<&str>) -> String {
    let r = rule.info();
    let mut b = String::new();
    let _ = writeln!(b, "<h1><code class=\"code\">{}</code> <span class=\"name\">{}</span></h1>", escape(r.code), escape(r.name));
    let stage = format!("{:?}", r.stage).to_lowercase();
    let _ = write!(b, "<p class=\"kind\"><span class=\"badge {sev}\">{sev}</span> <span class=\"stage\">{}</span>", escape(&stage), sev = severity_name(rule));
    if !r.exception.is_empty() {
        let _ = write!(b, " {}", code(r.exception));
    }
    let _ = writeln!(b, "</p>");
    let _ = writeln!(b, "<h2>SGLang's message</h2>");
    if r.template.is_empty() {
        let _ = writeln!(b, "<p>No message of SGLang's (see below).</p>");
    } else {
        let _ = writeln!(b, "<pre class=\"message\"><code>{}</code></pre>", escape(r.template));
        let _ = writeln!(b, "<p class=\"note\">As in SGLang's source: each <code>{{…}}</code> is filled with the command's values.</p>");
    }
    let _ = writeln!(b, "<h2>What it means</h2>\n<p class=\"explanation\">{}</p>", escape(r.explanation));
    let _ = writeln!(b, "<h2>When it happens</h2>\n<p>{}</p>", when_it_happens(rule));
    if !r.flags.is_empty() {
        // each flag's row in the compatibility matrix (compatibility.js reads `?filter=`)
        let flags: Vec<String> = r
            .flags
            .iter()
            .map(|f| match matrix_flags.contains(f) {
                true => format!("<a href=\"../compatibility.html?filter={}\">{}</a>", escape(&query_value(f)), code(f)),
                false => code(f),
            })
            .collect();
        let _ = writeln!(b, "<p>Flags: {}</p>", flags.join(", "));
    }
    let _ = writeln!(b, "<h2>Fixes</h2>");
    let fixes = fixes_offered(rule);
    if fixes.is_empty() {
        let _ = writeln!(b, "<p>None offered for the recorded example: change the command as the message says.</p>");
    } else {
        let _ = writeln!(b, "<ul class=\"fixes\">");
        for f in fixes {
            let _ = writeln!(b, "<li>{}</li>", escape(&f));
        }
        let _ = writeln!(b, "</ul>");
    }
    if !r.example_bad.is_empty() || !r.example_good.is_empty() {
        let _ = writeln!(b, "<h2>Before and after</h2>");
        if !r.example_bad.is_empty() {
            let _ = writeln!(b, "<p>Raises it:</p>\n<pre class=\"example before\"><code>{}</code></pre>", escape(&example_command(r.example_bad)));
        }
        if !r.example_good.is_empty() {
            let _ = writeln!(b, "<p>Does not:</p>\n<pre class=\"example after\"><code>{}</code></pre>", escape(&example_command(r.example_good)));
        }
    }
    let _ = writeln!(b, "<h2>SGLang's source</h2>\n<dl class=\"source\">");
    let _ = writeln!(b, "<dt>Module</dt><dd>{}</dd>\n<dt>Function</dt><dd>{}</dd>", code(&r.file), code(&r.function));
    if let Some(site) = r.warning_site.or((!r.site.is_empty()).then_some(r.site)) {
        let _ = writeln!(b, "<dt>Site</dt><dd>{}</dd>", code(site));
    }
    if let Some(by) = r.reraised_by {
        let _ = writeln!(b, "<dt>Re-raised by</dt><dd>{}</dd>", code(by));
    }
    let _ = writeln!(b, "</dl>");
    let _ = writeln!(b, "<h2>Releases</h2>");
    let _ = writeln!(b, "<p>Applies to: <strong>{}</strong>, as each release's own source decides.</p>", escape(&range_text(cells)));
    let _ = writeln!(b, "<table class=\"releases\"><thead><tr><th scope=\"col\">SGLang</th><th scope=\"col\">the rule's site</th></tr></thead><tbody>");
    for (version, cell) in cells.iter().rev() {
        let standing = match cell {
            RangeCell::Site { exception, template } if *exception == r.exception && crate::docs::message_text(template) == crate::docs::message_text(r.template) => "yes".to_string(),
            RangeCell::Site { exception, template } => {
                let exception = if exception.is_empty() { "warning".to_string() } else { code(exception) };
                format!("yes, with another text: {exception} {}", code(template))
            }
            RangeCell::Absent => "not there".to_string(),
            RangeCell::NoData => "not read (no site table of that kind)".to_string(),
        };
        let _ = writeln!(b, "<tr><th scope=\"row\">{}</th><td>{standing}</td></tr>", escape(version));
    }
    let _ = writeln!(b, "</tbody></table>");
    page(&format!("{} {}", r.code, r.name), "../", &b, false)
}

fn other_code_page(c: &crate::codes::Code) -> String {
    let stage = format!("{:?}", c.stage).to_lowercase();
    let origin = match c.origin {
        crate::diagnostic::Origin::Sglang => "SGLang's own error or warning, with its exact message",
        _ => "preflight's finding",
    };
    let b = format!(
        "<h1><code class=\"code\">{}</code></h1>\n<p class=\"kind\"><span class=\"stage\">{}</span> {}</p>\n<h2>What it means</h2>\n<p class=\"explanation\">{}</p>\n<p class=\"note\">Not a rule: a code emitted while reading the text, by <code>sglang serve</code>'s front end, the <code>--config</code> loader or argparse, before any rule runs. See <a href=\"index.html#other-codes\">other codes</a>.</p>\n",
        escape(c.code),
        escape(&stage),
        escape(origin),
        escape(c.meaning)
    );
    page(c.code, "../", &b, false)
}

fn index_page() -> String {
    let rules = all_rules();
    let mut b = String::new();
    let _ = writeln!(b, "<h1>Rule reference</h1>\n<p>{} rules, one page each: SGLang's message, what it means, the fixes, and the releases it applies to. See also the <a href=\"../compatibility.html\">compatibility matrix</a>.</p>", rules.len());
    let _ = writeln!(b, "<table class=\"index\"><thead><tr><th scope=\"col\">code</th><th scope=\"col\">severity</th><th scope=\"col\">SGLang's message</th></tr></thead><tbody>");
    for rule in &rules {
        let r = rule.info();
        let message = if r.template.is_empty() { escape(r.name) } else { code(r.template) };
        let _ = writeln!(b, "<tr><th scope=\"row\"><a href=\"{c}.html\">{c}</a></th><td>{}</td><td>{message}</td></tr>", severity_name(rule), c = escape(r.code));
    }
    let _ = writeln!(b, "</tbody></table>");
    let _ = writeln!(b, "<h2 id=\"other-codes\">Other codes</h2>\n<p>Emitted while reading the text, by the front end, the <code>--config</code> loader and argparse, before any rule runs.</p>\n<table class=\"index\"><thead><tr><th scope=\"col\">code</th><th scope=\"col\">stage</th><th scope=\"col\">meaning</th></tr></thead><tbody>");
    for c in crate::codes::CODES {
        let _ = writeln!(b, "<tr><th scope=\"row\"><a href=\"{c}.html\">{c}</a></th><td>{}</td><td>{}</td></tr>", escape(&format!("{:?}", c.stage).to_lowercase()), escape(c.meaning), c = escape(c.code));
    }
    let _ = writeln!(b, "</tbody></table>");
    let _ = writeln!(b, "<h2 id=\"redirected-codes\">Redirected codes</h2>\n<ul>");
    for (old, new) in crate::rules::lora::REDIRECTS {
        let _ = writeln!(b, "<li><a href=\"{o}.html\">{o}</a> is now <a href=\"{n}.html\">{n}</a></li>", o = escape(old), n = escape(new));
    }
    let _ = writeln!(b, "</ul>");
    page("Rule reference", "../", &b, false)
}

/// The flags × flags grid: a cell links to the rules that name both flags. `compatibility.js`
/// filters it (rows whose flag matches the text box, and the columns those rows have cells in).
fn matrix_page() -> String {
    let pairs = flag_pairs();
    let flags: Vec<&str> = pairs.keys().flat_map(|(a, b)| [*a, *b]).collect::<BTreeSet<_>>().into_iter().collect();
    let mut b = String::new();
    let _ = writeln!(
        b,
        "<h1>Compatibility matrix</h1>\n<p>Pairs of flags that constrain each other in SGLang's checks: {} flags, {} pairs. A cell names the rules that relate its row's flag and its column's flag (see the <a href=\"rules/index.html\">rule reference</a>).</p>",
        flags.len(),
        pairs.len()
    );
    let _ = writeln!(b, "<p class=\"filter\"><label for=\"matrix-filter\">Filter flags</label> <input id=\"matrix-filter\" type=\"search\" placeholder=\"e.g. speculative\" autocomplete=\"off\" spellcheck=\"false\"> <output id=\"matrix-count\" for=\"matrix-filter\"></output></p>");
    let _ = writeln!(b, "<div class=\"matrix-wrap\"><table class=\"matrix\" id=\"matrix\"><colgroup><col>");
    for f in &flags {
        let _ = write!(b, "<col data-flag=\"{}\">", escape(f));
    }
    let _ = writeln!(b, "</colgroup><thead><tr><td></td>");
    for f in &flags {
        let _ = write!(b, "<th scope=\"col\"><span>{}</span></th>", escape(f));
    }
    let _ = writeln!(b, "</tr></thead><tbody>");
    for row in &flags {
        let _ = write!(b, "<tr data-flag=\"{f}\"><th scope=\"row\">{f}</th>", f = escape(row));
        for col in &flags {
            let key = if row <= col { (*row, *col) } else { (*col, *row) };
            match pairs.get(&key) {
                Some(codes) if row != col => {
                    let links: Vec<String> = codes.iter().map(|c| format!("<a href=\"rules/{c}.html\">{c}</a>", c = escape(c))).collect();
                    let _ = write!(b, "<td>{}</td>", links.join(" "));
                }
                _ => b.push_str("<td></td>"),
            }
        }
        b.push_str("</tr>\n");
    }
    let _ = writeln!(b, "</tbody></table></div>");
    page("Compatibility matrix", "", &b, true)
}
