"""Shim of `neuronxcc.nki.language` for host-side code.

Defines what test code touches outside kernels: dtypes (numpy dtypes; bf16/fp8/tf32 are
float32 stand-ins tagged with metadata, values held in fp32 as the legacy simulator does),
constants, buffers, SPMD grid helpers and static_cast. Every other public name (nl.add,
nl.exp, ...) resolves to a Deferred that can be passed into a kernel.
"""
import numpy as np

from _nkisim import standin_dtype

from ._deferred import Deferred, module_getattr

_NL = "__nkisim_nl"

bool_ = np.bool_
int8, int16, int32 = np.int8, np.int16, np.int32
uint8, uint16, uint32 = np.uint8, np.uint16, np.uint32
float16, float32 = np.float16, np.float32
bfloat16 = standin_dtype("bfloat16")
tfloat32 = standin_dtype("tfloat32")
float8_e4m3 = standin_dtype("float8_e4m3")
float8_e5m2 = standin_dtype("float8_e5m2")


class _Limits:
    def __init__(self, name, min, max):
        self.__nki_expr__ = f"{_NL}.{name}"
        self.min, self.max = min, max


fp32 = _Limits("fp32", float(np.finfo(np.float32).min), float(np.finfo(np.float32).max))
bfp16 = _Limits("bfp16", float("-inf"), 3.3895313892515355e38)


class tile_size:
    pmax = 128
    psum_fmax = 512
    gemm_stationary_fmax = 128
    gemm_moving_fmax = 512
    bn_stats_fmax = 512
    total_available_sbuf_size = 180224


sbuf = Deferred(f"{_NL}.sbuf")
psum = Deferred(f"{_NL}.psum")
hbm = Deferred(f"{_NL}.hbm")
private_hbm = Deferred(f"{_NL}.private_hbm")
shared_hbm = Deferred(f"{_NL}.shared_hbm")


class nc:
    """A physical-NeuronCore grid annotation; on the simulator it is just its extent."""
    def __init__(self, n):
        self.n = int(n)

    def __int__(self):
        return self.n

    __index__ = __int__

    def __mul__(self, other):
        return self.n * int(other)

    __rmul__ = __mul__


def spmd_dim(*extents):
    """The grid extent of an SPMD dimension split over cores: the product of its factors."""
    total = 1
    for e in extents:
        total *= int(e)
    return total


def static_cast(value, dtype):
    """Host-side cast (no rounding for the fp32-backed custom float stand-ins)."""
    return np.asarray(value).astype(dtype)


__getattr__ = module_getattr(_NL)
