# nki-case: args=128x512:float32
# expect-hint: drop `dtype=r.dtype` (`nisa.tensor_copy(dst=r, src=p)`)
# expect-note: the nki-samples HEAD matmul tutorials still pass dtype= to tensor_copy
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def copy_out(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    p = nl.ndarray((128, 512), dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=p, src=x)
    r = nl.ndarray((128, 512), dtype=nl.bfloat16, buffer=nl.sbuf)
    nisa.tensor_copy(dst=r, src=p, dtype=r.dtype)  # expect-error: unknown_argument  # expect-col: 5
    nisa.dma_copy(dst=out, src=r)
    return out
