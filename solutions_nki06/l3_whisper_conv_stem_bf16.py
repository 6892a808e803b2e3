# Hand-written for NKI 0.6 (not produced by nkiagent migrate).
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def whisper_conv_stem_kernel(x, conv1_weight, conv1_bias, conv2_weight, conv2_bias, positional_embedding):
    """gelu(conv2_s2(gelu(conv1(x)))).T + pos for bf16 x [1, Cin, L]; Cin <= 128, C % 128 == 0, L even.

    Channel-major throughout: a k=3 convolution is three accumulating matmuls per output
    block, one per tap, whose stationary operand is the tap's transposed weight [ci, co]
    (PE transposes of step-3 weight column slices, done once) and whose moving operand is
    the zero-padded input shifted by the tap. conv1 output (with bias + GELU fused into one
    activation) is written into a padded SBUF buffer; conv2 reads it through step-2 slices.
    Each conv2 block [128 co, t] is PE-transposed to time-major, the positional embedding
    is added in fp32, and the block is stored.
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
            t1 = nl.ndarray((Cin, P), dtype=nl.float32, buffer=nl.psum)
            nisa.nc_transpose(dst=t1, data=r1[0:P, k:k + 3 * (Cin - 1) + 1:3])
            nisa.tensor_copy(dst=w1t[0:Cin, k, co * P:(co + 1) * P], src=t1)
            for ci in nl.affine_range(n_c):
                s = ci * P * 3 + k
                t2 = nl.ndarray((P, P), dtype=nl.float32, buffer=nl.psum)
                nisa.nc_transpose(dst=t2, data=r2[0:P, s:s + 3 * (P - 1) + 1:3])
                nisa.tensor_copy(dst=w2t[0:P, ci * 3 + k, co * P:(co + 1) * P], src=t2)

    for b in nl.affine_range(Bsz):
        xp = nl.zeros((Cin, L + 2), dtype=x.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=xp[0:Cin, 1:L + 1], src=x[b])
        hp = nl.zeros((P, n_c, L + 2), dtype=x.dtype, buffer=nl.sbuf)
        for co in nl.affine_range(n_c):
            bias = nl.load(b1c[co * P:(co + 1) * P, 0:1], dtype=nl.float32)
            for t0 in nl.static_range(0, L, NB):
                w = min(NB, L - t0)
                acc = nl.ndarray((P, w), dtype=nl.float32, buffer=nl.psum)
                for k in nl.affine_range(3):
                    nisa.nc_matmul(dst=acc, stationary=w1t[0:Cin, k, co * P:(co + 1) * P],
                                   moving=xp[0:Cin, t0 + k:t0 + k + w], accumulate=(k > 0))
                nisa.activation(dst=hp[0:P, co, 1 + t0:1 + t0 + w], op=nl.gelu, data=acc, bias=bias)
        for co in nl.affine_range(n_c):
            bias = nl.load(b2c[co * P:(co + 1) * P, 0:1], dtype=nl.float32)
            for t0 in nl.static_range(0, Lo, NB):
                w = min(NB, Lo - t0)
                acc = nl.ndarray((P, w), dtype=nl.float32, buffer=nl.psum)
                for ci in nl.affine_range(n_c):
                    for k in nl.affine_range(3):
                        s = 2 * t0 + k
                        nisa.nc_matmul(dst=acc, stationary=w2t[0:P, ci * 3 + k, co * P:(co + 1) * P],
                                       moving=hp[0:P, ci, s:s + 2 * (w - 1) + 1:2], accumulate=(ci > 0 or k > 0))
                g = nl.ndarray((P, w), dtype=nl.float32, buffer=nl.sbuf)
                nisa.activation(dst=g, op=nl.gelu, data=acc, bias=bias)                # [128 co, w]
                for s0 in nl.static_range(0, w, P):
                    rows = min(P, w - s0)
                    g_t = nl.ndarray((rows, P), dtype=nl.float32, buffer=nl.psum)
                    nisa.nc_transpose(dst=g_t, data=g[0:P, s0:s0 + rows])               # [rows, 128 co]
                    pos = nl.load(positional_embedding[t0 + s0:t0 + s0 + rows, co * P:(co + 1) * P],
                                  dtype=nl.float32)
                    nl.store(out[b, t0 + s0:t0 + s0 + rows, co * P:(co + 1) * P],
                             value=nl.add(g_t, pos, dtype=out.dtype))
    return out
