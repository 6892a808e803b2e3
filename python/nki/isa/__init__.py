"""Host-side `nki.isa`: enums that host code passes into kernels; any other public name is a
Deferred (see neuronxcc/nki/_deferred.py)."""
from neuronxcc.nki._deferred import Deferred, module_getattr

_NISA = "__nkisim_nisa"
engine = Deferred(f"{_NISA}.engine")
reduce_cmd = Deferred(f"{_NISA}.reduce_cmd")
dge_mode = Deferred(f"{_NISA}.dge_mode")
oob_mode = Deferred(f"{_NISA}.oob_mode")
matmul_perf_mode = Deferred(f"{_NISA}.matmul_perf_mode")
nc_version = Deferred(f"{_NISA}.nc_version")

__getattr__ = module_getattr(_NISA)
