import nki
import nki.language as nl
import nki.isa as nisa
import numpy as np


@nki.jit
def gather_rows_kernel(table, idx):
    """out[i, :] = table[idx[i], :] for float32 table [1000, 256] and int32 idx [384].

    128 indices at a time are loaded into SBUF as a [128, 1] tile; an indirect DMA then reads
    the selected table rows straight into a [128, 256] tile.
    """
    n_rows, dim = table.shape
    n_idx = idx.shape[0]
    out = nl.ndarray((n_idx, dim), dtype=table.dtype, buffer=nl.shared_hbm)
    P = nl.tile_size.pmax
    for t in nl.affine_range(n_idx // P):
        idx_tile = nl.load(idx.ap([[idx.strides[0], P], [0, 1]], offset=t * P * idx.strides[0]))
        rows = nl.load(table.ap([[table.strides[0], P], [table.strides[1], dim]], vector_offset=idx_tile[0:P, 0:1], indirect_dim=0))
        nl.store(out[t * P:t * P + P, 0:dim], value=rows)
    return out
