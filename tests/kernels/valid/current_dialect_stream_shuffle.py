# nki-case: args=64x16:float32
# expect-output: in0.reshape(2, 32, 16)[:, ::-1, :].reshape(64, 16)
# expect-note: current dialect; nisa.nc_stream_shuffle(dst, src, mask) reverses each 32-partition quadrant
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def reverse_quadrants(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    a = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=a, src=x)
    r = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.sbuf)
    nisa.nc_stream_shuffle(r, a, [31 - i for i in range(32)])
    nisa.dma_copy(dst=out, src=r)
    return out
