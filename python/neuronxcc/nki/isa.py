"""Shim of `neuronxcc.nki.isa` for host-side code: enums that tests pass into kernels.
Any other public name resolves to a Deferred (see _deferred.py)."""
from ._deferred import Deferred, module_getattr
from .language import fp32  # noqa: F401  (nisa.fp32.min is documented too)

_NISA = "__nkisim_nisa"


class _Enum:
    def __init__(self, name, members):
        for m in members:
            setattr(self, m, Deferred(f"{_NISA}.{name}.{m}"))
        self.__nki_expr__ = f"{_NISA}.{name}"


oob_mode = _Enum("oob_mode", ["error", "skip"])
dge_mode = _Enum("dge_mode", ["unknown", "none", "swdge", "hwdge"])
reduce_cmd = _Enum("reduce_cmd", ["idle", "reset", "reduce", "reset_reduce", "load_reduce"])
engine = _Enum("engine", ["unknown", "tensor", "vector", "scalar", "gpsimd", "activation", "sync"])
nc_version = _Enum("nc_version", ["gen2", "gen3"])

tensor_engine = Deferred(f"{_NISA}.tensor_engine")
vector_engine = Deferred(f"{_NISA}.vector_engine")
scalar_engine = Deferred(f"{_NISA}.scalar_engine")
gpsimd_engine = Deferred(f"{_NISA}.gpsimd_engine")

__getattr__ = module_getattr(_NISA)
