import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def lenet5_kernel(x, conv1_weight, conv1_bias, conv2_weight, conv2_bias, fc1_weight, fc1_bias,
                  fc2_weight, fc2_bias, fc3_weight, fc3_bias):
    """LeNet-5 on fp32 x [B, 1, 32, 32] (B <= 128) -> logits [B, 10].

    conv1 (one input channel) is an im2col matmul: the 25 shifted 28x28 windows of an image
    are loaded onto 25 partitions (five strided DMA loads, one per kernel row) and
    contracted with W1^T [25, 6].  conv2 is 25 accumulating tap matmuls over the flattened
    14x14 map (valid conv: 10 rows of 14 columns, 4 junk columns per row).  ReLU + 2x2
    max-pool are maxima of four strided views.  The pooled [16, 25] features of all images
    are kept as [16, 25, B], so fc1 is 25 matmuls contracting over the 16 channels (one per
    spatial position, with strided-column weight transposes) and the batch is the moving
    free axis; fc2 and fc3 follow in the same transposed layout, and the logits are
    transposed once at the end.
    """
    B = x.shape[0]
    H = x.shape[2]
    K = 5
    C1, C2 = conv1_weight.shape[0], conv2_weight.shape[0]
    H1 = H - K + 1                   # 28
    Q1 = H1 // 2                     # 14
    H2 = Q1 - K + 1                  # 10
    Q2 = H2 // 2                     # 5
    F1, F2, NC = fc1_weight.shape[0], fc2_weight.shape[0], fc3_weight.shape[0]
    out = nl.ndarray((B, NC), dtype=x.dtype, buffer=nl.shared_hbm)
    x2 = x.reshape((B, H * H))
    col = lambda v: nl.load(v.reshape((v.shape[0], 1)))

    w1_t = nl.load_transpose2d(conv1_weight.reshape((C1, K * K)))                 # [25, 6]
    w2_sb = nl.load(conv2_weight.reshape((C2, C1 * K * K)))
    i_co = nl.arange(C2)[:, None]
    i_ci = nl.arange(C1)[None, :]
    w2_t = nl.ndarray((C1, K * K, C2), dtype=x.dtype, buffer=nl.sbuf)
    for tap in nl.affine_range(K * K):
        w2_t[:, tap, :] = nl.copy(nisa.nc_transpose(w2_sb[i_co, i_ci * (K * K) + tap]))
    fc1_sb = nl.load(fc1_weight)                                                  # [120, 400]
    i_o = nl.arange(F1)[:, None]
    i_c = nl.arange(C2)[None, :]
    f1_t = nl.ndarray((C2, Q2 * Q2, F1), dtype=x.dtype, buffer=nl.sbuf)
    for hw in nl.affine_range(Q2 * Q2):
        f1_t[:, hw, :] = nl.copy(nisa.nc_transpose(fc1_sb[i_o, i_c * (Q2 * Q2) + hw]))
    f2_t = nl.load_transpose2d(fc2_weight)                                       # [120, 84]
    f3_t = nl.load_transpose2d(fc3_weight)                                       # [84, 10]
    b1, b2 = col(conv1_bias), col(conv2_bias)
    fb1, fb2, fb3 = col(fc1_bias), col(fc2_bias), col(fc3_bias)

    i_k = nl.arange(K)[:, None, None]
    i_h = nl.arange(H1)[None, :, None]
    i_w = nl.arange(H1)[None, None, :]
    feats = nl.ndarray((C2, Q2 * Q2, B), dtype=x.dtype, buffer=nl.sbuf)
    for b in nl.affine_range(B):
        patches = nl.ndarray((K * K, H1 * H1), dtype=x.dtype, buffer=nl.sbuf)
        for kh in nl.static_range(K):
            win = nl.load(x2[b, kh * H + i_k + i_h * H + i_w])                     # [5, 28, 28]
            patches[kh * K + i_k, i_h * H1 + i_w] = win
        y1 = nl.ndarray((C1, H1 * H1), dtype=x.dtype, buffer=nl.sbuf)
        for p0 in nl.static_range(0, H1 * H1, 392):
            acc = nisa.nc_matmul(w1_t, patches[:, p0:p0 + 392])
            y1[:, p0:p0 + 392] = nisa.activation(op=nl.relu, data=acc, bias=b1)
        j_c = nl.arange(C1)[:, None, None]
        j_h = nl.arange(Q1)[None, :, None]
        j_w = nl.arange(Q1)[None, None, :]
        m1 = nl.maximum(nl.maximum(y1[j_c, (2 * j_h) * H1 + 2 * j_w], y1[j_c, (2 * j_h) * H1 + 2 * j_w + 1]),
                        nl.maximum(y1[j_c, (2 * j_h + 1) * H1 + 2 * j_w], y1[j_c, (2 * j_h + 1) * H1 + 2 * j_w + 1]))
        p1 = nl.zeros((C1, Q1 * Q1 + K), dtype=x.dtype, buffer=nl.sbuf)
        p1[j_c, j_h * Q1 + j_w] = m1
        acc2 = nl.zeros((C2, H2 * Q1), nl.float32, buffer=nl.psum)
        for kh in nl.affine_range(K):
            for kw in nl.affine_range(K):
                s = kh * Q1 + kw
                acc2 += nisa.nc_matmul(w2_t[:, kh * K + kw, :], p1[:, s:s + H2 * Q1])
        y2 = nisa.activation(op=nl.relu, data=acc2, bias=b2)                     # [16, 10 * 14]
        k_c = nl.arange(C2)[:, None, None]
        k_h = nl.arange(Q2)[None, :, None]
        k_w = nl.arange(Q2)[None, None, :]
        m2 = nl.maximum(nl.maximum(y2[k_c, (2 * k_h) * Q1 + 2 * k_w], y2[k_c, (2 * k_h) * Q1 + 2 * k_w + 1]),
                        nl.maximum(y2[k_c, (2 * k_h + 1) * Q1 + 2 * k_w], y2[k_c, (2 * k_h + 1) * Q1 + 2 * k_w + 1]))
        feats[k_c, k_h * Q2 + k_w, b] = m2
    h1 = nl.zeros((F1, B), nl.float32, buffer=nl.psum)
    for hw in nl.affine_range(Q2 * Q2):
        h1 += nisa.nc_matmul(f1_t[:, hw, :], feats[:, hw, :])
    a1 = nisa.activation(op=nl.relu, data=h1, bias=fb1)
    a2 = nisa.activation(op=nl.relu, data=nisa.nc_matmul(f2_t, a1), bias=fb2)    # [84, B]
    lg = nisa.tensor_scalar(data=nisa.nc_matmul(f3_t, a2), op0=nl.add, operand0=fb3)   # [10, B]
    nl.store(out, value=nl.copy(nisa.nc_transpose(lg)))
    return out
