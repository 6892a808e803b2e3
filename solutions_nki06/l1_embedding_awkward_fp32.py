# Hand-written for NKI 0.6 (not produced by nkiagent migrate).
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def embedding_kernel(idx, weight):
    """out[b, s, :] = weight[idx[b, s], :] for int32 idx [3, 100] and float32 weight [1000, 200].

    One tile per sequence: its 100 indices fill 100 partitions as a [100, 1] column, the vector
    offset of an access pattern over the table rows, so one indirect DMA per sequence reads
    them and no remainder handling is needed.
    """
    B, S = idx.shape
    n_rows, dim = weight.shape
    out = nl.ndarray((B, S, dim), dtype=weight.dtype, buffer=nl.shared_hbm)
    idx2 = idx.reshape((B * S, 1))
    out2 = out.reshape((B * S, dim))
    for b in nl.affine_range(B):
        ids = nl.ndarray((S, 1), dtype=nl.int32, buffer=nl.sbuf)
        nisa.dma_copy(dst=ids, src=idx2[b * S:(b + 1) * S, 0:1])
        rows = nl.ndarray((S, dim), dtype=weight.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=rows, src=weight.ap([[dim, S], [1, dim]], offset=0, vector_offset=ids, indirect_dim=0))
        nisa.dma_copy(dst=out2[b * S:(b + 1) * S, 0:dim], src=rows)
    return out
