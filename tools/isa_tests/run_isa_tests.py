#!/usr/bin/env python3
"""Runs a directory of official NKI doc tests (unmodified) through the neuronxcc shim.

    /usr/bin/python3 tools/isa_tests/run_isa_tests.py DIR [--timeout S] [--python-dir build/python]

Each test_*.py runs in its own subprocess (`python3 -m nkisim.run --unittest FILE`) with a
timeout. Prints one line per file (PASS/FAIL and the first error line) and a total. Fetches
nothing: DIR must already hold the tests (docs/python.md says where they come from).
Exit status: 0 when every file passed, 1 otherwise.
"""
import argparse
import os
import re
import subprocess
import sys

# The line that best explains a failure: the simulator's diagnostic, else the exception.
_ERROR_PATTERNS = [
    re.compile(r"error\[[^\]]+\]: .*"),
    re.compile(r"^(?:\w+\.)*\w*(?:Error|Exception)\b.*", re.M),
    re.compile(r"^FAIL: .*", re.M),
]


def first_error(output):
    for pat in _ERROR_PATTERNS:
        m = pat.search(output)
        if m:
            return m.group(0).strip()
    lines = [l for l in output.strip().splitlines() if l.strip()]
    return lines[-1] if lines else "(no output)"


def run_file(path, timeout, python_dir):
    cmd = [sys.executable, "-m", "nkisim.run", "--unittest", path]
    env = dict(os.environ)
    env["PYTHONPATH"] = python_dir + os.pathsep + env.get("PYTHONPATH", "")
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                           cwd=os.path.dirname(path), env=env)
    except subprocess.TimeoutExpired:
        return False, f"timeout after {timeout}s"
    out = p.stdout + p.stderr
    counts = re.search(r"Ran (\d+) tests?", out)
    tests = counts.group(1) if counts else "?"
    if p.returncode == 0:
        return True, f"{tests} tests"
    return False, first_error(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--timeout", type=float, default=120)
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--python-dir", default=os.path.join(repo, "build", "python"),
                    help="the build's python dir holding _nkisim, nkisim and neuronxcc")
    args = ap.parse_args()
    if not os.path.isdir(os.path.join(args.python_dir, "nkisim")):
        ap.error(f"{args.python_dir} has no nkisim package: build the _nkisim target or pass --python-dir")
    files = sorted(f for f in os.listdir(args.dir) if f.startswith("test") and f.endswith(".py"))
    passed = 0
    for f in files:
        ok, why = run_file(os.path.abspath(os.path.join(args.dir, f)), args.timeout, os.path.abspath(args.python_dir))
        passed += ok
        print(f"{'PASS' if ok else 'FAIL'}  {f}: {why}", flush=True)
    print(f"{passed} passed, {len(files) - passed} failed")
    return 0 if passed == len(files) else 1


if __name__ == "__main__":
    sys.exit(main())
