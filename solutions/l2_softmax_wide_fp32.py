import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def softmax_wide_kernel(x):
    """Row softmax of fp32 [R, F] with awkward R and F (F fits one SBUF tile row)."""
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
        inv = nl.reciprocal(nl.sum(e, axis=[1]))
        res = nisa.tensor_scalar(data=e, op0=nl.multiply, operand0=inv, dtype=out.dtype)
        nl.store(out[i * P + i_p, i_f], value=res, mask=(i * P + i_p < R))
    return out
