# Hand-written for NKI 0.6 (not produced by nkiagent migrate).
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def embedding_kernel(idx, weight):
    """out[b, s, :] = weight[idx[b, s], :] for int32 idx [4, 96] and bfloat16 weight [3000, 128].

    The 384 indices are three tiles of 128: each is loaded as a [128, 1] column and is the
    vector offset of an access pattern over the table rows, so one indirect DMA reads the
    selected rows into a [128, 128] tile.
    """
    B, S = idx.shape
    n_rows, dim = weight.shape
    n = B * S
    out = nl.ndarray((B, S, dim), dtype=weight.dtype, buffer=nl.shared_hbm)
    idx2 = idx.reshape((n, 1))
    out2 = out.reshape((n, dim))
    P = nl.tile_size.pmax
    for t in nl.affine_range(n // P):
        ids = nl.ndarray((P, 1), dtype=nl.int32, buffer=nl.sbuf)
        nisa.dma_copy(dst=ids, src=idx2[t * P:(t + 1) * P, 0:1])
        rows = nl.ndarray((P, dim), dtype=weight.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=rows, src=weight.ap([[dim, P], [1, dim]], offset=0, vector_offset=ids, indirect_dim=0))
        nisa.dma_copy(dst=out2[t * P:(t + 1) * P, 0:dim], src=rows)
    return out
