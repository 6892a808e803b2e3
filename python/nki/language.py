"""Host-side `nki.language`: dtypes, buffers and tile sizes that host code reads; every other
public name (nl.add, nl.exp, ...) is a Deferred that can be passed into a kernel."""
from neuronxcc.nki._deferred import Deferred, module_getattr
from neuronxcc.nki.language import (  # noqa: F401  (the same host stand-ins as the 2.24 shim)
    bfloat16, bool_, float8_e4m3, float8_e5m2, float16, float32, int8, int16, int32, tfloat32, uint8, uint16,
    uint32)

_NL = "__nkisim_nl"
bool = bool_  # noqa: A001  (nki-library spells it nl.bool)


class tile_size:
    # nki-spec §3.8 (values of the fixed-size constants; byte sizes per generation are not printed)
    pmax = 128
    psum_fmax = 512
    psum_bank_fmax = 512
    psum_bank_fmax_bytes = 2048
    psum_num_banks = 8
    gemm_stationary_fmax = 128
    gemm_moving_fmax = 512
    bn_stats_fmax = 512


sbuf = Deferred(f"{_NL}.sbuf")
psum = Deferred(f"{_NL}.psum")
hbm = Deferred(f"{_NL}.hbm")
private_hbm = Deferred(f"{_NL}.private_hbm")
shared_hbm = Deferred(f"{_NL}.shared_hbm")

__getattr__ = module_getattr(_NL)
