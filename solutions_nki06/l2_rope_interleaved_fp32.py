# Hand-written for NKI 0.6 (not produced by nkiagent migrate).
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def rope_interleaved_kernel(x, cos, sin):
    """Interleaved-pair rotary embedding on float32 x [B, S, H, D] with angle tables [S, D/2].

    out[..., 2i] = x[2i] c_i - x[2i+1] s_i, out[..., 2i+1] = x[2i] s_i + x[2i+1] c_i.
    Positions go on partitions (static ragged last block), the H*D features of a position
    along the free axis; the even and odd elements of a head are step-2 slices of one tile,
    and the results are written back through the same step-2 slices of an SBUF tile.
    """
    B, S, H, D = x.shape
    half = D // 2
    F = H * D
    P = nl.tile_size.pmax
    out = nl.ndarray((B, S, H, D), dtype=x.dtype, buffer=nl.shared_hbm)
    xr = x.reshape((B * S, F))
    outr = out.reshape((B * S, F))

    for s0 in nl.static_range(0, S, P):
        rows = min(P, S - s0)
        c = nl.load(cos[s0:s0 + rows, 0:half])
        s = nl.load(sin[s0:s0 + rows, 0:half])
        for b in nl.affine_range(B):
            r0 = b * S + s0
            t = nl.load(xr[r0:r0 + rows, 0:F])
            o = nl.ndarray((rows, F), dtype=x.dtype, buffer=nl.sbuf)
            for h in nl.static_range(H):
                x0 = t[0:rows, h * D:(h + 1) * D:2]
                x1 = t[0:rows, h * D + 1:(h + 1) * D:2]
                nisa.tensor_copy(dst=o[0:rows, h * D:(h + 1) * D:2],
                                 src=nl.subtract(nl.multiply(x0, c), nl.multiply(x1, s)))
                nisa.tensor_copy(dst=o[0:rows, h * D + 1:(h + 1) * D:2],
                                 src=nl.add(nl.multiply(x0, s), nl.multiply(x1, c)))
            nl.store(outr[r0:r0 + rows, 0:F], value=o)
    return out
