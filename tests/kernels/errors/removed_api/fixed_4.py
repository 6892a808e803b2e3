# nki-case: args=128x64:float32 nki=0.2
# expect-output: in0
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def copy_tile(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray((128, 64), dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x)
    nisa.dma_copy(dst=out[0:128, :], src=t)
    return out
