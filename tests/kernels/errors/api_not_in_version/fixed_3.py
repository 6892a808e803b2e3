# nki-case: args=128x64:float32 nki=0.2
# expect-output: np.exp(in0)
# expect-note: NKI 0.2 has nl.exp only as an activation op value, not as the 0.3+ nl function
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def exp_tile(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x)
    e = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.sbuf)
    nisa.activation(dst=e, op=nl.exp, data=t)
    nisa.dma_copy(dst=out, src=e)
    return out
