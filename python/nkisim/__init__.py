"""nkisim: run NKI kernel files on the NKI-Agent NeuronCore simulator from Python.

The kernel body is never executed by Python: the C++ front end (the `_nkisim` extension)
traces the kernel's source file and the simulator runs it on numpy arrays. See docs/python.md.
"""
from _nkisim import NkiError, NkiCompileError, NkiRuntimeError, check, run, standin_dtype  # noqa: F401

from .kernel import Kernel  # noqa: F401

__all__ = ["Kernel", "NkiError", "NkiCompileError", "NkiRuntimeError", "check", "run", "standin_dtype"]
