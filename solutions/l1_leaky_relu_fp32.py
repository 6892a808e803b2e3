import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import numpy as np


@nki.jit
def leaky_relu_kernel(x):
    """LeakyReLU with negative slope 0.01 of a float32 [256, 768] tensor.

    256 rows of 768: 2 tiles of 128 rows.
    """
    rows, cols = x.shape
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    P = nl.tile_size.pmax
    i_p = nl.arange(P)[:, None]
    i_f = nl.arange(cols)[None, :]
    for t in nl.affine_range(rows // P):
        x_tile = nl.load(x[t * P + i_p, i_f])
        y = nl.maximum(x_tile, nl.multiply(x_tile, 0.01))
        nl.store(out[t * P + i_p, i_f], value=y)
    return out
