#!/usr/bin/python3
"""Golden-data runner for NKI-Agent benchmark tasks (run with /usr/bin/python3: needs numpy + torch).

Modes
  golden.py TASK_DIR --trial K --out DIR   generate trial K of a task into DIR (the pair may
                                           repeat: several trials, one torch import)
  golden.py --check TASK_DIR...            validate tasks (reference runs, outputs match task.json)
  golden.py --versions                     print {"torch": ..., "numpy": ..., "python": ...} as JSON

Generation (documented in docs/tasks.md, relied upon by the C++ cache in src/task/):
  * one numpy generator per trial: np.random.Generator(np.random.PCG64(seed + trial));
  * tensors are drawn in kernel-argument order (inputs, then parameters, then buffers), each with
    its own "dist": normal(mean, std) and uniform(low, high) are drawn in float64, randint(low, high)
    (high exclusive) with Generator.integers;
  * floating values are then rounded to the tensor's dtype (bfloat16 by round-to-nearest-even on the
    float32 bit pattern, float16 by numpy's own RNE cast);
  * the reference Model runs in float32 on exactly those rounded values (integer tensors are handed
    to torch as int64, which gather/index_select/embedding require), under torch.no_grad(), in eval
    mode, with one thread.

Files written into DIR
  arg<i>.npy   kernel argument i in its task dtype (bfloat16 stored as raw uint16 bit patterns)
  out<j>.npy   reference output j (float32 for floating outputs, int32 for integer outputs)
  meta.json    {"args": [...], "outputs": [...], "versions": {...}}: each file with its logical dtype

Errors go to stderr as one "golden: ..." line per problem; the exit code is 1 for a task problem and
2 for a usage problem.
"""

import importlib.util
import json
import os
import sys
import traceback

try:
    import numpy as np
except ImportError:
    print(f"golden: numpy is not importable with {sys.executable} (use /usr/bin/python3 or set "
          "NKI_PYTHON)", file=sys.stderr)
    sys.exit(2)

# Importing reference.py must not leave __pycache__ directories inside the task tree.
sys.dont_write_bytecode = True

FLOAT_DTYPES = {"float32", "float16", "bfloat16"}
INT_DTYPES = {"int8", "int16", "int32", "uint8", "uint16", "uint32", "bool"}
NUMPY_STORAGE = {
    "float32": np.float32, "float16": np.float16, "bfloat16": np.uint16,
    "int8": np.int8, "int16": np.int16, "int32": np.int32,
    "uint8": np.uint8, "uint16": np.uint16, "uint32": np.uint32, "bool": np.uint8,
}


class TaskError(Exception):
    """A problem with one task (bad manifest, failing reference, output mismatch)."""


class EnvironmentProblem(Exception):
    """The interpreter cannot run references at all (torch missing)."""


def import_torch():
    """torch, imported on first use so that usage errors and manifest problems stay fast."""
    try:
        import torch
    except ImportError as e:
        raise EnvironmentProblem(f"torch is not importable with {sys.executable}: {e} (use "
                                 "/usr/bin/python3 with python3-torch, or set NKI_PYTHON)")
    return torch


# ----------------------------------------------------------------------------------------------
# Manifest

def _require(obj, key, kind, where):
    if key not in obj:
        raise TaskError(f"{where}: missing field '{key}'")
    value = obj[key]
    if kind is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    elif kind is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, kind)
    if not ok:
        raise TaskError(f"{where}: field '{key}' has the wrong type")
    return value


def _check_tensor_spec(spec, where, needs_name, needs_dist):
    if not isinstance(spec, dict):
        raise TaskError(f"{where}: must be an object")
    if needs_name:
        _require(spec, "name", str, where)
    shape = _require(spec, "shape", list, where)
    for d in shape:
        if not isinstance(d, int) or isinstance(d, bool) or d <= 0:
            raise TaskError(f"{where}: shape entries must be positive integers")
    dtype = _require(spec, "dtype", str, where)
    if dtype not in FLOAT_DTYPES and dtype not in INT_DTYPES:
        raise TaskError(f"{where}: unsupported dtype '{dtype}'")
    if needs_dist:
        dist = _require(spec, "dist", dict, where)
        kind = _require(dist, "kind", str, where + ".dist")
        if kind == "normal":
            _require(dist, "mean", float, where + ".dist")
            _require(dist, "std", float, where + ".dist")
        elif kind == "uniform":
            _require(dist, "low", float, where + ".dist")
            _require(dist, "high", float, where + ".dist")
        elif kind == "randint":
            lo = _require(dist, "low", int, where + ".dist")
            hi = _require(dist, "high", int, where + ".dist")
            if hi <= lo:
                raise TaskError(f"{where}.dist: randint needs low < high")
        else:
            raise TaskError(f"{where}.dist: unknown kind '{kind}'")


def load_manifest(task_dir):
    path = os.path.join(task_dir, "task.json")
    try:
        with open(path, "r", encoding="utf-8") as f:
            task = json.load(f)
    except OSError as e:
        raise TaskError(f"{path}: cannot read: {e.strerror}")
    except json.JSONDecodeError as e:
        raise TaskError(f"{path}: invalid JSON: {e}")
    if not isinstance(task, dict):
        raise TaskError(f"{path}: top level must be an object")
    tid = _require(task, "id", str, path)
    dirname = os.path.basename(os.path.normpath(task_dir))
    if tid != dirname:
        raise TaskError(f"{path}: id '{tid}' differs from the directory name '{dirname}'")
    _require(task, "init_args", list, path)
    _require(task, "seed", int, path)
    trials = _require(task, "trials", int, path)
    if trials < 1:
        raise TaskError(f"{path}: trials must be >= 1")
    for group in ("inputs", "parameters", "buffers"):
        for i, spec in enumerate(_require(task, group, list, path)):
            _check_tensor_spec(spec, f"{path}: {group}[{i}]", True, True)
    outputs = _require(task, "outputs", list, path)
    if not outputs:
        raise TaskError(f"{path}: outputs must not be empty")
    for i, spec in enumerate(outputs):
        _check_tensor_spec(spec, f"{path}: outputs[{i}]", False, False)
    return task


# ----------------------------------------------------------------------------------------------
# Data generation

def round_to_bf16_bits(x32):
    """float32 array -> uint16 bfloat16 bit patterns, round-to-nearest-even; NaN stays a quiet NaN."""
    bits = np.ascontiguousarray(x32, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    out = rounded.astype(np.uint16)
    nan = np.isnan(x32)
    if nan.any():
        out[nan] = ((bits[nan] >> 16).astype(np.uint16)) | np.uint16(0x0040)
    return out


def bf16_bits_to_float32(bits16):
    return (bits16.astype(np.uint32) << 16).view(np.float32)


def draw(rng, spec):
    shape = tuple(spec["shape"])
    dist = spec["dist"]
    kind = dist["kind"]
    if kind == "normal":
        values = rng.standard_normal(shape) * float(dist["std"]) + float(dist["mean"])
    elif kind == "uniform":
        values = rng.uniform(float(dist["low"]), float(dist["high"]), shape)
    else:
        values = rng.integers(int(dist["low"]), int(dist["high"]), shape, dtype=np.int64)
    return values


def to_task_dtype(values, dtype):
    """Returns (stored array in the .npy storage type, float32-or-int64 array the reference sees)."""
    if dtype == "float32":
        stored = values.astype(np.float32)
        return stored, stored
    if dtype == "float16":
        stored = values.astype(np.float32).astype(np.float16)
        return stored, stored.astype(np.float32)
    if dtype == "bfloat16":
        stored = round_to_bf16_bits(values.astype(np.float32))
        return stored, bf16_bits_to_float32(stored)
    info = np.iinfo(NUMPY_STORAGE[dtype])
    ints = np.asarray(values)
    if ints.dtype.kind == "f":
        ints = np.rint(ints)
    if ints.size and (ints.min() < info.min or ints.max() > info.max):
        raise TaskError(f"values do not fit in {dtype}")
    stored = ints.astype(NUMPY_STORAGE[dtype])
    return stored, stored.astype(np.int64)


def all_arg_specs(task):
    specs = []
    for group, role in (("inputs", "input"), ("parameters", "parameter"), ("buffers", "buffer")):
        for spec in task[group]:
            specs.append((role, spec))
    return specs


def generate_args(task, trial):
    rng = np.random.Generator(np.random.PCG64(task["seed"] + trial))
    stored, seen = [], []
    for role, spec in all_arg_specs(task):
        try:
            s, v = to_task_dtype(draw(rng, spec), spec["dtype"])
        except TaskError as e:
            raise TaskError(f"{role} '{spec['name']}': {e}")
        stored.append(s)
        seen.append(v)
    return stored, seen


# ----------------------------------------------------------------------------------------------
# Reference execution

def _describe(exc):
    """One-line summary first (what callers show), then the traceback for the details."""
    return f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=6)}"


def load_model_class(task_dir):
    path = os.path.join(task_dir, "reference.py")
    if not os.path.isfile(path):
        raise TaskError(f"{path}: file not found")
    spec = importlib.util.spec_from_file_location("nki_task_reference", path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as e:
        raise TaskError(f"{path}: importing failed: {_describe(e)}")
    if not hasattr(module, "Model"):
        raise TaskError(f"{path}: defines no class Model")
    return module.Model


def _named_buffers(model):
    return [(n, b) for n, b in model.named_buffers() if not n.endswith("num_batches_tracked")]


def run_reference(task, task_dir, seen):
    torch = import_torch()

    torch.set_num_threads(1)
    torch.manual_seed(0)  # only affects construction; every parameter is overwritten below
    model_cls = load_model_class(task_dir)
    try:
        model = model_cls(*task["init_args"])
    except Exception as e:
        raise TaskError(f"{task_dir}: Model(*init_args) failed: {_describe(e)}")
    model = model.float().eval()

    n_in, n_par = len(task["inputs"]), len(task["parameters"])
    tensors = [torch.from_numpy(np.ascontiguousarray(v)) for v in seen]
    inputs = tensors[:n_in]
    groups = (
        ("parameters", list(model.named_parameters()), tensors[n_in:n_in + n_par]),
        ("buffers", _named_buffers(model), tensors[n_in + n_par:]),
    )
    with torch.no_grad():
        for group, actual, values in groups:
            declared = task[group]
            if len(actual) != len(declared):
                raise TaskError(f"{task_dir}: Model has {len(actual)} {group}, task.json declares "
                                f"{len(declared)}")
            for (name, target), spec, value in zip(actual, declared, values):
                if name != spec["name"]:
                    raise TaskError(f"{task_dir}: {group} order differs: Model registers '{name}' "
                                    f"where task.json declares '{spec['name']}'")
                if list(target.shape) != spec["shape"]:
                    raise TaskError(f"{task_dir}: {group[:-1]} '{name}' has shape "
                                    f"{list(target.shape)}, task.json declares {spec['shape']}")
                target.copy_(value.to(target.dtype))
        try:
            result = model(*inputs)
        except Exception as e:
            raise TaskError(f"{task_dir}: forward() failed: {_describe(e)}")
    results = list(result) if isinstance(result, (tuple, list)) else [result]
    if len(results) != len(task["outputs"]):
        raise TaskError(f"{task_dir}: forward() returned {len(results)} output(s), task.json "
                        f"declares {len(task['outputs'])}")
    return [check_output(task, task_dir, j, r) for j, r in enumerate(results)]


def check_output(task, task_dir, j, r):
    torch = import_torch()

    if not isinstance(r, torch.Tensor):
        raise TaskError(f"{task_dir}: output {j} is a {type(r).__name__}, not a tensor")
    spec = task["outputs"][j]
    if list(r.shape) != spec["shape"]:
        raise TaskError(f"{task_dir}: output {j} has shape {list(r.shape)}, task.json declares "
                        f"{spec['shape']}")
    if spec["dtype"] in FLOAT_DTYPES:
        if not r.is_floating_point():
            raise TaskError(f"{task_dir}: output {j} has dtype {r.dtype}, task.json declares "
                            f"{spec['dtype']}")
        out = r.detach().to(torch.float32).contiguous().numpy()
        if not np.isfinite(out).all():
            raise TaskError(f"{task_dir}: output {j} contains NaN or Inf "
                            f"({int((~np.isfinite(out)).sum())} elements)")
        return out
    if r.is_floating_point() or r.is_complex():
        raise TaskError(f"{task_dir}: output {j} has dtype {r.dtype}, task.json declares "
                        f"{spec['dtype']}")
    out = r.detach().to(torch.int64).contiguous().numpy()
    info = np.iinfo(np.int32)
    if out.size and (out.min() < info.min or out.max() > info.max):
        raise TaskError(f"{task_dir}: integer output {j} does not fit in int32")
    return out.astype(np.int32)


# ----------------------------------------------------------------------------------------------
# Modes

def versions():
    torch = import_torch()

    return {"torch": str(torch.__version__), "numpy": np.__version__,
            "python": ".".join(str(v) for v in sys.version_info[:3])}


def generate(task_dir, trial, out_dir):
    task = load_manifest(task_dir)
    stored, seen = generate_args(task, trial)
    outputs = run_reference(task, task_dir, seen)
    os.makedirs(out_dir, exist_ok=True)
    meta = {"task": task["id"], "trial": trial, "seed": task["seed"] + trial,
            "generator": "numpy.random.Generator(PCG64(seed + trial))",
            "args": [], "outputs": [], "versions": versions()}
    for i, ((role, spec), arr) in enumerate(zip(all_arg_specs(task), stored)):
        name = f"arg{i}.npy"
        np.save(os.path.join(out_dir, name), arr)
        meta["args"].append({"file": name, "name": spec["name"], "role": role,
                             "dtype": spec["dtype"], "storage": str(arr.dtype),
                             "shape": list(arr.shape)})
    for j, arr in enumerate(outputs):
        name = f"out{j}.npy"
        np.save(os.path.join(out_dir, name), arr)
        meta["outputs"].append({"file": name, "dtype": task["outputs"][j]["dtype"],
                                "storage": str(arr.dtype), "shape": list(arr.shape)})
    with open(os.path.join(out_dir, "meta.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=1)


DEFAULT_TOLERANCE = {"float32": 1e-3, "float16": 5e-3, "bfloat16": 1e-2}


def tolerance_of(task, dtype):
    """(atol, rtol) for an output dtype: the task's override or the per-dtype default."""
    tol = task.get("tolerance")
    if isinstance(tol, dict):
        return float(tol["atol"]), float(tol["rtol"])
    d = DEFAULT_TOLERANCE.get(dtype, 0.0)
    return d, d


def round_like_task(values, dtype):
    """float32 reference values after one rounding to the output dtype, back in float32."""
    if dtype == "bfloat16":
        return bf16_bits_to_float32(round_to_bf16_bits(values.astype(np.float32)))
    if dtype == "float16":
        return values.astype(np.float16).astype(np.float32)
    return values


def check_forward_signature(task, task_dir):
    """forward() takes exactly the manifest's inputs: no extra, missing or variadic arguments."""
    import inspect
    model_cls = load_model_class(task_dir)
    params = list(inspect.signature(model_cls.forward).parameters.values())[1:]  # drop self
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params):
        raise TaskError(f"{task_dir}: forward() takes *args/**kwargs; name its inputs")
    if len(params) != len(task["inputs"]):
        raise TaskError(f"{task_dir}: forward() takes {len(params)} argument(s), task.json declares "
                        f"{len(task['inputs'])} input(s)")


def check_every_argument_matters(task, task_dir, seen, first):
    """Each input, parameter and buffer the manifest declares is consumed by the reference: drawing
    that one tensor again (trial 1's values) changes some output. Catches manifests that list a
    tensor the reference ignores, or shapes/dtypes that the reference silently discards."""
    _, other = generate_args(task, 1)
    for i, ((role, spec), replacement) in enumerate(zip(all_arg_specs(task), other)):
        if np.array_equal(seen[i], replacement):
            continue
        swapped = list(seen)
        swapped[i] = replacement
        outputs = run_reference(task, task_dir, swapped)
        if all(np.array_equal(a, b) for a, b in zip(first, outputs)):
            raise TaskError(f"{task_dir}: {role} '{spec['name']}' does not affect any output "
                            "(the reference ignores it)")


def check_output_quality(task, task_dir, j, a):
    """Outputs must be informative and the tolerance must leave room for the output dtype."""
    if a.size > 1 and float(a.max()) == float(a.min()):
        raise TaskError(f"{task_dir}: output {j} is constant ({float(a.flat[0])}): degenerate task")
    zeros = float(np.count_nonzero(a == 0)) / max(a.size, 1)
    if a.size > 1 and zeros >= 0.95:
        raise TaskError(f"{task_dir}: output {j} is {100 * zeros:.1f} % zeros (at most 95 % allowed)")
    if a.dtype.kind != "f":
        return
    dtype = task["outputs"][j]["dtype"]
    atol, rtol = tolerance_of(task, dtype)
    # A kernel that stores zeros must not pass: with tiny outputs the absolute tolerance
    # alone would accept it (a known loophole of allclose-based benchmarks).
    if np.all(np.abs(a) <= atol + rtol * np.abs(a)):
        raise TaskError(f"{task_dir}: an all-zeros output {j} would pass atol={atol} "
                        f"rtol={rtol}; scale the inputs up or tighten the tolerance")
    # An ideal kernel still rounds its result to the output dtype once; that alone must use at
    # most half of the tolerance, or correct kernels fail on rounding luck.
    allowed = atol + rtol * np.abs(a.astype(np.float64))
    used = np.abs(round_like_task(a, dtype).astype(np.float64) - a) / allowed
    worst = float(used.max()) if used.size else 0.0
    if worst > 0.5:
        raise TaskError(f"{task_dir}: rounding output {j} once to {dtype} uses {100 * worst:.0f} % "
                        f"of the tolerance atol={atol} rtol={rtol} (at most 50 % allowed)")


def check(task_dir):
    """Validates one task: manifest, reference runs, outputs match, forward is deterministic, and
    the quality rules (docs/tasks.md, "Task-quality checks")."""
    task = load_manifest(task_dir)
    check_forward_signature(task, task_dir)
    _, seen = generate_args(task, 0)
    first = run_reference(task, task_dir, seen)
    again = run_reference(task, task_dir, seen)
    for j, (a, b) in enumerate(zip(first, again)):
        if not np.array_equal(a, b):
            raise TaskError(f"{task_dir}: output {j} differs between two identical runs "
                            "(reference must be deterministic)")
    for j, a in enumerate(first):
        check_output_quality(task, task_dir, j, a)
    check_every_argument_matters(task, task_dir, seen, first)


def main(argv):
    try:
        return run_mode(argv)
    except EnvironmentProblem as e:
        print(f"golden: {e}", file=sys.stderr)
        return 2


def run_mode(argv):
    if len(argv) >= 1 and argv[0] == "--versions":
        print(json.dumps(versions()))
        return 0
    if len(argv) >= 1 and argv[0] == "--check":
        if len(argv) == 1:
            print("golden: --check needs at least one task directory", file=sys.stderr)
            return 2
        failed = 0
        for task_dir in argv[1:]:
            try:
                check(task_dir)
                print(f"ok {os.path.basename(os.path.normpath(task_dir))}")
            except TaskError as e:
                failed += 1
                print(f"golden: {e}", file=sys.stderr)
                print(f"FAIL {os.path.basename(os.path.normpath(task_dir))}")
        return 1 if failed else 0
    # TASK_DIR followed by one or more "--trial K --out DIR" pairs (one torch import for all).
    pairs = argv[1:]
    if len(argv) >= 5 and len(pairs) % 4 == 0 and \
            all(pairs[i] == "--trial" and pairs[i + 2] == "--out" for i in range(0, len(pairs), 4)):
        jobs = []
        for i in range(0, len(pairs), 4):
            try:
                trial = int(pairs[i + 1])
            except ValueError:
                trial = -1
            if trial < 0:
                print(f"golden: --trial needs a non-negative integer, got '{pairs[i + 1]}'",
                      file=sys.stderr)
                return 2
            jobs.append((trial, pairs[i + 3]))
        try:
            for trial, out_dir in jobs:
                generate(argv[0], trial, out_dir)
        except TaskError as e:
            print(f"golden: {e}", file=sys.stderr)
            return 1
        return 0
    print("usage: golden.py TASK_DIR --trial K --out DIR [--trial K --out DIR]... | "
          "--check TASK_DIR... | --versions", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
