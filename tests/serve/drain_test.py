#!/usr/bin/env python3
"""SIGTERM drains `nkiagent serve` within --drain-seconds, then it stops (docs/serve.md).

  /usr/bin/python3 tests/serve/drain_test.py build/src/cli/nkiagent

With one worker busy on a kernel that loops for --kernel-seconds (20 s) and a second request
waiting for that worker, a SIGTERM must:
  * answer the waiting request at once with 503 shutting_down (no new kernel work starts);
  * stop the process within --drain-seconds (3 s) plus a margin, exit status 0, saying on
    stderr that it left a request in flight, instead of waiting for the kernel.
Bounded: about 10 s (ctest TIMEOUT 120). Loopback only.
"""

import json
import os
import pathlib
import signal
import subprocess
import sys
import threading
import time
import urllib.request

SRC = pathlib.Path(os.environ.get("NKI_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(SRC / "python"))
from nkiagent_client import Client, ServeError  # noqa: E402

TASK = "l1_add_fp32"
INFINITE = ("import neuronxcc.nki as nki\nimport neuronxcc.nki.language as nl\n\n@nki.jit\n"
            "def add_kernel(a, b):\n    n = 0\n    while True:\n        n = n + 1\n    return a\n")


def check(cond, what):
    if not cond:
        print("FAIL:", what)
        sys.exit(1)
    print("ok:", what)


def metric(url, name):
    with urllib.request.urlopen(url + "/metrics", timeout=10) as r:
        for line in r.read().decode().splitlines():
            if line.startswith(name + " "):
                return float(line.split()[1])
    return None


def wait_for(cond, seconds):
    end = time.time() + seconds
    while time.time() < end:
        if cond():
            return True
        time.sleep(0.05)
    return False


def main():
    binary = sys.argv[1]
    server = subprocess.Popen([binary, "serve", "--bind", "127.0.0.1:0", "--jobs", "1", "--kernel-seconds", "20",
                               "--drain-seconds", "3", "--held-out-secret", "424242", "--tasks-dir",
                               str(SRC / "tasks")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        check("listening on " in line, "server starts")
        url = line.split("listening on ")[1].split(" ")[0]
        answers = {}

        def call(name, fn):
            try:
                answers[name] = fn()
            except ServeError as e:
                answers[name] = e
            except OSError as e:  # the connection died with the server
                answers[name] = e

        busy = threading.Thread(target=call, args=("busy", lambda: Client(url, timeout=60).verify(TASK, INFINITE)))
        busy.start()
        check(wait_for(lambda: metric(url, "nkiagent_workers_busy") == 1, 30), "the only worker is busy")
        waiting = threading.Thread(target=call, args=("waiting", lambda: Client(url, timeout=60).reward(
            TASK, code=(SRC / "solutions" / (TASK + ".py")).read_text() + "\n# drain test\n")))
        waiting.start()
        check(wait_for(lambda: metric(url, "nkiagent_requests_waiting") == 1, 30), "a request waits for it")

        t0 = time.time()
        server.send_signal(signal.SIGTERM)
        waiting.join(timeout=30)
        w = answers.get("waiting")
        check(isinstance(w, ServeError) and w.status == 503 and w.code == "shutting_down",
              f"the waiting request gets 503 shutting_down ({w!r})")
        server.wait(timeout=30)
        took = time.time() - t0
        check(took < 12, f"the server stops {took:.1f} s after SIGTERM (drain 3 s; the kernel would run 20 s)")
        check(server.returncode == 0, f"exit status 0 ({server.returncode})")
        err = server.stderr.read()
        check("requests still in flight" in err, "stderr says requests were left in flight")
        busy.join(timeout=30)
        check(isinstance(answers.get("busy"), OSError), f"the request in flight loses its connection ({answers.get('busy')!r})")
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
