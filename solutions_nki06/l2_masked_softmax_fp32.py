import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa

FILL = -1e9


@nki.jit
def masked_softmax_kernel(x, mask):
    """softmax(where(mask != 0, x, -1e9)) over the last dim; x fp32 [R, F], mask int32 [R, F]."""
    R, F = x.shape
    P = nl.tile_size.pmax
    n_r = R // P
    out = nl.ndarray((R, F), dtype=x.dtype, buffer=nl.shared_hbm)

    for i in nl.affine_range(n_r):
        x_sb = nl.load(x[i * P:(i + 1) * P, 0:F])
        m_sb = nl.load(mask[i * P:(i + 1) * P, 0:F])
        keep = nl.not_equal(m_sb, 0)
        xm = nl.where(keep, x_sb, FILL, dtype=nl.float32)
        row_max = nl.max(xm, axis=[1])                              # [P, 1]
        neg_max = nl.multiply(row_max, -1.0)
        e = nl.ndarray(xm.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.activation(e, op=nl.exp, data=xm, bias=neg_max)
        row_sum = nl.sum(e, axis=[1])
        inv = nl.reciprocal(row_sum)
        res = nl.ndarray(e.shape, dtype=out.dtype, buffer=nl.sbuf)
        nisa.tensor_scalar(res, data=e, op0=nl.multiply, operand0=inv)
        nl.store(out[i * P:(i + 1) * P, 0:F], value=res)
    return out
