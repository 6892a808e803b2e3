# nki-case: args=128x64:float32 nki=0.2
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def copy_rows(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.load(x)  # expect-error: removed_api  # expect-col: 9
    nisa.dma_copy(dst=out, src=t)
    return out
