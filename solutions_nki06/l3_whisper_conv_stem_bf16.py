import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def whisper_conv_stem_kernel(x, conv1_weight, conv1_bias, conv2_weight, conv2_bias, positional_embedding):
    """gelu(conv2_s2(gelu(conv1(x)))).T + pos for bf16 x [1, Cin, L]; Cin <= 128, C % 128 == 0, L even.

    Channel-major throughout: a k=3 convolution is three accumulating matmuls per output
    block, one per tap, whose stationary operand is the tap's transposed weight [ci, co]
    (PE transposes of strided weight columns, done once) and whose moving operand is the
    zero-padded input shifted by the tap.  conv1 output (with bias + GELU fused into one
    activation) is written into a padded SBUF buffer; conv2 reads it with a stride-2 free
    access pattern.  Each conv2 block [128 co, t] is PE-transposed to time-major,
    the positional embedding is added in fp32, and the block is stored.
    """
    Bsz, Cin, L = x.shape
    C = conv1_weight.shape[0]
    Lo = L // 2
    P = nl.tile_size.pmax
    NB = 512
    n_c = C // P
    out = nl.ndarray((Bsz, Lo, C), dtype=x.dtype, buffer=nl.shared_hbm)
    w1r = conv1_weight.reshape((C, Cin * 3))
    w2r = conv2_weight.reshape((C, C * 3))
    b1c = conv1_bias.reshape((C, 1))
    b2c = conv2_bias.reshape((C, 1))

    w1t = nl.ndarray((Cin, 3, C), dtype=x.dtype, buffer=nl.sbuf)
    w2t = nl.ndarray((P, n_c * 3, C), dtype=x.dtype, buffer=nl.sbuf)
    for co in nl.affine_range(n_c):
        r1 = nl.load(w1r[co * P:(co + 1) * P, 0:Cin * 3])
        r2 = nl.load(w2r[co * P:(co + 1) * P, 0:C * 3])
        for k in nl.affine_range(3):
            nc_transpose_out = nl.ndarray((r1[0:P, k:k + 3 * (Cin - 1) + 1:3].shape[1], r1[0:P, k:k + 3 * (Cin - 1) + 1:3].shape[0]), dtype=nl.bfloat16, buffer=nl.psum)
            nisa.nc_transpose(nc_transpose_out, r1[0:P, k:k + 3 * (Cin - 1) + 1:3])
            w1t[:, k, co * P:(co + 1) * P] = nl.copy(nc_transpose_out, dtype=x.dtype)
            for ci in nl.affine_range(n_c):
                nc_transpose_out2 = nl.ndarray((r2[0:P, 3 * ci * P + k:3 * ci * P + k + 3 * (P - 1) + 1:3].shape[1], r2[0:P, 3 * ci * P + k:3 * ci * P + k + 3 * (P - 1) + 1:3].shape[0]), dtype=nl.bfloat16, buffer=nl.psum)
                nisa.nc_transpose(nc_transpose_out2, r2[0:P, 3 * ci * P + k:3 * ci * P + k + 3 * (P - 1) + 1:3])
                w2t[:, ci * 3 + k, co * P:(co + 1) * P] = nl.copy(
                    nc_transpose_out2, dtype=x.dtype)

    for b in nl.affine_range(Bsz):
        xp = nl.zeros((Cin, L + 2), dtype=x.dtype, buffer=nl.sbuf)
        xp[:, 1:L + 1] = nl.load(x[b])
        hp = nl.zeros((P, n_c, L + 2), dtype=x.dtype, buffer=nl.sbuf)
        for co in nl.affine_range(n_c):
            bias = nl.load(b1c[co * P:(co + 1) * P, 0:1], dtype=nl.float32)
            for t0 in nl.static_range(0, L, NB):
                w = min(NB, L - t0)
                acc = nl.zeros((P, w), nl.float32, buffer=nl.psum)
                for k in nl.affine_range(3):
                    nisa.nc_matmul(acc, w1t[:, k, co * P:(co + 1) * P], xp[:, t0 + k:t0 + k + w], accumulate=True)
                nisa.activation(hp[:, co, 1 + t0:1 + t0 + w], op=nl.gelu, data=acc, bias=bias)
        for co in nl.affine_range(n_c):
            bias = nl.load(b2c[co * P:(co + 1) * P, 0:1], dtype=nl.float32)
            for t0 in nl.static_range(0, Lo, NB):
                w = min(NB, Lo - t0)
                acc = nl.zeros((P, w), nl.float32, buffer=nl.psum)
                for ci in nl.affine_range(n_c):
                    for k in nl.affine_range(3):
                        nisa.nc_matmul(acc, w2t[:, ci * 3 + k, co * P:(co + 1) * P], hp[0:P, ci, (2 * t0 + k):(2 * t0 + k) + 2 * (w - 1) + 1:2], accumulate=True)
                g = nl.ndarray(acc.shape, dtype=nl.float32, buffer=nl.sbuf)
                nisa.activation(g, op=nl.gelu, data=acc, bias=bias)     # [128 co, w]
                for s0 in nl.static_range(0, w, P):
                    rows = min(P, w - s0)
                    g_t = nl.ndarray((g[:, s0:s0 + rows].shape[1], g[:, s0:s0 + rows].shape[0]), dtype=nl.float32, buffer=nl.psum)
                    nisa.nc_transpose(g_t, g[:, s0:s0 + rows])                            # [rows, 128 co]
                    pos = nl.load(positional_embedding[t0 + s0:t0 + s0 + rows, co * P:(co + 1) * P],
                                  dtype=nl.float32)
                    nl.store(out[b, t0 + s0:t0 + s0 + rows, co * P:(co + 1) * P],
                             value=nl.add(g_t, pos, dtype=out.dtype))
    return out
