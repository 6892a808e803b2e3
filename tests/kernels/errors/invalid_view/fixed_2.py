# nki-case: args=128x24:float32
# expect-output: in0.reshape(128, 4, 6).transpose(0, 2, 1).reshape(128, 24)
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def views(x):
    P, F = x.shape
    out = nl.ndarray((P, F), dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray((P, F), dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x)
    swapped = nl.ndarray((P, 6, 4), dtype=x.dtype, buffer=nl.sbuf)
    nisa.tensor_copy(dst=swapped, src=t.reshape_dim(1, (4, 6)).permute((0, 2, 1)))
    r = nl.ndarray((P, F), dtype=x.dtype, buffer=nl.sbuf)
    nisa.tensor_copy(dst=r, src=swapped.flatten_dims(1, 2))
    nisa.dma_copy(dst=out, src=r)
    return out
