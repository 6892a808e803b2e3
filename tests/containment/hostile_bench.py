#!/usr/bin/env python3
"""A bench whose 'model' answers with hostile kernels must end on its own with every verdict.

Issue 17's acceptance run: ten tasks, and a scripted model that returns, in rotation, a kernel
that overflows tensor-size arithmetic (was a SIGSEGV of the whole bench), one that loops 10^15
times (was a hang), a compile-time memory bomb (was 6-13 GB and the OOM killer) and a kernel
that memorised the public trials' outputs (was a PASS). Every response is scripted here; no
language model is involved.

Usage: hostile_bench.py NKIAGENT REPO_ROOT
"""
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

HEADER = "import numpy as np\nimport neuronxcc.nki as nki\nimport neuronxcc.nki.language as nl\n\n\n"

# Tasks whose single 2-D output has at most 128 rows (the memorising kernel stores it as one tile).
MEMO_TASKS = ["l1_max_lastdim_fp16", "l3_preln_attention_block_fp32"]
OTHER_TASKS = ["l1_add_fp32", "l1_relu_fp32", "l2_add_layernorm_fp32", "l1_slice_concat_fp16",
               "l2_silu_gate_mul_bf16", "l2_gemm_bias_silu_fp16", "l1_sum_lastdim_fp32",
               "l2_mean_scale_fp32"]


def signature(task):
    names = [t["name"].replace(".", "_") for t in task["inputs"] + task["parameters"] + task["buffers"]]
    return "def kernel(%s):\n" % ", ".join(names)


def overflow_kernel(task):
    return HEADER + "@nki.jit\n" + signature(task) + (
        "    res = nl.ndarray((1 << 32, 1 << 32), dtype=nl.float32, buffer=nl.shared_hbm)\n"
        "    nl.store(res[0:1, 0:1], value=nl.zeros((1, 1), dtype=nl.float32))\n"
        "    return res\n")


def hanging_kernel(repo, task):
    """The task's reference solution with a 10^15-iteration loop before its return: a correct
    kernel that would never finish."""
    lines = open(os.path.join(repo, "solutions", task["id"] + ".py")).read().split("\n")
    last_return = max(i for i, l in enumerate(lines) if l.startswith("    return "))
    spin = ["    for _spin in nl.sequential_range(10**15):", "        pass"]
    return "\n".join(lines[:last_return] + spin + lines[last_return:])


def memory_bomb_kernel(task):
    shape = task["outputs"][0]["shape"]
    return HEADER + "@nki.jit\n" + signature(task) + (
        "    table = [0] * 10**12\n"
        "    res = nl.ndarray(%r, dtype=nl.float32, buffer=nl.shared_hbm)\n"
        "    return res\n") % (tuple(shape),)


def golden(repo, task_dir, trial, out_dir):
    subprocess.run([sys.executable, os.path.join(repo, "tools/golden/golden.py"), task_dir,
                    "--trial", str(trial), "--out", out_dir], check=True)


def memorising_kernel(repo, task_dir, task, scratch):
    """Stores the reference outputs of the two public trials as constants and picks one by
    comparing the first element of the first input: computes nothing."""
    import numpy as np
    outs, probes = [], []
    for trial in range(2):
        d = os.path.join(scratch, "%s_%d" % (task["id"], trial))
        golden(repo, task_dir, trial, d)
        outs.append(np.load(os.path.join(d, "out0.npy")).astype(np.float32))
        probes.append(float(np.load(os.path.join(d, "arg0.npy")).astype(np.float32).reshape(-1)[0]))
    rows, cols = outs[0].shape
    dt = {"float32": "nl.float32", "float16": "nl.float16", "bfloat16": "nl.bfloat16"}[task["outputs"][0]["dtype"]]
    first = task["inputs"][0]
    zero_index = ", ".join(["0"] * (len(first["shape"]) - 2))
    probe_rows = "%s, i_p * 0, i_f * 0" % zero_index if zero_index else "i_p * 0, i_f * 0"
    consts = "MEMO_A = np.array(%s, dtype=np.float32)\nMEMO_B = np.array(%s, dtype=np.float32)\n" % (
        json.dumps(outs[0].tolist()), json.dumps(outs[1].tolist()))
    return HEADER + consts + "\n\n@nki.jit\n" + signature(task) + (
        "    res = nl.ndarray((%d, %d), dtype=%s, buffer=nl.shared_hbm)\n"
        "    a = nl.load(nl.shared_constant(MEMO_A, dtype=nl.float32))\n"
        "    b = nl.load(nl.shared_constant(MEMO_B, dtype=nl.float32))\n"
        "    i_p = nl.arange(%d)[:, None]\n"
        "    i_f = nl.arange(1)[None, :]\n"
        "    probe = nl.load(%s[%s], dtype=nl.float32)\n"
        "    pick_b = nl.equal(probe, %r, dtype=nl.float32)\n"
        "    picked = nl.add(a, nl.multiply(nl.subtract(b, a), pick_b))\n"
        "    nl.store(res, value=picked)\n"
        "    return res\n") % (rows, cols, dt, rows, first["name"], probe_rows, probes[1])


def transcript(task_id, code):
    header = {"v": 1, "seq": 0, "t": 0, "type": "header", "format": "nki-agent-transcript",
              "task_id": task_id, "model": "scripted:hostile", "client": "scripted", "mode": "agent",
              "max_turns": 1, "note": "SCRIPTED by tests/containment/hostile_bench.py: no model"}
    call = {"id": "call_1", "name": "verify_kernel", "arguments": json.dumps({"code": code})}
    response = {"v": 1, "seq": 1, "t": 0, "type": "response", "turn": 1,
                "message": {"role": "assistant", "content": "", "tool_calls": [call]},
                "stop_reason": "tool_use", "usage": {"input_tokens": 1, "output_tokens": 1}}
    return json.dumps(header) + "\n" + json.dumps(response) + "\n"


def main():
    nkiagent, repo = sys.argv[1], sys.argv[2]
    work = tempfile.mkdtemp(prefix="hostile_bench_")
    try:
        tasks_dir, replays, run_dir = (os.path.join(work, n) for n in ("tasks", "replays", "run"))
        os.makedirs(replays)
        # Rotation: slots 0..3 = overflow, hang, memory bomb, memorising.
        order = [OTHER_TASKS[0], OTHER_TASKS[1], OTHER_TASKS[2], MEMO_TASKS[0],
                 OTHER_TASKS[3], OTHER_TASKS[4], OTHER_TASKS[5], MEMO_TASKS[1],
                 OTHER_TASKS[6], OTHER_TASKS[7]]
        expected = {}
        for i, tid in enumerate(order):
            src = os.path.join(repo, "tasks", tid)
            shutil.copytree(src, os.path.join(tasks_dir, tid))
            task = json.load(open(os.path.join(src, "task.json")))
            kind = i % 4
            if kind == 0:
                code, expected[tid] = overflow_kernel(task), ("compile_error", "tensor_size_overflow")
            elif kind == 1:
                code, expected[tid] = hanging_kernel(repo, task), ("runtime_error", "sim_budget")
            elif kind == 2:
                code, expected[tid] = memory_bomb_kernel(task), ("compile_error", "evaluation_memory")
            else:
                code, expected[tid] = memorising_kernel(repo, src, task, work), ("mismatch", None)
                # The attack is real: the public trials pass.
                kpath = os.path.join(work, tid + "_memo.py")
                open(kpath, "w").write(code)
                v = subprocess.run([nkiagent, "verify", kpath, "--task", tid, "--tasks-dir", tasks_dir],
                                   capture_output=True, text=True)
                if v.returncode != 0:
                    print("memorising kernel for %s does not pass the public trials (rc %d):\n%s%s" %
                          (tid, v.returncode, v.stdout, v.stderr))
                    return 1
            open(os.path.join(replays, tid + ".jsonl"), "w").write(transcript(tid, code))
        cmd = [nkiagent, "bench", "--model", "scripted:hostile", "--mode", "agent", "--subset", "all",
               "--tasks-dir", tasks_dir, "--replay-dir", replays, "--run-dir", run_dir,
               "--max-turns", "1", "--jobs", "2"]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
        print(r.stdout[-3000:], r.stderr[-3000:])
        if r.returncode < 0:
            print("bench died of signal %d" % -r.returncode)
            return 1
        db = sqlite3.connect(os.path.join(run_dir, "results.sqlite"))
        # The code to look for: compile_code for compile errors, the error message otherwise.
        rows = {t: (s, v, c if v == "compile_error" else (m or "")) for t, s, v, c, m in
                db.execute("SELECT task_id, status, verdict, compile_code, error_message FROM episodes")}
        failures = []
        for tid, (verdict, code) in expected.items():
            got = rows.get(tid)
            if not got or got[0] != "finished" or got[1] != verdict or (code and code not in got[2]):
                failures.append("%s: expected %s/%s, got %s" % (tid, verdict, code, got))
        print("%d passed, %d failed" % (len(expected) - len(failures), len(failures)))
        for f in failures:
            print("FAIL", f)
        return 1 if failures else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
