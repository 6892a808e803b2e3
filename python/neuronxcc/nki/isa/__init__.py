"""Shim of `neuronxcc.nki.isa` for host-side code: enums that tests pass into kernels.
Any other public name resolves to a Deferred (see _deferred.py)."""
from .._deferred import Deferred, module_getattr
from ..language import fp32  # noqa: F401  (nisa.fp32.min is documented too)
from .constants import _NISA, dge_mode, engine, nc_version, oob_mode, reduce_cmd  # noqa: F401

tensor_engine = Deferred(f"{_NISA}.tensor_engine")
vector_engine = Deferred(f"{_NISA}.vector_engine")
scalar_engine = Deferred(f"{_NISA}.scalar_engine")
gpsimd_engine = Deferred(f"{_NISA}.gpsimd_engine")

__getattr__ = module_getattr(_NISA)
