#!/usr/bin/env python3
"""Canonical dump of CPython's AST, the oracle for the C++ parser (src/lang/ast_dump.h).

Usage:
  dump.py FILE                 print the dump of FILE (exit 1 with 'ERROR ...' on SyntaxError)
  dump.py --batch LIST         for each path in LIST (one per line) print
                               '=== PATH' then the dump or 'ERROR <lineno> <msg>'
The format is documented in src/lang/ast_dump.h; both sides must change together.
"""
import ast
import struct
import sys
import warnings

SKIP_FIELDS = {"type_comment", "type_ignores"}


def esc(b: bytes) -> str:
    out = []
    for c in b:
        if 0x20 <= c < 0x7F and c not in (0x5C, 0x27):
            out.append(chr(c))
        else:
            out.append("\\x%02x" % c)
    return "'" + "".join(out) + "'"


def const(v) -> str:
    if v is None:
        return "None"
    if v is True:
        return "True"
    if v is False:
        return "False"
    if v is Ellipsis:
        return "Ellipsis"
    if isinstance(v, int):
        return "int %d" % v
    if isinstance(v, float):
        return "float 0x" + struct.pack(">d", v).hex()
    if isinstance(v, complex):
        return "complex 0x" + struct.pack(">d", v.imag).hex()
    if isinstance(v, str):
        return "str " + esc(v.encode("utf-8", "surrogatepass"))
    if isinstance(v, bytes):
        return "bytes " + esc(v)
    raise TypeError(type(v))


def scalar(v) -> str:
    if v is None:
        return "None"
    if isinstance(v, str):
        return esc(v.encode("utf-8", "surrogatepass"))
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, int):
        return str(v)
    raise TypeError(type(v))


def is_bare(node) -> bool:
    return isinstance(node, ast.AST) and not node._fields and not node._attributes


def dump_node(node, ind, out):
    head = type(node).__name__
    if "lineno" in node._attributes and getattr(node, "lineno", None) is not None:
        head += " @%d:%d-%d:%d" % (node.lineno, node.col_offset, node.end_lineno, node.end_col_offset)
    out.append(" " * ind + head)
    for f in node._fields:
        if f in SKIP_FIELDS:
            continue
        v = getattr(node, f, None)
        pre = " " * (ind + 2) + f + ":"
        if (isinstance(node, ast.Constant) and f == "value") or (
            isinstance(node, ast.MatchSingleton) and f == "value"
        ):
            out.append(pre + " " + const(v))
        elif isinstance(v, list):
            out.append(pre + " [%d]" % len(v))
            for item in v:
                if isinstance(item, ast.AST):
                    if is_bare(item):
                        out.append(" " * (ind + 4) + type(item).__name__)
                    else:
                        dump_node(item, ind + 4, out)
                else:
                    out.append(" " * (ind + 4) + scalar(item))
        elif isinstance(v, ast.AST):
            if is_bare(v):
                out.append(pre + " " + type(v).__name__)
            else:
                out.append(pre)
                dump_node(v, ind + 4, out)
        else:
            out.append(pre + " " + scalar(v))


def dump_source(src: bytes) -> str:
    tree = ast.parse(src)
    out = []
    dump_node(tree, 0, out)
    return "\n".join(out) + "\n"


def main(argv):
    warnings.simplefilter("ignore")  # SyntaxWarnings (e.g. `1if x else y`) are not errors
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)
    if len(argv) == 3 and argv[1] == "--batch":
        with open(argv[2]) as f:
            paths = [line.rstrip("\n") for line in f if line.strip()]
        w = sys.stdout.write
        for p in paths:
            w("=== %s\n" % p)
            try:
                with open(p, "rb") as f:
                    src = f.read()
                w(dump_source(src))
            except SyntaxError as e:
                w("ERROR %s %s\n" % (e.lineno, e.msg))
            except (ValueError, RecursionError, MemoryError) as e:
                w("ERROR 0 %s\n" % (str(e).splitlines() or [""])[0])
        return 0
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1], "rb") as f:
        src = f.read()
    try:
        sys.stdout.write(dump_source(src))
    except SyntaxError as e:
        sys.stdout.write("ERROR %s %s\n" % (e.lineno, e.msg))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
