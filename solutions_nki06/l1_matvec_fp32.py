import nki
import nki.language as nl
import nki.isa as nisa
import numpy as np


@nki.jit
def matvec_kernel(a, v):
    """out = a @ v for float32 a [384, 1024] and v [1024, 1].

    With a single output column the Tensor Engine would idle, so this runs on the Vector
    Engine: v is loaded once as a [1, 1024] row and broadcast to 128 partitions, each 128-row
    block of a is multiplied by it and summed along the free axis.
    """
    M, K = a.shape
    out = nl.ndarray((M, 1), dtype=a.dtype, buffer=nl.shared_hbm)
    P = nl.tile_size.pmax
    v_row = nl.load(v.reshape((1, K))[0:1, 0:K])
    v_b = v_row.broadcast_to((P, K))
    for m in nl.affine_range(M // P):
        a_blk = nl.load(a[m * P:(m + 1) * P, 0:K])
        prod = nl.multiply(a_blk, v_b)
        nl.store(out[m * P:(m + 1) * P, 0:1], value=nl.sum(prod, axis=1, keepdims=True))
    return out
