# nki-case: args=128x128:float32,128x512:float32
# expect-output: in0.T @ in1
# The output slice starts at a bank boundary (column 512: byte 2048), so it fits bank 1.
# allow-warning: psum_tensor_spans_banks
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def straddle(a_t, b):
    out = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.shared_hbm)
    lhs = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.sbuf)
    rhs = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=lhs, src=a_t)
    nisa.dma_copy(dst=rhs, src=b)
    acc = nl.ndarray((128, 1024), dtype=nl.float32, buffer=nl.psum)
    nisa.nc_matmul(acc[:, 512:1024], lhs, rhs)
    res = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_copy(dst=res, src=acc[:, 512:1024])
    nisa.dma_copy(dst=out, src=res)
    return out
