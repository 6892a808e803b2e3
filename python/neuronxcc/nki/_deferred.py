"""Host-side stand-ins for kernel-side NKI names.

Kernel bodies are traced by the C++ front end with its own nl/nisa bindings, so host code only
needs these names to *pass* them to kernels (op=nl.add, buffer=nl.sbuf, reduce_cmd=...). A
Deferred carries its spelling (`__nki_expr__`) so nkisim can hand it to the front end as an
expression; calling one on the host falls back to the numpy function of the same name.
"""
import numpy as np


class Deferred:
    def __init__(self, expr, numpy_name=None):
        self.__nki_expr__ = expr
        self._numpy_name = numpy_name

    def __repr__(self):
        return self.__nki_expr__.replace("__nkisim_", "")

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return Deferred(f"{self.__nki_expr__}.{name}")

    def __call__(self, *args, **kwargs):
        fn = getattr(np, self._numpy_name or "", None)
        if fn is None:
            raise TypeError(f"{self!r} can only be used inside a kernel (traced by the NKI-Agent front end)")
        return fn(*args, **kwargs)


def module_getattr(prefix):
    """A module-level __getattr__ returning a Deferred for any public name."""
    def __getattr__(name):
        if name.startswith("_"):
            raise AttributeError(name)
        return Deferred(f"{prefix}.{name}", name)
    return __getattr__
