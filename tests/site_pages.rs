//! The rule pages of the static site (`src/site_pages.rs`, `reference --html DIR`): one page per
//! code, every text escaped, every link between the pages resolving.
#![allow(clippy::string_slice, clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use sglang_preflight::site_pages::{escape, rule_page_path, rule_pages, META_CSP};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

fn pages() -> BTreeMap<String, String> {
    rule_pages().into_iter().collect()
}

/// The values of every `attr="…"` in the page (the generator always writes double quotes).
fn attribute_values<'a>(html: &'a str, attr: &str) -> Vec<&'a str> {
    let needle = format!(" {attr}=\"");
    html.match_indices(&needle).filter_map(|(at, _)| html[at + needle.len()..].split('"').next()).collect()
}

/// `rules/x.html` + `../y.html#z` -> (`y.html`, Some(`z`)): a relative link resolved from the site root.
fn resolve(page: &str, href: &str) -> (String, Option<String>) {
    let (path, fragment) = match href.split_once('#') {
        Some((p, f)) => (p, Some(f.to_string())),
        None => (href, None),
    };
    let path = path.split('?').next().unwrap_or_default();
    let mut parts: Vec<&str> = page.split('/').collect();
    parts.pop();
    if path.is_empty() {
        return (page.to_string(), fragment);
    }
    for segment in path.split('/') {
        match segment {
            ".." => {
                assert!(parts.pop().is_some(), "{page}: {href} leaves the site");
            }
            "." => {}
            s => parts.push(s),
        }
    }
    (parts.join("/"), fragment)
}

#[test]
fn every_rule_every_other_code_and_every_redirected_code_has_a_page() {
    let pages = pages();
    let rules = sglang_preflight::rules::all_rules();
    for rule in &rules {
        let page = pages.get(&rule_page_path(rule.code)).unwrap_or_else(|| panic!("{} has no page", rule.code));
        assert!(page.contains(&format!("<h1><code class=\"code\">{}</code>", rule.code)), "{}", rule.code);
        assert!(page.contains(&escape(rule.explanation)), "{}: its page has the explanation", rule.code);
    }
    for c in sglang_preflight::codes::CODES {
        assert!(pages.contains_key(&rule_page_path(c.code)), "{} has no page", c.code);
    }
    for (old, new) in sglang_preflight::rules::lora::REDIRECTS {
        let page = pages.get(&rule_page_path(old)).unwrap_or_else(|| panic!("{old} has no page"));
        assert!(page.contains(&format!("href=\"{new}.html\"")), "{old} links to {new}");
    }
    let index = &pages["rules/index.html"];
    for rule in &rules {
        assert!(index.contains(&format!("<a href=\"{0}.html\">{0}</a>", rule.code)), "the index lists {}", rule.code);
    }
    assert!(pages.contains_key("compatibility.html"));
}

#[test]
fn escape_makes_markup_text() {
    assert_eq!(escape(r#"<script>a && "b" 'c'</script>"#), "&lt;script&gt;a &amp;&amp; &quot;b&quot; &#39;c&#39;&lt;/script&gt;");
    assert_eq!(escape("{cfg.tp_size} plain"), "{cfg.tp_size} plain");
}

#[test]
fn a_message_with_markup_characters_is_shown_escaped() {
    // SGLang's PAR002 says `--dcp-size > 1 does not support --enable-prefill-cp.`
    let rule = sglang_preflight::rules::by_code("PAR002").unwrap();
    assert!(rule.info().template.contains('>'), "the example must hold a markup character");
    let page = &pages()[&rule_page_path("PAR002")];
    assert!(page.contains(&format!("<pre class=\"message\"><code>{}</code></pre>", escape(rule.info().template))));
    assert!(!page.contains(rule.info().template), "the raw message is not in the page");
}

#[test]
fn every_page_is_markup_the_generator_wrote_and_text_escaped() {
    // Every `<` opens one of the generator's own tags: text never brings one (nor a `>` out of a tag).
    const TAGS: &[&str] = &[
        "!doctype", "html", "head", "meta", "title", "link", "script", "body", "nav", "main", "footer", "a", "h1", "h2", "p", "span",
        "code", "pre", "strong", "ul", "li", "dl", "dt", "dd", "table", "thead", "tbody", "tr", "th", "td", "colgroup", "col", "div",
        "label", "input", "output",
    ];
    for (path, html) in pages() {
        let mut rest = html.as_str();
        while let Some(at) = rest.find('<') {
            let tag = &rest[at + 1..];
            let end = tag.find('>').unwrap_or_else(|| panic!("{path}: a `<` with no `>`"));
            let name = tag[..end].trim_start_matches('/').split([' ', '>']).next().unwrap_or_default();
            assert!(TAGS.contains(&name), "{path}: <{name}> is not the generator's markup: {}", &tag[..end.min(80)]);
            assert!(!tag[..end].contains('<'), "{path}: a `<` inside a tag");
            rest = &tag[end + 1..];
            // the text up to the next tag holds no `>` (escaped as &gt;)
            let text = &rest[..rest.find('<').unwrap_or(rest.len())];
            assert!(!text.contains('>'), "{path}: a raw `>` in text: {}", &text[..text.len().min(80)]);
        }
        assert!(html.contains(&format!("<meta http-equiv=\"Content-Security-Policy\" content=\"{META_CSP}\">")), "{path}: CSP <meta>");
    }
}

#[test]
fn the_csp_meta_is_the_one_security_headers_mjs_defines() {
    // scripts/security-headers.mjs is the one source of truth: its PAGE_CSP without
    // frame-ancestors (a header-only directive) is what every page's <meta> carries.
    let script = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/security-headers.mjs")).unwrap();
    let block = script.split("export const PAGE_CSP = [").nth(1).unwrap().split("];").next().unwrap();
    let directives: Vec<String> = block
        .lines()
        .filter_map(|l| {
            let quoted: Vec<&str> = l.split('"').collect();
            (quoted.len() >= 5).then(|| format!("{} {}", quoted[1], quoted[3]))
        })
        .filter(|d| !d.starts_with("frame-ancestors"))
        .collect();
    assert_eq!(META_CSP, directives.join("; "));
}

#[test]
fn every_link_between_the_pages_resolves() {
    let pages = pages();
    let www = Path::new(env!("CARGO_MANIFEST_DIR")).join("www");
    // Files build-web.sh copies to the site root: www/*.{html,css,js,svg}.
    let static_file = |path: &str| www.join(path).is_file();
    let ids = |html: &str| attribute_values(html, "id").into_iter().map(String::from).collect::<BTreeSet<String>>();
    let mut links = 0;
    for (path, html) in &pages {
        for href in attribute_values(html, "href").into_iter().chain(attribute_values(html, "src")) {
            assert!(!href.contains("://") && !href.starts_with('/'), "{path}: {href} is not relative");
            let (target, fragment) = resolve(path, href);
            match pages.get(&target) {
                Some(target_html) => {
                    if let Some(f) = fragment {
                        assert!(ids(target_html).contains(&f), "{path}: {href}: {target} has no id {f}");
                    }
                }
                None => assert!(static_file(&target), "{path}: {href} -> {target} is neither a page nor a file of www/"),
            }
            links += 1;
        }
    }
    assert!(links > 1000, "{links} links");
    // the matrix's cells link to rule pages
    let matrix = &pages["compatibility.html"];
    assert!(attribute_values(matrix, "href").iter().filter(|h| h.starts_with("rules/") && h.ends_with(".html")).count() > 400);
}

#[test]
fn with_a_site_url_help_links_go_to_the_rule_pages() {
    use sglang_preflight::output::sarif::help_uri_at;
    let pages = pages();
    let site = "https://docs.example/preflight/";
    assert_eq!(help_uri_at(Some(site), "PAR001"), "https://docs.example/preflight/rules/PAR001.html");
    assert_eq!(help_uri_at(Some("https://docs.example/preflight"), "ARG008"), "https://docs.example/preflight/rules/ARG008.html");
    // an old code goes to its rule's current page
    let (old, new) = sglang_preflight::rules::lora::REDIRECTS[0];
    assert_eq!(help_uri_at(Some(site), old), format!("{site}rules/{new}.html"));
    assert_eq!(help_uri_at(Some(site), "NOPE999"), format!("{site}rules/index.html"));
    let codes = sglang_preflight::rules::all_rules().iter().map(|r| r.code).chain(sglang_preflight::codes::CODES.iter().map(|c| c.code)).collect::<Vec<_>>();
    for code in codes {
        let uri = help_uri_at(Some(site), code);
        assert!(pages.contains_key(uri.strip_prefix(site).unwrap()), "{code}: {uri} is a generated page");
    }
    // with no site, docs/rules.md as before
    assert!(help_uri_at(None, "PAR001").starts_with(sglang_preflight::output::sarif::RULE_REFERENCE_URL));
}
