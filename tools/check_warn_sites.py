#!/usr/bin/env python3
"""Does every warning rule name exactly one of SGLang's warn sites? Prints a table.

    python3 tools/check_warn_sites.py                  # 0.5.23, markdown table on stdout
    python3 tools/check_warn_sites.py --json           # one JSON object per rule
    python3 tools/check_warn_sites.py --strict         # exit 1 unless every rule matches uniquely

Reads the rules' hand-copied metadata straight from `src/rules/**/*.rs` (no build): each
`macro_rules!` there is parsed (its first arm's parameters and the `Rule { .. }` literal it
expands to, or the macro it forwards to), every invocation is expanded into Rule fields, and
plain `static X: Rule = Rule { .. }` literals are read too. `const NAME: &str = ".."` in the
same file and `concat!` of literals are resolved. A warning rule is one whose severity is
`Severity::Warning` (the macros `warn_rule!`, `warning!`, `warning_rule!`, or `rule!` with
`Severity::Warning`).

Matching, against `data/sglang-<version>/warn-sites.jsonl` (tools/extract_warn_sites.py):
candidates are the warn sites in the rule's `file` whose `function` is the rule's `function`
(or a function nested in it). Templates are compared with whitespace collapsed:
- "exact": exactly one candidate has the same template;
- "prefix": the rule's template is a prefix of exactly one candidate's (the rule reproduces
  the first part), or the other way round;
- "placeholders": equal once every `{...}` field is reduced to `{}` (the rule spells a
  placeholder differently: `{cfg.x}` for SGLang's `{server_args.x}`, ...);
- "ambiguous": more than one candidate matches at the best level;
- "no match": reported with the closest candidate in the file (difflib ratio) -- the rule's
  function or template has drifted from SGLang's source.
"""
import argparse
import difflib
import glob
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# ---- Rust text ------------------------------------------------------------------------------


def skip_string(s, i):
    """s[i] starts a string literal ("..", r".." r#".."#, b".."): return index after it."""
    j = i
    if s[j] == "b":
        j += 1
    if s[j] == "r":
        j += 1
        hashes = 0
        while s[j] == "#":
            hashes += 1; j += 1
        assert s[j] == '"'
        end = s.index('"' + "#" * hashes, j + 1)
        return end + 1 + hashes
    assert s[j] == '"', s[i:i + 20]
    j += 1
    while s[j] != '"':
        j += 2 if s[j] == "\\" else 1
    return j + 1


def is_string_start(s, i):
    if s[i] == '"':
        return True
    if s[i] in "rb" and (i == 0 or not (s[i - 1].isalnum() or s[i - 1] == "_")):
        m = re.match(r'b?r?#*"', s[i:])
        return bool(m) and (s[i] != "b" or m.group(0) != "b")
    return False


def matching(s, i):
    """s[i] is an opening bracket: index of its closing one (strings, chars, comments skipped)."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack = []
    j = i
    while j < len(s):
        c = s[j]
        if s.startswith("//", j):
            j = s.index("\n", j); continue
        if s.startswith("/*", j):
            j = s.index("*/", j) + 2; continue
        if is_string_start(s, j):
            j = skip_string(s, j); continue
        if c == "'" and re.match(r"'(\\.|[^\\'])'", s[j:j + 4]):
            j = s.index("'", j + 2) + 1 if s[j + 1] == "\\" else j + 3; continue
        if c in pairs:
            stack.append(pairs[c])
        elif c in ")]}":
            if stack.pop() != c:
                raise ValueError(f"unbalanced at {j}")
            if not stack:
                return j
        j += 1
    raise ValueError("unterminated")


def split_top(s):
    """Split on top-level commas (strings and brackets respected); drop empty trailing item."""
    out, cur, j, depth = [], [], 0, 0
    while j < len(s):
        c = s[j]
        if s.startswith("//", j):
            j = s.index("\n", j) if "\n" in s[j:] else len(s); continue
        if is_string_start(s, j):
            k = skip_string(s, j); cur.append(s[j:k]); j = k; continue
        if c in "([{":
            k = matching(s, j); cur.append(s[j:k + 1]); j = k + 1; continue
        if c == "," and depth == 0:
            out.append("".join(cur).strip()); cur = []; j += 1; continue
        cur.append(c); j += 1
    last = "".join(cur).strip()
    if last:
        out.append(last)
    return out


def blank_comments(s):
    """Comments replaced by spaces (positions and line numbers kept), strings left alone."""
    out, j = [], 0
    while j < len(s):
        if s.startswith("//", j):
            k = s.find("\n", j)
            k = len(s) if k < 0 else k
            out.append(" " * (k - j)); j = k; continue
        if s.startswith("/*", j):
            k = s.index("*/", j) + 2
            out.append(re.sub(r"[^\n]", " ", s[j:k])); j = k; continue
        if is_string_start(s, j):
            k = skip_string(s, j); out.append(s[j:k]); j = k; continue
        if s[j] == "'" and re.match(r"'(\\.|[^\\'])'", s[j:j + 4]):
            k = s.index("'", j + 2) + 1 if s[j + 1] == "\\" else j + 3
            out.append(s[j:k]); j = k; continue
        out.append(s[j]); j += 1
    return "".join(out)


def unescape(body):
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(c); i += 1; continue
        n = body[i + 1]
        if n == "\n":  # line continuation: skip the newline and leading whitespace
            i += 2
            while i < len(body) and body[i] in " \t\n\r":
                i += 1
            continue
        simple = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", '"': '"', "'": "'"}
        if n in simple:
            out.append(simple[n]); i += 2; continue
        if n == "x":
            out.append(chr(int(body[i + 2:i + 4], 16))); i += 4; continue
        if n == "u":
            k = body.index("}", i); out.append(chr(int(body[i + 3:k], 16))); i = k + 1; continue
        out.append(c); i += 1
    return "".join(out)


def eval_str(expr, consts):
    """Value of a Rust &str expression: literal, const name, concat!(..); None otherwise."""
    e = expr.strip()
    if not e:
        return None
    if is_string_start(e, 0) and skip_string(e, 0) == len(e):
        m = re.match(r'b?(r?)(#*)"', e)
        inner = e[m.end():len(e) - 1 - len(m.group(2))]
        return inner if m.group(1) else unescape(inner)
    if re.fullmatch(r"[A-Z_][A-Z0-9_]*", e) and e in consts:
        return consts[e]
    m = re.fullmatch(r"concat!\s*\((.*)\)", e, re.S)
    if m:
        parts = [eval_str(p, consts) for p in split_top(m.group(1))]
        return None if any(p is None for p in parts) else "".join(parts)
    return None


# ---- macros ---------------------------------------------------------------------------------

class Macro:
    def __init__(self, name, params, body_kind, body, path):
        self.name, self.params, self.body_kind, self.body, self.path = name, params, body_kind, body, path


def parse_macros(text, path):
    macros = {}
    for m in re.finditer(r"macro_rules!\s*(\w+)\s*\{", text):
        open_i = m.end() - 1
        block = text[open_i + 1:matching(text, open_i)]
        arm = block.strip()
        p_end = matching(arm, 0)
        pattern = arm[1:p_end]
        params = []
        for item in split_top(pattern):
            pm = re.match(r"\$(\w+)\s*:", item)
            params.append(pm.group(1) if pm else ("$flags" if item.startswith("[") else item))
        rest = arm[p_end + 1:]
        b = rest.index("{", rest.index("=>"))
        body = rest[b + 1:matching(rest, b)]
        sm = re.search(r"Rule\s*=\s*(?:\$crate::rules::)?Rule\s*\{", body)
        if sm:
            o = sm.end() - 1
            macros[m.group(1)] = Macro(m.group(1), params, "struct", body[o + 1:matching(body, o)], path)
        else:
            fm = re.search(r"(\w+)!\s*\(", body)
            o = fm.end() - 1
            macros[m.group(1)] = Macro(m.group(1), params, ("forward", fm.group(1)), body[o + 1:matching(body, o)], path)
    return macros


def struct_fields(body):
    fields = {}
    for item in split_top(body):
        fm = re.match(r"(\w+)\s*:\s*(.*)", item, re.S)
        if fm:
            fields[fm.group(1)] = fm.group(2).strip()
    return fields


def expand(macro, args, lookup):
    """Rule fields (raw Rust expressions) for one invocation."""
    if len(args) != len(macro.params):
        raise ValueError(f"{macro.name}!: {len(args)} args for {len(macro.params)} params")
    env = dict(zip(macro.params, args))

    def subst(expr):
        return re.sub(r"\$(\w+)", lambda m: env.get(m.group(1), m.group(0)), expr)

    if macro.body_kind == "struct":
        return {k: subst(v) for k, v in struct_fields(macro.body).items()}
    target = lookup(macro.body_kind[1], macro.path)
    return expand(target, [subst(a) for a in split_top(macro.body)], lookup)


def load_rules(rules_dir):
    files = sorted(glob.glob(os.path.join(rules_dir, "**", "*.rs"), recursive=True))
    texts = {f: blank_comments(open(f, encoding="utf-8").read()) for f in files}
    macros = {f: parse_macros(t, f) for f, t in texts.items()}

    def lookup(name, path):
        if name in macros[path]:
            return macros[path][name]
        # #[macro_use] siblings: prefer a definition in the same directory or the module dir
        # named after this file (validation.rs -> validation/meta.rs).
        d = os.path.dirname(path)
        mod_dir = path[:-3]
        for f in files:
            if name in macros[f] and (os.path.dirname(f) in (d, mod_dir)):
                return macros[f][name]
        for f in files:
            if name in macros[f]:
                return macros[f][name]
        raise KeyError(name)

    rules = []
    for f, text in texts.items():
        consts = {m.group(1): unescape(m.group(2)) for m in
                  re.finditer(r'const\s+([A-Z_][A-Z0-9_]*)\s*:\s*&str\s*=\s*"((?:\\.|[^"\\])*)"\s*;', text)}
        defined = set()
        for m in re.finditer(r"macro_rules!\s*\w+\s*\{", text):
            defined.update(range(m.start(), matching(text, m.end() - 1)))
        found = []
        for m in re.finditer(r"(?<![\w$])(\w+)!\s*\(", text):
            if m.start() in defined or m.group(1) in ("concat", "vec", "format", "matches", "assert",
                                                      "assert_eq", "panic", "write", "writeln", "println",
                                                      "eprintln", "debug_assert", "unreachable", "todo",
                                                      "include_str", "stringify", "assert_ne"):
                continue
            try:
                mac = lookup(m.group(1), f)
            except KeyError:
                continue
            o = m.end() - 1
            fields = expand(mac, split_top(text[o + 1:matching(text, o)]), lookup)
            found.append((m.start(), fields))
        for m in re.finditer(r"static\s+\w+\s*:\s*Rule\s*=\s*Rule\s*\{", text):
            o = m.end() - 1
            found.append((m.start(), struct_fields(text[o + 1:matching(text, o)])))
        for pos, fields in sorted(found, key=lambda t: t[0]):
            rules.append({
                "code": eval_str(fields.get("code", ""), consts),
                "site": eval_str(fields.get("site", ""), consts),
                "file": eval_str(fields.get("file", ""), consts),
                "function": eval_str(fields.get("function", ""), consts),
                "severity": fields.get("severity", "").split("::")[-1],
                "template": eval_str(fields.get("template", ""), consts),
                "rs": os.path.relpath(f, ROOT) + ":" + str(text.count("\n", 0, pos) + 1),
            })
    return rules


# ---- matching -------------------------------------------------------------------------------

def norm(t):
    return re.sub(r"\s+", " ", t or "").strip()


def fields_blank(t):
    out, depth = [], 0
    i = 0
    while i < len(t):
        if t[i:i + 2] in ("{{", "}}") and depth == 0:
            out.append(t[i:i + 2]); i += 2; continue
        if t[i] == "{":
            if depth == 0:
                out.append("{}")
            depth += 1
        elif t[i] == "}" and depth:
            depth -= 1
        elif depth == 0:
            out.append(t[i])
        i += 1
    return "".join(out)


def match_rule(rule, sites):
    in_file = [s for s in sites if s["file"] == rule["file"]]
    fn = rule["function"] or ""
    cands = [s for s in in_file if s["function"] == fn or s["function"].startswith(fn + ".")
             or s["function"].endswith("." + fn)]
    t = norm(rule["template"])
    levels = [
        ("exact", lambda s: norm(s["message_template"]) == t),
        ("prefix", lambda s: bool(t) and (norm(s["message_template"]).startswith(t) or
                                          (len(norm(s["message_template"])) > 15 and t.startswith(norm(s["message_template"]))))),
        ("placeholders", lambda s: fields_blank(norm(s["message_template"])) == fields_blank(t)),
    ]
    for level, pred in levels:
        hits = [s for s in cands if pred(s)]
        if len(hits) == 1:
            return level, hits[0], None
        if len(hits) > 1:
            return "ambiguous", hits[0], [h["id"] for h in hits]
    # Elsewhere in the file (the rule names a caller, not the function that logs)? Same levels,
    # plus the literal text before the first placeholder.
    def lead(x):
        return fields_blank(x).split("{}")[0].strip()
    for level, pred in levels + [("literal prefix", lambda s: len(lead(t)) >= 10 and lead(norm(s["message_template"])) == lead(t))]:
        hits = [s for s in in_file if s not in cands and pred(s)]
        if len(hits) == 1:
            return "no match", hits[0], {"ratio": round(difflib.SequenceMatcher(None, t, norm(hits[0]["message_template"])).ratio(), 3),
                                         "same_template_elsewhere": [], "other_function": level,
                                         "candidates_in_function": len(cands)}
    pool = cands or in_file or sites
    best = max(pool, key=lambda s: difflib.SequenceMatcher(None, t, norm(s["message_template"])).ratio(), default=None)
    ratio = difflib.SequenceMatcher(None, t, norm(best["message_template"])).ratio() if best else 0
    # Same template elsewhere in the file (the rule names the wrong function)?
    elsewhere = [s["id"] for s in sites if norm(s["message_template"]) == t and s not in cands]
    return "no match", best, {"ratio": round(ratio, 3), "same_template_elsewhere": elsewhere,
                              "candidates_in_function": len(cands)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--version", default="0.5.23")
    ap.add_argument("--warn-sites", help="default: data/sglang-<version>/warn-sites.jsonl")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--strict", action="store_true")
    a = ap.parse_args()
    ws = a.warn_sites or os.path.join(ROOT, "data", f"sglang-{a.version}", "warn-sites.jsonl")
    sites = [json.loads(l) for l in open(ws, encoding="utf-8")]
    rules = load_rules(os.path.join(ROOT, "src", "rules"))
    warn_rules = [r for r in rules if r["severity"] == "Warning"]
    odd = [r for r in rules if r["severity"] != "Warning" and r["site"] == ""]

    results = []
    for r in warn_rules:
        level, site, extra = match_rule(r, sites)
        results.append({**r, "level": level, "site_id": site["id"] if site else None,
                        "site_template": site["message_template"] if site else None, "extra": extra})

    if a.json:
        for x in results:
            print(json.dumps(x))
    else:
        counts = {}
        for x in results:
            counts[x["level"]] = counts.get(x["level"], 0) + 1
        print(f"{len(rules)} rules read from src/rules, {len(warn_rules)} warning rules; "
              f"{len(sites)} warn sites in {os.path.relpath(ws, ROOT)}")
        print("matched: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
        print()
        print("| rule | function | warn site | match |")
        print("| --- | --- | --- | --- |")
        for x in results:
            site = x["site_id"] or "-"
            if x["level"] == "no match":
                e = x["extra"]
                note = f"no match (closest: `{site}`, ratio {e['ratio']}"
                if e.get("other_function"):
                    note += f"; matches there at level '{e['other_function']}': the rule names another function"
                if e["same_template_elsewhere"]:
                    note += f"; same template at {', '.join(e['same_template_elsewhere'])}"
                note += ")"
                site = "no match"
            elif x["level"] == "ambiguous":
                note = "ambiguous: " + ", ".join(x["extra"])
            else:
                note = x["level"]
            print(f"| {x['code']} | {x['function']} | {site if x['level'] != 'no match' else 'no match'} | {note} |")
        drift = [x for x in results if x["level"] not in ("exact", "prefix")]
        if drift:
            print()
            print("Templates that differ from SGLang's source:")
            for x in drift:
                print(f"- {x['code']} ({x['rs']}, {x['function']}): {x['level']}")
                print(f"    rule:  {x['template']!r}")
                print(f"    sglang: {x['site_template']!r} ({x['site_id']})")
        if odd:
            print()
            print("Rules with no raise site that are not warnings: " + ", ".join(f"{r['code']} ({r['severity']})" for r in odd))
    if a.strict and any(x["level"] not in ("exact", "prefix") for x in results):
        sys.exit(1)


if __name__ == "__main__":
    main()
