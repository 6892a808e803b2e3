# nki-case: args=128x64:bfloat16
# NKI 0.6 nisa.nc_transpose: "The output dst tile must have the same data type as that of data"
# (nki/api/nki/isa/__init__.py, nc_transpose, Data types).
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def transpose_into_fp32(x):
    t = nl.ndarray((128, 64), nl.bfloat16, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x)
    tp = nl.ndarray((64, 128), nl.float32, buffer=nl.psum)
    nisa.nc_transpose(tp, t)  # expect-error: unsupported_dtype
    r = nl.ndarray((64, 128), nl.float32, buffer=nl.sbuf)
    nisa.tensor_copy(dst=r, src=tp)
    out = nl.ndarray((64, 128), nl.float32, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out, src=r)
    return out
