# Hand-written for NKI 0.6 (not produced by nkiagent migrate).
import nki
import nki.language as nl
import nki.isa as nisa

GROUPS = 3
EPS = 1e-5


def _col(t, c0, n):
    """Channels c0 .. c0+n of a 1-D parameter as an fp32 [n, 1] per-partition column."""
    return nl.load(t.reshape((t.shape[0], 1))[c0:c0 + n, 0:1], dtype=nl.float32)


def _bn(w, b, m, v, c0, n):
    """Eval BatchNorm of channels c0 .. c0+n as per-partition fp32 (scale, shift) columns."""
    s = nl.multiply(_col(w, c0, n), nl.rsqrt(nl.add(_col(v, c0, n), EPS)))
    return s, nl.subtract(_col(b, c0, n), nl.multiply(_col(m, c0, n), s))


def _scaled(data, col):
    """data * col, col a per-partition [n, 1] scalar, in fp32."""
    r = nl.ndarray(data.shape, dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_scalar(dst=r, data=data, op0=nl.multiply, operand0=col)
    return r


@nki.jit
def shufflenet_unit_kernel(x, conv1_weight, bn1_weight, bn1_bias, conv2_weight, bn2_weight, bn2_bias,
                           conv3_weight, bn3_weight, bn3_bias, bn1_running_mean, bn1_running_var,
                           bn2_running_mean, bn2_running_var, bn3_running_mean, bn3_running_var):
    """ShuffleNet unit on bf16 x [N, C, H, W] (channel-major, one SBUF tile per channel group).

    Grouped 1x1 convs are one matmul per group (the group's transposed weight block as
    stationary operand, the group's channels as moving operand). The depthwise 3x3 conv is
    nine shifted multiply-adds with per-partition tap weights over a zero-padded flattened
    map. The channel shuffle is a partition permutation, done on the PE: shuffled group k
    gathers channel i of old group j (3i + j = 20k + m) with a 0/1 selection matrix, an
    iota of 3i + j - 20k - m compared with 0, so it is exact. Every BatchNorm folds into a
    per-partition scale/shift (fused with the ReLU where there is one); the shortcut is
    added in fp32. Grids inside the flat padded map are .ap() views.
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
    # sel[j * GROUPS + k][i, m] = 1 iff channel i of old group j becomes channel m of shuffled group k
    sel = []
    for j in range(GROUPS):
        for k in range(GROUPS):
            code = nl.ndarray((mg, mg), dtype=nl.float32, buffer=nl.sbuf)
            nisa.iota(code, [[-1, mg]], offset=j - mg * k, channel_multiplier=GROUPS)
            s = nl.ndarray((mg, mg), dtype=dt, buffer=nl.sbuf)
            nisa.tensor_scalar(dst=s, data=code, op0=nl.equal, operand0=0.0)
            sel.append(s)

    for n in nl.affine_range(Nb):
        xg = [nl.load(xr[n, j * cg_in:(j + 1) * cg_in, 0:HW]) for j in range(GROUPS)]
        ys = []
        for j in nl.static_range(GROUPS):
            s1, t1 = _bn(bn1_weight, bn1_bias, bn1_running_mean, bn1_running_var, j * mg, mg)
            hp = nl.zeros((mg, L), dtype=nl.float32, buffer=nl.sbuf)
            y1 = nl.ndarray((mg, HW), dtype=nl.float32, buffer=nl.sbuf)
            for (p0, w) in chunks:
                acc = nl.ndarray((mg, w), dtype=nl.float32, buffer=nl.psum)
                nisa.nc_matmul(dst=acc, stationary=w1_t[j], moving=xg[j][0:cg_in, p0:p0 + w])
                nisa.activation(dst=y1[0:mg, p0:p0 + w], op=nl.relu, data=acc, scale=s1, bias=t1)
            nisa.tensor_copy(dst=hp.ap([[L, mg], [Wp, H], [1, W]], offset=Wp + 1),
                             src=y1.ap([[HW, mg], [W, H], [1, W]], offset=0))
            wk = nl.load(w2[j * mg:(j + 1) * mg, 0:9], dtype=nl.float32)
            acc2 = _scaled(hp[0:mg, 0:H * Wp], wk[0:mg, 0:1])
            for tap in nl.static_range(1, 9):
                s = (tap // 3) * Wp + tap % 3
                acc2 = nl.add(acc2, _scaled(hp[0:mg, s:s + H * Wp], wk[0:mg, tap:tap + 1]))
            s2, t2 = _bn(bn2_weight, bn2_bias, bn2_running_mean, bn2_running_var, j * mg, mg)
            z2 = nl.ndarray((mg, H * Wp), dtype=dt, buffer=nl.sbuf)
            nisa.tensor_scalar(dst=z2, data=acc2, op0=nl.multiply, operand0=s2, op1=nl.add, operand1=t2)
            y2 = nl.ndarray((mg, HW), dtype=dt, buffer=nl.sbuf)
            nisa.tensor_copy(dst=y2.ap([[HW, mg], [W, H], [1, W]], offset=0),
                             src=z2.ap([[H * Wp, mg], [Wp, H], [1, W]], offset=0))
            ys.append(y2)
        for k in nl.static_range(GROUPS):
            s3, t3 = _bn(bn3_weight, bn3_bias, bn3_running_mean, bn3_running_var, k * og, og)
            for (p0, w) in chunks:
                sh = nl.ndarray((mg, w), dtype=nl.float32, buffer=nl.psum)
                for j in nl.static_range(GROUPS):
                    nisa.nc_matmul(dst=sh, stationary=sel[j * GROUPS + k], moving=ys[j][0:mg, p0:p0 + w],
                                   accumulate=(j > 0))                                  # shuffled group k
                acc3 = nl.ndarray((og, w), dtype=nl.float32, buffer=nl.psum)
                nisa.nc_matmul(dst=acc3, stationary=w3_t[k], moving=nl.copy(sh, dtype=dt))   # [80, w]
                z = nl.ndarray((og, w), dtype=nl.float32, buffer=nl.sbuf)
                nisa.activation(dst=z, op=nl.relu, data=acc3, scale=s3, bias=t3)
                nl.store(outr[n, k * og:(k + 1) * og, p0:p0 + w],
                         value=nl.add(z, xg[k][0:og, p0:p0 + w], dtype=dt))
    return out
