import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def masked_cumsum_kernel(x, mask):
    """cumsum(x * mask, dim=1) for float16 x [R, L] and an int32 0/1 mask [R, L], R a multiple of 128.

    Rows on partitions, the scanned axis along the free axis.  The mask is converted to
    float32 on load; tensor_tensor_scan then runs r[:, j] = 1 * r[:, j - 1] + (x * m)[:, j]
    in float32 and the sums are rounded to float16 once.
    """
    R, L = x.shape
    P = nl.tile_size.pmax
    out = nl.ndarray((R, L), dtype=x.dtype, buffer=nl.shared_hbm)
    ones = nl.ones((P, L), dtype=nl.float32, buffer=nl.sbuf)
    for i in nl.affine_range(R // P):
        xt = nl.load(x[i * P:(i + 1) * P, 0:L], dtype=nl.float32)
        mt = nl.load(mask[i * P:(i + 1) * P, 0:L], dtype=nl.float32)
        v = nl.multiply(xt, mt)
        sums = nl.ndarray(ones.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_tensor_scan(sums, ones, v, initial=0.0, op0=nl.multiply, op1=nl.add)
        nl.store(out[i * P:(i + 1) * P, 0:L], value=nl.copy(sums, dtype=out.dtype))
    return out
