# nki-case: args=128x128:float32,128x512:float32
# A 512-wide fp32 matmul output written at column 256 of a [128, 1024] PSUM tensor: bytes
# 1024..3071 of each partition, across the boundary of banks 0 and 1. One nc_matmul writes
# one PSUM bank.
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
    nisa.nc_matmul(acc[:, 256:768], lhs, rhs)  # expect-error: matmul_psum_bank_crossing  # expect-col: 5
    res = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_copy(dst=res, src=acc[:, 256:768])
    nisa.dma_copy(dst=out, src=res)
    return out
