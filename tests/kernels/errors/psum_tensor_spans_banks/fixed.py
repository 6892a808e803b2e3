# nki-case: args=128x128:float32,128x1024:float32
# expect-output: in0.T @ in1
# The same product with one one-bank PSUM tensor per 512-wide slice: no warning.
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def wide_psum(a_t, b):
    out = nl.ndarray((128, 1024), dtype=nl.float32, buffer=nl.shared_hbm)
    lhs = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.sbuf)
    rhs = nl.ndarray((128, 1024), dtype=nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=lhs, src=a_t)
    nisa.dma_copy(dst=rhs, src=b)
    res = nl.ndarray((128, 1024), dtype=nl.float32, buffer=nl.sbuf)
    for n in range(2):
        acc = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.psum)
        nisa.nc_matmul(acc, lhs, rhs[:, n * 512:(n + 1) * 512])
        nisa.tensor_copy(dst=res[:, n * 512:(n + 1) * 512], src=acc)
    nisa.dma_copy(dst=out, src=res)
    return out
