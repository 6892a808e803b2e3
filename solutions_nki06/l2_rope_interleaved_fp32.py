import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def rope_interleaved_kernel(x, cos, sin):
    """Interleaved-pair rotary embedding on float32 x [B, S, H, D] with angle tables [S, D/2].

    out[..., 2i] = x[2i] c_i - x[2i+1] s_i, out[..., 2i+1] = x[2i] s_i + x[2i+1] c_i.
    Positions go on partitions (static ragged last block), the H*D features of a position
    along the free axis; even and odd elements are strided affine picks of one tile, and
    the results are written back into the interleaved positions of an SBUF tile.
    """
    B, S, H, D = x.shape
    half = D // 2
    F = H * D
    P = nl.tile_size.pmax
    out = nl.ndarray((B, S, H, D), dtype=x.dtype, buffer=nl.shared_hbm)
    xr = x.reshape((B, S, F))
    outr = out.reshape((B, S, F))

    for s0 in nl.static_range(0, S, P):
        rows = min(P, S - s0)
        c = nl.load(cos[s0:s0 + rows, 0:half])
        s = nl.load(sin[s0:s0 + rows, 0:half])
        for b in nl.affine_range(B):
            t = nl.load(xr[b, s0:s0 + rows, 0:F])
            o = nl.ndarray((rows, F), dtype=x.dtype, buffer=nl.sbuf)
            for h in nl.static_range(H):
                x0 = t[0:rows, h * D:h * D + 2 * (half - 1) + 1:2]
                x1 = t[0:rows, h * D + 1:h * D + 1 + 2 * (half - 1) + 1:2]
                o[0:rows, h * D:h * D + 2 * (half - 1) + 1:2] = nl.subtract(nl.multiply(x0, c), nl.multiply(x1, s))
                o[0:rows, h * D + 1:h * D + 1 + 2 * (half - 1) + 1:2] = nl.add(nl.multiply(x0, s), nl.multiply(x1, c))
            nl.store(outr[b, s0:s0 + rows, 0:F], value=o)
    return out
