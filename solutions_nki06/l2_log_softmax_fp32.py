import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def log_softmax_kernel(x):
    """log_softmax over the last dim of fp32 [R, F]; R need not be a multiple of 128.

    out = x - (max + log(sum(exp(x - max)))); the last row tile is masked.
    """
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
        row_sum = nl.sum(e, axis=[1])
        lse = nl.add(nl.log(row_sum), row_max)                      # [P, 1]
        res = nl.ndarray(x_sb.shape, dtype=out.dtype, buffer=nl.sbuf)
        nisa.tensor_scalar(res, data=x_sb, op0=nl.subtract, operand0=lse)
        nl.store(out[i * P:min(R, i * P + P), 0:F], value=res)
    return out
