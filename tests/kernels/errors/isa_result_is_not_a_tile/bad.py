# nki-case: args=128x64:float32
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def exp_rows(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray((128, 64), dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x)
    e = nl.ndarray((128, 64), dtype=x.dtype, buffer=nl.sbuf)
    r = nisa.activation(e, nl.exp, t)
    nisa.dma_copy(dst=out, src=r)  # expect-error: isa_result_is_not_a_tile  # expect-col: 5
    return out
