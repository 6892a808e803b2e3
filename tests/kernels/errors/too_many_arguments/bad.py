# nki-case: args=128x32:float32
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def copy_rows(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray((128, 32), dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x)
    c = nl.ndarray((128, 32), dtype=x.dtype, buffer=nl.sbuf)
    nisa.tensor_copy(c, t, nisa.engine.vector, None, 1)  # expect-error: too_many_arguments  # expect-col: 5
    nisa.dma_copy(dst=out, src=c)
    return out
