#!/usr/bin/env python3
"""Differential check of the C++ parser against CPython's ast module.

Usage: diff_corpus.py --dump-tool BUILD/src/lang/nki-pyast-dump [--show N] PATH...
Each PATH is a .py file or a directory (searched recursively for *.py, skipping build*/ and
hidden directories). Both sides run once in batch mode. Per file the outcome is one of:
  agree          both parsed and the canonical dumps are identical
  both-reject    both reported a syntax error (line numbers shown when they differ)
  MISMATCH       dumps differ, or only one side rejected the file
Exit status 0 when there is no MISMATCH.
"""
import argparse
import difflib
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def collect(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, names in os.walk(p):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not d.startswith("build"))
                files.extend(os.path.join(root, n) for n in sorted(names) if n.endswith(".py"))
        else:
            files.append(p)
    return files


def split_batch(text):
    out = {}
    cur = None
    buf = []
    for line in text.splitlines(keepends=True):
        if line.startswith("=== "):
            if cur is not None:
                out[cur] = "".join(buf)
            cur = line[4:].rstrip("\n")
            buf = []
        else:
            buf.append(line)
    if cur is not None:
        out[cur] = "".join(buf)
    return out


def run(dump_tool, files):
    with tempfile.NamedTemporaryFile("w", suffix=".lst", delete=False) as f:
        f.write("\n".join(files) + "\n")
        lst = f.name
    try:
        py = subprocess.run([sys.executable, os.path.join(HERE, "dump.py"), "--batch", lst],
                            capture_output=True, text=True, errors="surrogateescape", check=True)
        cc = subprocess.run([dump_tool, "--batch", lst], capture_output=True, text=True,
                            errors="surrogateescape", check=True)
    finally:
        os.unlink(lst)
    return split_batch(py.stdout), split_batch(cc.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dump-tool", required=True)
    ap.add_argument("--show", type=int, default=5, help="print diffs of the first N mismatches")
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()
    files = collect(args.paths)
    py, cc = run(args.dump_tool, files)
    agree = both_reject = 0
    mismatches = []
    for f in files:
        a, b = py.get(f, "MISSING\n"), cc.get(f, "MISSING\n")
        a_err, b_err = a.startswith("ERROR"), b.startswith("ERROR")
        if a_err and b_err:
            both_reject += 1
            print("both-reject %s\n  cpython: %s  ours:    %s" % (f, a, b), end="")
        elif a == b:
            agree += 1
        else:
            mismatches.append((f, a, b))
    for f, a, b in mismatches[: args.show]:
        print("MISMATCH %s" % f)
        diff = difflib.unified_diff(a.splitlines(), b.splitlines(), "cpython", "ours", lineterm="", n=2)
        for i, line in enumerate(diff):
            if i > 40:
                print("  ...")
                break
            print("  " + line)
    for f, _, _ in mismatches[args.show:]:
        print("MISMATCH %s" % f)
    print("files: %d  agree: %d  both-reject: %d  mismatch: %d"
          % (len(files), agree, both_reject, len(mismatches)))
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
