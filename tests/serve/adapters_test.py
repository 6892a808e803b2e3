"""The python/nkiagent_client adapters called exactly as TRL and verl call them, against a live
`nkiagent serve` started here on an ephemeral port (usage: adapters_test.py NKIAGENT)."""

import asyncio
import importlib.util
import json
import os
import pathlib
import signal
import subprocess
import sys
import tempfile
import time

SRC = pathlib.Path(os.environ.get("NKI_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(SRC / "python"))

from nkiagent_client import Client, ServeError, VerlKernelTool, make_trl_reward_func  # noqa: E402

TASK = "l1_add_fp32"
SOLUTION = (SRC / "solutions" / "l1_add_fp32.py").read_text()
WRONG = SOLUTION.replace("nl.add(a_tile, b_tile)", "a_tile")
assert WRONG != SOLUTION
TOKEN = "adapter-test-token-0123456789"


def start_server(nkiagent, token_file):
    p = subprocess.Popen([nkiagent, "serve", "--bind", "127.0.0.1:0", "--jobs", "2", "--held-out-secret", "424242",
                          "--token-file", token_file, "--tasks-dir", str(SRC / "tasks")],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline()  # "nkiagent serve: listening on http://127.0.0.1:PORT (...)"
    assert "listening on http://" in line, (line, p.stderr.read() if p.poll() is not None else "")
    url = line.split("listening on ")[1].split(" ")[0]
    return p, url


def check_client(url):
    c = Client(url, token=TOKEN)
    assert c.health()["status"] == "ok"
    assert any(t["id"] == TASK for t in c.tasks())
    p = c.prompt(TASK)
    assert [m["role"] for m in p["messages"]] == ["system", "user"]
    try:
        c.reward("no_such_task", code="x")
        raise AssertionError("unknown task accepted")
    except ServeError as e:
        assert e.status == 404 and e.code == "unknown_task", e
    try:
        Client(url, token="wrong-token-wrong-token").tasks()
        raise AssertionError("wrong token accepted")
    except ServeError as e:
        assert e.status == 401 and e.code == "unauthorized", e


def check_trl(url):
    # GRPOTrainer: reward_func(prompts=..., completions=..., completion_ids=..., **dataset columns)
    f = make_trl_reward_func("binary", client=Client(url, token=TOKEN))
    prompts = ["write the kernel"] * 3
    completions = ["Here it is:\n```python\n" + SOLUTION + "```\n", "```python\n" + WRONG + "```", "I cannot."]
    r = f(prompts=prompts, completions=completions, completion_ids=[[1], [2], [3]], task_id=[TASK] * 3,
          trainer_state=None)
    assert r == [1.0, -0.5, -0.5], r
    # Conversational datasets: each completion is a list of messages.
    conv = [[{"role": "assistant", "content": "```python\n" + SOLUTION + "```"}]]
    assert f(prompts=[[{"role": "user", "content": "x"}]], completions=conv, task_id=[TASK]) == [1.0]
    g = make_trl_reward_func("graded", client=Client(url, token=TOKEN))
    graded = g(prompts=prompts, completions=completions, task_id=[TASK] * 3)
    assert graded[0] == 1.0 and 0.4 <= graded[1] < 0.9 and graded[2] == 0.0, graded
    assert f.__name__ == "nkiagent_binary_reward"


def check_verl(url):
    # verl loads custom_reward_function.path by file path and calls compute_score(...).
    spec = importlib.util.spec_from_file_location("custom_reward", SRC / "python" / "nkiagent_client" / "verl_reward.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    os.environ["NKIAGENT_SERVE_URL"], os.environ["NKIAGENT_SERVE_TOKEN"] = url, TOKEN
    ok = mod.compute_score("nkiagent", "```python\n" + SOLUTION + "```", TASK, {"split": "train", "index": 0})
    bad = mod.compute_score(data_source="nkiagent", solution_str="```python\n" + WRONG + "```", ground_truth=TASK,
                            extra_info=None)
    assert (ok, bad) == (1.0, -0.5), (ok, bad)


def check_verl_tool(url):
    tool = VerlKernelTool({"max_turns": 3}, {"type": "function", "function": {"name": "verify_kernel"}},
                          client=Client(url, token=TOKEN))

    async def rollout():
        iid = await tool.create(ground_truth=TASK)
        text, _, m1 = await tool.execute(iid, {"code": WRONG}, name="verify_kernel")
        assert not m1["done"] and ("FAIL" in text.upper() or "MISMATCH" in text.upper()), text
        text, _, m2 = await tool.execute(iid, {"code": SOLUTION}, name="verify_kernel")
        assert m2["done"], text
        r = await tool.calc_reward(iid)
        await tool.release(iid)
        return r

    assert asyncio.run(rollout()) == 1.0


def main():
    nkiagent = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        token_file = os.path.join(tmp, "token")
        with open(token_file, "w") as f:
            f.write(TOKEN + "\n")
        server, url = start_server(nkiagent, token_file)
        try:
            for check in (check_client, check_trl, check_verl, check_verl_tool):
                t = time.time()
                check(url)
                print(f"ok {check.__name__} ({time.time() - t:.1f} s)")
        finally:
            server.send_signal(signal.SIGTERM)
            code = server.wait(timeout=60)
        assert code == 0, f"serve exited with {code} after SIGTERM: {server.stderr.read()}"
    print("all adapter checks passed")


if __name__ == "__main__":
    main()
