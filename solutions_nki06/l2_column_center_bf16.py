import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def column_center_kernel(x):
    """x - mean(x, dim=0) for bf16 x [R, F], F <= 512 (ragged last row block).

    The column mean is a reduction over the partition axis: a ones column as stationary
    operand turns each 128-row block into a [1, F] partial sum accumulated in PSUM; the
    mean row is then broadcast across partitions and subtracted block by block.
    """
    R, F = x.shape
    P = nl.tile_size.pmax
    out = nl.ndarray((R, F), dtype=x.dtype, buffer=nl.shared_hbm)
    ones = nl.ones((P, 1), dtype=x.dtype, buffer=nl.sbuf)

    acc = nl.zeros((1, F), nl.float32, buffer=nl.psum)
    for r0 in nl.static_range(0, R, P):
        rows = min(P, R - r0)
        nisa.nc_matmul(acc, ones[0:rows, 0:1], nl.load(x[r0:r0 + rows, 0:F]), accumulate=True)
    mean_b = nl.broadcast_to(nl.multiply(acc, 1.0 / R), shape=(P, F))
    for r0 in nl.static_range(0, R, P):
        rows = min(P, R - r0)
        t = nl.load(x[r0:r0 + rows, 0:F], dtype=nl.float32)
        nl.store(out[r0:r0 + rows, 0:F], value=nl.subtract(t, mean_b[0:rows, 0:F], dtype=out.dtype))
    return out
