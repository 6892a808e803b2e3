import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def softmax_wide_kernel(x):
    """Row softmax of fp32 [R, F] with awkward R and F (F fits one SBUF tile row)."""
    R, F = x.shape
    P = nl.tile_size.pmax
    n_r = (R + P - 1) // P
    out = nl.ndarray((R, F), dtype=x.dtype, buffer=nl.shared_hbm)

    for i in nl.affine_range(n_r):
        x_sb = nl.load(x[i * P:min(R, i * P + P), 0:F])
        row_max = nl.max(x_sb, axis=[1])
        neg_max = nl.multiply(row_max, -1.0)
        e = nl.ndarray(x_sb.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.activation(e, op=nl.exp, data=x_sb, bias=neg_max)
        inv = nl.reciprocal(nl.sum(e, axis=[1]))
        res = nl.ndarray(e.shape, dtype=out.dtype, buffer=nl.sbuf)
        nisa.tensor_scalar(res, data=e, op0=nl.multiply, operand0=inv)
        nl.store(out[i * P:min(R, i * P + P), 0:F], value=res)
    return out
