import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa

EPS = 1e-5
MOMENTUM = 0.1


@nki.jit
def batchnorm_train_kernel(x, weight, bias, running_mean, running_var):
    """Training-mode BatchNorm2d on float32 x [N, C, H, W], C <= 128 -> (y, running_mean', running_var').

    Channels on partitions; the whole batch stays in SBUF as [C, N, H*W], so the
    per-channel statistics over (N, H, W) are free-axis reductions.  Two passes (mean,
    then centred squares) keep the variance accurate; the running variance uses the
    unbiased estimate var * n / (n - 1).
    """
    N, C, H, W = x.shape
    HW = H * W
    cnt = N * HW
    y_out = nl.ndarray((N, C, H, W), dtype=x.dtype, buffer=nl.shared_hbm)
    rm_out = nl.ndarray((C,), dtype=x.dtype, buffer=nl.shared_hbm)
    rv_out = nl.ndarray((C,), dtype=x.dtype, buffer=nl.shared_hbm)
    xr = x.reshape((N, C, HW))
    yr = y_out.reshape((N, C, HW))

    xs = nl.ndarray((C, N, HW), dtype=nl.float32, buffer=nl.sbuf)
    for n in nl.affine_range(N):
        xs[:, n, :] = nl.load(xr[n])
    mean = nl.multiply(nl.sum(xs, axis=[1, 2]), 1.0 / cnt)                   # [C, 1]
    sq = nl.ndarray((C, N), dtype=nl.float32, buffer=nl.sbuf)
    for n in nl.affine_range(N):
        xc = nl.ndarray(xs[:, n, :].shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(xc, data=xs[:, n, :], op0=nl.subtract, operand0=mean)
        sq[:, n:n + 1] = nl.sum(nl.square(xc), axis=[1])
    var = nl.multiply(nl.sum(sq, axis=[1]), 1.0 / cnt)

    gam = nl.load(weight.reshape((C, 1)))
    bet = nl.load(bias.reshape((C, 1)))
    scale = nl.multiply(gam, nl.rsqrt(nl.add(var, EPS)))
    shift = nl.subtract(bet, nl.multiply(mean, scale))
    for n in nl.affine_range(N):
        y = nl.ndarray(xs[:, n, :].shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(y, data=xs[:, n, :], op0=nl.multiply, operand0=scale, op1=nl.add, operand1=shift)
        nl.store(yr[n], value=y)

    rm = nl.load(running_mean.reshape((C, 1)))
    rv = nl.load(running_var.reshape((C, 1)))
    rm_new = nl.ndarray(mean.shape, dtype=nl.float32, buffer=nl.sbuf)
    nisa.scalar_tensor_tensor(rm_new, data=mean, op0=nl.multiply, operand0=MOMENTUM, op1=nl.add, operand1=nl.multiply(rm, 1.0 - MOMENTUM))
    rv_new = nl.ndarray(var.shape, dtype=nl.float32, buffer=nl.sbuf)
    nisa.scalar_tensor_tensor(rv_new, data=var, op0=nl.multiply, operand0=MOMENTUM * cnt / (cnt - 1.0), op1=nl.add, operand1=nl.multiply(rv, 1.0 - MOMENTUM))
    nl.store(rm_out.reshape((C, 1)), value=rm_new)
    nl.store(rv_out.reshape((C, 1)), value=rv_new)
    return y_out, rm_out, rv_out
