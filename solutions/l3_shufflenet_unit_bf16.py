import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa

GROUPS = 3
EPS = 1e-5


def _bn(w, b, m, v, c0, n):
    """Eval BatchNorm of channels c0 .. c0+n as per-partition fp32 (scale, shift) columns."""
    ld = lambda t: nl.load(t.reshape((t.shape[0], 1))[c0:c0 + n, 0:1], dtype=nl.float32)
    s = nl.multiply(ld(w), nl.rsqrt(nl.add(ld(v), EPS)))
    return s, nl.subtract(ld(b), nl.multiply(ld(m), s))


@nki.jit
def shufflenet_unit_kernel(x, conv1_weight, bn1_weight, bn1_bias, conv2_weight, bn2_weight, bn2_bias,
                           conv3_weight, bn3_weight, bn3_bias, bn1_running_mean, bn1_running_var,
                           bn2_running_mean, bn2_running_var, bn3_running_mean, bn3_running_var):
    """ShuffleNet unit on bf16 x [N, C, H, W] (channel-major, one SBUF tile per channel group).

    Grouped 1x1 convs are one matmul per group (the group's transposed weight block as
    stationary operand, the group's channels as moving operand).  The depthwise 3x3 conv is
    nine shifted multiply-adds with per-partition tap weights over a zero-padded flattened
    map.  The channel shuffle is a partition permutation, done on the PE: shuffled group k
    gathers channel i of old group j (3i + j = 20k + m) with a 0/1 selection matrix built
    from an iota == 0 test, so it is exact.  Every BatchNorm folds into a per-partition
    scale/shift (fused with the ReLU where there is one); the shortcut is added in fp32.
    """
    Nb, C, H, W = x.shape
    M = conv1_weight.shape[0]
    cg_in = C // GROUPS              # 80 input channels per group
    mg = M // GROUPS                 # 20 mid channels per group
    og = C // GROUPS                 # 80 output channels per group
    HW = H * W
    Wp = W + 2
    L = (H + 2) * Wp + 2
    dt = x.dtype
    out = nl.ndarray((Nb, C, H, W), dtype=dt, buffer=nl.shared_hbm)
    xr = x.reshape((Nb, C, HW))
    outr = out.reshape((Nb, C, HW))
    chunks = [(p0, min(512, HW - p0)) for p0 in range(0, HW, 512)]
    w1 = conv1_weight.reshape((M, cg_in))
    w3 = conv3_weight.reshape((C, mg))
    w2 = conv2_weight.reshape((M, 9))

    w1_t = [nl.load_transpose2d(w1[j * mg:(j + 1) * mg, 0:cg_in]) for j in range(GROUPS)]   # [80, 20]
    w3_t = [nl.load_transpose2d(w3[k * og:(k + 1) * og, 0:mg]) for k in range(GROUPS)]      # [20, 80]
    i_p = nl.arange(mg)[:, None]
    i_f = nl.arange(mg)[None, :]
    # sel[j * GROUPS + k][i, m] = 1 iff channel i of old group j becomes channel m of shuffled group k
    sel = [nisa.tensor_scalar(data=nisa.iota(GROUPS * i_p + j - mg * k - i_f, dtype=nl.float32), op0=nl.equal,
                              operand0=0.0, dtype=dt) for j in range(GROUPS) for k in range(GROUPS)]

    i_c = nl.arange(mg)[:, None, None]
    i_h = nl.arange(H)[None, :, None]
    i_w = nl.arange(W)[None, None, :]
    for n in nl.affine_range(Nb):
        xg = [nl.load(xr[n, j * cg_in:(j + 1) * cg_in, 0:HW]) for j in range(GROUPS)]
        ys = []
        for j in nl.static_range(GROUPS):
            s1, t1 = _bn(bn1_weight, bn1_bias, bn1_running_mean, bn1_running_var, j * mg, mg)
            hp = nl.zeros((mg, L), dtype=nl.float32, buffer=nl.sbuf)
            y1 = nl.ndarray((mg, HW), dtype=nl.float32, buffer=nl.sbuf)
            for (p0, w) in chunks:
                acc = nisa.nc_matmul(w1_t[j], xg[j][:, p0:p0 + w])
                y1[:, p0:p0 + w] = nisa.activation(op=nl.relu, data=acc, scale=s1, bias=t1, dtype=nl.float32)
            hp[i_c, (i_h + 1) * Wp + 1 + i_w] = y1[i_c, i_h * W + i_w]
            wk = nl.load(w2[j * mg:(j + 1) * mg, 0:9], dtype=nl.float32)
            acc2 = nisa.tensor_scalar(data=hp[:, 0:H * Wp], op0=nl.multiply, operand0=wk[:, 0:1])
            for tap in nl.static_range(1, 9):
                s = (tap // 3) * Wp + tap % 3
                acc2 = nl.add(acc2, nisa.tensor_scalar(data=hp[:, s:s + H * Wp], op0=nl.multiply,
                                                       operand0=wk[:, tap:tap + 1]))
            s2, t2 = _bn(bn2_weight, bn2_bias, bn2_running_mean, bn2_running_var, j * mg, mg)
            y2 = nl.ndarray((mg, HW), dtype=dt, buffer=nl.sbuf)
            y2[i_c, i_h * W + i_w] = nisa.tensor_scalar(data=acc2, op0=nl.multiply, operand0=s2, op1=nl.add,
                                                        operand1=t2, dtype=dt)[i_c, i_h * Wp + i_w]
            ys.append(y2)
        for k in nl.static_range(GROUPS):
            s3, t3 = _bn(bn3_weight, bn3_bias, bn3_running_mean, bn3_running_var, k * og, og)
            for (p0, w) in chunks:
                sh = nl.zeros((mg, w), nl.float32, buffer=nl.psum)
                for j in nl.static_range(GROUPS):
                    sh += nisa.nc_matmul(sel[j * GROUPS + k], ys[j][:, p0:p0 + w])                     # shuffled group k
                acc3 = nisa.nc_matmul(w3_t[k], nl.copy(sh, dtype=dt))                       # [80, w]
                z = nisa.activation(op=nl.relu, data=acc3, scale=s3, bias=t3, dtype=nl.float32)
                nl.store(outr[n, k * og:(k + 1) * og, p0:p0 + w],
                         value=nl.add(z, xg[k][:, p0:p0 + w], dtype=dt))
    return out
