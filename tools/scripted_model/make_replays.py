#!/usr/bin/env python3
"""Write SCRIPTED replay transcripts for `nkiagent bench --replay-dir DIR`.

No language model is involved anywhere: every "model response" in the files written here is
scripted by the NKI-Agent developers from the reference solutions in solutions/<task>.py, and
every header says so.  The files use the JSONL transcript format of src/agent/transcript.cpp
(docs/agent.md, "Transcript format"); a replay only reads the `header` and `response` events,
the other events are written for a human reader.

Three scripted "models" (one directory each under --out):

  oracle-agent        agent mode.  For about half of the tasks (chosen from --seed) turn 1 calls
                      verify_kernel on a plausible first attempt with a realistic bug, made by
                      editing the reference solution programmatically; turn 2 calls
                      verify_kernel on the reference solution.  Other tasks: turn 1 verifies the
                      reference solution.
  oracle-multi-turn   multi-turn mode (no tools, no feedback): the same first attempts as fenced
                      code blocks; on review the script fixes the bug only for some tasks
                      (chosen from --seed), otherwise it re-sends the same kernel.  One reply per
                      turn of the budget (--max-turns, default 10).
  oracle-single-shot  single-shot: the buggy first attempt where there is one, else the solution.

Every bug is CHECKED: the bugged kernel is run through `nkiagent verify --task ID` and is only
used when verify fails (exit 1 compile error, 3 runtime error, 4 mismatch).  When a
transformation does not apply to a task or the result still passes, the next kind is tried;
when none works, the task gets no bug.  The chosen bug per task is written to bugs.json.

Usage:
  python3 tools/scripted_model/make_replays.py --nkiagent build-bench/nkiagent \
      --subset ablation60 --seed 7 --out /tmp/bench-replays
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

NOTE = ("SCRIPTED by the NKI-Agent developers (tools/scripted_model/make_replays.py), not a real "
        "model run: every response is generated from the reference solution in solutions/, with a "
        "programmatic bug in the first attempt for some tasks ({bug}). Token counts are estimates "
        "(characters / 4), not provider figures; no cost is charged. Tool results in this file "
        "were computed with `nkiagent verify` when the file was written; a replay recomputes them "
        "live.")


# ---------------------------------------------------------------------------------------------
# Bug transformations: each takes the solution text and returns the bugged text or None.

def _first_line_index(lines, pred):
    for i, line in enumerate(lines):
        if pred(line):
            return i
    return None


def bug_partition_overflow(src):
    """Tiles of 256 partitions: double the partition tile size (P = nl.tile_size.pmax)."""
    m = re.search(r"^(\s*)(\w+) = nl\.tile_size\.pmax\s*$", src, re.M)
    if m:
        return src[:m.start()] + f"{m.group(1)}{m.group(2)} = 2 * nl.tile_size.pmax" + src[m.end():]
    m = re.search(r"^(\s*)(\w+) = 128\s*(#.*)?$", src, re.M)
    if m:
        return src[:m.start()] + f"{m.group(1)}{m.group(2)} = 256" + src[m.end():]
    return None


def bug_missing_mask(src):
    """Forget the mask of the (ragged) last tile on the first masked store."""
    i = src.find("nl.store(")
    while i >= 0:
        j = src.find("mask=", i)
        nxt = src.find("nl.store(", i + 1)
        line_end = src.find("\n", i)
        if j >= 0 and j < line_end:
            # remove ", mask=<expr>" up to the matching close paren of the store call
            k = j
            depth = 0
            while k < len(src):
                c = src[k]
                if c == "(":
                    depth += 1
                elif c == ")":
                    if depth == 0:
                        break
                    depth -= 1
                elif c == "," and depth == 0:
                    break
                k += 1
            start = src.rfind(",", i, j)
            return src[:start] + src[k:]
        i = nxt
    return None


def bug_psum_store(src):
    """Store the PSUM accumulator directly instead of copying it to SBUF first."""
    m = re.search(r"^(\s*)(\w+) = nl\.copy\((\w+)(, dtype=[^)\n]*)?\)\s*$", src, re.M)
    if not m:
        return None
    return src[:m.start()] + f"{m.group(1)}{m.group(2)} = {m.group(3)}" + src[m.end():]


def bug_matmul_orientation(src):
    """Swap the two operands of the first matmul (wrong stationary/moving orientation)."""
    m = re.search(r"(nisa\.nc_matmul|nl\.matmul)\((\w+(?:\[[^\]\n]*\])?), (\w+(?:\[[^\]\n]*\])?)", src)
    if not m:
        return None
    return src[:m.start()] + f"{m.group(1)}({m.group(3)}, {m.group(2)}" + src[m.end():]


def bug_reduce_axis0(src):
    """Reduce over axis 0 (the partitions) instead of the free axis."""
    m = re.search(r"(nl\.(?:sum|max|mean|min)\([^\n]*?axis=)(1|-1|\[1\]|\(1,?\))", src)
    if not m:
        return None
    return src[:m.start()] + m.group(1) + "0" + src[m.end():]


def bug_missing_store(src):
    """Drop the last single-line output store."""
    lines = src.split("\n")
    idx = [i for i, l in enumerate(lines)
           if l.strip().startswith("nl.store(") and l.rstrip().endswith(")")
           and l.count("(") == l.count(")")]
    if not idx:
        return None
    del lines[idx[-1]]
    return "\n".join(lines)


BUGS = {
    "partition_overflow": (bug_partition_overflow,
                           "loads tiles of 256 partitions (more than the 128 allowed)"),
    "missing_mask": (bug_missing_mask, "forgets the mask on the ragged last tile's store"),
    "psum_store_no_copy": (bug_psum_store, "stores the PSUM accumulator without copying it to SBUF"),
    "matmul_orientation": (bug_matmul_orientation, "swaps the matmul operands (wrong orientation)"),
    "reduce_axis0": (bug_reduce_axis0, "reduces over axis 0 (partitions) instead of the free axis"),
    "missing_store": (bug_missing_store, "misses an output store"),
}

# The kinds a task tries first, by task family: the "natural" mistake comes first.
PREFERRED = ["psum_store_no_copy", "matmul_orientation", "missing_mask", "reduce_axis0",
             "partition_overflow", "missing_store"]


def h(*parts):
    return int(hashlib.sha256("/".join(str(p) for p in parts).encode()).hexdigest()[:12], 16)


def verify(nkiagent, task, code):
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(code)
        path = f.name
    try:
        p = subprocess.run([nkiagent, "verify", path, "--task", task], capture_output=True,
                           text=True, timeout=600, cwd=ROOT)
        return p.returncode, (p.stdout + p.stderr).strip().replace(path, "kernel.py")
    finally:
        os.unlink(path)


def choose_bug(nkiagent, task, src, seed):
    """Returns (kind, bugged_src, verify_rc, verify_text) or (None, ...) when no bug applies."""
    order = sorted(PREFERRED, key=lambda k: (PREFERRED.index(k) + h(seed, task, k) % 3))
    tried = []
    for kind in order:
        bugged = BUGS[kind][0](src)
        if bugged is None or bugged == src:
            tried.append((kind, "n/a"))
            continue
        rc, text = verify(nkiagent, task, bugged)
        if rc != 0:
            return kind, bugged, rc, text, tried
        tried.append((kind, "still passes"))
    return None, None, 0, "", tried


# ---------------------------------------------------------------------------------------------
# Transcript writing

class Writer:
    def __init__(self, path):
        self.f = open(path, "w")
        self.seq = 0
        self.t = 1796169600.0  # 2026-12-01 00:00 UTC, fixed so the files are deterministic

    def ev(self, type_, **fields):
        obj = {"v": 1, "seq": self.seq, "t": self.t, "type": type_}
        obj.update(fields)
        self.f.write(json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n")
        self.seq += 1
        self.t += 0.001

    def close(self):
        self.f.close()


def usage(in_chars, out_chars):
    return {"input_tokens": 2600 + in_chars // 4, "output_tokens": 60 + out_chars // 4,
            "cached_tokens": 0, "cache_write_tokens": 0, "latency_s": 0.0, "cost_usd": 0.0,
            "price_known": False, "calls": 1, "retries": 0}


def fenced(text, code):
    return f"{text}\n\n```python\n{code}```\n"


FAIL_NAME = {1: "compile_error", 3: "runtime_error", 4: "mismatch"}


def write_agent(path, model, task, sol, bug, sol_text):
    w = Writer(path)
    w.ev("header", format="nki-agent-transcript", task_id=task, model=model,
         client=f"replay:{model}", mode="agent", max_turns=10,
         system="(system prompt not stored: scripted transcript; a replay renders prompts/system.md live)",
         tools=["compile_kernel", "verify_kernel"],
         note=NOTE.format(bug=bug["kind"] if bug else "none for this task"))
    w.ev("request", turn=1, n_messages=1,
         new_messages=[{"role": "user", "content": "(task prompt rendered live from prompts/task.md)"}])
    conv_chars = 0
    turn = 1
    if bug:
        code = bug["code"]
        content = "Here is a first kernel; let me verify it against the reference."
        args = json.dumps({"code": code})
        w.ev("response", turn=turn, message={"role": "assistant", "content": content, "tool_calls": [
            {"id": f"call_{turn:02d}", "name": "verify_kernel", "arguments": args}]},
             stop_reason="tool_use", usage=usage(conv_chars, len(content) + len(code)))
        conv_chars += len(content) + len(code) + len(bug["text"])
        w.ev("tool_call", turn=turn, id=f"call_{turn:02d}", name="verify_kernel", code_chars=len(code))
        w.ev("tool_result", turn=turn, id=f"call_{turn:02d}", name="verify_kernel", passed=False,
             failure=FAIL_NAME.get(bug["rc"], "mismatch"), code="", text=bug["text"])
        turn += 1
        w.ev("request", turn=turn, n_messages=3, new_messages=[
            {"role": "tool", "content": bug["text"], "tool_call_id": "call_01",
             "tool_name": "verify_kernel", "is_error": True}])
    content = ("The verifier pointed at the problem; here is the corrected kernel." if bug else
               "Here is the kernel; let me verify it against the reference.")
    args = json.dumps({"code": sol})
    w.ev("response", turn=turn, message={"role": "assistant", "content": content, "tool_calls": [
        {"id": f"call_{turn:02d}", "name": "verify_kernel", "arguments": args}]},
         stop_reason="tool_use", usage=usage(conv_chars, len(content) + len(sol)))
    w.ev("tool_call", turn=turn, id=f"call_{turn:02d}", name="verify_kernel", code_chars=len(sol))
    w.ev("tool_result", turn=turn, id=f"call_{turn:02d}", name="verify_kernel", passed=True,
         failure="none", code="", text=sol_text)
    w.close()


def write_text_mode(path, model, mode, task, sol, bug, fixes, max_turns):
    w = Writer(path)
    w.ev("header", format="nki-agent-transcript", task_id=task, model=model,
         client=f"replay:{model}", mode=mode, max_turns=max_turns,
         system="(system prompt not stored: scripted transcript; a replay renders prompts/system.md live)",
         tools=[], note=NOTE.format(bug=(bug["kind"] + (", fixed on review" if fixes else ", never fixed"))
                                    if bug else "none for this task"))
    conv_chars = 0
    first = bug["code"] if bug else sol
    for turn in range(1, max_turns + 1):
        if turn == 1:
            text, code = "Here is the kernel.", first
        elif turn == 2 and bug and fixes:
            text, code = "On review I found a mistake in the first version; corrected kernel:", sol
        else:
            code = sol if (bug and fixes) or not bug else first
            text = "I reviewed the kernel again and see nothing to change; the complete kernel:"
        w.ev("request", turn=turn, n_messages=2 * turn - 1, new_messages=[
            {"role": "user", "content": "(task prompt rendered live from prompts/task.md)" if turn == 1
             else "(review follow-up rendered live from prompts/followup_review.md)"}])
        msg = fenced(text, code)
        w.ev("response", turn=turn, message={"role": "assistant", "content": msg},
             stop_reason="end_turn", usage=usage(conv_chars, len(msg)))
        conv_chars += len(msg) + 200
    w.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nkiagent", default=os.path.join(ROOT, "build", "nkiagent"))
    ap.add_argument("--subset", default="ablation60")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", required=True)
    ap.add_argument("--max-turns", type=int, default=10, help="replies written for multi-turn")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    a.nkiagent = os.path.abspath(a.nkiagent)

    subset = os.path.join(ROOT, "tasks", "subsets", a.subset + ".txt")
    tasks = [l.split("#")[0].strip() for l in open(subset)]
    tasks = [t for t in tasks if t]

    def plan(task):
        sol = open(os.path.join(ROOT, "solutions", task + ".py")).read()
        rc, sol_text = verify(a.nkiagent, task, sol)
        if rc != 0:
            raise SystemExit(f"{task}: the reference solution does not verify: {sol_text}")
        wants_bug = h(a.seed, task, "bug") % 2 == 0
        bug = None
        tried = []
        if wants_bug:
            kind, code, brc, text, tried = choose_bug(a.nkiagent, task, sol, a.seed)
            if kind:
                bug = {"kind": kind, "code": code, "rc": brc, "text": text}
        fixes = bug is not None and h(a.seed, task, "fix") % 2 == 0
        return task, sol, sol_text, wants_bug, bug, fixes, tried

    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        plans = list(ex.map(plan, tasks))

    models = {"oracle-agent": "agent", "oracle-multi-turn": "multi-turn",
              "oracle-single-shot": "single-shot"}
    for m in models:
        os.makedirs(os.path.join(a.out, m), exist_ok=True)
    summary = []
    for task, sol, sol_text, wants_bug, bug, fixes, tried in plans:
        label = lambda m: f"scripted:{m}"
        write_agent(os.path.join(a.out, "oracle-agent", task + ".jsonl"), label("oracle-agent"),
                    task, sol, bug, sol_text)
        write_text_mode(os.path.join(a.out, "oracle-multi-turn", task + ".jsonl"),
                        label("oracle-multi-turn"), "multi-turn", task, sol, bug, fixes, a.max_turns)
        write_text_mode(os.path.join(a.out, "oracle-single-shot", task + ".jsonl"),
                        label("oracle-single-shot"), "single-shot", task, sol, bug, False, 1)
        summary.append({"task": task, "wanted_bug": wants_bug,
                        "bug": bug["kind"] if bug else None,
                        "verify_exit": bug["rc"] if bug else 0,
                        "verify_first_line": bug["text"].split("\n")[0] if bug else "",
                        "multi_turn_fixes": fixes, "skipped": tried})
        print(f"{task:40s} {bug['kind'] if bug else '-':20s} "
              f"{FAIL_NAME.get(bug['rc'], '') if bug else '':14s} "
              f"{'fixed-on-review' if fixes else ''}", flush=True)
    with open(os.path.join(a.out, "bugs.json"), "w") as f:
        json.dump({"seed": a.seed, "subset": a.subset, "tasks": summary}, f, indent=1)
    n = sum(1 for s in summary if s["bug"])
    print(f"{n}/{len(summary)} tasks have a checked bug; files in {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
