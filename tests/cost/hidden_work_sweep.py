"""The hidden-work attack on every reference solution (issue 26): the kernel's first loop is
wrapped so that it runs SKIP idle iterations before the real ones,

    for t__h in nl.affine_range(N + SKIP):
        if t__h >= SKIP:
            t = t__h - SKIP
            <the original body>

which still passes verify and does exactly the original work. The cost model must charge it:
no wrapped solution may be estimated more than 1.5x faster than the solution itself.

usage: hidden_work_sweep.py NKIAGENT [--verify] [--limit N]
(--verify also checks that each wrapped kernel passes its task, as the attack needs.)
"""

import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

SRC = pathlib.Path(os.environ.get("NKI_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
SKIP = 4096
MAX_SPEEDUP = 1.5
LOOP = re.compile(r"^(\s+)for (\w+) in nl\.(affine_range|sequential_range)\((.*)\):\s*$")


def wrap_first_loop(text):
    """The solution with its first affine/sequential loop wrapped, or None if it has no loop."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        m = LOOP.match(line)
        if not m:
            continue
        ind, var, kind, trips = m.groups()
        end = i + 1
        while end < len(lines) and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) > len(ind)):
            end += 1
        body = ["    " + b if b.strip() else b for b in lines[i + 1:end]]
        head = [f"{ind}for {var}__h in nl.{kind}(({trips}) + {SKIP}):",
                f"{ind}    if {var}__h >= {SKIP}:",
                f"{ind}        {var} = {var}__h - {SKIP}"]
        return "\n".join(lines[:i] + head + body + lines[end:])
    return None


def profile(nkiagent, path, task):
    p = subprocess.run([nkiagent, "profile", str(path), "--task", task, "--json"], capture_output=True, text=True,
                       timeout=300)
    if p.returncode != 0:
        return None, (p.stderr or p.stdout).strip().splitlines()[-1:] or ["exit %d" % p.returncode]
    return json.loads(p.stdout)["profile"]["latency_ns"], None


def verify(nkiagent, path, task):
    p = subprocess.run([nkiagent, "verify", str(path), "--task", task, "--trials", "1"], capture_output=True,
                       text=True, timeout=300)
    return p.returncode == 0


def one(nkiagent, sol, tmp, check_verify):
    task = sol.stem
    wrapped = wrap_first_loop(sol.read_text())
    if wrapped is None:
        return task, "no loop", None
    path = pathlib.Path(tmp) / sol.name
    path.write_text(wrapped)
    base, err = profile(nkiagent, sol, task)
    if base is None:
        return task, "FAIL solution has no estimate: %s" % err, None
    hidden, err = profile(nkiagent, path, task)
    if hidden is None:
        # The wrapped kernel is a valid kernel doing the same work: it must get an estimate.
        return task, "FAIL wrapped kernel has no estimate: %s" % err, None
    if check_verify and not verify(nkiagent, path, task):
        return task, "wrapped kernel fails verify", None
    return task, None, base / hidden


def main():
    nkiagent = sys.argv[1]
    check_verify = "--verify" in sys.argv
    limit = int(sys.argv[sys.argv.index("--limit") + 1]) if "--limit" in sys.argv else None
    sols = sorted((SRC / "solutions").glob("*.py"))[:limit]
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(lambda s: one(nkiagent, s, tmp, check_verify), sols))
    speedups = [(t, s) for t, _, s in results if s is not None]
    skipped = [(t, why) for t, why, s in results if s is None]
    bad = [(t, s) for t, s in speedups if s > MAX_SPEEDUP]
    errors = [t for t, why in skipped if why.startswith("FAIL")]
    worst = max(speedups, key=lambda x: x[1]) if speedups else ("-", 0)
    print(f"{len(speedups)} wrapped solutions estimated, {len(skipped)} not compared; "
          f"largest estimated speedup of a wrapped kernel over its solution: {worst[1]:.3f} ({worst[0]})")
    for t, why in skipped:
        print(f"  not compared: {t}: {why}")
    for t, s in bad:
        print(f"  FAIL {t}: the wrapped kernel is estimated {s:.1f}x faster than the solution")
    if not speedups:
        print("FAIL: nothing compared")
        return 1
    return 1 if bad or errors else 0


if __name__ == "__main__":
    sys.exit(main())
