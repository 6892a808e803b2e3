import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def rope_rotate_half_kernel(q, cos, sin):
    """q * cos + rotate_half(q) * sin for bf16 q [B, H, S, D], cos/sin [S, D]; S a multiple of 128.

    With q = [q1 | q2] (halves of the head dim), rotate_half(q) = [-q2 | q1], so
    out1 = q1 * cos1 - q2 * sin1 and out2 = q2 * cos2 + q1 * sin2.  Positions go on
    partitions; the cos/sin tiles of each 128-position block are loaded once and reused
    by every (batch, head).
    """
    B, H, S, D = q.shape
    half = D // 2
    P = nl.tile_size.pmax
    n_s = S // P
    out = nl.ndarray((B, H, S, D), dtype=q.dtype, buffer=nl.shared_hbm)

    c_sb = nl.ndarray((P, n_s, D), dtype=nl.float32, buffer=nl.sbuf)
    s_sb = nl.ndarray((P, n_s, D), dtype=nl.float32, buffer=nl.sbuf)
    for j in nl.affine_range(n_s):
        c_sb[:, j, :] = nl.load(cos[j * P:(j + 1) * P, 0:D], dtype=nl.float32)
        s_sb[:, j, :] = nl.load(sin[j * P:(j + 1) * P, 0:D], dtype=nl.float32)

    for b in nl.affine_range(B):
        for h in nl.affine_range(H):
            for j in nl.affine_range(n_s):
                t = nl.load(q[b, h, j * P:(j + 1) * P, 0:D], dtype=nl.float32)
                o = nl.ndarray((P, D), dtype=q.dtype, buffer=nl.sbuf)
                o[:, 0:half] = nl.subtract(nl.multiply(t[:, 0:half], c_sb[:, j, 0:half]),
                                           nl.multiply(t[:, half:D], s_sb[:, j, 0:half]), dtype=q.dtype)
                o[:, half:D] = nl.add(nl.multiply(t[:, half:D], c_sb[:, j, half:D]),
                                      nl.multiply(t[:, 0:half], s_sb[:, j, half:D]), dtype=q.dtype)
                nl.store(out[b, h, j * P:(j + 1) * P, 0:D], value=o)
    return out
