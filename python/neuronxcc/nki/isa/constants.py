"""Shim of `neuronxcc.nki.isa.constants`: the ISA enums host code passes into kernels."""
from .._deferred import Deferred

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
