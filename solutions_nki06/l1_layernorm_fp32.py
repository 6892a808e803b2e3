import nki
import nki.language as nl
import nki.isa as nisa
import numpy as np


@nki.jit
def layernorm_kernel(x, weight, bias):
    """nn.LayerNorm(768, eps=1e-5) on float32 x [2, 128, 768] with affine weight and bias.

    Rows (batch * seq = 256) go on partitions, the normalised axis on the free axis. The
    variance is taken from the centred values (two passes) rather than mean(x^2) - mean^2,
    which loses precision when the mean is large relative to the spread. The shift and the
    scale by rstd use tensor_scalar with per-partition [128, 1] operands.
    """
    d0, d1, hidden = x.shape
    rows = d0 * d1
    eps = 1e-5
    out = nl.ndarray((d0, d1, hidden), dtype=x.dtype, buffer=nl.shared_hbm)
    x2 = x.reshape((rows, hidden))
    out2 = out.reshape((rows, hidden))
    P = nl.tile_size.pmax

    gamma = nl.load(weight.reshape((1, hidden))[0:1, 0:hidden]).broadcast_to((P, hidden))
    beta = nl.load(bias.reshape((1, hidden))[0:1, 0:hidden]).broadcast_to((P, hidden))

    for i in nl.affine_range(rows // P):
        x_tile = nl.load(x2[i * P:(i + 1) * P, 0:hidden])
        mean = nl.mean(x_tile, axis=1, keepdims=True)
        centred = nl.ndarray(x_tile.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(centred, x_tile, nl.subtract, mean)
        var = nl.mean(nl.square(centred), axis=1, keepdims=True)
        rstd = nl.rsqrt(nl.add(var, eps))
        normed = nl.ndarray(centred.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(normed, centred, nl.multiply, rstd)
        y_tile = nl.add(nl.multiply(normed, gamma), beta)
        nl.store(out2[i * P:(i + 1) * P, 0:hidden], value=y_tile)
    return out
