# nki-case: args=4x8:float32 init0=arange
# expect-output: in0[:, 2:5]
# expect-note: current dialect; .ap() on a sliced view starts at that view's storage offset: offset=None
# inherits it, an integer is added to it (nki/api/nki/language/__init__.py, NkiTensor.ap, `offset`)
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def columns_from_a_view(A):
    t = nl.ndarray((4, 8), nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=A)
    r = nl.ndarray((4, 3), nl.float32, buffer=nl.sbuf)
    nisa.tensor_copy(dst=r, src=t[0:4, 1:8].ap([[8, 4], [1, 3]], offset=1))
    out = nl.ndarray((4, 3), nl.float32, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out, src=r)
    return out
