# nki-case: args=128x32:float32
# expect-hint: call `nisa.memset(z, 0.0)`
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def zeros_like_input(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    z = nisa.memset((128, 32), 0.0, nl.float32)  # expect-error: dst_not_a_tensor  # expect-col: 9
    nisa.dma_copy(dst=out, src=z)
    return out
