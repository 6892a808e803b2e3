#!/usr/bin/env python3
"""Runs the annotated conformance kernels (tests/kernels/README.md) through `nkiagent`.

For each case file:
  bad*.py      `nkiagent check --json` must fail with the `# expect-error:` code at that line
               (and column, when `# expect-col:` is given; message/hint substrings when
               `# expect-message:` / `# expect-hint:` are given); any further error must be
               marked `# expect-also-error: CODE` on its line;
  warn*.py     must compile and report the `# expect-warning:` code at that line (and match
               `# expect-output:` when given);
  runtime/*    must compile; `nkiagent run` must exit 3 with the `# expect-runtime-error:` code;
  other files  must compile; with `# expect-output:` the simulated outputs must match the NumPy
               expression.
Every file: a warning that is neither marked on its line nor allowed by a header line
`# allow-warning: CODE` fails the case (no unexpected extra diagnostics).
Prints one line per failure and a final `N passed, M failed` line; exit status 1 on failures.
Needs NumPy (Debian's /usr/bin/python3 has it after scripts/setup.sh).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HEADER = re.compile(r"#\s*nki-case:(.*)")


def parse_header(text):
    m = HEADER.search(text)
    if not m:
        return None
    opts = {"args": [], "grid": None, "kernel": None, "target": None, "nki": None, "init": {}}
    for tok in m.group(1).split():
        if "=" not in tok:
            continue
        key, val = tok.split("=", 1)
        if key == "args":
            opts["args"] = [a for a in val.split(",") if a]
        elif key == "grid":
            opts["grid"] = val
        elif key == "kernel":
            opts["kernel"] = val
        elif key == "target":
            opts["target"] = val
        elif key == "nki":
            opts["nki"] = val
        elif key.startswith("init") and key[4:].isdigit():
            opts["init"][int(key[4:])] = val
    return opts


def find_marks(text, tag):
    """[(line, value, col)] for trailing `# tag: VALUE` comments."""
    out = []
    for i, line in enumerate(text.splitlines(), 1):
        m = re.search(r"#\s*" + tag + r":\s*([A-Za-z0-9_]+)", line)
        if not m or line.lstrip().startswith("# " + tag):
            continue
        col = re.search(r"#\s*expect-col:\s*(\d+)", line)
        out.append((i, m.group(1), int(col.group(1)) if col else None))
    return out


def header_values(text, tag):
    """Values of full-line `# tag: VALUE` comments (VALUE runs to the end of the line)."""
    return [m.group(1).strip() for m in re.finditer(r"^\s*#\s*" + tag + r":\s*(.+)$", text, re.M)]


def allowed_warnings(text):
    """Codes a file accepts anywhere without marking each line (`# allow-warning: CODE`)."""
    return {v.split()[0] for v in header_values(text, "allow-warning")}


def unexpected_warnings(diags, text, marked):
    """Warnings neither marked on their line nor allowed by the header: a message users would see
    that no case asked for (a regression in a check, or a case that needs an annotation)."""
    allowed = allowed_warnings(text)
    return [(d["code"], d["line"]) for d in diags
            if d["severity"] == "warning" and (d["line"], d["code"]) not in marked and d["code"] not in allowed]


def check_text_marks(d, text):
    """`# expect-message: TEXT` / `# expect-hint: TEXT`: substrings the first diagnostic must carry."""
    for tag, field in (("expect-message", "message"), ("expect-hint", "hint")):
        for want in header_values(text, tag):
            if want not in d.get(field, ""):
                return "%s of %s lacks %r: %r" % (field, d["code"], want, d.get(field, "")[:200])
    return None


def base_cmd(nkiagent, sub, path, opts):
    cmd = [nkiagent, sub, path]
    if opts["grid"]:
        cmd += ["--grid", opts["grid"]]
    if opts["kernel"]:
        cmd += ["--kernel", opts["kernel"]]
    if opts["target"]:
        cmd += ["--target", opts["target"]]
    if opts["nki"]:
        cmd += ["--nki", opts["nki"]]
    return cmd


NP_DTYPES = {"float32": np.float32, "float16": np.float16, "int8": np.int8, "int16": np.int16,
             "int32": np.int32, "uint8": np.uint8, "uint16": np.uint16, "uint32": np.uint32,
             "bool": np.bool_}
NARROW = {"bfloat16", "float16", "float8_e4m3", "float8_e5m2", "tfloat32"}


def round_bf16(x):
    b = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    b = (b + 0x7FFF + ((b >> 16) & 1)) >> 16
    return (b.astype(np.uint32) << 16).view(np.float32)


def make_input(spec, gen, rng):
    shape_s, dtype = spec.split(":") if ":" in spec else (spec, "float32")
    shape = tuple(int(d) for d in shape_s.split("x")) if shape_s else ()
    is_int = dtype in ("int8", "int16", "int32", "uint8", "uint16", "uint32", "bool")
    if gen is None:
        gen = "randint(0,16)" if is_int else "randn"
    m = re.match(r"(\w+)(?:\(([^)]*)\))?", gen)
    kind, params = m.group(1), [float(p) for p in (m.group(2) or "").split(",") if p.strip()]
    if kind == "randn":
        x = rng.standard_normal(shape)
    elif kind == "rand":
        lo, hi = params if params else (0.0, 1.0)
        x = rng.uniform(lo, hi, shape)
    elif kind == "randint":
        lo, hi = params if params else (0, 16)
        x = rng.integers(int(lo), int(hi), shape)
    elif kind == "arange":
        x = np.arange(int(np.prod(shape))).reshape(shape)
    elif kind == "const":
        x = np.full(shape, params[0])
    else:
        raise ValueError("unknown generator " + gen)
    if dtype == "bool":
        x = (x != 0)
    if dtype in NP_DTYPES and dtype != "float16":
        stored = x.astype(NP_DTYPES[dtype])
        value = stored
    elif dtype == "float16":
        stored = x.astype(np.float16)
        value = stored.astype(np.float32)
    else:
        # narrow float types travel as float32 and are converted by `run --input PATH:DTYPE`
        stored = x.astype(np.float32)
        value = round_bf16(stored) if dtype == "bfloat16" else stored
    return stored, value, dtype


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


_CATALOGUE = None


def catalogue_mismatch(diags):
    """Each diagnostic's message and hint must have the form its row in the diagnostic catalogue
    (src/base/diag_codes.def, the source of docs/error-codes.md) gives: what the docs say is what
    the checker prints."""
    global _CATALOGUE
    if _CATALOGUE is None:
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
        import diag_codes
        import diag_dump
        _CATALOGUE = (diag_codes.load_catalogue(), diag_dump.format_regex)
    cat, regex = _CATALOGUE
    for d in diags:
        row = cat.get(d["code"])
        if row is None:
            return "code %s has no row in src/base/diag_codes.def" % d["code"]
        for what in ("message", "hint"):
            if not regex(row[what]).match(d.get(what) or ""):
                return "%s of %s is %r, not of the catalogue's form %r" % (what, d["code"], d.get(what), row[what])
    return None


def check_bad(nkiagent, path, text, opts):
    marks = find_marks(text, "expect-error")
    if len(marks) != 1:
        return "expected exactly one '# expect-error:' mark, found %d" % len(marks)
    line, code, col = marks[0]
    cmd = base_cmd(nkiagent, "check", path, opts) + sum((["--arg", a] for a in opts["args"]), []) + ["--json"]
    r = run(cmd)
    if r.returncode != 1:
        return "check exited %d (expected 1); stderr: %s" % (r.returncode, r.stderr.strip()[:300])
    all_diags = json.loads(r.stdout)["diagnostics"]
    err = catalogue_mismatch(all_diags)
    if err:
        return err
    diags = [d for d in all_diags if d["severity"] == "error"]
    if not diags:
        return "no error diagnostic"
    d = diags[0]
    if d["code"] != code or d["line"] != line:
        return "got %s at line %d (%s), expected %s at line %d" % (d["code"], d["line"], d["message"][:120], code, line)
    if col is not None and d["col"] != col:
        return "got column %d, expected %d for %s" % (d["col"], col, code)
    err = check_text_marks(d, text)
    if err:
        return err
    # Every further error must be declared where it is reported (`# expect-also-error: CODE`).
    also = {(l, c) for l, c, _ in find_marks(text, "expect-also-error")}
    extra = [(e["code"], e["line"]) for e in diags[1:] if (e["line"], e["code"]) not in also]
    if extra:
        return "unexpected further errors %s after %s" % (extra, code)
    extra = unexpected_warnings(all_diags, text, {(l, c) for l, c, _ in find_marks(text, "expect-warning")})
    if extra:
        return "unexpected warnings %s" % (extra,)
    return None


def check_warn(nkiagent, path, text, opts):
    marks = find_marks(text, "expect-warning")
    cmd = base_cmd(nkiagent, "check", path, opts) + sum((["--arg", a] for a in opts["args"]), []) + ["--json"]
    r = run(cmd)
    if r.returncode != 0:
        return "check exited %d: %s" % (r.returncode, r.stderr.strip()[:300])
    all_diags = json.loads(r.stdout)["diagnostics"]
    err = catalogue_mismatch(all_diags)
    if err:
        return err
    got = [(d["line"], d["code"]) for d in all_diags if d["severity"] == "warning"]
    for line, code, _ in marks:
        if (line, code) not in got:
            return "missing warning %s at line %d (got %s)" % (code, line, got)
    first = next(d for d in all_diags if d["severity"] == "warning" and (d["line"], d["code"]) == marks[0][:2]) if marks else None
    if first is not None:
        err = check_text_marks(first, text)
        if err:
            return err
    extra = unexpected_warnings(all_diags, text, {(l, c) for l, c, _ in marks})
    if extra:
        return "unexpected warnings %s" % (extra,)
    if re.search(r"#\s*expect-output:", text):
        return check_run(nkiagent, path, text, opts, False)
    return None


def check_run(nkiagent, path, text, opts, expect_runtime):
    cmd = base_cmd(nkiagent, "check", path, opts) + sum((["--arg", a] for a in opts["args"]), [])
    r = run(cmd + ["--json"])
    if r.returncode != 0:
        return "check exited %d: %s" % (r.returncode, (r.stderr.strip() or r.stdout.strip())[:400])
    err = catalogue_mismatch(json.loads(r.stdout)["diagnostics"])
    if err:
        return err
    if not os.path.basename(path).startswith("warn"):
        extra = unexpected_warnings(json.loads(r.stdout)["diagnostics"], text, set())
        if extra:
            return "unexpected warnings %s" % (extra,)
    m = re.search(r"#\s*expect-output:\s*(.+)", text)
    if not m and not expect_runtime:
        return None
    rng = np.random.default_rng(1234)
    with tempfile.TemporaryDirectory() as tmp:
        cmd = base_cmd(nkiagent, "run", path, opts) + ["--out-dir", tmp, "--numerics", "precise"]
        env = {}
        narrow = False
        for i, spec in enumerate(opts["args"]):
            stored, value, dtype = make_input(spec, opts["init"].get(i), rng)
            p = os.path.join(tmp, "in%d.npy" % i)
            np.save(p, stored)
            suffix = ":" + dtype if dtype in NARROW and dtype != "float16" else ""
            narrow = narrow or dtype in NARROW
            cmd += ["--input", p + suffix]
            env["in%d" % i] = value
        r = run(cmd)
        if expect_runtime:
            if r.returncode != 3:
                return "run exited %d, expected 3 (%s)" % (r.returncode, r.stderr.strip()[:200])
            marks = find_marks(text, "expect-runtime-error")
            # The code as reported (`error[CODE]`), not a mention of it in the echoed source line.
            if marks and "error[%s]" % marks[0][1] not in r.stderr:
                return "runtime error code %s not reported: %s" % (marks[0][1], r.stderr.strip()[:200])
            return None
        if r.returncode != 0:
            return "run exited %d: %s" % (r.returncode, r.stderr.strip()[:400])
        scope = {"np": np}
        scope.update(env)
        expected = eval(m.group(1), scope)
        outs = sorted(f for f in os.listdir(tmp) if f.startswith("out"))
        if not outs:
            outs = sorted(f for f in os.listdir(tmp) if f.startswith("arg"))
        actual = [np.load(os.path.join(tmp, f)) for f in outs]
        exp_list = list(expected) if isinstance(expected, tuple) else [expected]
        if len(actual) != len(exp_list):
            return "kernel produced %d outputs, expected %d" % (len(actual), len(exp_list))
        tol = re.search(r"#\s*expect-tol:\s*rtol=([0-9.eE+-]+)\s+atol=([0-9.eE+-]+)", text)
        for a, e in zip(actual, exp_list):
            e = np.asarray(e)
            if a.shape != e.shape:
                return "output shape %s, expected %s" % (a.shape, e.shape)
            if np.issubdtype(a.dtype, np.integer) or a.dtype == np.bool_:
                if not np.array_equal(a, e.astype(a.dtype)):
                    return "integer output differs in %d elements" % int((a != e.astype(a.dtype)).sum())
                continue
            narrow_out = narrow or a.dtype == np.float16
            rtol, atol = (float(tol.group(1)), float(tol.group(2))) if tol else ((2e-2, 2e-2) if narrow_out else (1e-4, 1e-4))
            if not np.allclose(a.astype(np.float64), e.astype(np.float64), rtol=rtol, atol=atol, equal_nan=False):
                bad = ~np.isclose(a.astype(np.float64), e.astype(np.float64), rtol=rtol, atol=atol)
                return "output mismatch: %d of %d elements, max abs err %g" % (
                    int(bad.sum()), a.size, float(np.nanmax(np.abs(a.astype(np.float64) - e))))
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nkiagent", required=True)
    ap.add_argument("--ir", action="store_true", help="also require `nkiagent ir` to print the IR of compiling cases")
    ap.add_argument("paths", nargs="+", help="case files or directories")
    args = ap.parse_args()
    files = []
    for p in args.paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                files += [os.path.join(root, n) for n in names if n.endswith(".py")]
        else:
            files.append(p)
    passed, failed = 0, 0
    for path in sorted(files):
        text = open(path).read()
        opts = parse_header(text)
        if opts is None:
            continue
        name = os.path.basename(path)
        try:
            if name.startswith("bad"):
                err = check_bad(args.nkiagent, path, text, opts)
            elif name.startswith("warn"):
                err = check_warn(args.nkiagent, path, text, opts)
            else:
                err = check_run(args.nkiagent, path, text, opts, "expect-runtime-error" in text and "/runtime/" in path)
                if not err and args.ir:
                    r = run(base_cmd(args.nkiagent, "ir", path, opts) + sum((["--arg", a] for a in opts["args"]), []))
                    if r.returncode != 0 or not r.stdout.startswith("kernel ") or "body:" not in r.stdout:
                        err = "nkiagent ir failed (exit %d): %s" % (r.returncode, r.stderr.strip()[:200])
        except Exception as ex:  # a broken case must not hide the others
            err = "harness error: %r" % (ex,)
        if err:
            failed += 1
            print("FAIL %s: %s" % (path, err))
        else:
            passed += 1
    print("%d passed, %d failed" % (passed, failed))
    if passed + failed == 0:
        print("FAIL: no annotated case files under %s" % " ".join(args.paths))
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
