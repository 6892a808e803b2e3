# nki-case: args=128x64:float32,1x2:int32
# The fix of bad_4.py: load the register from one element of the tensor.
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def bad_bound(x, n):
    n_sb = nl.ndarray((1, 2), dtype=nl.int32, buffer=nl.sbuf)
    nisa.dma_copy(dst=n_sb, src=n)
    ub = nisa.register_alloc()
    nisa.register_load(ub, n_sb[0:1, 0:1])
    out = nl.ndarray((128, 64), dtype=x.dtype, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out, src=x)
    return out
