import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def depthwise_conv2d_kernel(x, conv_weight):
    """Depthwise KxK convolution, stride 1, no padding, float32 x [B, C, H, W], C <= 128.

    There is no contraction, so the Vector engine does it: channels on partitions, the
    image flattened on the free axis.  Tap (kh, kw) is the contiguous window starting at
    kh * W + kw of length OH * W (the last K - 1 columns of every row are junk and are
    not stored); each tap is one multiply-add with a per-partition weight scalar.
    """
    B, C, H, W = x.shape
    K = conv_weight.shape[2]
    OH = H - K + 1
    OW = W - K + 1
    out = nl.ndarray((B, C, OH, OW), dtype=x.dtype, buffer=nl.shared_hbm)
    w = nl.load(conv_weight.reshape((C, K * K)))
    xr = x.reshape((B, C, H * W))
    L = OH * W
    for b in nl.affine_range(B):
        xt = nl.zeros((C, H * W + K - 1), dtype=nl.float32, buffer=nl.sbuf)   # K - 1 zero columns at the end
        xt[:, 0:H * W] = nl.load(xr[b])
        acc = nl.ndarray(xt[:, 0:L].shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(acc, data=xt[:, 0:L], op0=nl.multiply, operand0=w[:, 0:1])
        for tap in nl.static_range(1, K * K):
            start = (tap // K) * W + tap % K
            scalar_tensor_tensor_out = nl.ndarray(xt[:, start:start + L].shape, dtype=nl.float32, buffer=nl.sbuf)
            nisa.scalar_tensor_tensor(scalar_tensor_tensor_out, data=xt[:, start:start + L], op0=nl.multiply, operand0=w[:, tap:tap + 1], op1=nl.add, operand1=acc)
            acc = scalar_tensor_tensor_out
        nl.store(out[b], value=acc.ap([[acc.strides[0], C], [W * acc.strides[1], OH], [acc.strides[1], OW]]))
    return out
