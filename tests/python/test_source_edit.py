"""nkisim.source_edit: parameter defaults and annotations added on the def line only."""
from nkisim import literals, source_edit

SOURCE = '''"""doc"""
import numpy as np

def k(a, b, op, scale=1.0, *, flag=False):
  return a
'''


def edited(**kw):
    text = source_edit.with_defaults(SOURCE, "k", **kw)
    prefix = literals.ENTRY_IMPORTS.replace("\n", "; ")
    assert text.startswith(prefix)
    return text[len(prefix):]


def test_defaults_are_inserted_or_replaced_on_the_def_line():
    out = edited(defaults={"op": "np.add", "scale": "2.5", "flag": "True"})
    assert out.splitlines()[3] == "def k(a, b, op=np.add, scale=2.5, *, flag=True):"
    assert len(out.splitlines()) == len(SOURCE.splitlines())


def test_mutable_annotation_goes_on_unannotated_parameters():
    out = edited(defaults={}, mutable=["a", "b"])
    assert out.splitlines()[3] == ("def k(a: __nkisim_nt.mutable_tensor, b: __nkisim_nt.mutable_tensor, "
                                   "op, scale=1.0, *, flag=False):")


def test_literals():
    assert literals.literal(float("-inf")) == "-float('inf')"
    assert literals.literal((1, "x", None)) == "(1, 'x', None)"
    assert literals.literal((3,)) == "(3,)"


MULTILINE = '''import numpy as np

def k(x,
      op,
      y,
      z=None,
      n=3):
  return x
'''


def test_array_parameters_after_others_move_to_the_front():
    text = source_edit.with_defaults(MULTILINE, "k", {"op": "np.add"}, arrays=["x", "y", "z"])
    out = text[len(literals.ENTRY_IMPORTS.replace("\n", "; ")):]
    lines = out.splitlines()
    assert lines[2] == "def k(x, y, z, op=np.add, n=3"  # arrays first, their defaults dropped
    assert len(lines) == len(MULTILINE.splitlines())  # line breaks kept: the body keeps its lines
    assert lines[7] == "  return x"
    compile(out, "k.py", "exec")
