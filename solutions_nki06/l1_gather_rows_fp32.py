# Hand-written for NKI 0.6 (not produced by nkiagent migrate).
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def gather_rows_kernel(table, idx):
    """out[i, :] = table[idx[i], :] for float32 table [1000, 256] and int32 idx [384].

    128 indices at a time are loaded into SBUF as a [128, 1] column; it is the vector offset of
    an access pattern over the table (one row of `dim` elements per partition), so one indirect
    DMA reads the selected rows into a [128, 256] tile.
    """
    n_rows, dim = table.shape
    n_idx = idx.shape[0]
    out = nl.ndarray((n_idx, dim), dtype=table.dtype, buffer=nl.shared_hbm)
    idx2 = idx.reshape((n_idx, 1))
    P = nl.tile_size.pmax
    for t in nl.affine_range(n_idx // P):
        ids = nl.ndarray((P, 1), dtype=nl.int32, buffer=nl.sbuf)
        nisa.dma_copy(dst=ids, src=idx2[t * P:(t + 1) * P, 0:1])
        rows = nl.ndarray((P, dim), dtype=table.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=rows, src=table.ap([[dim, P], [1, dim]], offset=0, vector_offset=ids, indirect_dim=0))
        nisa.dma_copy(dst=out[t * P:(t + 1) * P, 0:dim], src=rows)
    return out
