#!/usr/bin/python3
"""Long-lived evaluator for `nkiagent synth` candidates (one process per job, many candidates).

Usage: synth_worker.py GOLDEN_PY
Reads one JSON request per line on stdin:
    {"id": ..., "task": <complete task.json object>, "source": <reference.py text>}
and answers one JSON line per request on stdout:
    {"id": ..., "verdict": "ok" | <reason code>, "detail": "...", "cpu_ms": t, "tolerance": null | {...}}

The checks are those of `golden.py --check` (docs/tasks.md, "Task-quality checks"), run through
golden.py's own functions so the two can never drift apart, each mapped to a reason code
(docs/synthesis.md), plus the CPU-time budget and the trivial-kernel audit. Starting torch costs
seconds, so the process imports it once and evaluates candidates for the whole run.
"""

import importlib.util
import json
import sys
import time
import types

sys.dont_write_bytecode = True

CPU_BUDGET_MS = 100.0  # one reference forward (model construction included), CPU time


def load_golden(path):
    spec = importlib.util.spec_from_file_location("nki_golden", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Reject(Exception):
    def __init__(self, reason, detail):
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


def classify(message):
    """Reason code of a golden.TaskError raised while running the reference."""
    if "NaN or Inf" in message:
        return "non_finite"
    if "Model(*init_args) failed" in message or "forward() failed" in message or "importing failed" in message:
        return "reference_error"
    if "output" in message and ("shape" in message or "dtype" in message or "returned" in message):
        return "output_mismatch"
    return "manifest_mismatch"


def model_class_from(source):
    module = types.ModuleType("nki_synth_reference")
    try:
        exec(compile(source, "reference.py", "exec"), module.__dict__)
    except Exception as e:  # noqa: BLE001 - any failure of untrusted generated code is a verdict
        raise Reject("reference_error", f"importing failed: {type(e).__name__}: {e}")
    if not hasattr(module, "Model"):
        raise Reject("reference_error", "defines no class Model")
    return module.Model


def timed_run(golden, task, seen):
    start = time.process_time()
    try:
        outputs = golden.run_reference(task, "<candidate>", seen)
    except golden.TaskError as e:
        text = str(e)
        raise Reject(classify(text), text.splitlines()[0])
    return outputs, 1000.0 * (time.process_time() - start)


def quality(golden, task, outputs):
    """golden.check_output_quality with reason codes; a task whose outputs are so small that zeros
    would pass the default tolerance gets atol = rtol / 10 (what l1_softmax_bf16 does by hand) and
    is checked again."""
    for attempt in (0, 1):
        try:
            for j, a in enumerate(outputs):
                golden.check_output_quality(task, "<candidate>", j, a)
            return task.get("tolerance")
        except golden.TaskError as e:
            text = str(e)
            if "constant" in text:
                raise Reject("constant_output", text)
            if "% zeros" in text:
                raise Reject("mostly_zeros", text)
            if "would pass" in text and attempt == 0 and task.get("tolerance") is None:
                dtype = task["outputs"][0]["dtype"]
                rtol = golden.DEFAULT_TOLERANCE.get(dtype, 1e-3)
                task["tolerance"] = {"atol": rtol / 10, "rtol": rtol}
                continue
            if "would pass" in text:
                raise Reject("zeros_pass", text)
            raise Reject("ill_conditioned", text)
    return task.get("tolerance")


def audit(golden, task, stored_seen, outputs):
    """The trivial-kernel audit of `nkiagent tasks audit` on trial 0: an output equal to a
    constant 1 or to a copy of an input (cast to the output dtype) must fail the tolerance."""
    import numpy as np
    for j, a in enumerate(outputs):
        spec = task["outputs"][j]
        if spec["dtype"] not in golden.FLOAT_DTYPES:
            continue
        atol, rtol = golden.tolerance_of(task, spec["dtype"])
        allowed = atol + rtol * np.abs(a.astype(np.float64))
        if np.all(np.abs(1.0 - a) <= allowed):
            raise Reject("trivial_constant", f"a constant-1 output {j} passes the tolerance")
        for arg in stored_seen:
            if arg.size != a.size or arg.dtype.kind not in "f":
                continue
            copy = golden.round_like_task(arg.reshape(a.shape).astype(np.float32), spec["dtype"])
            if np.all(np.abs(copy - a) <= allowed):
                raise Reject("trivial_copy", f"a copy of an input passes output {j}")


def evaluate(golden, request):
    import numpy as np
    task = request["task"]
    model_cls = model_class_from(request["source"])
    golden.load_model_class = lambda _task_dir: model_cls  # run_reference loads through this
    try:
        golden.check_forward_signature(task, "<candidate>")
    except golden.TaskError as e:
        raise Reject("manifest_mismatch", str(e))
    try:
        _, seen = golden.generate_args(task, 0)
    except golden.TaskError as e:
        raise Reject("manifest_mismatch", str(e))
    # The time budget is the one machine-dependent filter (docs/synthesis.md): it judges the
    # fastest of the runs (two, a third when both are over), so a scheduling or cache hiccup on
    # the loaded machine does not reject an elementwise reference that normally takes 2 ms.
    first, ms = timed_run(golden, task, seen)
    again, ms_again = timed_run(golden, task, seen)
    ms = min(ms, ms_again)
    if ms > CPU_BUDGET_MS:
        ms = min(ms, timed_run(golden, task, seen)[1])
    if ms > CPU_BUDGET_MS:
        raise Reject("budget_time", f"reference took {ms:.0f} ms CPU, fastest of 3 runs (budget {CPU_BUDGET_MS:.0f} ms)")
    for j, (a, b) in enumerate(zip(first, again)):
        if not np.array_equal(a, b):
            raise Reject("nondeterministic", f"output {j} differs between two identical runs")
    tolerance = quality(golden, task, first)
    try:
        golden.check_every_argument_matters(task, "<candidate>", seen, first)
    except golden.TaskError as e:
        text = str(e).splitlines()[0]
        raise Reject("unused_argument" if "does not affect" in text else classify(text), text)
    audit(golden, task, seen, first)
    return ms, tolerance


def main(argv):
    if len(argv) != 1:
        print("usage: synth_worker.py GOLDEN_PY", file=sys.stderr)
        return 2
    golden = load_golden(argv[0])
    torch = golden.import_torch()
    torch.set_num_threads(1)
    print(json.dumps({"ready": True, "torch": str(torch.__version__)}), flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        answer = {"id": request.get("id"), "verdict": "ok", "detail": "", "cpu_ms": 0.0,
                  "tolerance": None}
        try:
            answer["cpu_ms"], answer["tolerance"] = evaluate(golden, request)
            answer["cpu_ms"] = round(answer["cpu_ms"], 1)
        except Reject as r:
            answer["verdict"], answer["detail"] = r.reason, r.detail[:300]
        except Exception as e:  # noqa: BLE001 - never let one candidate end the worker
            answer["verdict"], answer["detail"] = "reference_error", f"{type(e).__name__}: {e}"[:300]
        print(json.dumps(answer), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
