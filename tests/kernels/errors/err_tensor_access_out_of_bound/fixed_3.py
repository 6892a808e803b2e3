# nki-case: args=200x64:float32
# expect-output: in0
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def copy_rows(x):
    n = x.shape[0]
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    for i in range(2):
        rows = min((i + 1) * 128, n) - i * 128
        t = nl.ndarray((128, 64), dtype=x.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=t[0:rows, :], src=x[i * 128:i * 128 + rows, :])
        nisa.dma_copy(dst=out[i * 128:i * 128 + rows, :], src=t[0:rows, :])
    return out
