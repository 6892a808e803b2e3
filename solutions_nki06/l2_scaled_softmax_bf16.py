import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa

SCALE = 0.125  # the Model's constructor constant


@nki.jit
def scaled_softmax_kernel(x):
    """softmax(SCALE * x) over the last dim, bf16 I/O.

    The scale is folded into the exponent: exp(SCALE * x - SCALE * max(x)), using the
    activation's scale and per-partition bias (SCALE > 0, so max commutes with it).
    """
    R, F = x.shape
    P = nl.tile_size.pmax
    n_r = R // P
    out = nl.ndarray((R, F), dtype=x.dtype, buffer=nl.shared_hbm)

    for i in nl.affine_range(n_r):
        x_sb = nl.load(x[i * P:(i + 1) * P, 0:F], dtype=nl.float32)
        row_max = nl.max(x_sb, axis=[1])
        neg_max = nl.multiply(row_max, -SCALE)
        e = nl.ndarray(x_sb.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.activation(e, op=nl.exp, data=x_sb, bias=neg_max, scale=SCALE)
        inv = nl.reciprocal(nl.sum(e, axis=[1]))
        res = nl.ndarray(e.shape, dtype=out.dtype, buffer=nl.sbuf)
        nisa.tensor_scalar(res, data=e, op0=nl.multiply, operand0=inv)
        nl.store(out[i * P:(i + 1) * P, 0:F], value=res)
    return out
