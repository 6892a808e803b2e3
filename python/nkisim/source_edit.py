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


def with_defaults(source, func_name, defaults, mutable=(), arrays=()):
    """`source` with the top-level function `func_name` given `defaults` {param: text}, and
    the unannotated parameters named in `mutable` annotated as nt.mutable_tensor. `arrays` names
    the parameters that receive arrays, in order; when they are not the leading parameters the
    parameter list is reordered to put them first (see _arrays_first)."""
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
    names = [p.arg for p in positional]
    if arrays and names[:len(arrays)] != list(arrays):
        return literals.entry_imports(source).replace("\n", "; ") + _arrays_first(
            func_name, fn, encoded, current, defaults, mutable, arrays)
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
    return literals.entry_imports(source).replace("\n", "; ") + text


def _segment(encoded, node):
    """The source text of an AST node that lies on one line."""
    if node.lineno != node.end_lineno:
        raise TypeError("a kernel parameter or default spanning several lines cannot be moved")
    return encoded[node.lineno - 1][node.col_offset:node.end_col_offset].decode("utf-8")


def _arrays_first(func_name, fn, encoded, current, defaults, mutable, arrays):
    """The source with the parameter list of `fn` rewritten as: the array parameters (in call
    order, defaults dropped: they always receive an array), then every other parameter in its
    original order with its (possibly new) default. The front end binds arrays to the leading
    parameters and everything else by name, so the kernel body sees the same bindings. The new
    list keeps the original number of line breaks, so every line after it keeps its number."""
    a = fn.args
    if a.posonlyargs or a.vararg or a.kwonlyargs or a.kwarg:
        raise TypeError(f"kernel {func_name}: array arguments after other parameters need a plain "
                        "positional parameter list")
    params = []
    for name in arrays:
        p = next(x for x in a.args if x.arg == name)
        text = _segment(encoded, p)
        if name in mutable and p.annotation is None:
            text += ": __nkisim_nt.mutable_tensor"
        params.append(text)
    for p in a.args:
        if p.arg in arrays:
            continue
        text = _segment(encoded, p)
        if p.arg in defaults:
            text += "=" + defaults[p.arg]
        elif p.arg in current:
            text += "=" + _segment(encoded, current[p.arg])
        params.append(text)
    # The list spans from just after "def name(" to the ")" that closes it.
    first = a.args[0]
    line, col = first.lineno - 1, first.col_offset
    last = max([p.end_lineno for p in a.args] + [d.end_lineno for d in a.defaults]) - 1
    last_col = max([p.end_col_offset for p in a.args if p.end_lineno - 1 == last] +
                   [d.end_col_offset for d in a.defaults if d.end_lineno - 1 == last])
    end_line, end_col = last, encoded[last].find(b")", last_col)
    while end_col < 0:  # the closing parenthesis sits on a later line
        end_line += 1
        end_col = encoded[end_line].find(b")")
    breaks = end_line - line
    head = encoded[line][:col]
    tail = encoded[end_line][end_col:]
    new = head + ", ".join(params).encode("utf-8") + b"\n" * breaks + tail
    out = encoded[:line] + [new] + encoded[end_line + 1:]
    return b"".join(out).decode("utf-8")
