import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import numpy as np


@nki.jit
def softmax_kernel(x):
    """Row softmax of a float32 [256, 512] matrix.

    Per 128-row tile: the negated row max feeds the exponent as a per-partition bias (one
    Scalar Engine pass computes exp(x - max)), then the rows are scaled by 1 / sum.
    """
    rows, cols = x.shape
    out = nl.ndarray((rows, cols), dtype=x.dtype, buffer=nl.shared_hbm)
    P = nl.tile_size.pmax
    for i in nl.affine_range(rows // P):
        x_tile = nl.load(x[i * P:(i + 1) * P, 0:cols])
        neg_max = nisa.tensor_reduce(np.max, data=x_tile, axis=(1,), negate=True, keepdims=True)
        exp_tile = nisa.activation(op=nl.exp, data=x_tile, bias=neg_max, scale=1.0)
        row_sum = nisa.tensor_reduce(np.add, data=exp_tile, axis=(1,), keepdims=True)
        inv_sum = nisa.reciprocal(row_sum)
        y_tile = nisa.tensor_scalar(exp_tile, np.multiply, inv_sum)
        nl.store(out[i * P:(i + 1) * P, 0:cols], value=y_tile)
    return out
