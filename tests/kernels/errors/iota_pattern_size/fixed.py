# nki-case: args=128x32:float32
# expect-output: np.arange(128 * 32, dtype=np.float32).reshape(128, 32)
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def ramp(x):
    out = nl.ndarray(x.shape, dtype=nl.float32, buffer=nl.shared_hbm)
    r = nl.ndarray((128, 32), dtype=nl.float32, buffer=nl.sbuf)
    nisa.iota(r, [[1, 32]], offset=0, channel_multiplier=32)
    nisa.dma_copy(dst=out, src=r)
    return out
