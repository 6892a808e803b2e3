#!/usr/bin/env python3
"""kill -9 of `nkiagent serve` in the middle of load, then a restart on the same port.

  /usr/bin/python3 tests/serve/kill_restart_test.py build/nkiagent

Checks (docs/serve.md, "Crashes and restarts"):
  * every response a client received before the kill is complete, valid JSON with a reward;
  * requests in flight at the kill fail with a connection error, never with a wrong answer;
  * a second server on a port in use is refused (no SO_REUSEPORT sharing);
  * the restart on the same port binds at once and answers correctly: the rewards of kernels
    judged before the kill are the same (same --held-out-secret);
  * an episode opened before the kill is a 404 unknown_episode with a clear message.
Bounded: about 30 s on a loaded 2-core machine (ctest TIMEOUT 120, label slow).
"""

import http.client
import json
import os
import pathlib
import signal
import subprocess
import sys
import threading
import time
import urllib.error

SRC = pathlib.Path(os.environ.get("NKI_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(SRC / "python"))
from nkiagent_client import Client, ServeError  # noqa: E402

TASK = "l1_add_fp32"
SECRET = "424242"  # fixed: the golden cache is reused across runs, rewards are comparable


def start(binary, port):
    p = subprocess.Popen([binary, "serve", "--bind", f"127.0.0.1:{port}", "--jobs", "2",
                          "--held-out-secret", SECRET, "--tasks-dir", str(SRC / "tasks")],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    if "listening on " not in line:
        p.wait(timeout=30)
        return p, None, p.stderr.read()
    return p, line.split("listening on ")[1].split(" ")[0], ""


def check(cond, what):
    if not cond:
        print("FAIL:", what)
        sys.exit(1)
    print("ok:", what)


def main():
    binary = sys.argv[1]
    solution = (SRC / "solutions" / (TASK + ".py")).read_text()
    server, url, err = start(binary, 0)
    check(url is not None, f"server starts ({err.strip()[:200]})")
    port = int(url.rsplit(":", 1)[1])
    c = Client(url, timeout=120)
    c.reward(TASK, code=solution)  # golden data, before the clock starts

    ep = c.start_episode(TASK, mode="agent", max_turns=3)["episode_id"]

    received, conn_errors, wrong = [], [], []
    lock = threading.Lock()
    stop = threading.Event()

    def client(k):
        cl = Client(url, timeout=120)
        i = 0
        while not stop.is_set():
            i += 1
            # Distinct kernels (no memo hits): a passing one, and one the parser rejects.
            code = solution + (f"\n# kill test {k}-{i}\n" if i % 2 else f"\n)\n# kill test {k}-{i}\n")
            try:
                r = cl.reward(TASK, code=code)
            except (urllib.error.URLError, ConnectionError, http.client.HTTPException, OSError) as e:
                with lock:
                    conn_errors.append(repr(e))
                return
            except ServeError as e:
                with lock:
                    wrong.append(f"error answer: {e}")
                return
            with lock:
                ok = isinstance(r, dict) and isinstance(r.get("reward"), (int, float)) and "verdict" in r
                (received if ok else wrong).append((code, r))

    threads = [threading.Thread(target=client, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    deadline = time.time() + 40
    while time.time() < deadline:
        with lock:
            if len(received) >= 6:
                break
        time.sleep(0.05)
    os.kill(server.pid, signal.SIGKILL)
    server.wait(timeout=30)
    stop.set()
    for t in threads:
        t.join(timeout=60)

    check(not wrong, f"no wrong answer before the kill ({wrong[:2]})")
    check(len(received) >= 1, f"{len(received)} complete JSON rewards received before the kill")
    check(all(r["reward"] in (1.0, -0.5) for _, r in received), "each received reward is a binary reward value")
    check(len(conn_errors) >= 1, f"{len(conn_errors)} requests in flight failed with a connection error")

    t0 = time.time()
    server2, url2, err2 = start(binary, port)
    try:
        check(url2 is not None, f"restart on port {port} binds in {time.time() - t0:.1f} s ({err2.strip()[:200]})")
        third, url3, err3 = start(binary, port)
        check(url3 is None and third.returncode not in (0, None), "a second server on the same port is refused")
        c2 = Client(url2, timeout=120)
        check(c2.health()["status"] == "ok", "the restarted server is healthy")
        for code, r in received[:3]:
            again = c2.reward(TASK, code=code)
            check(again["reward"] == r["reward"] and again["verdict"] == r["verdict"],
                  f"same reward after the restart ({r['verdict']})")
        try:
            c2.step(ep, {"role": "assistant", "content": "hello"})
            check(False, "the old episode is unknown")
        except ServeError as e:
            check(e.status == 404 and e.code == "unknown_episode" and "restarted" in e.message,
                  f"the episode opened before the kill is a clear 404 ({e.code}: {e.message[:80]}...)")
    finally:
        server2.send_signal(signal.SIGTERM)
        server2.wait(timeout=60)
    check(server2.returncode == 0, "the restarted server stops cleanly on SIGTERM")
    return 0


if __name__ == "__main__":
    sys.exit(main())
