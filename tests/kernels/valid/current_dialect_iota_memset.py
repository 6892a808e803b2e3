# nki-case: args=128x16:float32
# expect-output: np.arange(128 * 16, dtype=np.float32).reshape(128, 16) + 3.5 + in0 * 0
# expect-note: current dialect; nisa.iota value = offset + partition * channel_multiplier +
# step * index, cast to dst.dtype; memset fills a float tile
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def ramp(x):
    P, F = x.shape
    out = nl.ndarray((P, F), dtype=nl.float32, buffer=nl.shared_hbm)
    r = nl.ndarray((P, F), dtype=nl.int32, buffer=nl.sbuf)
    nisa.iota(r, [[1, F]], offset=3, channel_multiplier=F)
    half = nl.ndarray((P, F), dtype=nl.float32, buffer=nl.sbuf)
    nisa.memset(dst=half, value=0.5)
    f = nl.ndarray((P, F), dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_copy(dst=f, src=r)
    nisa.tensor_tensor(dst=f, data1=f, data2=half, op=nl.add)
    nisa.dma_copy(dst=out, src=f)
    return out
