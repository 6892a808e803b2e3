#!/usr/bin/env python3
"""Verifies every reference solution of a subset with `nkiagent verify` (exit 0 = pass).

usage: verify_solutions.py --nkiagent PATH --subset tasks/subsets/ablation60.txt [--jobs N]
Prints one line per failing task and a final `N passed, M failed` line.
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys


def verify(nkiagent, root, task):
    sol = os.path.join(root, "solutions", task + ".py")
    r = subprocess.run([nkiagent, "verify", sol, "--task", task, "--tasks-dir", os.path.join(root, "tasks")],
                       capture_output=True, text=True, timeout=600)
    return task, r.returncode, (r.stdout + r.stderr).strip().splitlines()[:6]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nkiagent", required=True)
    ap.add_argument("--subset", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(args.subset)))
    root = os.path.dirname(root) if os.path.basename(root) == "tasks" else root
    tasks = [t.strip() for t in open(args.subset) if t.strip() and not t.startswith("#")]
    passed = failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for task, rc, lines in ex.map(lambda t: verify(args.nkiagent, root, t), tasks):
            if rc == 0:
                passed += 1
            else:
                failed += 1
                print("FAIL %s (exit %d): %s" % (task, rc, " | ".join(lines)))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
