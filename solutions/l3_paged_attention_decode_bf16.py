import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa

MASK_VALUE = -30000.0


@nki.jit
def paged_attention_decode_kernel(q, k_cache, v_cache, block_tables, context_lens):
    """Paged GQA decode: bf16 q [B, Hq, D], pool k/v [NBLK, 128, Hkv, D], int32 block_tables [B, MB].

    The pool is viewed as rows [NBLK * 128, Hkv * D].  For logical block c of sequence b the
    row index of slot i is block_tables[b, c] * 128 + i: the table entry is loaded once,
    broadcast to 128 partitions, scaled and added to an iota in fp32 (exact below 2^24) and
    converted to int32; that [128, 1] tile drives indirect DMA loads of the key and value
    rows of all KV heads.  Keys are PE-transposed per head into k^T [D, MB * 128]; slots
    at or beyond context_lens[b] get MASK_VALUE; softmax in fp32; P @ V in PSUM.
    """
    B, Hq, D = q.shape
    NBLK, BS, Hkv = k_cache.shape[0], k_cache.shape[1], k_cache.shape[2]
    MB = block_tables.shape[1]
    G = Hq // Hkv
    S = MB * BS
    HD = Hkv * D
    NB = 512
    scale = 1.0 / float(np.sqrt(D))
    out = nl.ndarray((B, Hq, D), dtype=q.dtype, buffer=nl.shared_hbm)
    kc = k_cache.reshape((NBLK * BS, HD))
    vc = v_cache.reshape((NBLK * BS, HD))
    len_col = context_lens.reshape((B, 1))

    i_p = nl.arange(BS)[:, None]
    i_f = nl.arange(HD)[None, :]
    slot = nisa.iota(nl.arange(BS)[:, None], dtype=nl.float32)                    # [BS, 1]
    pos_g = nl.broadcast_to(nisa.iota(nl.arange(S)[None, :], dtype=nl.float32), shape=(G, S))
    for b in nl.affine_range(B):
        k_sb = nl.ndarray((BS, MB, HD), dtype=k_cache.dtype, buffer=nl.sbuf)
        v_sb = nl.ndarray((BS, MB, HD), dtype=v_cache.dtype, buffer=nl.sbuf)
        for c in nl.affine_range(MB):
            blk = nl.broadcast_to(nl.load(block_tables[b:b + 1, c:c + 1], dtype=nl.float32), shape=(BS, 1))
            rows = nl.copy(nl.add(nl.multiply(blk, float(BS)), slot), dtype=nl.int32)   # [BS, 1]
            k_sb[:, c, :] = nl.load(kc[rows[i_p, 0], i_f])
            v_sb[:, c, :] = nl.load(vc[rows[i_p, 0], i_f])
        n_b = nl.broadcast_to(nl.load(len_col[b:b + 1, 0:1], dtype=nl.float32), shape=(G, 1))
        pen = nisa.tensor_scalar(data=pos_g, op0=nl.greater_equal, operand0=n_b,
                                 op1=nl.multiply, operand1=MASK_VALUE)
        for g in nl.affine_range(Hkv):
            q_t = nl.load_transpose2d(q[b, g * G:(g + 1) * G, 0:D])                # [D, G]
            k_t = nl.ndarray((D, S), dtype=k_cache.dtype, buffer=nl.sbuf)
            for c in nl.affine_range(MB):
                k_t[:, c * BS:(c + 1) * BS] = nl.copy(nisa.nc_transpose(k_sb[:, c, g * D:(g + 1) * D]),
                                                      dtype=k_cache.dtype)
            s_sb = nl.ndarray((G, S), dtype=nl.float32, buffer=nl.sbuf)
            for c in nl.affine_range(S // NB):
                raw = nisa.nc_matmul(q_t, k_t[:, c * NB:(c + 1) * NB])
                s_sb[:, c * NB:(c + 1) * NB] = nl.add(nl.multiply(raw, scale), pen[:, c * NB:(c + 1) * NB])
            mx = nisa.tensor_reduce(np.max, data=s_sb, axis=(1,), dtype=nl.float32)
            p = nisa.activation(op=nl.exp, data=s_sb, bias=nl.multiply(mx, -1.0), dtype=nl.float32)
            inv = nl.reciprocal(nl.sum(p, axis=[1]))
            o_ps = nl.zeros((G, D), nl.float32, buffer=nl.psum)
            for c in nl.affine_range(MB):
                p_t = nl.copy(nisa.nc_transpose(p[:, c * BS:(c + 1) * BS]), dtype=v_cache.dtype)   # [BS, G]
                o_ps += nisa.nc_matmul(p_t, v_sb[:, c, g * D:(g + 1) * D])
            o = nisa.tensor_scalar(data=o_ps, op0=nl.multiply, operand0=inv, dtype=out.dtype)
            nl.store(out[b, g * G:(g + 1) * G, 0:D], value=o)
    return out
