# nki-case: args=128x128:float32,128x128:float32
# expect-output: in0.T @ in1
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def mm(a_t, b):
    out = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.shared_hbm)
    lhs = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.sbuf)
    rhs = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=lhs, src=a_t)
    nisa.dma_copy(dst=rhs, src=b)
    acc = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.psum)
    nisa.nc_matmul(acc[:, 0:64], lhs, rhs[:, 0:64])
    nisa.nc_matmul(acc[:, 64:128], lhs, rhs[:, 64:128])
    res = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_copy(dst=res, src=acc)
    nisa.dma_copy(dst=out, src=res)
    return out
