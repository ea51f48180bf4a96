#!/usr/bin/env python3
"""Write the fuzz seed corpora: fuzz/seeds/<target>/ from the `cmd` (and `files`) of every
tests/fixtures/<release>/*.jsonl line and every file in tests/cases/bad_input/. Idempotent."""
import hashlib, json, pathlib, sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEP = b"\n%%%yaml%%%\n"  # props::YAML_SEPARATOR
MAX = 64 * 1024  # bigger inputs are left to tests/bad_input.rs

def seeds():
    for p in sorted((ROOT / "tests/fixtures").glob("*/*.jsonl")) + sorted((ROOT / "tests/cases").glob("*.jsonl")):
        for line in p.read_text().splitlines():
            try:
                f = json.loads(line)
            except ValueError:
                continue
            cmd = f.get("cmd")
            if not isinstance(cmd, str):
                continue
            yield cmd.encode()
            for text in (f.get("files") or {}).values():
                yield cmd.encode() + SEP + str(text).encode()
    for p in sorted((ROOT / "tests/cases/bad_input").glob("*")):
        if p.is_file() and p.suffix not in (".json", ".md") and p.stat().st_size <= MAX:
            yield p.read_bytes()

def main():
    n = 0
    for target in ("shell", "argparse", "check"):
        d = ROOT / "fuzz/seeds" / target
        d.mkdir(parents=True, exist_ok=True)
        for data in seeds():
            if target == "argparse":
                # Words after the launcher: drop everything up to the SGLang entry point.
                for marker in (b"sglang.launch_server", b"sglang serve"):
                    if marker in data:
                        data = data.split(marker, 1)[1]
                        break
            (d / hashlib.sha1(data).hexdigest()).write_bytes(data)
            n += 1
    print(f"fuzz seeds: {n} written under fuzz/seeds/", file=sys.stderr)

main()
