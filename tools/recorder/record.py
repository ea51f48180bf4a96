#!/usr/bin/env python3
"""Record real SGLang's verdicts for the project's test cases (conformance fixtures).

    python3 tools/recorder/record.py tests/cases/*.jsonl          # (re)write tests/fixtures/<version>/*.jsonl
    python3 tools/recorder/record.py --check --sample 60 tests/cases/*.jsonl   # re-record a sample, diff

A case file has one JSON object a line:
    {"id": "unique-id", "cmd": "<pasted shell text>", "profile": "h100",   # profile optional
     "files": {"cfg.yaml": "<yaml text>"}}                               # files optional
The command text is split into SGLang invocations by the project's own CLI
(`sglang-preflight extract`, built from this checkout); each invocation's argv, entry point
and environment go to the real `sglang` package through `sgl_oracle.py` (set up by
`setup.sh`), and the verdict is written to tests/fixtures/<version>/<case file name>:
    {"id", "cmd", "profile", "files", "sglang_version",
     "commands": [{"entry", "argv", "env", "verdict", "stage", "exc_type", "message", "warnings",
                   "resolved"}]}        # resolved: SGLang's values of sgl_oracle.RESOLVED_FIELDS, accepted only
Files named in `files` are written to a scratch folder, and their names in argv are given
to SGLang as paths there (messages are mapped back), so fixtures hold the names as written.
"""

from __future__ import annotations

import argparse
import json
import re
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
VERSION = "0.5.23"  # the SGLang release this project's data is recorded against
KEEP = ("verdict", "stage", "exc_type", "message", "warnings", "resolved")


def cli_binary() -> str:
    subprocess.run(["cargo", "build", "--quiet", "--bin", "sglang-preflight"], cwd=ROOT, check=True)
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")
    return os.path.abspath(os.path.join(target, "debug", "sglang-preflight"))


def extract(binary: str, cmd: str) -> tuple[list[dict], dict]:
    """The SGLang invocations in `cmd`, and the files it writes with here-documents."""
    out = subprocess.run([binary, "extract", "-"], input=cmd, capture_output=True, text=True, check=True)
    lines = [json.loads(l) for l in out.stdout.splitlines() if l.strip()]
    written = {l["written_file"]: l["content"] for l in lines if "written_file" in l}
    return [l for l in lines if "written_file" not in l], written


def fix_variants(binary: str, case: dict) -> list[dict]:
    """For a `X-trigger` case: the commands obtained by applying each fix (with edits) of our
    diagnostic X, as new cases `X-trigger~fixN`, so the fixture proves what real SGLang says
    after the fix. `X-<variant>-trigger` is another trigger of X (codes hold no `-`)."""
    code = case["id"][: -len("-trigger")].split("-")[0]
    args = [binary, "check", "--format", "json", "--gpu", case.get("profile") or "h100", "-"]
    # The CLI reads a `--config FILE` named in the command from its working folder.
    work = tempfile.mkdtemp(prefix="sglp-fix-")
    for name, text in (case.get("files") or {}).items():
        path = os.path.join(work, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    if case.get("stand_in"):
        # The check reads the stand-in's config, as the conformance test gives it (the path the
        # command names does not exist here).
        import shlex
        try:
            argv = shlex.split(case["cmd"])
        except ValueError:
            argv = []
        _, used, _ = stand_in(argv, work, case.get("files") or {})
        with open(HUB_IDS) as f:
            hub = json.load(f)
        for i, a in enumerate(argv[:-1]):
            if a in ("--model-path", "--speculative-draft-model-path") and argv[i + 1] in used:
                which = "--model-config" if a == "--model-path" else "--draft-model-config"
                args[-1:-1] = [which, os.path.join(HERE, "models", hub[used[argv[i + 1]]])]
    out = subprocess.run(args, input=case["cmd"], capture_output=True, text=True, cwd=work)
    try:
        report = json.loads(out.stdout)
    except ValueError:
        return []
    # In a command, or at the top for findings outside any command.
    found = [d for c in report.get("commands", []) for d in c.get("diagnostics", [])] + report.get("diagnostics", [])
    diags = [d for d in found if d.get("code") == code]
    variants = []
    for d in diags[:1]:
        for n, fix in enumerate(d.get("fixes", [])):
            if not fix.get("edits"):
                continue
            text = case["cmd"].encode()
            # From the end, so earlier offsets stay valid; edits at one offset keep their order
            # in the text (the later one is inserted first), as the core applies them.
            edits = sorted(enumerate(fix["edits"]), key=lambda ie: (ie[1]["start"], ie[0]), reverse=True)
            for _, e in edits:
                text = text[: e["start"]] + e["replacement"].encode() + text[e["end"]:]
            v = {"id": f"{case['id']}~fix{n}", "cmd": text.decode(), "fix_of": case["id"],
                 "fix_title": fix["title"], "fix_code": code}
            for key in ("profile", "files", "stand_in"):
                if case.get(key):
                    v[key] = case[key]
            variants.append(v)
    return variants


# Seconds a command gets when asked again alone after it had no verdict in the batch.
RETRY_TIMEOUT = 120
def no_verdict(r: dict) -> bool:
    """The oracle gave no verdict of SGLang's: none in time, or its worker died."""
    return r.get("verdict") in ("timeout", "missing") or r.get("stage") == "crash"


# Ids of cases that got no verdict of SGLang's (the stubs answered, or none came in time).
NOT_RECORDED: list[str] = []


def run_oracle(requests: list[dict], version: str, cwd: str, timeout: float | None = None) -> list[dict]:
    env = dict(os.environ, SGL_ORACLE_CWD=cwd)
    inp = "".join(json.dumps(r) + "\n" for r in requests)
    more = ["--timeout", str(timeout)] if timeout else []
    out = subprocess.run([sys.executable, os.path.join(HERE, "sgl_oracle.py"), "--version", version, *more],
                         input=inp, capture_output=True, text=True, env=env, check=True)
    by_id = {}
    for line in out.stdout.splitlines():
        if line.strip():
            r = json.loads(line)
            by_id[r["id"]] = r
    return [by_id.get(r["id"], {"verdict": "missing"}) for r in requests]


HUB_IDS = os.path.join(HERE, "models", "hub_ids.json")
PLACEHOLDER = set("${}<>[]` \t\n")


# Configs served for one family's checks (tools/recorder/models/SOURCES.md, "Model-specific
# checks"): like a config the release does not load, each stands in only for a path naming it, so
# adding one does not change the stand-ins (and recorded verdicts) of unrelated real-world cases.
FOR_ONE_CHECK = {"meituan-longcat/LongCat-Flash-Chat"}


def stand_in(argv: list[str], case_dir: str, files: dict) -> tuple[list[str], dict, dict]:
    """Real commands name models this machine does not have (`/data/DeepSeek-R1`, `org/some-model`);
    offline, SGLang would stop at loading their config, which says nothing about the command. For a
    case marked `"stand_in": true`, each model path (the model's, the draft model's) is served by
    the most similar local model config (models/hub_ids.json), placed in the case's folder at the
    path as written, and the argv names it there.
    Placeholders (`$MODEL`, `<path>`) are left alone. Returns the argv, {path: hub id} for the
    fixture, and {local path: path as written} for mapping messages back."""
    import difflib

    with open(HUB_IDS) as f:
        hub = json.load(f)
    def is_model_flag(word: str) -> bool:
        # --model-path or an abbreviation of it (--model); the draft model's path likewise
        return ((len(word) >= len("--model") and "--model-path".startswith(word))
                or (len(word) >= len("--speculative-draft-model") and "--speculative-draft-model-path".startswith(word)))

    def is_draft_flag(word: str) -> bool:
        return len(word) >= len("--speculative-draft-model") and "--speculative-draft-model-path".startswith(word)

    def draft_only(hub_id: str) -> bool:
        # A speculative draft's config (DFlash / DSpark drafts: `*DraftModel`) stands in for
        # draft models only: it is not a model SGLang serves on its own.
        with open(os.path.join(HERE, "models", hub[hub_id], "config.json")) as f:
            return any(a.endswith("DraftModel") for a in json.load(f).get("architectures") or [])

    def needs_own_code(hub_id: str) -> bool:
        # A config served with its configuration_*.py (a model type only its own code knows:
        # SDAR) loads only with --trust-remote-code; it stands in for no command without it,
        # unless the path names it (a folder of that model: start-up then fails as for it).
        return any(n.startswith("configuration_") for n in os.listdir(os.path.join(HERE, "models", hub[hub_id])))

    with open(os.path.join(ROOT, "data", "models", "catalog.json")) as f:
        left_out = json.load(f).get("left_out") or {}

    def not_loaded(hub_id: str) -> bool:
        # A config the release does not load (the catalog left it out because loading it raised:
        # a model type neither transformers nor SGLang knows, MC012's trigger) stands in only for a
        # path naming it. A config left out for another reason (its license not recorded) loads.
        return bool(re.match(r"\w+(Error|Exception)\b", left_out.get(hub_id, ""))) or hub_id in FOR_ONE_CHECK

    def names_it(path: str, hub_id: str) -> bool:
        return path.rstrip("/").split("/")[-1].lower() == hub_id.split("/")[-1].lower()

    trusts_remote_code = "--trust-remote-code" in argv
    quantized_by_flag = any(a == "--quantization" or a.startswith("--quantization=") for a in argv)
    argv, used, unmap = list(argv), {}, {}
    for i, a in enumerate(list(argv)):
        if is_model_flag(a) and i + 1 < len(argv):
            at, path, flag = i + 1, argv[i + 1], a
        elif "=" in a and is_model_flag(a.split("=", 1)[0]):
            at, path, flag = i, a.split("=", 1)[1], a.split("=", 1)[0]
        else:
            continue
        if (path in hub or path in files or not path or PLACEHOLDER & set(path) or ".." in path
                or path.startswith("~")):
            continue
        # A quantized stand-in only for a quantized model (its config's quantization would clash).
        quant = ("fp8", "fp4", "awq", "gptq", "int4", "int8", "w8a8", "w4a8")
        wanted = [q for q in quant if q in path.lower()]
        names = {h.split("/")[-1].lower(): h for h in hub
                 if (wanted or not any(q in h.lower() for q in quant)) and (is_draft_flag(flag) or not draft_only(h))
                 and (trusts_remote_code or not needs_own_code(h) or names_it(path, h))
                 and (not not_loaded(h) or names_it(path, h))}
        best = difflib.get_close_matches(path.rstrip("/").split("/")[-1].lower(), list(names), n=1, cutoff=0.0)
        hub_id = names[best[0]] if best else "meta-llama/Llama-3.1-8B-Instruct"
        # In the case's own folder, relative paths too: the oracle's working directory is shared
        # by every case of a run, and a stand-in placed there (rw-139's `Qwen/Qwen2.5-32B`, a
        # multimodal stand-in) became, for a later case naming the same hub id, a local folder
        # holding another model's config.
        local = os.path.join(case_dir, path.lstrip("/"))
        os.makedirs(os.path.dirname(local.rstrip("/")), exist_ok=True)
        if not os.path.lexists(local.rstrip("/")):
            src = os.path.join(HERE, "models", hub[hub_id])
            with open(os.path.join(src, "config.json")) as f:
                config = json.load(f)
            if quantized_by_flag and "quantization_config" in config:
                # The command picks the quantization; the real model's config agrees with it (or
                # has none), so the stand-in's own method must not clash with it.
                del config["quantization_config"]
                os.makedirs(local.rstrip("/"))
                for name in os.listdir(src):
                    if name != "config.json":
                        os.symlink(os.path.join(src, name), os.path.join(local.rstrip("/"), name))
                with open(os.path.join(local.rstrip("/"), "config.json"), "w") as f:
                    json.dump(config, f)
            else:
                os.symlink(src, local.rstrip("/"))
        argv[at] = local if at == i + 1 else f"{a.split('=', 1)[0]}={local}"
        unmap[local] = path
        used[path] = hub_id
    return argv, used, unmap


def map_strings(v, f):
    """`v` with `f` applied to every string in it (messages, warnings, resolved values)."""
    if isinstance(v, str):
        return f(v)
    if isinstance(v, list):
        return [map_strings(x, f) for x in v]
    if isinstance(v, dict):
        return {k: map_strings(x, f) for k, x in v.items()}
    return v


def record(cases: list[dict], version: str, binary: str) -> list[dict]:
    scratch = tempfile.mkdtemp(prefix="sglp-rec-")
    requests, where = [], []
    for ci, case in enumerate(cases):
        case_dir = os.path.join(scratch, str(ci))
        os.makedirs(case_dir, exist_ok=True)
        invs, written = extract(binary, case["cmd"])
        # The case's files are what is on disk; here-documents in the text overwrite them when it runs.
        files = {**(case.get("files") or {}), **written}

        def local(name: str) -> str:
            # Everything stays inside the case folder (an absolute or `..` path is re-rooted there).
            return os.path.join(case_dir, name.lstrip("/").replace("..", "__"))

        for name, text in files.items():
            path = local(name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        case["_invs"] = invs
        case["_stand_in"], case["_unmap"] = {}, {}
        for ii, inv in enumerate(invs):
            argv = [local(a) if a in files else a for a in inv["argv"]]
            if case.get("stand_in"):
                argv, used, unmap = stand_in(argv, case_dir, files)
                case["_stand_in"].update(used)
                case["_unmap"].update(unmap)
            # A --config path that is not supplied must not exist: point it into the case folder.
            argv = [os.path.join(case_dir, a) if (i > 0 and argv[i - 1] == "--config" and not os.path.isabs(a)) else a
                    for i, a in enumerate(argv)]
            req = {"id": f"{ci}/{ii}", "argv": argv, "entry": inv["entry"], "env": inv.get("env") or {}}
            if case.get("profile"):
                req["profile"] = case["profile"]
            requests.append(req)
            where.append((ci, ii, case_dir))
    results = run_oracle(requests, version, scratch) if requests else []
    # A command with no verdict in time (a loaded machine) is asked again, alone and with more
    # time; one that still has none is not recorded (a timeout is the recorder's, not SGLang's).
    late = [k for k, r in enumerate(results) if no_verdict(r)]
    if late:
        again = run_oracle([requests[k] for k in late], version, scratch, timeout=RETRY_TIMEOUT)
        for k, r in zip(late, again):
            results[k] = r
    out = []
    for ci, case in enumerate(cases):
        cmds = []
        not_sglangs = None  # why the answer is not SGLang's verdict, when it is not
        for ii, inv in enumerate(case.pop("_invs")):
            k = where.index((ci, ii, os.path.join(scratch, str(ci))))
            r = results[k]
            if r.get("stub_error"):
                not_sglangs = f"the stubbed install answered ({(r.get('message') or '')[:80]})"
            if no_verdict(r):
                not_sglangs = f"no verdict in time ({r.get('message') or r.get('verdict')})"
            rec = {"entry": inv["entry"], "argv": inv["argv"], "env": inv.get("env") or {}}
            for key in KEEP:
                if key == "resolved" and "resolved" not in r:
                    continue  # only accepted commands carry SGLang's resolved values
                v = r.get(key)
                if key == "resolved":
                    # the oracle's repr of cuda_graph_config (cut at 300 characters) is not a value
                    v = {k: x for k, x in v.items() if k != "cuda_graph_config"}
                for local_path, written in case["_unmap"].items():
                    v = map_strings(v, lambda x: x.replace(local_path, written))
                v = map_strings(v, lambda x: x.replace(os.path.join(scratch, str(ci)) + "/", ""))
                rec[key] = v
            cmds.append(rec)
        fixture = {"id": case["id"], "cmd": case["cmd"]}
        for key in ("profile", "files", "fix_of", "fix_title", "fix_code"):
            if case.get(key):
                fixture[key] = case[key]
        stood_in = case.pop("_stand_in", {})
        case.pop("_unmap", None)
        if not_sglangs is not None:
            # SGLang reached the recorder's torch/GPU stand-ins, or gave no verdict in time.
            print(f"not recorded: {case['id']}: {not_sglangs}", file=sys.stderr)
            NOT_RECORDED.append(case["id"])
            continue
        if stood_in:
            fixture["stand_in"] = stood_in
        fixture["sglang_version"] = version
        fixture["commands"] = cmds
        out.append(fixture)
    return out


def unordered_choice_flags(version: str) -> set[str]:
    """Option strings whose choices SGLang keeps in a set (`choices_unordered` in the schema):
    argparse lists them in an order that changes from run to run."""
    path = os.path.join(ROOT, "data", f"sglang-{version}", "schema.json")
    if not os.path.exists(path):
        return set()
    with open(path) as f:
        schema = json.load(f)
    return {o for a in schema["actions"] if a.get("choices_unordered") for o in a["option_strings"]}


# Placeholders that print a Python set (`allowed_modalities` is a set literal in
# serving_hook.handle_other_validations): listed in string-hash order, which changes from run to
# run (tests/conformance.rs `SET_LISTINGS`).
SET_LISTINGS = ("list(allowed_modalities)",)


def set_listing_patterns(version: str) -> list:
    """For each raise site of `version` whose message ends with a set listing: a pattern of its
    message, the listing's items as group 2."""
    import re

    path = os.path.join(ROOT, "data", f"sglang-{version}", "raise-sites.jsonl")
    if not os.path.exists(path):
        return []
    out = []
    with open(path) as f:
        for line in f:
            template = json.loads(line).get("message_template") or ""
            for p in SET_LISTINGS:
                head, sep, after = template.partition("{" + p + "}")
                if sep and "{" not in after:
                    literal = ".*?".join(re.escape(t) for t in re.split(r"\{[^}]*\}", head))
                    out.append(re.compile("(" + literal + r")\[(.*)\]" + re.escape(after) + "$", re.S))
    return out


def normalized(fixture, unordered: set[str], set_listings: list = ()):
    """A fixture with the "choose from" list of an unordered-choices flag sorted, and the
    items of a set listing (`set_listing_patterns`) sorted."""
    if not fixture or not (unordered or set_listings):
        return fixture
    out = json.loads(json.dumps(fixture))
    for c in out.get("commands", []):
        msg = c.get("message") or ""
        for pattern in set_listings:
            m = pattern.match(msg)
            if m:
                msg = c["message"] = m.group(1) + "[" + ", ".join(sorted(m.group(2).split(", "))) + "]" + msg[m.end(2) + 1:]
                break
        flag = msg.removeprefix("argument ").split(":")[0].split("/")[0] if msg.startswith("argument ") else ""
        if flag in unordered and " (choose from " in msg and msg.endswith(")"):
            head, items = msg.rsplit(" (choose from ", 1)
            c["message"] = head + " (choose from " + ", ".join(sorted(items[:-1].split(", "))) + ")"
    return out


def without_unrecorded_resolved(fresh: dict, committed: dict | None) -> dict:
    """`fresh` without the resolved values of commands whose committed fixture has none: the
    fixtures of releases whose resolution is not replayed (parser-only) were recorded before the
    recorder kept them, and are compared on their verdicts, messages and warnings."""
    if not committed:
        return fresh
    out = json.loads(json.dumps(fresh))
    for mine, theirs in zip(out.get("commands", []), committed.get("commands", [])):
        if "resolved" not in theirs:
            mine.pop("resolved", None)
    return out


def load(path: str) -> list[dict]:
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip() and not l.startswith("//")]


def expand_profiles(cases: list[dict]) -> list[dict]:
    """A case with `"also_on": ["b200", ...]` is also recorded on those hardware profiles, as
    `<id>@<profile>`: the same command meets other checks on other GPUs. `"skip_on":
    {"mi300x": "why"}` leaves a profile out, saying why."""
    out = []
    extra = ("also_on", "skip_on")
    for c in cases:
        out.append({k: v for k, v in c.items() if k not in extra})
        for profile in c.get("also_on") or []:
            if profile in (c.get("skip_on") or {}):  # {"profile": "why not there"}
                continue
            v = {k: val for k, val in c.items() if k not in extra}
            v["id"], v["profile"] = f"{c['id']}@{profile}", profile
            out.append(v)
    return out


def cases_of(path: str) -> list[dict] | None:
    """The cases of a file with their hardware-profile variants; None (said) when ids repeat."""
    cases = expand_profiles(load(path))
    ids = [c["id"] for c in cases]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        print(f"{path}: duplicate ids {sorted(dup)}", file=sys.stderr)
        return None
    return cases


def check(args, binary: str, all_cases: int, rng: random.Random, unordered, set_listings) -> int:
    """Re-record the cases (a sample of them with --sample) and compare with the committed
    fixtures. Every file's cases go to the oracle as one batch ordered by hardware profile, so each
    profile's worker imports SGLang once (~10 s), not once per file. A trigger's fix variants
    (`X-trigger~fixN`, from running our check) are checked with their trigger."""
    plan = []
    for path in args.cases:
        cases = cases_of(path)
        if cases is None:
            return 2
        chosen = cases
        if args.sample:
            share = -(-args.sample * len(cases) // max(1, all_cases))  # ceil
            chosen = rng.sample(cases, min(len(cases), share))
        for c in list(chosen):
            if c["id"].endswith("-trigger"):
                chosen.extend(fix_variants(binary, c))
        plan.append((path, chosen))
    batch = [dict(c, id=f"{n}\t{c['id']}") for n, (_, chosen) in enumerate(plan) for c in chosen]
    batch.sort(key=lambda c: json.dumps(c.get("profile") or "", sort_keys=True))
    fresh_by_file: dict[int, list[dict]] = {}
    for f in record(batch, args.version, binary):
        n, f["id"] = f["id"].split("\t", 1)
        fresh_by_file.setdefault(int(n), []).append(f)
    total = failures = 0
    for n, (path, _) in enumerate(plan):
        out_path = os.path.join(args.out_dir, os.path.basename(path))
        committed = {f["id"]: f for f in load(out_path)} if os.path.exists(out_path) else {}
        for f in fresh_by_file.get(n, []):
            if f["id"] not in committed:
                # Not drift: a case this release's fixtures were never recorded for (added
                # after they were); `record.py --version V FILE` records it.
                print(f"UNRECORDED {path} {f['id']}: no committed {args.version} fixture")
                continue
            total += 1
            if normalized(committed.get(f["id"]), unordered, set_listings) != normalized(without_unrecorded_resolved(f, committed.get(f["id"])), unordered, set_listings):
                failures += 1
                print(f"DRIFT {path} {f['id']}:\n  committed {json.dumps(committed.get(f['id']))}\n  real      {json.dumps(f)}")
    print(f"recorder check: {total - failures} passed, {failures} failed")
    return 1 if failures else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cases", nargs="+", help="tests/cases/*.jsonl")
    ap.add_argument("--version", default=VERSION)
    ap.add_argument("--out-dir", default=None, help="default: tests/fixtures/<version>")
    ap.add_argument("--check", action="store_true", help="re-record and compare with the committed fixtures")
    ap.add_argument("--sample", type=int, default=0,
                    help="with --check: about this many random cases in all, spread over the files by size")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    if args.out_dir is None:
        args.out_dir = os.path.join(ROOT, "tests", "fixtures", args.version)
    binary = cli_binary()
    unordered = unordered_choice_flags(args.version)
    set_listings = set_listing_patterns(args.version)
    all_cases = sum(len(expand_profiles(load(p))) for p in args.cases)
    if args.check and args.sample and args.seed is None:
        # A drift a random sample finds can be sampled again: --seed N
        args.seed = random.randrange(2**32)
        print(f"recorder check: sample seed {args.seed}", flush=True)
    rng = random.Random(args.seed)
    if args.check:
        return check(args, binary, all_cases, rng, unordered, set_listings)
    for path in args.cases:
        cases = cases_of(path)
        if cases is None:
            return 2
        for c in list(cases):
            if c["id"].endswith("-trigger"):
                cases.extend(fix_variants(binary, c))
        out_path = os.path.join(args.out_dir, os.path.basename(path))
        before = len(NOT_RECORDED)
        fresh = record(cases, args.version, binary)
        # a case with no verdict this time keeps its committed fixture (never a timeout verdict)
        missed = set(NOT_RECORDED[before:])
        if missed and os.path.exists(out_path):
            kept = {f["id"]: f for f in load(out_path) if f["id"] in missed}
            order = {c["id"]: i for i, c in enumerate(cases)}
            fresh = sorted(fresh + list(kept.values()), key=lambda f: order.get(f["id"], len(order)))
            for i in sorted(kept):
                print(f"kept the committed fixture of {i}: no verdict this time", file=sys.stderr)
        os.makedirs(args.out_dir, exist_ok=True)
        with open(out_path, "w") as f:
            for fx in fresh:
                f.write(json.dumps(fx, ensure_ascii=False) + "\n")
        verdicts = {}
        for fx in fresh:
            for c in fx["commands"]:
                verdicts[c["verdict"]] = verdicts.get(c["verdict"], 0) + 1
        print(f"{out_path}: {len(fresh)} cases, {verdicts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
