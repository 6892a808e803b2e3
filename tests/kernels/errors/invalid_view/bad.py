# nki-case: args=128x64:float32
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def swap(x):
    out = nl.ndarray((64, 128), dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray((128, 64), dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x)
    tt = t.permute((1, 0))  # expect-error: invalid_view  # expect-col: 10
    nisa.dma_copy(dst=out, src=tt)
    return out
