# Hand-written for NKI 0.6 (not produced by nkiagent migrate).
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def embedding_bag_sum_kernel(idx, bag_weight):
    """out[b] = sum_l weight[idx[b, l]] for int32 idx [B, L] (B a multiple of 128), bf16 table.

    128 bags at a time: their index rows are one [128, L] tile; for each bag position l the
    column ids[:, l] is the vector offset of an indirect DMA that gathers the 128 selected
    table rows, which are summed in float32 and rounded to bfloat16 once.
    """
    B, L = idx.shape
    V, D = bag_weight.shape
    P = nl.tile_size.pmax
    out = nl.ndarray((B, D), dtype=bag_weight.dtype, buffer=nl.shared_hbm)
    for t in nl.affine_range(B // P):
        ids = nl.ndarray((P, L), dtype=nl.int32, buffer=nl.sbuf)
        nisa.dma_copy(dst=ids, src=idx[t * P:(t + 1) * P, 0:L])
        acc = nl.ndarray((P, D), dtype=nl.float32, buffer=nl.sbuf)
        nisa.memset(dst=acc, value=0.0)
        for l in nl.static_range(L):
            rows = nl.ndarray((P, D), dtype=bag_weight.dtype, buffer=nl.sbuf)
            nisa.dma_copy(dst=rows, src=bag_weight.ap([[D, P], [1, D]], offset=0, vector_offset=ids[0:P, l:l + 1],
                                                      indirect_dim=0))
            nisa.tensor_tensor(dst=acc, data1=acc, data2=rows, op=nl.add)
        res = nl.ndarray((P, D), dtype=bag_weight.dtype, buffer=nl.sbuf)
        nisa.tensor_copy(dst=res, src=acc)
        nisa.dma_copy(dst=out[t * P:(t + 1) * P, 0:D], src=res)
    return out
