import nki
import nki.language as nl
import nki.isa as nisa
import numpy as np


@nki.jit
def batchnorm2d_eval_kernel(x, weight, bias, running_mean, running_var):
    """Eval-mode BatchNorm2d of float32 x [4, 64, 16, 16] with per-channel weight, bias and
    running statistics [64] (eps 1e-5).

    Channels go to the partitions, so each statistic is a [64, 1] column: scale = weight *
    rsqrt(var + eps) and shift = bias - mean * scale are computed once, then every image's
    [64, 256] tile is one multiply-add with column broadcasts.
    """
    N, C, H, W = x.shape
    HW = H * W
    eps = 1e-5
    out = nl.ndarray((N, C, H, W), dtype=x.dtype, buffer=nl.shared_hbm)
    x3 = x.reshape((N, C, HW))
    out3 = out.reshape((N, C, HW))
    w = nl.load(weight.reshape((C, 1)))
    b = nl.load(bias.reshape((C, 1)))
    mean = nl.load(running_mean.reshape((C, 1)))
    var = nl.load(running_var.reshape((C, 1)))
    scale = nl.multiply(w, nl.rsqrt(nl.add(var, eps)))
    shift = nl.subtract(b, nl.multiply(mean, scale))
    for n in nl.affine_range(N):
        xt = nl.load(x3[n, 0:C, 0:HW])
        nl.store(out3[n, 0:C, 0:HW], value=nl.add(nl.multiply(xt, scale), shift))
    return out
