#!/usr/bin/python3
"""Writes the optimize-mode replay fixture (one transcript per task) used by
tests/cli/optimize_replay_test.cpp. Scripted by hand: no model was called. Only the header and
the "response" events are written; the replay client reads nothing else, and the tool results
are recomputed by the live tools when the fixture is replayed.

  /usr/bin/python3 tests/cli/replays/optimize/make_fixture.py
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

HEAD = "import neuronxcc.nki as nki\nimport neuronxcc.nki.language as nl\n\n\n"

# l1_add_fp32: the reference solution uses 128 x 512 tiles; whole 128 x 1024 rows halve the DMAs.
ADD_WIDE = HEAD + """@nki.jit
def add_kernel(a, b):
    rows, cols = a.shape
    out = nl.ndarray((rows, cols), dtype=a.dtype, buffer=nl.shared_hbm)
    P = nl.tile_size.pmax
    for i in nl.affine_range(rows // P):
        a_tile = nl.load(a[i * P:(i + 1) * P, :])
        b_tile = nl.load(b[i * P:(i + 1) * P, :])
        nl.store(out[i * P:(i + 1) * P, :], value=nl.add(a_tile, b_tile))
    return out
"""

# l1_div_fp32: splitting each row block into four column chunks is correct but slower (4x the
# DMAs), so the harness keeps the starting kernel.
DIV_SPLIT = HEAD + """@nki.jit
def div_kernel(a, b):
    rows, cols = a.shape
    out = nl.ndarray((rows, cols), dtype=a.dtype, buffer=nl.shared_hbm)
    P = nl.tile_size.pmax
    F = cols // 4
    i_p = nl.arange(P)[:, None]
    i_f = nl.arange(F)[None, :]
    for t in nl.affine_range((rows + P - 1) // P):
        for c in nl.affine_range(4):
            valid = t * P + i_p < rows
            at = nl.load(a[t * P + i_p, c * F + i_f], mask=valid)
            bt = nl.load(b[t * P + i_p, c * F + i_f], mask=valid)
            nl.store(out[t * P + i_p, c * F + i_f], value=nl.divide(at, bt, mask=valid), mask=valid)
    return out
"""


def solution(task):
    with open(os.path.join(HERE, "..", "..", "..", "..", "solutions", task + ".py")) as f:
        return f.read()


def call(i, name, code):
    return {"id": "call_%d" % i, "name": name, "arguments": json.dumps({"code": code})}


def response(seq, turn, text, calls):
    msg = {"role": "assistant", "content": text}
    if calls:
        msg["tool_calls"] = calls
    return {"v": 1, "seq": seq, "type": "response", "turn": turn, "message": msg,
            "stop_reason": "tool_use" if calls else "end_turn",
            "usage": {"calls": 1, "input_tokens": 1000 * turn, "output_tokens": 200, "cached_tokens": 0,
                      "cost_usd": 0.0}}


def write(task, turns):
    events = [{"v": 1, "seq": 0, "type": "header", "format": "nki-agent-transcript", "task_id": task,
               "model": "scripted:optimize-fixture", "mode": "optimize", "max_turns": 6,
               "note": "scripted by hand for the optimize replay test; no model was called"}]
    for t, (text, calls) in enumerate(turns, start=1):
        events.append(response(t, t, text, calls))
    with open(os.path.join(HERE, task + ".jsonl"), "w") as f:
        for e in events:
            f.write(json.dumps(e) + "\n")


write("l1_add_fp32", [
    ("Profile the starting kernel first.", [call(1, "profile_kernel", solution("l1_add_fp32"))]),
    ("Whole rows per tile halve the DMA count; verify it.", [call(2, "verify_kernel", ADD_WIDE),
                                                            call(3, "profile_kernel", ADD_WIDE)]),
    # Models usually end with the kernel they settled on in a code block (issue 29): a reply
    # without a tool call ends the episode, answered, whatever it holds.
    ("That is as far as this goes. The final kernel:\n\n```python\n" + ADD_WIDE + "```\n", []),
])
write("l1_div_fp32", [
    ("Try column chunks.", [call(1, "verify_kernel", DIV_SPLIT), call(2, "profile_kernel", DIV_SPLIT)]),
    ("Slower; the starting kernel stays.", []),
])
