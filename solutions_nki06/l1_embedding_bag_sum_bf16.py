import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def embedding_bag_sum_kernel(idx, bag_weight):
    """out[b] = sum_l weight[idx[b, l]] for int32 idx [B, L] (B a multiple of 128), bf16 table.

    128 bags at a time: their index rows are one [128, L] tile; for each bag position l an
    indirect DMA gathers the 128 selected table rows, which are summed in float32 and
    rounded to bfloat16 once.
    """
    B, L = idx.shape
    V, D = bag_weight.shape
    P = nl.tile_size.pmax
    out = nl.ndarray((B, D), dtype=bag_weight.dtype, buffer=nl.shared_hbm)
    for t in nl.affine_range(B // P):
        ids = nl.load(idx[t * P:(t + 1) * P, 0:L])
        acc = nl.zeros((P, D), dtype=nl.float32, buffer=nl.sbuf)
        for l in nl.static_range(L):
            rows = nl.load(bag_weight.ap([[bag_weight.strides[0], P], [bag_weight.strides[1], D]], vector_offset=ids[0:P, l:l + 1], indirect_dim=0), dtype=nl.float32)
            acc[...] = nl.add(acc, rows)
        nl.store(out[t * P:(t + 1) * P, 0:D], value=nl.copy(acc, dtype=out.dtype))
    return out
