# nki-case: args=128x128:float32,128x128:float32
# expect-output: np.where(np.arange(128)[:, None] - np.arange(128)[None, :] >= 0, in0.T @ in1, -30000.0)
# expect-tol: rtol=1e-3 atol=1e-3
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
    s_sb = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_copy(dst=s_sb, src=s)
    m = nl.ndarray((128, 128), dtype=q.dtype, buffer=nl.sbuf)
    nisa.affine_select(dst=m, pattern=[[-1, 128]], channel_multiplier=1, on_true_tile=s_sb, on_false_value=-30000.0, cmp_op=nl.greater_equal)
    nisa.dma_copy(dst=out, src=m)
    return out
