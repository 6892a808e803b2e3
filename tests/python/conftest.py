# Makes tests/python/kernels importable, and fails early with a clear message when the build's
# python dir (holding _nkisim, nkisim and the neuronxcc shim) is not on PYTHONPATH.
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels"))

try:
    import _nkisim  # noqa: F401
except ImportError as e:
    raise SystemExit(f"tests/python: cannot import _nkisim ({e}); "
                     "build the _nkisim target and set PYTHONPATH=<build>/python") from None
