#!/usr/bin/python3
"""Round-trip the legacy benchmark solutions through `nkiagent migrate` and `nkiagent verify`.

    tools/migrate_sweep.py [--nkiagent PATH] [--jobs N] [--ids ID,...] [--keep DIR] [--results FILE.json] [--table]

For each solutions/<id>.py: `nkiagent migrate solutions/<id>.py --to 0.6 --task <id> --no-check
--out TMP --json` (the rewrite is the same with or without the check: it only needs the legacy
trace), then, when nothing was refused, `nkiagent verify TMP --task <id> --nki 0.6 --json`, the
criterion of docs/nki-current.md ("The benchmark solutions in the current dialect"). Each id
gets its first reason: the first refusal `[rule]: message`, or the verify failure of a complete
rewrite. --keep DIR keeps the migrated files that verify as DIR/<id>.py (unedited tool output,
for solutions_nki06/). --table prints the markdown table of the failures by first reason.
Run from the repository root after building nkiagent; golden data is generated on first use.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile

NKIAGENT = "build/nkiagent"


def first_reason(task_id, tmpdir):
    out = os.path.join(tmpdir, task_id + ".py")
    m = subprocess.run([NKIAGENT, "migrate", f"solutions/{task_id}.py", "--to", "0.6", "--task", task_id,
                        "--no-check", "--out", out, "--json"], capture_output=True, text=True)
    try:
        rep = json.loads(m.stdout)
    except json.JSONDecodeError:
        return task_id, f"migrate failed (exit {m.returncode}): {(m.stderr or m.stdout).strip()[:160]}", None
    if rep["refused"]:
        f = rep["refused"][0]
        return task_id, f"[{f['rule']}]: {f['message']}", None
    v = subprocess.run([NKIAGENT, "verify", out, "--task", task_id, "--nki", "0.6", "--json"],
                       capture_output=True, text=True)
    if v.returncode == 0:
        return task_id, "", out
    try:
        vr = json.loads(v.stdout)
    except json.JSONDecodeError:
        return task_id, f"migrated but verify failed (exit {v.returncode}): {v.stderr.strip()[:160]}", None
    kinds = {1: "compile error", 3: "runtime error"}
    if v.returncode in kinds:
        return task_id, "migrated but does not verify: " + kinds[v.returncode], None
    failed = [t["trial"] for t in vr.get("trials", []) if not t.get("passed")]
    return task_id, "migrated but does not verify: wrong result on trial " + (str(failed[0]) if failed else "?"), None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--nkiagent", default="build/nkiagent", help="the binary (default build/nkiagent)")
    ap.add_argument("--ids", default="", help="comma-separated task ids (default: every solutions/*.py)")
    ap.add_argument("--keep", default="", help="copy the migrated files that verify into this directory")
    ap.add_argument("--results", default="", help="write {id: first reason ('' = pass)} as JSON")
    ap.add_argument("--table", action="store_true", help="print the failures grouped by first reason (markdown)")
    a = ap.parse_args()
    global NKIAGENT
    NKIAGENT = a.nkiagent
    ids = [i for i in a.ids.split(",") if i] or sorted(f[:-3] for f in os.listdir("solutions") if f.endswith(".py"))
    results = {}
    with tempfile.TemporaryDirectory(prefix="migrate_sweep_") as tmp, \
            concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        for task_id, reason, path in pool.map(lambda i: first_reason(i, tmp), ids):
            results[task_id] = reason
            print(f"{task_id}\t{'PASS' if not reason else reason}", flush=True)
            if path and a.keep:
                os.makedirs(a.keep, exist_ok=True)
                shutil.copyfile(path, os.path.join(a.keep, task_id + ".py"))
    passed = sum(1 for r in results.values() if not r)
    print(f"passed {passed}/{len(results)} ({100 * passed // max(1, len(results))} %)")
    if a.results:
        with open(a.results, "w") as f:
            json.dump(results, f, indent=1, sort_keys=True)
    if a.table:
        groups = collections.defaultdict(list)
        for task_id, reason in results.items():
            if reason:
                groups[reason].append(task_id)
        print("| n | first reason | tasks |\n|---|---|---|")
        for reason, tasks in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            print(f"| {len(tasks)} | {reason.replace('|', '/')} | {', '.join(tasks)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
