# nki-case: args=128x64:float32
# expect-output: in0
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def copy_rows(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray((128, 64), dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x[0:128, :])
    nisa.dma_copy(dst=out, src=t)
    return out
