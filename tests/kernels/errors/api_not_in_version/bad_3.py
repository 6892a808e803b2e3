# nki-case: args=128x64:float32 nki=0.2
# expect-message: nl.exp is not in NKI 0.2 (added in 0.3
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def exp_tile(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x)
    e = nl.exp(t)  # expect-error: api_not_in_version  # expect-col: 9
    nisa.dma_copy(dst=out, src=e)
    return out
