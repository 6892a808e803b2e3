# nki-case: args=128x32:float32
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def ramp(x):
    out = nl.ndarray(x.shape, dtype=nl.float32, buffer=nl.shared_hbm)
    r = nl.ndarray((128, 32), dtype=nl.float32, buffer=nl.sbuf)
    nisa.iota(r, [[1, 16]], offset=0, channel_multiplier=32)  # expect-error: iota_pattern_size  # expect-col: 5
    nisa.dma_copy(dst=out, src=r)
    return out
