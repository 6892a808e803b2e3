import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def rope_attention_kernel(q, k, v, cos, sin):
    """softmax(rope(q) rope(k)^T / sqrt(D)) v for bf16 [B, H, S, D], cos/sin [S, D]; S % 128 == 0, S <= 512.

    RoPE (rotate-half) is applied in fp32 on 128-position tiles (positions on partitions,
    cos/sin tiles loaded once); the rotated tiles are PE-transposed to [D, positions] so
    that q^T is the stationary and k^T the moving operand of the score matmul.  Row
    softmax in fp32, P @ V over 128-key blocks with bf16 probabilities.
    """
    B, H, S, D = q.shape
    half = D // 2
    P = nl.tile_size.pmax
    n_s = S // P
    scale = 1.0 / float(np.sqrt(D))
    out = nl.ndarray((B, H, S, D), dtype=q.dtype, buffer=nl.shared_hbm)

    c_sb = nl.ndarray((P, n_s, D), dtype=nl.float32, buffer=nl.sbuf)
    s_sb = nl.ndarray((P, n_s, D), dtype=nl.float32, buffer=nl.sbuf)
    for j in nl.affine_range(n_s):
        c_sb[:, j, :] = nl.load(cos[j * P:(j + 1) * P, 0:D], dtype=nl.float32)
        s_sb[:, j, :] = nl.load(sin[j * P:(j + 1) * P, 0:D], dtype=nl.float32)

    for b in nl.affine_range(B):
        for h in nl.affine_range(H):
            q_t = nl.ndarray((D, S), dtype=nl.float32, buffer=nl.sbuf)
            k_t = nl.ndarray((D, S), dtype=nl.float32, buffer=nl.sbuf)
            v_sb = nl.ndarray((P, n_s, D), dtype=v.dtype, buffer=nl.sbuf)
            for j in nl.affine_range(n_s):
                v_sb[:, j, :] = nl.load(v[b, h, j * P:(j + 1) * P, 0:D])
                for which in nl.static_range(2):
                    src = q if which == 0 else k
                    t = nl.load(src[b, h, j * P:(j + 1) * P, 0:D], dtype=nl.float32)
                    r = nl.ndarray((P, D), dtype=nl.float32, buffer=nl.sbuf)
                    r[:, 0:half] = nl.subtract(nl.multiply(t[:, 0:half], c_sb[:, j, 0:half]),
                                               nl.multiply(t[:, half:D], s_sb[:, j, 0:half]))
                    r[:, half:D] = nl.add(nl.multiply(t[:, half:D], c_sb[:, j, half:D]),
                                          nl.multiply(t[:, 0:half], s_sb[:, j, half:D]))
                    dst = q_t if which == 0 else k_t
                    nc_transpose_out = nl.ndarray((r.shape[1], r.shape[0]), dtype=nl.float32, buffer=nl.psum)
                    nisa.nc_transpose(nc_transpose_out, r)
                    dst[:, j * P:(j + 1) * P] = nl.copy(nc_transpose_out)
            for i in nl.affine_range(n_s):
                s_ps = nl.ndarray((q_t[:, i * P:(i + 1) * P].shape[1], k_t.shape[1]), dtype=nl.float32, buffer=nl.psum)
                nisa.nc_matmul(s_ps, q_t[:, i * P:(i + 1) * P], k_t)                  # [128, S]
                sc = nl.multiply(s_ps, scale)
                mx = nl.ndarray((128, 1), dtype=nl.float32, buffer=nl.sbuf)
                nisa.tensor_reduce(mx, nl.maximum, data=sc, axis=(1,))
                p = nl.ndarray(sc.shape, dtype=nl.float32, buffer=nl.sbuf)
                nisa.activation(p, op=nl.exp, data=sc, bias=nl.multiply(mx, -1.0))
                inv = nl.reciprocal(nl.sum(p, axis=[1]))
                o_ps = nl.zeros((P, D), nl.float32, buffer=nl.psum)
                for j in nl.affine_range(n_s):
                    nc_transpose_out2 = nl.ndarray((p[:, j * P:(j + 1) * P].shape[1], p[:, j * P:(j + 1) * P].shape[0]), dtype=nl.float32, buffer=nl.psum)
                    nisa.nc_transpose(nc_transpose_out2, p[:, j * P:(j + 1) * P])
                    p_t = nl.copy(nc_transpose_out2, dtype=v.dtype)
                    nisa.nc_matmul(o_ps, p_t, v_sb[:, j, :], accumulate=True)
                o = nl.ndarray(o_ps.shape, dtype=out.dtype, buffer=nl.sbuf)
                nisa.tensor_scalar(o, data=o_ps, op0=nl.multiply, operand0=inv)
                nl.store(out[b, h, i * P:(i + 1) * P, 0:D], value=o)
    return out
