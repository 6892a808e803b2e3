# nki-case: args=128x64:float32
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def copy_rows(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray((128, 64), dtype=x.dtype, buffer=nl.sbuf)
    i_p = nl.arange(128)[:, None]  # expect-error: removed_api  # expect-col: 11
    nisa.dma_copy(dst=t, src=x)
    nisa.dma_copy(dst=out, src=t)
    return out
