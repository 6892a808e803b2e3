#!/usr/bin/env python3
"""`solve --max-wall` must cut a tool call that is still simulating.

The scripted model (no language model is involved) verifies a correct kernel that then spins
in a loop whose work the simulator's static lower bound cannot see (it sits behind an `if` on
the loop index), so only the clock can stop it. With --max-wall 4 the whole solve must end in
well under the simulator's own 60 s time budget, with a sim_budget diagnostic in the verify
result.

Usage: max_wall_solve.py NKIAGENT REPO_ROOT
"""
import json
import os
import subprocess
import sys
import tempfile
import time

KERNEL = '''import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def add_kernel(a, b):
    out = nl.ndarray((256, 1024), dtype=a.dtype, buffer=nl.shared_hbm)
    for i in nl.affine_range(2):
        for j in nl.affine_range(2):
            a_tile = nl.load(a[i * 128:(i + 1) * 128, j * 512:(j + 1) * 512])
            b_tile = nl.load(b[i * 128:(i + 1) * 128, j * 512:(j + 1) * 512])
            nl.store(out[i * 128:(i + 1) * 128, j * 512:(j + 1) * 512], value=nl.add(a_tile, b_tile))
    for k in nl.sequential_range(10**9):
        if k < 10**9:
            t = nl.load(a[0:128, 0:512])
    return out
'''


def main():
    nkiagent, repo = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory(prefix="max_wall_") as work:
        header = {"v": 1, "seq": 0, "t": 0, "type": "header", "format": "nki-agent-transcript",
                  "task_id": "l1_add_fp32", "model": "scripted:slow", "client": "scripted",
                  "mode": "agent", "max_turns": 2, "note": "SCRIPTED by tests/containment/max_wall_solve.py"}
        call = {"id": "call_1", "name": "verify_kernel", "arguments": json.dumps({"code": KERNEL})}
        resp = {"v": 1, "seq": 1, "t": 0, "type": "response", "turn": 1,
                "message": {"role": "assistant", "content": "", "tool_calls": [call]},
                "stop_reason": "tool_use", "usage": {"input_tokens": 1, "output_tokens": 1}}
        replay = os.path.join(work, "replay.jsonl")
        with open(replay, "w") as f:
            f.write(json.dumps(header) + "\n" + json.dumps(resp) + "\n")
        out = os.path.join(work, "out")
        t0 = time.monotonic()
        r = subprocess.run([nkiagent, "solve", "--task", "l1_add_fp32", "--replay", replay, "--max-wall", "4",
                            "--max-turns", "2", "--out", out],
                           capture_output=True, text=True, timeout=300, cwd=repo)
        took = time.monotonic() - t0
        print(r.stdout[-2000:], r.stderr[-2000:])
        print("solve took %.1f s, exit %d" % (took, r.returncode))
        transcripts = [os.path.join(out, n) for n in os.listdir(out)] if os.path.isdir(out) else []
        text = "".join(open(p).read() for p in transcripts if p.endswith(".jsonl"))
        checks = [("ended by itself (no signal)", r.returncode >= 0),
                  ("failed verdict (exit 1)", r.returncode == 1),
                  ("well inside the 60 s simulator budget", took < 40),
                  ("the verify result names sim_budget", "sim_budget" in text)]
        failed = [name for name, ok in checks if not ok]
        print("%d passed, %d failed" % (len(checks) - len(failed), len(failed)))
        for name in failed:
            print("FAIL", name)
        return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
