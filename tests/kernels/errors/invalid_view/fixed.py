# nki-case: args=128x64:float32
# expect-output: in0.T
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def swap(x):
    out = nl.ndarray((64, 128), dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray((128, 64), dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x)
    tp = nl.ndarray((64, 128), dtype=x.dtype, buffer=nl.psum)
    nisa.nc_transpose(dst=tp, data=t)
    tt = nl.ndarray((64, 128), dtype=x.dtype, buffer=nl.sbuf)
    nisa.tensor_copy(dst=tt, src=tp)
    nisa.dma_copy(dst=out, src=tt)
    return out
