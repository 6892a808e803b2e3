"""Spelling host-side Python values as source text for the C++ front end.

A kernel argument that is not an array reaches the tracer either as a Python literal (ints,
floats, strings, tuples, ...) or, for objects with no literal form (np.greater_equal,
nl.bfloat16, nisa.oob_mode.error, ...), as an expression evaluated in the kernel's module.
"""
import dataclasses
import math
import types

import numpy as np

# Module aliases imported ahead of the kernel's file (source_edit.py), so expressions never
# depend on how the test file happens to name its imports.
NP = "__nkisim_np"
NL = "__nkisim_nl"
NISA = "__nkisim_nisa"
ENTRY_IMPORTS = (
    f"import numpy as {NP}\n"
    f"import neuronxcc.nki.language as {NL}\n"
    f"import neuronxcc.nki.isa as {NISA}\n"
    "import neuronxcc.nki.compiler as __nkisim_ncc\n"
    "import neuronxcc.nki.typing as __nkisim_nt\n"
)

# The same aliases for a kernel file in the current dialect (`import nki`, docs/nki-current.md):
# the front end rejects neuronxcc.nki imports there.
CURRENT_ENTRY_IMPORTS = (
    f"import numpy as {NP}\n"
    f"import nki.language as {NL}\n"
    f"import nki.isa as {NISA}\n"
    "import nki.typing as __nkisim_nt\n"
)


def entry_imports(source):
    """The alias imports that suit the dialect of `source` (its own imports decide)."""
    import re
    if re.search(r"^\s*(import nki\b|from nki\b)", source, re.MULTILINE):
        return CURRENT_ENTRY_IMPORTS
    return ENTRY_IMPORTS


_NKI_DTYPE_NAMES = {
    "bool", "int8", "int16", "int32", "uint8", "uint16", "uint32", "float16", "float32",
    "bfloat16", "tfloat32", "float8_e4m3", "float8_e5m2",
}


class NotLiteral(Exception):
    """The value has no literal spelling (it may still have an expression, see expression())."""


def literal(value):
    """Python-literal text for `value`, or raise NotLiteral."""
    if value is None or isinstance(value, (bool, str)):
        return repr(value)
    if isinstance(value, np.bool_):
        return repr(bool(value))
    if isinstance(value, (int, np.integer)):
        return repr(int(value))
    if isinstance(value, (float, np.floating)):
        v = float(value)
        if math.isnan(v):
            return "float('nan')"
        if math.isinf(v):
            return "float('inf')" if v > 0 else "-float('inf')"
        return repr(v)
    if isinstance(value, tuple):
        items = [literal(v) for v in value]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if isinstance(value, list):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(k)}: {literal(v)}" for k, v in value.items()) + "}"
    raise NotLiteral(type(value).__name__)


def _dtype_name(value):
    """The NKI dtype name of a numpy dtype / scalar type / shim stand-in, or None."""
    try:
        dt = np.dtype(value)
    except TypeError:
        return None
    if dt.metadata and "nki_dtype" in dt.metadata:
        return dt.metadata["nki_dtype"]
    name = "bool" if dt.kind == "b" else dt.name
    return name if name in _NKI_DTYPE_NAMES else None


def expression(value, module_globals):
    """Source text that evaluates to `value` inside the kernel's module, or raise TypeError."""
    spelled = getattr(value, "__nki_expr__", None)  # shim objects know their own spelling
    if isinstance(spelled, str):
        return spelled
    if isinstance(value, np.ufunc) or (callable(value) and getattr(np, getattr(value, "__name__", ""), None) is value):
        return f"{NP}.{value.__name__}"
    if isinstance(value, (np.dtype, type)):
        name = _dtype_name(value)
        if name:
            return f"{NL}.{name}"
    for name, v in module_globals.items():  # a module-level helper, constant or alias
        if v is value and not name.startswith("__"):
            return name
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        # A config object (nki-samples FlashConfig): rebuilt from its init fields by keyword,
        # through its class as the kernel's module names it.
        cls = expression(type(value), module_globals)
        args = []
        for f in dataclasses.fields(value):
            if f.init:
                v = getattr(value, f.name)
                try:
                    text = literal(v)
                except NotLiteral:
                    text = expression(v, module_globals)
                args.append(f"{f.name}={text}")
        return f"{cls}({', '.join(args)})"
    for name, mod in module_globals.items():
        if isinstance(mod, types.ModuleType):
            for attr, v in vars(mod).items():
                if v is value:
                    return f"{name}.{attr}"
    raise TypeError(f"cannot pass {value!r} ({type(value).__name__}) to a kernel: it has no literal form "
                    "and is not reachable from the kernel's module")
