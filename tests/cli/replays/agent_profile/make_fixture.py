#!/usr/bin/python3
"""Writes the agent-mode replay fixture with profile_kernel used by tests/cli/optimize_replay_test.cpp
(`nkiagent solve --mode agent --tools compile,verify,profile`). Scripted by hand: no model was
called. Only the header and the "response" events are written; the tool results are recomputed
by the live tools when the fixture is replayed.

  /usr/bin/python3 tests/cli/replays/agent_profile/make_fixture.py
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def solution(task):
    with open(os.path.join(HERE, "..", "..", "..", "..", "solutions", task + ".py")) as f:
        return f.read()


def call(i, name, code):
    return {"id": "call_%d" % i, "name": name, "arguments": json.dumps({"code": code})}


def response(seq, text, calls):
    msg = {"role": "assistant", "content": text}
    if calls:
        msg["tool_calls"] = calls
    return {"v": 1, "seq": seq, "type": "response", "turn": seq, "message": msg,
            "stop_reason": "tool_use" if calls else "end_turn",
            "usage": {"calls": 1, "input_tokens": 1000 * seq, "output_tokens": 200, "cached_tokens": 0,
                      "cost_usd": 0.0}}


# l1_add_fp32 in agent mode: compile, profile, then verify (a pass ends the episode).
code = solution("l1_add_fp32")
events = [{"v": 1, "seq": 0, "type": "header", "format": "nki-agent-transcript", "task_id": "l1_add_fp32",
           "model": "scripted:agent-profile-fixture", "mode": "agent", "max_turns": 4,
           "note": "scripted by hand for the agent-mode profile replay test; no model was called"},
          response(1, "Compile first.", [call(1, "compile_kernel", code)]),
          response(2, "Where does the time go?", [call(2, "profile_kernel", code)]),
          response(3, "DMA-bound as expected; verify.", [call(3, "verify_kernel", code)])]
with open(os.path.join(HERE, "l1_add_fp32.jsonl"), "w") as f:
    for e in events:
        f.write(json.dumps(e) + "\n")
