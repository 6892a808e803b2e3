# nki-case: args=4x6x6:float32
# expect-output: in0.max(axis=2)
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def row_max(x):
    C, H, W = x.shape
    out = nl.ndarray((C, H), dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray((C, H, W), dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x)
    rows = t.ap([[H * W, C], [W, H], [1, W]])
    m = nl.ndarray((C, H), dtype=x.dtype, buffer=nl.sbuf)
    nisa.tensor_reduce(dst=m, op=nl.maximum, data=rows, axis=2)
    nisa.dma_copy(dst=out, src=m)
    return out
