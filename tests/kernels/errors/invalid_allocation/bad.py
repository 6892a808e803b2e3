# nki-case: args=128x256:float32
# allow-warning: block_dimension_deprecated (the case declares a block-dimension tensor on purpose)
# The allocation function puts the 64-partition halves at partitions 0 and 32, but a tile of
# 33..64 partitions must start at partition 0 or 64 (ncc.sbuf.alloc start-partition rules).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.compiler as ncc


def halves(idx, pdim_size, fdim_size):
    (h,) = idx
    return (h * 32, 0)


@nki.jit
def split_rows(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray((2, nl.par_dim(64), 256), dtype=x.dtype, buffer=ncc.sbuf.alloc(halves))  # expect-error: invalid_allocation  # expect-col: 9
    for h in nl.affine_range(2):
        t[h] = nl.load(x[h * 64:(h + 1) * 64, :])
        nl.store(out[h * 64:(h + 1) * 64, :], value=t[h])
    return out
