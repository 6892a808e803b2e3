#!/usr/bin/python3
"""Picks the committed sample of generated episodes (tests/data/episodes_sample).

    sample_episodes.py EPISODES.jsonl TASKS_DIR OUT_DIR [N]

Takes N records (default 100), half template and half repair, spread over the template
families and mutation classes (round robin over the groups in sorted order, first records of
each group first), writes OUT_DIR/episodes.jsonl in the order of the input file, and copies
each record's task.json and reference.py to OUT_DIR/tasks/<task_id>/. Deterministic.
"""

import json
import os
import shutil
import sys
from collections import OrderedDict


def group_of(rec):
    src = rec.get("source", "")
    if rec["provenance"] == "repair":
        return "repair:" + rec["task_id"].split("_v")[0] + ":" + rec.get("id", src)
    return "template:" + rec["task_id"].split("_v")[0]


def pick(records, want):
    groups = OrderedDict()
    for i, r in sorted(records, key=lambda x: group_of(x[1])):
        groups.setdefault(group_of(r), []).append((i, r))
    chosen = []
    depth = 0
    while len(chosen) < want and any(len(g) > depth for g in groups.values()):
        for g in groups.values():
            if len(g) > depth and len(chosen) < want:
                chosen.append(g[depth])
        depth += 1
    return chosen


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    src, tasks, out = argv[0], argv[1], argv[2]
    n = int(argv[3]) if len(argv) > 3 else 100
    recs = [(i, json.loads(l)) for i, l in enumerate(open(src, encoding="utf-8")) if l.strip()]
    tpl = [x for x in recs if x[1]["provenance"] == "template"]
    rep = [x for x in recs if x[1]["provenance"] == "repair"]
    chosen = pick(tpl, n // 2) + pick(rep, n - n // 2)
    chosen.sort(key=lambda x: x[0])
    os.makedirs(os.path.join(out, "tasks"), exist_ok=True)
    with open(os.path.join(out, "episodes.jsonl"), "w", encoding="utf-8") as f:
        for _, r in chosen:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
            d = os.path.join(out, "tasks", r["task_id"])
            os.makedirs(d, exist_ok=True)
            for name in ("task.json", "reference.py"):
                shutil.copyfile(os.path.join(tasks, r["task_id"], name), os.path.join(d, name))
    print(f"{len(chosen)} records, {len(set(r['task_id'] for _, r in chosen))} tasks -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
