import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def segmented_cumsum_kernel(x, reset):
    """h_t = (1 - reset_t) * h_{t-1} + x_t along the last dim of float32 x [B, C, L], int32 reset.

    The restart is a multiplicative gate, so the whole segmented scan is one
    tensor_tensor_scan per row block (rows (b, c) on partitions, static ragged last block)
    with data0 = 1 - reset and data1 = x.
    """
    B, C, L = x.shape
    R = B * C
    P = nl.tile_size.pmax
    out = nl.ndarray((B, C, L), dtype=x.dtype, buffer=nl.shared_hbm)
    xr = x.reshape((R, L))
    rr = reset.reshape((R, L))
    outr = out.reshape((R, L))
    for r0 in nl.static_range(0, R, P):
        rows = min(P, R - r0)
        xt = nl.load(xr[r0:r0 + rows, 0:L])
        rt = nl.load(rr[r0:r0 + rows, 0:L], dtype=nl.float32)
        keep = nl.ndarray(rt.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(keep, data=rt, op0=nl.multiply, operand0=-1.0, op1=nl.add, operand1=1.0)
        h = nl.ndarray(keep.shape, dtype=out.dtype, buffer=nl.sbuf)
        nisa.tensor_tensor_scan(h, keep, xt, initial=0.0, op0=nl.multiply, op1=nl.add)
        nl.store(outr[r0:r0 + rows, 0:L], value=h)
    return out
