import nki
import nki.language as nl
import nki.isa as nisa
import numpy as np


@nki.jit
def embedding_kernel(idx, weight):
    """out[b, s, :] = weight[idx[b, s], :] for int32 idx [3, 100] and float32 weight [1000, 200].

    One tile per sequence: its 100 indices fill 100 partitions as a [100, 1] column that drives
    an indirect DMA of the selected rows, so no remainder mask is needed.
    """
    B, S = idx.shape
    n_rows, dim = weight.shape
    out = nl.ndarray((B, S, dim), dtype=weight.dtype, buffer=nl.shared_hbm)
    idx3 = idx.reshape((B, S, 1))
    for b in nl.affine_range(B):
        ids = nl.load(idx3[b, 0:S, 0:1])
        rows = nl.load(weight.ap([[weight.strides[0], S], [weight.strides[1], dim]], vector_offset=ids[0:S, 0:1], indirect_dim=0))
        nl.store(out[b, 0:S, 0:dim], value=rows)
    return out
