# nki-case: args=128x32:float32
# expect-output: in0 * 0
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def zeros_like_input(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    z = nl.ndarray((128, 32), dtype=nl.float32, buffer=nl.sbuf)
    nisa.memset(z, 0.0)
    nisa.dma_copy(dst=out, src=z)
    return out
