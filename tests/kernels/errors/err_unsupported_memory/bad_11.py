# nki-case: args=128x128:float32,128x128:float32
# expect-message: nisa.affine_select on_true_tile must be in SBUF, got a tile in psum
# expect-note: current dialect; the 0.6 affine_select docstring puts dst and on_true_tile in SBUF
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def masked_scores(q, k):
    out = nl.ndarray((128, 128), dtype=q.dtype, buffer=nl.shared_hbm)
    a = nl.ndarray((128, 128), dtype=q.dtype, buffer=nl.sbuf)
    b = nl.ndarray((128, 128), dtype=q.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=a, src=q)
    nisa.dma_copy(dst=b, src=k)
    s = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.psum)
    nisa.nc_matmul(dst=s, stationary=a, moving=b)
    m = nl.ndarray((128, 128), dtype=q.dtype, buffer=nl.sbuf)
    nisa.affine_select(dst=m, pattern=[[-1, 128]], channel_multiplier=1, on_true_tile=s, on_false_value=-30000.0, cmp_op=nl.greater_equal)  # expect-error: err_unsupported_memory  # expect-col: 5
    nisa.dma_copy(dst=out, src=m)
    return out
