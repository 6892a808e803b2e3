# nki-case: args=128x64:float32
# expect-hint: call `nisa.activation(dst=e, op=nl.exp, data=t)`
# expect-note: the 2.24 functional form; the hint rewrites the call with the kernel's own operands
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def exp_tile(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x)
    e = nisa.activation(op=nl.exp, data=t)  # expect-error: missing_argument  # expect-col: 9
    nisa.dma_copy(dst=out, src=e)
    return out
