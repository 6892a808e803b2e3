# nki-case: args=128x256:float32,128x256:float32
# expect-output: in0 + in1
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def add_tiles(x, y):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    a = nl.ndarray((128, 256), dtype=x.dtype, buffer=nl.sbuf)
    b = nl.ndarray((128, 256), dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=a, src=x)
    nisa.dma_copy(dst=b, src=y)
    s = nl.ndarray((128, 256), dtype=x.dtype, buffer=nl.sbuf)
    nisa.tensor_tensor(s, a, b, nl.add)
    nisa.dma_copy(dst=out, src=s)
    return out
