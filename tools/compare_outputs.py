#!/usr/bin/env python3
"""Before/after check for behaviour-preserving refactors (issue 16, "Done when").

    compare_outputs.py capture --nkiagent BUILD/nkiagent --out DIR [--verify-sample N] [--no-run]
    compare_outputs.py diff DIR_A DIR_B [--sampled]

`capture` stores, one file per case, what `nkiagent` prints for
  * every conformance kernel (tests/kernels/**/*.py, arguments from its `# nki-case:` header):
    `check --json`, `ir`, and for every case that is not a bad*.py, `run --json` on seeded
    inputs (the generators of tests/kernels/run_cases.py) with a SHA-256 of each output array;
  * every benchmark solution (solutions/<id>.py, arguments from `nkiagent tasks list`):
    `check --json`, `ir`, and `verify --task ID --json` (all of them, or a fixed sample of N
    tasks spread evenly over the sorted ids with --verify-sample N).
Each file holds the exit status, stdout and stderr. Wall-clock figures and absolute paths are
masked (they vary from run to run and between worktrees); nothing else is.
`diff` prints every file that differs or exists on one side only and exits 1 if there is any
(with --sampled, files missing from DIR_B are skipped: B was captured with a smaller sample, or
with --no-run / --no-ir / --kernels-only).
Runs one command at a time (the machine is shared). Needs /usr/bin/python3 (NumPy).
"""
import argparse
import difflib
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "kernels"))
import run_cases  # noqa: E402  (header parsing and input generators of the conformance runner)

# JSON keys and text fields whose values are wall-clock measurements.
TIME_KEY = re.compile(r"(seconds|_ms|_us|elapsed|wall|duration|time)", re.I)


def mask_json(v):
    if isinstance(v, dict):
        return {k: ("<time>" if TIME_KEY.search(k) and isinstance(x, (int, float)) else mask_json(x))
                for k, x in v.items()}
    if isinstance(v, list):
        return [mask_json(x) for x in v]
    return v


def mask_text(s, tmp=None):
    s = s.replace(ROOT, "<ROOT>")
    if tmp:
        s = s.replace(tmp, "<TMP>")
    return s


def record(cmd, json_out=False, tmp=None, timeout=600):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
        rc, out, err = r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired:
        rc, out, err = "timeout", "", ""
    out, err = mask_text(out, tmp), mask_text(err, tmp)
    if json_out and out.strip():
        try:
            out = json.dumps(mask_json(json.loads(out)), indent=1, sort_keys=True) + "\n"
        except ValueError:
            pass
    return "exit: %s\n--- stdout\n%s--- stderr\n%s" % (rc, out, err)


def save(out_dir, rel, text):
    p = os.path.join(out_dir, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(text)


def kernel_cases():
    base = os.path.join(ROOT, "tests", "kernels")
    files = []
    for root, _, names in os.walk(base):
        files += [os.path.join(root, n) for n in names if n.endswith(".py") and n != "run_cases.py"]
    return sorted(os.path.relpath(f, ROOT) for f in files)


def run_kernel(nkiagent, rel, text, opts):
    """`run --json` on the seeded inputs of run_cases.py; output arrays by hash."""
    rng = np.random.default_rng(1234)
    with tempfile.TemporaryDirectory() as tmp:
        cmd = run_cases.base_cmd(nkiagent, "run", rel, opts) + ["--out-dir", tmp, "--json"]
        for i, spec in enumerate(opts["args"]):
            stored, _, dtype = run_cases.make_input(spec, opts["init"].get(i), rng)
            p = os.path.join(tmp, "in%d.npy" % i)
            np.save(p, stored)
            suffix = ":" + dtype if dtype in run_cases.NARROW and dtype != "float16" else ""
            cmd += ["--input", p + suffix]
        text_out = record(cmd, json_out=True, tmp=tmp)
        for f in sorted(os.listdir(tmp)):
            if f.startswith("in"):
                continue
            a = np.load(os.path.join(tmp, f))
            text_out += "%s %s %s %s\n" % (f, a.dtype, a.shape, hashlib.sha256(a.tobytes()).hexdigest())
    return text_out


def capture(args):
    nk = os.path.abspath(args.nkiagent)
    out = args.out
    n = 0
    for rel in kernel_cases():
        text = open(os.path.join(ROOT, rel)).read()
        opts = run_cases.parse_header(text)
        if opts is None:
            continue
        argv = sum((["--arg", a] for a in opts["args"]), [])
        save(out, "kernels/%s.check" % rel, record(run_cases.base_cmd(nk, "check", rel, opts) + argv + ["--json"], True))
        if not args.no_ir:
            save(out, "kernels/%s.ir" % rel, record(run_cases.base_cmd(nk, "ir", rel, opts) + argv))
        if not args.no_run and not os.path.basename(rel).startswith("bad"):
            save(out, "kernels/%s.run" % rel, run_kernel(nk, rel, text, opts))
        n += 1
    print("kernels: %d" % n, flush=True)
    if args.kernels_only:
        return 0

    listing = subprocess.run([nk, "tasks", "list", "--subset", "all"], capture_output=True, text=True, cwd=ROOT, check=True)
    tasks = []
    for line in listing.stdout.splitlines():
        parts = line.split()
        if not parts:
            continue
        specs = []
        for a in parts[3:]:
            _, shape, dtype = a.rsplit(":", 2) if a.count(":") >= 2 else ("", *a.split(":"))
            specs.append("%s:%s" % (shape, dtype))
        tasks.append((parts[0], specs))
    solved = [(t, s) for t, s in tasks if os.path.exists(os.path.join(ROOT, "solutions", t + ".py"))]
    for tid, specs in solved:
        rel = "solutions/%s.py" % tid
        argv = sum((["--arg", a] for a in specs), [])
        save(out, "solutions/%s.check" % tid, record([nk, "check", rel] + argv + ["--json"], True))
        if not args.no_ir:
            save(out, "solutions/%s.ir" % tid, record([nk, "ir", rel] + argv))
    ids = [t for t, _ in solved]
    if args.verify_sample and args.verify_sample < len(ids):
        step = len(ids) / args.verify_sample
        ids = [ids[int(i * step)] for i in range(args.verify_sample)]
    for tid in ids:
        save(out, "solutions/%s.verify" % tid, record([nk, "verify", "solutions/%s.py" % tid, "--task", tid, "--json"], True))
    print("solutions: %d checked, %d verified" % (len(solved), len(ids)), flush=True)
    return 0


def diff(args):
    def files(d):
        r = set()
        for root, _, names in os.walk(d):
            r |= {os.path.relpath(os.path.join(root, n), d) for n in names}
        return r
    a, b = files(args.a), files(args.b)
    bad = 0
    if args.sampled:  # B is a partial capture: compare what it has
        a &= b
    for rel in sorted(a ^ b):
        print("only in %s: %s" % (args.a if rel in a else args.b, rel))
        bad += 1
    for rel in sorted(a & b):
        ta = open(os.path.join(args.a, rel)).read()
        tb = open(os.path.join(args.b, rel)).read()
        if ta != tb:
            bad += 1
            print("differs: %s" % rel)
            sys.stdout.writelines(list(difflib.unified_diff(ta.splitlines(True), tb.splitlines(True), "a/" + rel, "b/" + rel))[:40])
    print("%d files compared, %d differ or are missing" % (len(a | b), bad))
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="mode", required=True)
    c = sub.add_parser("capture")
    c.add_argument("--nkiagent", required=True)
    c.add_argument("--out", required=True)
    c.add_argument("--verify-sample", type=int, default=0, help="verify only N solutions (0: all)")
    c.add_argument("--no-run", action="store_true", help="skip `run` of the conformance kernels")
    c.add_argument("--no-ir", action="store_true", help="skip the `ir` dumps (a quick pass over the checker only)")
    c.add_argument("--kernels-only", action="store_true", help="stop after the conformance kernels")
    d = sub.add_parser("diff")
    d.add_argument("a")
    d.add_argument("b")
    d.add_argument("--sampled", action="store_true", help="skip files missing from B (a partial capture)")
    args = ap.parse_args()
    return capture(args) if args.mode == "capture" else diff(args)


if __name__ == "__main__":
    sys.exit(main())
