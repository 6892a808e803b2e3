import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa

MASK_VALUE = -30000.0


@nki.jit
def decode_attention_seqlens_kernel(q, k_cache, v_cache, seq_lens):
    """GQA decode with per-sequence lengths: fp32 q [B, Hq, D], caches [B, Hkv, S, D], int32 seq_lens [B].

    The G query heads of a KV group are the rows of one [G, S] score tile (transposed queries
    [D, G] as the stationary operand against k^T [D, S]).  Slots at or beyond seq_lens[b]
    get MASK_VALUE added: an iota of slot positions is compared with the length, broadcast
    to the G partitions, in one tensor_scalar (>=, then * MASK_VALUE).  Softmax in fp32;
    P @ V over 128-slot blocks in PSUM; the logsumexp is max + log(sum) of the same row.
    """
    B, Hq, D = q.shape
    Hkv, S = k_cache.shape[1], k_cache.shape[2]
    G = Hq // Hkv
    P = nl.tile_size.pmax
    NB = 512
    n_s = S // P
    scale = 1.0 / float(np.sqrt(D))
    out = nl.ndarray((B, Hq, D), dtype=q.dtype, buffer=nl.shared_hbm)
    lse = nl.ndarray((B, Hq), dtype=nl.float32, buffer=nl.shared_hbm)
    lse_col = lse.reshape((B * Hq, 1))
    len_col = seq_lens.reshape((B, 1))

    pos = nl.ndarray((1, 2048), dtype=nl.float32, buffer=nl.sbuf)
    nisa.iota(pos, [[1, S]], offset=0, channel_multiplier=0)                      # [1, S]
    pos_g = nl.broadcast_to(pos, shape=(G, S))
    for b in nl.affine_range(B):
        n_b = nl.broadcast_to(nl.load(len_col[b:b + 1, 0:1], dtype=nl.float32), shape=(G, 1))
        pen = nl.ndarray(pos_g.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(pen, data=pos_g, op0=nl.greater_equal, operand0=n_b, op1=nl.multiply, operand1=MASK_VALUE)           # [G, S]: 0 or MASK
        for g in nl.affine_range(Hkv):
            q_t = nl.load_transpose2d(q[b, g * G:(g + 1) * G, 0:D])                # [D, G]
            k_t = nl.ndarray((D, S), dtype=k_cache.dtype, buffer=nl.sbuf)
            for j in nl.affine_range(n_s):
                k_t[:, j * P:(j + 1) * P] = nl.load_transpose2d(k_cache[b, g, j * P:(j + 1) * P, 0:D])
            s_sb = nl.ndarray((G, S), dtype=nl.float32, buffer=nl.sbuf)
            for c in nl.affine_range(S // NB):
                raw = nl.ndarray((q_t.shape[1], k_t[:, c * NB:(c + 1) * NB].shape[1]), dtype=nl.float32, buffer=nl.psum)
                nisa.nc_matmul(raw, q_t, k_t[:, c * NB:(c + 1) * NB])
                s_sb[:, c * NB:(c + 1) * NB] = nl.add(nl.multiply(raw, scale), pen[:, c * NB:(c + 1) * NB])
            mx = nl.ndarray((4, 1), dtype=nl.float32, buffer=nl.sbuf)
            nisa.tensor_reduce(mx, nl.maximum, data=s_sb, axis=(1,))
            p = nl.ndarray(s_sb.shape, dtype=nl.float32, buffer=nl.sbuf)
            nisa.activation(p, op=nl.exp, data=s_sb, bias=nl.multiply(mx, -1.0))
            tot = nl.sum(p, axis=[1])
            o_ps = nl.zeros((G, D), nl.float32, buffer=nl.psum)
            for j in nl.affine_range(n_s):
                nc_transpose_out = nl.ndarray((p[:, j * P:(j + 1) * P].shape[1], p[:, j * P:(j + 1) * P].shape[0]), dtype=nl.float32, buffer=nl.psum)
                nisa.nc_transpose(nc_transpose_out, p[:, j * P:(j + 1) * P])
                p_t = nl.copy(nc_transpose_out)                # [128, G]
                v_blk = nl.load(v_cache[b, g, j * P:(j + 1) * P, 0:D])
                nisa.nc_matmul(o_ps, p_t, v_blk, accumulate=True)
            o = nl.ndarray(o_ps.shape, dtype=out.dtype, buffer=nl.sbuf)
            nisa.tensor_scalar(o, data=o_ps, op0=nl.multiply, operand0=nl.reciprocal(tot))
            nl.store(out[b, g * G:(g + 1) * G, 0:D], value=o)
            nl.store(lse_col[b * Hq + g * G:b * Hq + (g + 1) * G, 0:1], value=nl.add(mx, nl.log(tot)))
    return out, lse
