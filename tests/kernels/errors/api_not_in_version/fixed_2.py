# nki-case: args=128x8x16:float32 nki=0.4
# expect-output: in0[:, 3, :]
# expect-note: before NKI 0.5 a static index is plain slicing (on chip, t[:, 3, :] keeps the dim)
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def pick_column(x):
    P, A, B = x.shape
    out = nl.ndarray((P, B), dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray((P, A, B), dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x)
    r = nl.ndarray((P, 1, B), dtype=x.dtype, buffer=nl.sbuf)
    nisa.tensor_copy(dst=r, src=t[:, 3:4, :])
    nisa.dma_copy(dst=out, src=r[:, 0, :])
    return out
