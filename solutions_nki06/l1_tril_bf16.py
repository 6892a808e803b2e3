# Hand-written for NKI 0.6 (not produced by nkiagent migrate).
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def tril_kernel(x):
    """out[i, j] = x[i, j] if j <= i else 0, for bfloat16 x [256, 256].

    Each 128-row tile goes through affine_select with the predicate (t * P + p) - j >= 0
    (offset t * P, one per partition, minus one per column), which keeps the lower triangle
    and writes 0 above it.
    """
    rows, cols = x.shape
    out = nl.ndarray((rows, cols), dtype=x.dtype, buffer=nl.shared_hbm)
    P = nl.tile_size.pmax
    for t in nl.affine_range(rows // P):
        xt = nl.ndarray((P, cols), dtype=x.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=xt, src=x[t * P:(t + 1) * P, 0:cols])
        kept = nl.ndarray((P, cols), dtype=x.dtype, buffer=nl.sbuf)
        nisa.affine_select(dst=kept, pattern=[[-1, cols]], channel_multiplier=1, on_true_tile=xt,
                           on_false_value=0.0, cmp_op=nl.greater_equal, offset=t * P)
        nisa.dma_copy(dst=out[t * P:(t + 1) * P, 0:cols], src=kept)
    return out
