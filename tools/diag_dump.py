#!/usr/bin/python3
"""Dumps every diagnostic nkiagent reports on the conformance kernels, for before/after diffs.

  diag_dump.py --nkiagent BUILD/nkiagent [--out FILE] [--formats]

For each tests/kernels/**/*.py (and docs/examples/*.py): the exit code and stdout of
`check --json` with the case's header options, and for runtime/ cases the exit code and stderr
of `run` with the inputs the conformance runner generates. Two builds' dumps must be identical
when a change claims to keep the diagnostics (issue 16: code, message, hint, location).

--formats also matches every reported diagnostic against the catalogue row of its code
(src/base/diag_codes.def): a message or hint that the row's format (fields `{...}` match any
text) does not describe is listed, so docs/error-codes.md can be kept to what the code prints.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "kernels"))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import numpy as np  # noqa: E402
import run_cases as rc  # noqa: E402


def cases():
    for base in (os.path.join(ROOT, "tests", "kernels"), os.path.join(ROOT, "docs", "examples")):
        for d, _, files in sorted(os.walk(base)):
            for f in sorted(files):
                if f.endswith(".py") and f != "run_cases.py":
                    yield os.path.join(d, f)


def dump_one(nkiagent, path):
    text = open(path, encoding="utf-8").read()
    opts = rc.parse_header(text)
    if opts is None:
        return None
    args = sum((["--arg", a] for a in opts["args"]), [])
    r = subprocess.run(rc.base_cmd(nkiagent, "check", path, opts) + args + ["--json"],
                       capture_output=True, text=True, timeout=120)
    out = {"file": os.path.relpath(path, ROOT), "check_rc": r.returncode, "check": r.stdout}
    if "/runtime/" in path and r.returncode == 0:
        rng = np.random.default_rng(1234)
        with tempfile.TemporaryDirectory() as tmp:
            cmd = rc.base_cmd(nkiagent, "run", path, opts) + ["--out-dir", tmp, "--numerics", "precise"]
            for i, spec in enumerate(opts["args"]):
                stored, _, dtype = rc.make_input(spec, opts["init"].get(i), rng)
                p = os.path.join(tmp, "in%d.npy" % i)
                np.save(p, stored)
                suffix = ":" + dtype if dtype in rc.NARROW and dtype != "float16" else ""
                cmd += ["--input", p + suffix]
            rr = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
            out["run_rc"] = rr.returncode
            out["run_stderr"] = rr.stderr.replace(tmp, "TMP")
    return out


def format_regex(fmt):
    """A row's format: alternatives one per line, `{field}` matching any text, `(no hint)` the
    empty text."""
    alts = []
    for alt in fmt.split("\n"):
        alt = "" if alt == "(no hint)" else alt
        alts.append(".*".join(re.escape(p) for p in re.split(r"\{[^{}]*\}", alt)))
    return re.compile("^(?:" + "|".join(alts) + ")$", re.S)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nkiagent", required=True)
    ap.add_argument("--out")
    ap.add_argument("--formats", action="store_true")
    a = ap.parse_args()
    rows = [r for r in (dump_one(a.nkiagent, p) for p in cases()) if r]
    text = "".join(json.dumps(r, sort_keys=True) + "\n" for r in rows)
    if a.out:
        open(a.out, "w").write(text)
    else:
        sys.stdout.write(text)
    if a.formats:
        import diag_codes
        cat = diag_codes.load_catalogue()
        seen, bad = {}, 0
        for r in rows:
            try:
                diags = json.loads(r["check"]).get("diagnostics", [])
            except ValueError:
                diags = []
            for d in diags:
                c = d.get("code")
                row = cat.get(c)
                key = (c, d.get("message"), d.get("hint", ""))
                if key in seen:
                    continue
                seen[key] = r["file"]
                if row is None:
                    print("NO ROW %s (%s)" % (c, r["file"]), file=sys.stderr)
                    bad += 1
                    continue
                for what in ("message", "hint"):
                    if not format_regex(row[what]).match(d.get(what, "") or ""):
                        print("%s %s: %r does not match %r (%s)" % (what.upper(), c, d.get(what), row[what], r["file"]),
                              file=sys.stderr)
                        bad += 1
        print("%d distinct diagnostics, %d format mismatches" % (len(seen), bad), file=sys.stderr)


if __name__ == "__main__":
    main()
