import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def cummax_drawdown_kernel(x):
    """cummax(x, -1) - x for fp16 x [B, C, L], B * C a multiple of 128.

    The running maximum is a tensor_tensor_scan with op0 = maximum and a zero addend:
    m_t = max(x_t, m_{t-1}) + 0, started from a value below every input.
    """
    B, C, L = x.shape
    R = B * C
    P = nl.tile_size.pmax
    out = nl.ndarray((B, C, L), dtype=x.dtype, buffer=nl.shared_hbm)
    xr = x.reshape((R, L))
    outr = out.reshape((R, L))
    zeros = nl.zeros((P, L), dtype=nl.float32, buffer=nl.sbuf)
    for i in nl.affine_range(R // P):
        t = nl.load(xr[i * P:(i + 1) * P, 0:L], dtype=nl.float32)
        m = nl.ndarray(t.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_tensor_scan(m, t, zeros, initial=-1.0e30, op0=nl.maximum, op1=nl.add)
        nl.store(outr[i * P:(i + 1) * P, 0:L], value=nl.subtract(m, t, dtype=out.dtype))
    return out
