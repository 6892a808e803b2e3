#!/usr/bin/env python3
"""Load test of `nkiagent serve`: C concurrent clients x R mixed requests against a server
started here (--jobs J), on L1/L2 tasks with their reference solutions and broken variants.

  /usr/bin/python3 perf/serve_load.py build/nkiagent [--clients 8] [--requests 500] [--jobs 2]
  /usr/bin/python3 perf/serve_load.py build/nkiagent --only reward --requests 20   # throughput

Every reward request sends a kernel no request sent before (the reference solution, or a broken
copy, with a unique trailing comment), so no measured reward is a memo hit unless --repeat is
given. The warm-up runs every request kind from every client at once, so that golden data is
loaded, every HTTP thread has served and the memo has seen traffic before RSS is sampled.

Reports errors, p50/p99 latency per request kind, rewards/s, the server's CPU seconds per
judged reward (its own plus its isolated children's: independent of the machine's load), and
RSS after warm-up and at the end (docs/performance.md, "RL server"). Not a unit test.
"""

import argparse
import itertools
import json
import os
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

KINDS = ["reward", "batch", "verify", "compile", "health"]
WEIGHTS = [5, 2, 1, 1, 1]
TICK = os.sysconf("SC_CLK_TCK")


def rss_kb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid):
    """utime + stime of the server and of its waited-for children (the isolated kernels)."""
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return sum(int(x) for x in f[11:15]) / TICK


def corpus(client, ntasks):
    """task -> reference solution, for the first `ntasks` L1/L2 tasks that have one."""
    out = {}
    for t in sorted(client.tasks(), key=lambda t: t["id"]):
        sol = SRC / "solutions" / (t["id"] + ".py")
        if t["level"] in (1, 2) and sol.exists() and len(out) < ntasks:
            out[t["id"]] = sol.read_text()
    return out


def call_unknown_api(code):
    """The kernel with a call of an API nki.language does not have as its first statement: the
    checker rejects it while tracing. (An error in module-level code would not do: a failing
    module-level statement is reported only where what it binds is used, lang/interp.h.)"""
    lines = code.split("\n")
    i = next(k for k, line in enumerate(lines) if line.lstrip().startswith("@nki.jit"))
    while not lines[i].rstrip().endswith(":"):
        i += 1
    body = next(line for line in lines[i + 1:] if line.strip())
    indent = body[:len(body) - len(body.lstrip())]
    return "\n".join(lines[:i + 1] + [indent + "nl.no_such_function()"] + lines[i + 1:])


class Inputs:
    """Kernels that differ in their source hash: a unique comment on the reference solution
    (passes), and one in four broken (a syntax error, or a call the checker rejects)."""

    def __init__(self, solutions, repeat):
        self.solutions = solutions
        self.tasks = sorted(solutions)
        self.counter = itertools.count()
        self.lock = threading.Lock()
        self.repeat = repeat
        self.broken = set()

    def pick(self, r):
        task = r.choice(self.tasks)
        code = self.solutions[task]
        with self.lock:
            n = next(self.counter)
        if self.repeat:
            n = n % 2
        broken = n % 4 == 3
        if broken:
            code = code + "\n)\n" if n % 8 == 3 else call_unknown_api(code)
        code += f"\n# load-test variant {n}\n"
        if broken:
            with self.lock:
                self.broken.add(code)
        return task, code

    def expect(self, code, passed, what):
        """A verdict that differs from the kernel's known one is a finding: a reference
        solution must pass every time, a broken copy must fail every time."""
        with self.lock:
            want = code not in self.broken
        if bool(passed) != want:
            raise RuntimeError(f"wrong {what} verdict: got passed={passed}, expected {want}")


def start_server(binary, jobs, port=0):
    server = subprocess.Popen([binary, "serve", "--bind", f"127.0.0.1:{port}", "--jobs", str(jobs),
                               "--held-out-secret", "424242"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    url = server.stdout.readline().split("listening on ")[1].split(" ")[0]
    return server, url


def run_phase(url, inputs, clients, requests, seed, only, stats):
    lat = {k: [] for k in KINDS}
    errors, judged = [], [0, 0]  # rewards, of which not memo hits (counted by the server)
    lock = threading.Lock()

    def client_loop(k):
        r = random.Random(seed * 1000 + k)
        cl = Client(url)
        for i in range(requests):
            kind = only or (KINDS[i] if i < len(KINDS) and stats is None else r.choices(KINDS, WEIGHTS)[0])
            t = time.time()
            try:
                n = 0
                if kind == "reward":
                    task, code = inputs.pick(r)
                    res = cl.reward(task, code=code)
                    if "reward" not in res:
                        raise RuntimeError(f"reward without a value: {res}")
                    inputs.expect(code, res.get("passed"), "reward")
                    n = 1
                elif kind == "batch":
                    items = [dict(zip(("task", "code"), inputs.pick(r))) for _ in range(4)]
                    res = cl.rewards(items)
                    if len(res) != 4 or any("reward" not in x for x in res):
                        raise RuntimeError(f"bad batch answer: {res}")
                    for item, x in zip(items, res):
                        inputs.expect(item["code"], x.get("passed"), "batch reward")
                    n = 4
                elif kind == "verify":
                    task, code = inputs.pick(r)
                    try:
                        res = cl.verify(task, code)
                        inputs.expect(code, res.get("passed"), "verify")
                    except ServeError as e:
                        if e.status != 422:
                            raise
                        inputs.expect(code, False, f"verify ({e.status})")
                elif kind == "compile":
                    task, code = inputs.pick(r)
                    try:
                        res = cl.compile(task, code)
                        inputs.expect(code, res.get("ok"), "compile")
                    except ServeError as e:
                        if e.status != 422:
                            raise
                        inputs.expect(code, False, f"compile ({e.status}: {str(e)[:300]})")
                else:
                    cl.health()
            except Exception as e:  # noqa: BLE001 -- every failure is a finding
                with lock:
                    errors.append(f"{kind}: {e}")
                continue
            with lock:
                lat[kind].append(time.time() - t)
                judged[0] += n

    t0 = time.time()
    threads = [threading.Thread(target=client_loop, args=(k,)) for k in range(clients)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return time.time() - t0, lat, errors, judged[0]


def metric(url, name):
    import urllib.request
    text = urllib.request.urlopen(url + "/metrics", timeout=60).read().decode()
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return 0.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("nkiagent")
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--requests", type=int, default=500, help="per client")
    ap.add_argument("--warmup", type=int, default=10, help="requests per client in the warm-up")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--tasks", type=int, default=6, help="distinct tasks used")
    ap.add_argument("--only", choices=KINDS, help="send only this kind of request")
    ap.add_argument("--repeat", action="store_true", help="reuse two inputs per task (memo hits)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()

    server, url = start_server(a.nkiagent, a.jobs)
    try:
        c = Client(url)
        inputs = Inputs(corpus(c, a.tasks), a.repeat)
        t0 = time.time()
        _, _, werr, _ = run_phase(url, inputs, a.clients, max(a.warmup, len(KINDS)), a.seed + 7, a.only, None)
        warm_s = time.time() - t0
        rss_warm, cpu0 = rss_kb(server.pid), cpu_seconds(server.pid)
        hits0, judged0 = metric(url, "nkiagent_reward_cache_hits_total"), metric(url, "nkiagent_kernels_judged_total")
        wall, lat, errors, rewards = run_phase(url, inputs, a.clients, a.requests, a.seed, a.only, {})
        cpu = cpu_seconds(server.pid) - cpu0
        rss_end = rss_kb(server.pid)
        hits = metric(url, "nkiagent_reward_cache_hits_total") - hits0
        judged = metric(url, "nkiagent_kernels_judged_total") - judged0
    finally:
        server.terminate()
        server.wait(timeout=60)

    print(f"{a.nkiagent}: clients {a.clients} x {a.requests} requests, --jobs {a.jobs}, "
          f"{len(inputs.tasks)} tasks, only={a.only or 'mixed'}, load average {os.getloadavg()[0]:.1f}")
    print(f"warm-up {warm_s:.1f} s ({len(werr)} errors); run {wall:.1f} s; errors {len(errors)}")
    for k, v in lat.items():
        if v:
            v.sort()
            print(f"  {k:8s} n={len(v):5d} p50={statistics.median(v)*1000:8.1f} ms  p99={v[int(0.99*(len(v)-1))]*1000:8.1f} ms")
    print(f"rewards {rewards} ({int(hits)} memo hits), kernels judged {int(judged)}; rewards/s {rewards/wall:.2f}; "
          f"server CPU {cpu:.1f} s = {cpu/max(judged,1):.3f} CPU s per judged kernel request")
    print(f"RSS after warm-up {rss_warm/1024:.1f} MiB, at end {rss_end/1024:.1f} MiB "
          f"({100.0*(rss_end-rss_warm)/max(rss_warm,1):+.1f} %)")
    for e in (werr + errors)[:10]:
        print("error:", e)
    return 1 if errors or werr else 0


if __name__ == "__main__":
    sys.exit(main())
