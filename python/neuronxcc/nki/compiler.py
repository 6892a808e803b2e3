"""Shim of `neuronxcc.nki.compiler`: direct-allocation helpers are kernel-side only."""
from ._deferred import module_getattr

__getattr__ = module_getattr("__nkisim_ncc")
