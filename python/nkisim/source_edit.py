"""Giving kernel parameters default values by editing the kernel's `def` line.

The front end binds arrays to the leading parameters and literal consts by name; a value with
no literal form (np.greater_equal, nl.bfloat16, nisa.oob_mode.error) has to be evaluated in
the kernel's module. Calling the kernel from a generated wrapper would make it a sub-kernel
(where, e.g., shared_hbm outputs are not allowed), so instead the parameter gets the value's
spelling as its default. Only the `def` header changes, so every line keeps its number; the
aliases used by the spellings are imported at the start of line 1.
"""
import ast

from . import literals


def with_defaults(source, func_name, defaults, mutable=()):
    """`source` with the top-level function `func_name` given `defaults` {param: text}, and
    the unannotated parameters named in `mutable` annotated as nt.mutable_tensor."""
    tree = ast.parse(source)
    fn = None
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == func_name:
            fn = node  # the last definition wins, as in Python
    if fn is None:
        raise TypeError(f"kernel {func_name}: no top-level 'def {func_name}' in its file "
                        "(kernels defined inside functions cannot be traced)")
    a = fn.args
    positional = a.posonlyargs + a.args
    # existing defaults, by parameter name
    current = dict(zip([p.arg for p in positional[len(positional) - len(a.defaults):]], a.defaults))
    current.update({p.arg: d for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None})

    lines = source.splitlines(keepends=True)
    encoded = [ln.encode("utf-8") for ln in lines]  # ast columns are UTF-8 byte offsets
    edits = []  # (line index, start byte, end byte, text)
    for p in positional:
        if p.arg in mutable and p.annotation is None:
            edits.append((p.end_lineno - 1, p.end_col_offset, p.end_col_offset, ": __nkisim_nt.mutable_tensor"))
    for p in positional + a.kwonlyargs:
        if p.arg not in defaults:
            continue
        if p.arg in current:
            d = current[p.arg]
            if d.lineno != d.end_lineno:
                raise TypeError(f"kernel {func_name}: the default of '{p.arg}' spans several lines")
            edits.append((d.lineno - 1, d.col_offset, d.end_col_offset, defaults[p.arg]))
        else:
            edits.append((p.end_lineno - 1, p.end_col_offset, p.end_col_offset, "=" + defaults[p.arg]))
    # Apply from the end of the text backwards. At one position the edit listed last is applied
    # first, so the annotation (listed first) ends up before a default.
    order = sorted(range(len(edits)), key=lambda i: (edits[i][0], edits[i][1], i), reverse=True)
    for line, start, end, text in (edits[i] for i in order):
        b = encoded[line]
        encoded[line] = b[:start] + text.encode("utf-8") + b[end:]
    text = b"".join(encoded).decode("utf-8")
    return literals.ENTRY_IMPORTS.replace("\n", "; ") + text
