import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def log_softmax_kernel(x):
    """log_softmax over the last dim of fp32 [R, F]; R need not be a multiple of 128.

    out = x - (max + log(sum(exp(x - max)))); the last row tile is masked.
    """
    R, F = x.shape
    P = nl.tile_size.pmax
    n_r = (R + P - 1) // P
    out = nl.ndarray((R, F), dtype=x.dtype, buffer=nl.shared_hbm)

    i_p = nl.arange(P)[:, None]
    i_f = nl.arange(F)[None, :]
    for i in nl.affine_range(n_r):
        x_sb = nl.load(x[i * P + i_p, i_f], mask=(i * P + i_p < R))
        row_max = nl.max(x_sb, axis=[1])
        neg_max = nl.multiply(row_max, -1.0)
        e = nisa.activation(op=nl.exp, data=x_sb, bias=neg_max)
        row_sum = nl.sum(e, axis=[1])
        lse = nl.add(nl.log(row_sum), row_max)                      # [P, 1]
        res = nisa.tensor_scalar(data=x_sb, op0=nl.subtract, operand0=lse, dtype=out.dtype)
        nl.store(out[i * P + i_p, i_f], value=res, mask=(i * P + i_p < R))
    return out
