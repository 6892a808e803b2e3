# nki-case: args=128x64:float32
# expect-output: np.exp(in0)
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def exp_rows(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray((128, 64), dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x)
    e = nl.ndarray((128, 64), dtype=x.dtype, buffer=nl.sbuf)
    nisa.activation(e, nl.exp, t)
    nisa.dma_copy(dst=out, src=e)
    return out
