# nki-case: args=128x128:float32,128x1024:float32
# expect-output: in0.T @ in1
# One [128, 1024] fp32 PSUM tensor (two 2 KiB banks) and one nc_matmul per 512-wide slice: each
# matmul output fits one bank, as the current docs require of an instruction, so this compiles
# (with a warning); the 2.24 form of the same kernel is psum_fmax.
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
    acc = nl.ndarray((128, 1024), dtype=nl.float32, buffer=nl.psum)  # expect-warning: psum_tensor_spans_banks
    for n in range(2):
        nisa.nc_matmul(acc[:, n * 512:(n + 1) * 512], lhs, rhs[:, n * 512:(n + 1) * 512])
    res = nl.ndarray((128, 1024), dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_copy(dst=res, src=acc)
    nisa.dma_copy(dst=out, src=res)
    return out
