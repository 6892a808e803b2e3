# nki-case: args=128x128:float32
# expect-output: np.where(np.arange(128)[:, None] - np.arange(128)[None, :] >= 0, in0, -30000.0)
# expect-note: current dialect; nisa.affine_select as a causal mask: keep where p - j >= 0
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def causal_mask(x):
    P, F = x.shape
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray((P, F), dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x)
    m = nl.ndarray((P, F), dtype=x.dtype, buffer=nl.sbuf)
    nisa.affine_select(dst=m, pattern=[[-1, F]], channel_multiplier=1, on_true_tile=t, on_false_value=-30000.0,
                       cmp_op=nl.greater_equal)
    nisa.dma_copy(dst=out, src=m)
    return out
