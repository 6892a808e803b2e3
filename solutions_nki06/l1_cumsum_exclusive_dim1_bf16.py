import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def cumsum_exclusive_dim1_kernel(x):
    """Exclusive prefix sum over dim 1 of bfloat16 x [B, S, D], D <= 128.

    The scanned axis must lie along the free axis, so x[b] is loaded transposed (features on
    partitions, S along the free axis, 128-row pieces).  tensor_tensor_scan computes the
    inclusive sums in float32; the exclusive result is the inclusive one shifted right by
    one column with a zero first column, stored back through a transposed access pattern.
    """
    B, S, D = x.shape
    P = nl.tile_size.pmax
    out = nl.ndarray((B, S, D), dtype=x.dtype, buffer=nl.shared_hbm)
    ones = nl.ones((D, S), dtype=nl.float32, buffer=nl.sbuf)
    for b in nl.affine_range(B):
        xt = nl.ndarray((D, S), dtype=nl.float32, buffer=nl.sbuf)
        for s0 in nl.static_range(0, S, P):
            rows = min(P, S - s0)
            xt[:, s0:s0 + rows] = nl.load_transpose2d(x[b, s0:s0 + rows, 0:D], dtype=nl.float32)
        inc = nl.ndarray(ones.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_tensor_scan(inc, ones, xt, initial=0.0, op0=nl.multiply, op1=nl.add)
        exc = nl.zeros((D, S), dtype=x.dtype, buffer=nl.sbuf)
        exc[:, 1:S] = nl.copy(inc[:, 0:S - 1], dtype=x.dtype)
        nl.store(out[b, 0:S, 0:D].permute((1, 0)), value=exc)
    return out
