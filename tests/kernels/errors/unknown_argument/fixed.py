# nki-case: args=128x512:float32
# expect-output: np.maximum(in0, 0)
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def relu_rows(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray((128, 512), dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x)
    r = nl.ndarray((128, 512), dtype=x.dtype, buffer=nl.sbuf)
    nisa.activation(dst=r, op=nl.relu, data=t)
    nisa.dma_copy(dst=out, src=r)
    return out
