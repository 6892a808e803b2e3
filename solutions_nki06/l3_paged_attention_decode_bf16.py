# Hand-written for NKI 0.6 (not produced by nkiagent migrate).
import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa

MASK_VALUE = -30000.0


@nki.jit
def paged_attention_decode_kernel(q, k_cache, v_cache, block_tables, context_lens):
    """Paged GQA decode: bf16 q [B, Hq, D], pool k/v [NBLK, 128, Hkv, D], int32 block_tables [B, MB].

    For logical block c of sequence b the table entry block_tables[b, c] is loaded into SBUF
    as a [1, 1] scalar and is the scalar offset (on the pool's block axis) of an access
    pattern over one block's [128, Hkv * D] rows, so one dynamic DMA per cache reads the
    key and value rows of all KV heads. Keys are PE-transposed per head into
    k^T [D, MB * 128]; slots at or beyond context_lens[b] get MASK_VALUE; softmax in fp32;
    P @ V in PSUM.
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
    len_col = context_lens.reshape((B, 1))

    pos = nl.ndarray((1, S), dtype=nl.float32, buffer=nl.sbuf)
    nisa.iota(pos, [[1, S]], offset=0, channel_multiplier=0)
    pos_g = nl.broadcast_to(pos, shape=(G, S))
    for b in nl.affine_range(B):
        k_sb = nl.ndarray((BS, MB, HD), dtype=k_cache.dtype, buffer=nl.sbuf)
        v_sb = nl.ndarray((BS, MB, HD), dtype=v_cache.dtype, buffer=nl.sbuf)
        for c in nl.affine_range(MB):
            blk = nl.ndarray((1, 1), dtype=nl.int32, buffer=nl.sbuf)
            nisa.dma_copy(dst=blk, src=block_tables[b:b + 1, c:c + 1])
            nisa.dma_copy(dst=k_sb[0:BS, c, 0:HD],
                          src=k_cache.ap([[HD, BS], [1, HD]], offset=0, scalar_offset=blk, indirect_dim=0))
            nisa.dma_copy(dst=v_sb[0:BS, c, 0:HD],
                          src=v_cache.ap([[HD, BS], [1, HD]], offset=0, scalar_offset=blk, indirect_dim=0))
        n_b = nl.broadcast_to(nl.load(len_col[b:b + 1, 0:1], dtype=nl.float32), shape=(G, 1))
        pen = nl.ndarray((G, S), dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(dst=pen, data=pos_g, op0=nl.greater_equal, operand0=n_b,
                           op1=nl.multiply, operand1=MASK_VALUE)
        for g in nl.affine_range(Hkv):
            q_t = nl.load_transpose2d(q[b, g * G:(g + 1) * G, 0:D])                # [D, G]
            k_t = nl.ndarray((D, S), dtype=k_cache.dtype, buffer=nl.sbuf)
            for c in nl.affine_range(MB):
                kt_ps = nl.ndarray((D, BS), dtype=k_cache.dtype, buffer=nl.psum)  # nc_transpose keeps the dtype
                nisa.nc_transpose(dst=kt_ps, data=k_sb[0:BS, c, g * D:(g + 1) * D])
                nisa.tensor_copy(dst=k_t[0:D, c * BS:(c + 1) * BS], src=kt_ps)
            s_sb = nl.ndarray((G, S), dtype=nl.float32, buffer=nl.sbuf)
            for c in nl.affine_range(S // NB):
                raw = nl.ndarray((G, NB), dtype=nl.float32, buffer=nl.psum)
                nisa.nc_matmul(dst=raw, stationary=q_t, moving=k_t[0:D, c * NB:(c + 1) * NB])
                s_sb[0:G, c * NB:(c + 1) * NB] = nl.add(nl.multiply(raw, scale), pen[0:G, c * NB:(c + 1) * NB])
            mx = nl.ndarray((G, 1), dtype=nl.float32, buffer=nl.sbuf)
            nisa.tensor_reduce(dst=mx, op=nl.maximum, data=s_sb, axis=1)
            p = nl.ndarray((G, S), dtype=nl.float32, buffer=nl.sbuf)
            nisa.activation(dst=p, op=nl.exp, data=s_sb, bias=nl.multiply(mx, -1.0))
            inv = nl.reciprocal(nl.sum(p, axis=1, keepdims=True))
            o_ps = nl.ndarray((G, D), dtype=nl.float32, buffer=nl.psum)
            for c in nl.affine_range(MB):
                pt_ps = nl.ndarray((BS, G), dtype=nl.float32, buffer=nl.psum)
                nisa.nc_transpose(dst=pt_ps, data=p[0:G, c * BS:(c + 1) * BS])
                p_t = nl.copy(pt_ps, dtype=v_cache.dtype)                           # [BS, G]
                nisa.nc_matmul(dst=o_ps, stationary=p_t, moving=v_sb[0:BS, c, g * D:(g + 1) * D],
                               accumulate=(c > 0))
            o = nl.ndarray((G, D), dtype=out.dtype, buffer=nl.sbuf)
            nisa.tensor_scalar(dst=o, data=o_ps, op0=nl.multiply, operand0=inv)
            nl.store(out[b, g * G:(g + 1) * G, 0:D], value=o)
    return out
