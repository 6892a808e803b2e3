# nki-case: args=256x64:float32 nki=0.2
# expect-output: in0[0:128, :]
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def first_rows(x):
    out = nl.ndarray((128, 64), dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray((128, 64), dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x[0:128, :])
    nisa.dma_copy(dst=out, src=t)
    return out
