# nki-case: args=64x128:float32
# expect-output: in0.T
# expect-note: current dialect; nisa.dma_transpose(dst, src) of a 2-D HBM tensor into SBUF
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def transpose(x):
    A, B = x.shape
    out = nl.ndarray((B, A), dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray((B, A), dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_transpose(dst=t, src=x)
    nisa.dma_copy(dst=out, src=t)
    return out
