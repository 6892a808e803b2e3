import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


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
    w2_t = nl.ndarray((C1, K * K, C2), dtype=x.dtype, buffer=nl.sbuf)
    for tap in nl.affine_range(K * K):
        nc_transpose_out = nl.ndarray((w2_sb[0:C2, tap:tap + (K * K) * (C1 - 1) + 1:(K * K)].shape[1], w2_sb[0:C2, tap:tap + (K * K) * (C1 - 1) + 1:(K * K)].shape[0]), dtype=nl.float32, buffer=nl.sbuf)
        nisa.nc_transpose(nc_transpose_out, w2_sb[0:C2, tap:tap + (K * K) * (C1 - 1) + 1:(K * K)])
        w2_t[:, tap, :] = nl.copy(nc_transpose_out)
    fc1_sb = nl.load(fc1_weight)                                                  # [120, 400]
    f1_t = nl.ndarray((C2, Q2 * Q2, F1), dtype=x.dtype, buffer=nl.sbuf)
    for hw in nl.affine_range(Q2 * Q2):
        nc_transpose_out2 = nl.ndarray((fc1_sb[0:F1, hw:hw + (Q2 * Q2) * (C2 - 1) + 1:(Q2 * Q2)].shape[1], fc1_sb[0:F1, hw:hw + (Q2 * Q2) * (C2 - 1) + 1:(Q2 * Q2)].shape[0]), dtype=nl.float32, buffer=nl.psum)
        nisa.nc_transpose(nc_transpose_out2, fc1_sb[0:F1, hw:hw + (Q2 * Q2) * (C2 - 1) + 1:(Q2 * Q2)])
        f1_t[:, hw, :] = nl.copy(nc_transpose_out2)
    f2_t = nl.load_transpose2d(fc2_weight)                                       # [120, 84]
    f3_t = nl.load_transpose2d(fc3_weight)                                       # [84, 10]
    b1, b2 = col(conv1_bias), col(conv2_bias)
    fb1, fb2, fb3 = col(fc1_bias), col(fc2_bias), col(fc3_bias)

    feats = nl.ndarray((C2, Q2 * Q2, B), dtype=x.dtype, buffer=nl.sbuf)
    for b in nl.affine_range(B):
        patches = nl.ndarray((K * K, H1 * H1), dtype=x.dtype, buffer=nl.sbuf)
        for kh in nl.static_range(K):
            win = nl.load(x2.ap([[x2.strides[1], K], [H * x2.strides[1], H1], [x2.strides[1], H1]], offset=b * x2.strides[0] + kh * H * x2.strides[1]))                     # [5, 28, 28]
            patches.ap([[patches.strides[0], K], [H1 * patches.strides[1], H1], [patches.strides[1], H1]], offset=kh * K * patches.strides[0])[...] = win
        y1 = nl.ndarray((C1, H1 * H1), dtype=x.dtype, buffer=nl.sbuf)
        for p0 in nl.static_range(0, H1 * H1, 392):
            acc = nl.ndarray((w1_t.shape[1], patches[:, p0:p0 + 392].shape[1]), dtype=nl.float32, buffer=nl.psum)
            nisa.nc_matmul(acc, w1_t, patches[:, p0:p0 + 392])
            nisa.activation(y1[:, p0:p0 + 392], op=nl.relu, data=acc, bias=b1)
        m1 = nl.maximum(nl.maximum(y1.ap([[y1.strides[0], C1], [H1 * 2 * y1.strides[1], Q1], [2 * y1.strides[1], Q1]]), y1.ap([[y1.strides[0], C1], [H1 * 2 * y1.strides[1], Q1], [2 * y1.strides[1], Q1]], offset=1 * y1.strides[1])),
                        nl.maximum(y1.ap([[y1.strides[0], C1], [H1 * 2 * y1.strides[1], Q1], [2 * y1.strides[1], Q1]], offset=H1 * y1.strides[1]), y1.ap([[y1.strides[0], C1], [H1 * 2 * y1.strides[1], Q1], [2 * y1.strides[1], Q1]], offset=(H1 + 1) * y1.strides[1])))
        p1 = nl.zeros((C1, Q1 * Q1 + K), dtype=x.dtype, buffer=nl.sbuf)
        p1.ap([[p1.strides[0], C1], [Q1 * p1.strides[1], Q1], [p1.strides[1], Q1]])[...] = m1
        acc2 = nl.zeros((C2, H2 * Q1), nl.float32, buffer=nl.psum)
        for kh in nl.affine_range(K):
            for kw in nl.affine_range(K):
                s = kh * Q1 + kw
                nisa.nc_matmul(acc2, w2_t[:, kh * K + kw, :], p1[:, s:s + H2 * Q1], accumulate=True)
        y2 = nl.ndarray(acc2.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.activation(y2, op=nl.relu, data=acc2, bias=b2)                     # [16, 10 * 14]
        m2 = nl.maximum(nl.maximum(y2.ap([[y2.strides[0], C2], [Q1 * 2 * y2.strides[1], Q2], [2 * y2.strides[1], Q2]]), y2.ap([[y2.strides[0], C2], [Q1 * 2 * y2.strides[1], Q2], [2 * y2.strides[1], Q2]], offset=1 * y2.strides[1])),
                        nl.maximum(y2.ap([[y2.strides[0], C2], [Q1 * 2 * y2.strides[1], Q2], [2 * y2.strides[1], Q2]], offset=Q1 * y2.strides[1]), y2.ap([[y2.strides[0], C2], [Q1 * 2 * y2.strides[1], Q2], [2 * y2.strides[1], Q2]], offset=(Q1 + 1) * y2.strides[1])))
        feats.ap([[feats.strides[0], C2], [Q2 * feats.strides[1], Q2], [feats.strides[1], Q2]], offset=b * feats.strides[2])[...] = m2
    h1 = nl.zeros((F1, B), nl.float32, buffer=nl.psum)
    for hw in nl.affine_range(Q2 * Q2):
        nisa.nc_matmul(h1, f1_t[:, hw, :], feats[:, hw, :], accumulate=True)
    a1 = nl.ndarray(h1.shape, dtype=nl.float32, buffer=nl.sbuf)
    nisa.activation(a1, op=nl.relu, data=h1, bias=fb1)
    nc_matmul_out = nl.ndarray((f2_t.shape[1], a1.shape[1]), dtype=nl.float32, buffer=nl.psum)
    nisa.nc_matmul(nc_matmul_out, f2_t, a1)
    a2 = nl.ndarray(nc_matmul_out.shape, dtype=nl.float32, buffer=nl.sbuf)
    nisa.activation(a2, op=nl.relu, data=nc_matmul_out, bias=fb2)    # [84, B]
    nc_matmul_out2 = nl.ndarray((f3_t.shape[1], a2.shape[1]), dtype=nl.float32, buffer=nl.psum)
    nisa.nc_matmul(nc_matmul_out2, f3_t, a2)
    lg = nl.ndarray(nc_matmul_out2.shape, dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_scalar(lg, data=nc_matmul_out2, op0=nl.add, operand0=fb3)   # [10, B]
    nc_transpose_out3 = nl.ndarray((lg.shape[1], lg.shape[0]), dtype=nl.float32, buffer=nl.psum)
    nisa.nc_transpose(nc_transpose_out3, lg)
    nl.store(out, value=nl.copy(nc_transpose_out3))
    return out
