# nki-case: args=128x24:float32
# expect-message: NkiTensor.flatten_dims: dims 1..2 are not contiguous in memory
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def views(x):
    P, F = x.shape
    out = nl.ndarray((P, F), dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray((P, F), dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x)
    flat = t.reshape_dim(1, (4, 6)).permute((0, 2, 1)).flatten_dims(1, 2)  # expect-error: invalid_view  # expect-col: 12
    r = nl.ndarray((P, F), dtype=x.dtype, buffer=nl.sbuf)
    nisa.tensor_copy(dst=r, src=flat)
    nisa.dma_copy(dst=out, src=r)
    return out
