import nki
import nki.language as nl
import nki.isa as nisa
import numpy as np


@nki.jit
def avgpool2d_kernel(x):
    """2 x 2 average pooling, stride 2, of float32 x [2, 32, 32, 32].

    The 64 (image, channel) planes are the partitions; each of the four window positions
    (di, dj) is one strided DMA load of a [64, 16, 16] tile (rows 2i + di, columns 2j + dj),
    and the pooled tile is their sum times 1/4.
    """
    N, C, H, W = x.shape
    OH, OW = H // 2, W // 2
    planes = N * C
    out = nl.ndarray((N, C, OH, OW), dtype=x.dtype, buffer=nl.shared_hbm)
    x3 = x.reshape((planes, H, W))
    out3 = out.reshape((planes, OH, OW))
    acc = nl.load(x3[0:planes, 0:0 + 2 * (OH - 1) + 1:2, 0:0 + 2 * (OW - 1) + 1:2])
    acc = nl.add(acc, nl.load(x3[0:planes, 0:0 + 2 * (OH - 1) + 1:2, 1:1 + 2 * (OW - 1) + 1:2]))
    acc = nl.add(acc, nl.load(x3[0:planes, 1:1 + 2 * (OH - 1) + 1:2, 0:0 + 2 * (OW - 1) + 1:2]))
    acc = nl.add(acc, nl.load(x3[0:planes, 1:1 + 2 * (OH - 1) + 1:2, 1:1 + 2 * (OW - 1) + 1:2]))
    nl.store(out3[0:planes, 0:OH, 0:OW], value=nl.multiply(acc, 0.25))
    return out
