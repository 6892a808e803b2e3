# nki-case: args=128x512:float32
# expect-output: in0
# expect-tol: rtol=1e-2 atol=1e-2
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def copy_out(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    p = nl.ndarray((128, 512), dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=p, src=x)
    r = nl.ndarray((128, 512), dtype=nl.bfloat16, buffer=nl.sbuf)
    nisa.tensor_copy(dst=r, src=p)
    nisa.dma_copy(dst=out, src=r)
    return out
