#!/usr/bin/env python3
"""Extract a compact JSON Lines copy of Matomo device-detector's fixtures.

Usage: extract.py GIT_DIR COMMIT > device-detector.jsonl

Reads every Tests/fixtures/*.yml at COMMIT of a device-detector git
directory and writes one JSON object per fixture with the user agent and
the expected client, operating system, device and bot, in the file order.
Fixtures that carry Client Hints headers are left out (Weir reads the
User-Agent header only), and so are repeats of a user agent already written.
"""
import json
import subprocess
import sys

import yaml


def s(v):
    return "" if v is None else str(v)


def main():
    git_dir, commit = sys.argv[1], sys.argv[2]
    names = subprocess.run(
        ["git", "--git-dir", git_dir, "ls-tree", "-r", "--name-only", commit, "Tests/fixtures/"],
        check=True, capture_output=True, text=True).stdout.split()
    seen = set()
    out = sys.stdout
    for name in sorted(n for n in names if n.endswith(".yml")):
        text = subprocess.run(["git", "--git-dir", git_dir, "show", f"{commit}:{name}"],
                              check=True, capture_output=True, text=True).stdout
        for fx in yaml.load(text, Loader=yaml.BaseLoader) or []:
            ua = s(fx.get("user_agent"))
            if fx.get("headers") or ua in seen:
                continue
            seen.add(ua)
            rec = {"ua": ua, "file": name.rsplit("/", 1)[-1]}
            if "bot" in fx:
                b = fx["bot"] or {}
                rec["bot"] = {"name": s(b.get("name")), "category": s(b.get("category"))}
            else:
                c, o, d = (fx.get(k) if isinstance(fx.get(k), dict) else {} for k in ("client", "os", "device"))
                rec["client"] = {k: s(c.get(k)) for k in ("type", "name", "version", "engine", "engine_version")}
                rec["os"] = {k: s(o.get(k)) for k in ("name", "version")}
                rec["device"] = {k: s(d.get(k)) for k in ("type", "brand", "model")}
            out.write(json.dumps(rec, ensure_ascii=False, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
