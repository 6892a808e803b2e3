# nki-case: args=128x64:float32,1x2:int32
# nisa.register_load: "The source must be a NKI tensor with exactly one element (shape [1] or
# [1, 1])" (nki/api/nki/isa/__init__.py register_load).
# expect-message: nisa.register_load src must have exactly one element
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def bad_bound(x, n):
    n_sb = nl.ndarray((1, 2), dtype=nl.int32, buffer=nl.sbuf)
    nisa.dma_copy(dst=n_sb, src=n)
    ub = nisa.register_alloc()
    nisa.register_load(ub, n_sb)  # expect-error: invalid_arguments  # expect-col: 5
    out = nl.ndarray((128, 64), dtype=x.dtype, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out, src=x)
    return out
