#!/usr/bin/env python3
"""Load test of `nkiagent serve`: C concurrent clients x R mixed requests against a server
started here (--jobs J), on L1/L2 tasks with their reference solutions and broken variants.

  /usr/bin/python3 perf/serve_load.py build/nkiagent [--clients 8] [--requests 500] [--jobs 2]

Reports errors, p50/p99 latency per request kind, rewards/s and the server's RSS before and
after (docs/performance.md, "RL server"). Not a unit test: run it by hand on a quiet machine.
"""

import argparse
import json
import pathlib
import random
import statistics
import subprocess
import sys
import threading
import time

SRC = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(SRC / "python"))
from nkiagent_client import Client, ServeError  # noqa: E402


def rss_kb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def corpus(client):
    """(task, code) pairs: the reference solution and a broken copy of it."""
    items = []
    for t in client.tasks():
        sol = SRC / "solutions" / (t["id"] + ".py")
        if t["level"] in (1, 2) and sol.exists():
            code = sol.read_text()
            items.append((t["id"], code))
            items.append((t["id"], code + "\n)\n"))  # a syntax error: judged without simulating
    return items


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("nkiagent")
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--requests", type=int, default=500, help="per client")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--tasks", type=int, default=6, help="distinct tasks used")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()

    server = subprocess.Popen([a.nkiagent, "serve", "--bind", "127.0.0.1:0", "--jobs", str(a.jobs),
                               "--held-out-secret", "424242"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    url = server.stdout.readline().split("listening on ")[1].split(" ")[0]
    c = Client(url)
    rng = random.Random(a.seed)
    items = corpus(c)
    tasks = sorted({t for t, _ in items})[: a.tasks]
    items = [i for i in items if i[0] in tasks]
    # Warm-up: every distinct input once (golden data, first compile), then measure.
    t0 = time.time()
    for task, code in items:
        c.reward(task, code=code)
    warm_s = time.time() - t0
    rss_warm = rss_kb(server.pid)

    lat = {"reward": [], "batch": [], "verify": [], "compile": [], "health": []}
    errors = []
    rewards = [0]
    lock = threading.Lock()

    def client_loop(k):
        r = random.Random(a.seed * 1000 + k)
        cl = Client(url)
        for _ in range(a.requests):
            kind = r.choices(["reward", "batch", "verify", "compile", "health"], [5, 2, 1, 1, 1])[0]
            task, code = r.choice(items)
            t = time.time()
            try:
                if kind == "reward":
                    cl.reward(task, code=code)
                    n = 1
                elif kind == "batch":
                    cl.rewards([{"task": tk, "code": cd} for tk, cd in r.sample(items, 4)])
                    n = 4
                elif kind == "verify":
                    try:
                        cl.verify(task, code)
                    except ServeError as e:
                        if e.status != 422:
                            raise
                    n = 0
                elif kind == "compile":
                    cl.compile(task, code)
                    n = 0
                else:
                    cl.health()
                    n = 0
            except Exception as e:  # noqa: BLE001 -- every failure is a finding
                with lock:
                    errors.append(f"{kind}: {e}")
                continue
            with lock:
                lat[kind].append(time.time() - t)
                rewards[0] += n

    t0 = time.time()
    threads = [threading.Thread(target=client_loop, args=(k,)) for k in range(a.clients)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    wall = time.time() - t0
    rss_end = rss_kb(server.pid)
    metrics = json.dumps(c._call("GET", "/v1/health"))
    server.terminate()
    server.wait(timeout=60)

    print(f"clients {a.clients} x {a.requests} requests, --jobs {a.jobs}, {len(tasks)} tasks, {len(items)} inputs")
    print(f"warm-up {warm_s:.1f} s; run {wall:.1f} s; errors {len(errors)}")
    for k, v in lat.items():
        if v:
            v.sort()
            print(f"  {k:8s} n={len(v):5d} p50={statistics.median(v)*1000:8.1f} ms  p99={v[int(0.99*(len(v)-1))]*1000:8.1f} ms")
    print(f"rewards/s {rewards[0]/wall:.1f}; RSS after warm-up {rss_warm/1024:.1f} MiB, at end {rss_end/1024:.1f} MiB "
          f"({100.0*(rss_end-rss_warm)/max(rss_warm,1):+.1f} %)")
    print(metrics)
    for e in errors[:10]:
        print("error:", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
