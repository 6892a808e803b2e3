import nki
import nki.language as nl
import nki.isa as nisa
import numpy as np


@nki.jit
def embedding_kernel(idx, weight):
    """out[b, s, :] = weight[idx[b, s], :] for int32 idx [4, 96] and bfloat16 weight [3000, 128].

    The 384 indices are three tiles of 128: each is loaded as a [128, 1] column and drives an
    indirect DMA that reads the selected table rows into a [128, 128] tile.
    """
    B, S = idx.shape
    n_rows, dim = weight.shape
    n = B * S
    out = nl.ndarray((B, S, dim), dtype=weight.dtype, buffer=nl.shared_hbm)
    idx2 = idx.reshape((n, 1))
    out2 = out.reshape((n, dim))
    P = nl.tile_size.pmax
    for t in nl.affine_range(n // P):
        ids = nl.load(idx2[t * P:t * P + P, 0:1])
        rows = nl.load(weight.ap([[weight.strides[0], P], [weight.strides[1], dim]], vector_offset=ids[0:P, 0:1], indirect_dim=0))
        nl.store(out2[t * P:t * P + P, 0:dim], value=rows)
    return out
