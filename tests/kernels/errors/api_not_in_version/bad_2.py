# nki-case: args=128x8x16:float32 nki=0.4
# expect-message: NkiTensor.select is not in NKI 0.4 (added in 0.5
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def pick_column(x):
    P, A, B = x.shape
    out = nl.ndarray((P, B), dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray((P, A, B), dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x)
    col = t.select(1, 3)  # expect-error: api_not_in_version  # expect-col: 11
    r = nl.ndarray((P, B), dtype=x.dtype, buffer=nl.sbuf)
    nisa.tensor_copy(dst=r, src=col)
    nisa.dma_copy(dst=out, src=r)
    return out
