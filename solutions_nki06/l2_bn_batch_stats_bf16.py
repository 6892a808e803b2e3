import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def bn_batch_stats_kernel(x):
    """(mean, biased var) per channel over N, H, W of bfloat16 x [N, C, H, W], C <= 128, in float32.

    Channels on partitions, each image's H * W pixels along the free axis: the reduction over
    H and W is a free-axis sum, the one over N an accumulation across images.  Sums of x and
    x^2 are kept in float32 and combined as var = E[x^2] - mean^2 at the end.
    """
    N, C, H, W = x.shape
    HW = H * W
    mean_out = nl.ndarray((C,), dtype=nl.float32, buffer=nl.shared_hbm)
    var_out = nl.ndarray((C,), dtype=nl.float32, buffer=nl.shared_hbm)
    xr = x.reshape((N, C, HW))
    s1 = nl.zeros((C, 1), dtype=nl.float32, buffer=nl.sbuf)
    s2 = nl.zeros((C, 1), dtype=nl.float32, buffer=nl.sbuf)
    for n in nl.sequential_range(N):
        t = nl.load(xr[n], dtype=nl.float32)                            # [C, HW]
        s1[...] = nl.add(s1, nl.sum(t, axis=[1], keepdims=True))
        s2[...] = nl.add(s2, nl.sum(nl.square(t), axis=[1], keepdims=True))
    inv = 1.0 / (N * HW)
    mean = nl.multiply(s1, inv)
    var = nl.subtract(nl.multiply(s2, inv), nl.square(mean))
    nl.store(mean_out.reshape((C, 1)), value=mean)
    nl.store(var_out.reshape((C, 1)), value=var)
    return mean_out, var_out
