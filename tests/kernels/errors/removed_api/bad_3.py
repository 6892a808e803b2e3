# nki-case: args=256x64:float32 nki=0.2
# expect-message: nl.load is not in NKI 0.2
# expect-hint: `nl.load(x[0:128, :])` returns a tile in 2.24; in NKI 0.2 allocate `t = nl.ndarray(shape, dtype=..., buffer=nl.sbuf)` and call `nisa.dma_copy(dst=t, src=x[0:128, :])`
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def first_rows(x):
    out = nl.ndarray((128, 64), dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.load(x[0:128, :])  # expect-error: removed_api  # expect-col: 9
    nisa.dma_copy(dst=out, src=t)
    return out
