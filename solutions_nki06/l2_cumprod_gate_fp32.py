import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def cumprod_gate_kernel(x, g):
    """x * cumprod(sigmoid(g), -1) for float32 x, g [R, L] (ragged last row block).

    The running product is a tensor_tensor_scan with op0 = multiply and a zero addend:
    p_t = sigmoid(g_t) * p_{t-1} + 0, p_{-1} = 1.
    """
    R, L = x.shape
    P = nl.tile_size.pmax
    out = nl.ndarray((R, L), dtype=x.dtype, buffer=nl.shared_hbm)
    zeros = nl.zeros((P, L), dtype=nl.float32, buffer=nl.sbuf)
    for r0 in nl.static_range(0, R, P):
        rows = min(P, R - r0)
        gt = nl.load(g[r0:r0 + rows, 0:L])
        xt = nl.load(x[r0:r0 + rows, 0:L])
        sg = nl.sigmoid(gt, dtype=nl.float32)
        cp = nl.ndarray(sg.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_tensor_scan(cp, sg, zeros[0:rows, 0:L], initial=1.0, op0=nl.multiply, op1=nl.add)
        nl.store(out[r0:r0 + rows, 0:L], value=nl.multiply(xt, cp, dtype=out.dtype))
    return out
