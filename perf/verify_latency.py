#!/usr/bin/python3
"""Wall time and peak memory of a warm `nkiagent verify`, as a ratio against `python3 -c pass`.

Usage: perf/verify_latency.py [--nkiagent build/nkiagent] [--reps 15] [TASK ...]
(default tasks: l1_add_fp32 l2_gemm_bias_gelu_bf16). Each task's reference solution is
verified once to warm the golden cache and the interpreter-probe cache, then REPS times
interleaved with REPS runs of `/usr/bin/python3 -c pass`, so both see the same machine load.
Peak memory is the largest resident set of the process tree (wait4's ru_maxrss: the process and
every descendant it waited for, i.e. the isolated compile/run child too).
Prints medians with [min .. max]; docs/performance.md records the figures.
"""
import argparse
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timed(argv):
    """(wall seconds, peak RSS in MiB, exit status, CPU seconds) of one run of argv, output
    discarded. CPU = user + system time of the process tree: on a loaded machine it says how much
    work there is, where wall time also counts waiting for a core."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    t0 = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ,
                         file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)])
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    os.close(devnull)
    return wall, usage.ru_maxrss / 1024.0, os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime


def spread(values, fmt):
    return (fmt % statistics.median(values)) + " [" + (fmt % min(values)) + " .. " + (fmt % max(values)) + "]"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nkiagent", default=os.path.join(ROOT, "build", "nkiagent"))
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("tasks", nargs="*", default=["l1_add_fp32", "l2_gemm_bias_gelu_bf16"])
    args = ap.parse_args()

    base_argv = ["/usr/bin/python3", "-c", "pass"]
    print("load average at start: %.2f %.2f %.2f" % os.getloadavg())
    for task in args.tasks:
        verify_argv = [args.nkiagent, "verify", os.path.join(ROOT, "solutions", task + ".py"), "--task", task]
        _, _, rc, _ = timed(verify_argv)  # warm-up: golden data and the interpreter probe get cached
        if rc != 0:
            print("%s: warm-up verify exited %d" % (task, rc), file=sys.stderr)
            return 1
        v_wall, v_rss, v_cpu, b_wall, b_rss, b_cpu = [], [], [], [], [], []
        for _ in range(args.reps):
            w, r, rc, c = timed(verify_argv)
            if rc != 0:
                print("%s: verify exited %d" % (task, rc), file=sys.stderr)
                return 1
            v_wall.append(w)
            v_rss.append(r)
            v_cpu.append(c)
            w, r, _, c = timed(base_argv)
            b_wall.append(w)
            b_rss.append(r)
            b_cpu.append(c)
        ratios = [v / b for v, b in zip(v_wall, b_wall)]
        print("%s: verify wall %s s, cpu %s s, peak %s MiB | python3 -c pass wall %s s, cpu %s s, %s MiB"
              " | wall ratio %s" % (
                  task, spread(v_wall, "%.3f"), spread(v_cpu, "%.3f"), spread(v_rss, "%.1f"),
                  spread(b_wall, "%.3f"), spread(b_cpu, "%.3f"), spread(b_rss, "%.1f"),
                  spread(ratios, "%.2f")))
    print("load average at end: %.2f %.2f %.2f" % os.getloadavg())
    return 0


if __name__ == "__main__":
    sys.exit(main())
