#!/usr/bin/env python3
"""A new SGLang release in one command: set it up, generate its data, record every fixture
against it, and write a review report, so a person reviews a diff instead of re-reading SGLang.

    python3 tools/new_release.py 0.5.24 [--previous 0.5.23] [--report docs/releases/0.5.24.md]

Steps (each skipped when its output is already there and --force is not given):
1. `tools/recorder/setup.sh --version V`: the recorder's venv with the real package;
2. `data/sglang-V/schema.json` (tools/dump_schema.py) and a README;
3. `data/sglang-V/raise-sites.jsonl` (tools/extract_raise_sites.py, with `status.json` saying its
   checks are not replayed yet: the raise sites give the rules' ranges, docs/releases/rule-ranges.md),
   `warn-sites.jsonl` (tools/extract_warn_sites.py) and, when the release has
   `arg_groups/pipeline.py`, `pipeline.json.candidate` (tools/extract_pipeline.py) for review:
   the rules run for a release only once its raise sites and pipeline order are in place
   (`checks_modelled`); until then its parser is replayed and reports say so;
4. `tests/fixtures/V/*.jsonl`: every case of tests/cases recorded against the real package;
5. the report: flags added / removed / renamed / changed (`sglang-preflight changes`), fixtures
   whose verdict changed from the previous release, the SGLang files the rules name whose source
   changed, warning sites whose message changed, and how long each step took.
SGLang is Apache-2.0 (data/NOTICE): the generated data quotes its source.
"""

from __future__ import annotations

import argparse
import difflib
import glob
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STATE = os.environ.get("SGL_ORACLE_HOME", os.path.expanduser("~/.cache/sgl-oracle"))


def run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    print("+", " ".join(cmd), file=sys.stderr)
    return subprocess.run(cmd, cwd=ROOT, check=True, **kw)


def package_dir(version: str) -> str:
    found = glob.glob(os.path.join(STATE, f"venv-{version}", "lib", "python3*", "site-packages", "sglang"))
    if not found:
        raise SystemExit(f"no venv for {version}: run tools/recorder/setup.sh --version {version}")
    return found[0]


def load_jsonl(path: str) -> list[dict]:
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def verdict_key(fixture: dict) -> list:
    return [(c.get("verdict"), c.get("stage"), c.get("exc_type"), c.get("message")) for c in fixture.get("commands", [])]


def changed_verdicts(previous: str, version: str) -> list[str]:
    lines = []
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "fixtures", version, "*.jsonl"))):
        name = os.path.basename(path)
        before = {f["id"]: f for f in load_jsonl(os.path.join(ROOT, "tests", "fixtures", previous, name))}
        for f in load_jsonl(path):
            old = before.get(f["id"])
            if old is None or verdict_key(old) == verdict_key(f):
                continue
            def show(fx: dict) -> str:
                return "; ".join(
                    c.get("verdict", "?") if c.get("verdict") != "error" else f"{c.get('stage')} {c.get('exc_type')}: {c.get('message')}"
                    for c in fx.get("commands", [])
                )
            lines.append(f"- `{name}` `{f['id']}`: {previous}: {show(old)} → {version}: {show(f)}")
    return lines


def rule_files(binary: str) -> dict[str, list[str]]:
    """SGLang source files the rules name (relative to the package), with the rules naming them."""
    out = subprocess.run([binary, "reference", "--json"], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    files: dict[str, list[str]] = {}
    for rule in json.loads(out):
        f = (rule.get("file") or "").split(" (via")[0].strip()
        if f:
            files.setdefault(f, []).append(rule["code"])
    return files


def source_changes(previous: str, version: str, files: dict[str, list[str]]) -> list[str]:
    old_root, new_root = os.path.dirname(package_dir(previous)), os.path.dirname(package_dir(version))
    lines = []
    for rel, codes in sorted(files.items()):
        old_path, new_path = os.path.join(old_root, rel), os.path.join(new_root, rel)
        if not os.path.exists(new_path):
            lines.append(f"- `{rel}` is gone (rules {', '.join(sorted(codes))})")
            continue
        if not os.path.exists(old_path):
            continue
        with open(old_path) as a, open(new_path) as b:
            old, new = a.read().splitlines(), b.read().splitlines()
        if old != new:
            changed = sum(1 for line in difflib.unified_diff(old, new, n=0) if line[:1] in "+-" and line[:3] not in ("+++", "---"))
            lines.append(f"- `{rel}`: {changed} lines changed (rules {', '.join(sorted(codes))})")
    return lines


def warn_site_changes(previous: str, version: str) -> list[str]:
    def templates(v: str) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for s in load_jsonl(os.path.join(ROOT, "data", f"sglang-{v}", "warn-sites.jsonl")):
            out.setdefault(s["function"], set()).add(" ".join(s.get("message_template", "").split()))
        return out
    old, new = templates(previous), templates(version)
    lines = []
    for function in sorted(set(old) | set(new)):
        gone, added = old.get(function, set()) - new.get(function, set()), new.get(function, set()) - old.get(function, set())
        for t in sorted(gone):
            lines.append(f"- `{function}`: removed “{t}”")
        for t in sorted(added):
            lines.append(f"- `{function}`: added “{t}”")
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("version")
    ap.add_argument("--previous", default=None, help="the release to compare with (default: the newest other one in data/)")
    ap.add_argument("--report", default=None, help="default: docs/releases/<version>.md")
    ap.add_argument("--force", action="store_true", help="redo steps whose output exists")
    ap.add_argument("--cases", nargs="*", default=None, help="default: tests/cases/*.jsonl")
    args = ap.parse_args()
    v = args.version
    data = os.path.join(ROOT, "data", f"sglang-{v}")
    releases = sorted((d.split("sglang-", 1)[1] for d in glob.glob(os.path.join(ROOT, "data", "sglang-*", "schema.json"))
                       for d in [os.path.dirname(d)]), key=lambda s: [int(p) if p.isdigit() else 0 for p in s.split(".")])
    previous = args.previous or next((r for r in reversed(releases) if r != v), None)
    timings: list[tuple[str, float]] = []

    def step(name: str, fn) -> None:
        start = time.monotonic()
        fn()
        timings.append((name, time.monotonic() - start))

    step("set up the release's venv", lambda: run(["bash", "tools/recorder/setup.sh", "--version", v], stdout=subprocess.DEVNULL))
    os.makedirs(data, exist_ok=True)

    def schema() -> None:
        out = os.path.join(data, "schema.json")
        if args.force or not os.path.exists(out):
            run([sys.executable, "tools/dump_schema.py", "--version", v, "-o", out])
        readme = os.path.join(data, "README.md")
        if not os.path.exists(readme):
            with open(readme, "w") as f:
                f.write(f"# SGLang {v} data\n\nGenerated by `python3 tools/new_release.py {v}` from the real package "
                        "(schema: tools/dump_schema.py; warning sites: tools/extract_warn_sites.py). Only the command line "
                        "is replayed for this release until its raise sites and pipeline order are reviewed in. Derived from "
                        "SGLang's source (Copyright the SGLang project authors, Apache License 2.0); see `data/NOTICE`.\n")
    step("generate the schema", schema)

    def sites() -> None:
        # raise sites first: the warning sites take their hooks from them
        raise_out = os.path.join(data, "raise-sites.jsonl")
        if args.force or not os.path.exists(raise_out):
            with open(raise_out, "w") as f:
                run([sys.executable, "tools/extract_raise_sites.py", v], stdout=f)
        status = os.path.join(data, "status.json")
        if not os.path.exists(status):
            with open(status, "w") as f:
                json.dump({"checks": "parser-only", "why": "New release: its raise sites decide the rules' ranges "
                           "(docs/releases/rule-ranges.md); its start-up checks are replayed once the pipeline order and the "
                           "hooks are reviewed against its source."}, f, indent=1)
                f.write("\n")
        out = os.path.join(data, "warn-sites.jsonl")
        if args.force or not os.path.exists(out):
            with open(out, "w") as f:
                run([sys.executable, "tools/extract_warn_sites.py", "--version", v], stdout=f)
        if os.path.exists(os.path.join(package_dir(v), "srt", "arg_groups", "pipeline.py")):
            with open(os.path.join(data, "pipeline.json.candidate"), "w") as f:
                run([sys.executable, "tools/extract_pipeline.py", "--version", v], stdout=f)
    step("extract raise and warning sites and the pipeline order", sites)

    step("build the CLI", lambda: run(["cargo", "build", "--quiet", "--bin", "sglang-preflight"]))
    binary = os.path.join(os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target"), "debug", "sglang-preflight")

    cases = args.cases or sorted(glob.glob(os.path.join(ROOT, "tests", "cases", "*.jsonl")))
    def record() -> None:
        todo = [c for c in cases if args.force or not os.path.exists(os.path.join(ROOT, "tests", "fixtures", v, os.path.basename(c)))]
        if todo:
            run([sys.executable, "tools/recorder/record.py", "--version", v, *todo])
    step("record every fixture", record)

    report = [f"# SGLang {v}: review report", ""]
    if previous:
        changes = subprocess.run([binary, "changes", previous, v], cwd=ROOT, capture_output=True, text=True)
        report += ["## Flags", "", changes.stdout.strip() or changes.stderr.strip(), ""]
        verdicts = changed_verdicts(previous, v)
        report += [f"## Fixtures whose verdict changed from {previous} ({len(verdicts)})", "", *(verdicts or ["None."]), ""]
        files = source_changes(previous, v, rule_files(binary))
        report += [f"## SGLang files the rules name whose source changed ({len(files)})", "",
                   "Re-read these against the rules named (and their recorded triggers).", "", *(files or ["None."]), ""]
        warns = warn_site_changes(previous, v)
        report += [f"## Warning sites whose message changed ({len(warns)})", "", *(warns or ["None."]), ""]
    report += ["## Time", "", "This run (steps whose output was already there are skipped: `--force` redoes them):", "",
               *(f"- {name}: {secs:.0f} s" for name, secs in timings), f"- in all: {sum(s for _, s in timings):.0f} s", ""]
    out = args.report or os.path.join(ROOT, "docs", "releases", f"{v}.md")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        f.write("\n".join(report))
    print(f"review report: {os.path.relpath(out, ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
