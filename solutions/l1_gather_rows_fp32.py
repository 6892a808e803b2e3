import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
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
    i_p = nl.arange(P)[:, None]
    i_f = nl.arange(dim)[None, :]
    for t in nl.affine_range(n_idx // P):
        idx_tile = nl.load(idx[t * P + i_p])
        rows = nl.load(table[idx_tile[i_p, 0], i_f])
        nl.store(out[t * P + i_p, i_f], value=rows)
    return out
