import nki
import nki.language as nl
import nki.isa as nisa
import numpy as np


@nki.jit
def cumprod_kernel(x):
    """Inclusive prefix product over the last axis of float32 x [256, 256].

    Rows on partitions, scan along the free axis with tensor_tensor_scan:
    r[:, j] = x[:, j] * r[:, j - 1] + 0, starting from 1.
    """
    rows, cols = x.shape
    out = nl.ndarray((rows, cols), dtype=x.dtype, buffer=nl.shared_hbm)
    P = nl.tile_size.pmax
    zeros = nl.zeros((P, cols), dtype=nl.float32)
    for t in nl.affine_range(rows // P):
        xt = nl.load(x[t * P:(t + 1) * P, 0:cols])
        prods = nl.ndarray(xt.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_tensor_scan(prods, xt, zeros, initial=1.0, op0=nl.multiply, op1=nl.add)
        nl.store(out[t * P:(t + 1) * P, 0:cols], value=prods)
    return out
