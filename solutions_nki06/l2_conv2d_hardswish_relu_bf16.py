import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def conv2d_hardswish_relu_kernel(x, conv_weight, conv_bias):
    """relu(hardswish(conv2d(x) + b)), stride 1, no padding, bf16 I/O with fp32 PSUM.

    The conv is KH*KW shifted matmuls over the flattened image (see the flat-window note:
    tap (kh, kw) of a block of ROWS output rows is the contiguous SBUF window at offset
    (row0 + kh) * W + kw).  hardswish(y) = y * clamp(y + 3, 0, 6) / 6 is negative only for
    y < 0, so relu(hardswish(y)) = relu(y) * clamp(y + 3, 0, 6) / 6.
    """
    B, Ci, H, W = x.shape
    Co, _, KH, KW = conv_weight.shape
    Ho = H - KH + 1
    Wo = W - KW + 1
    NT = KH * KW
    ROWS = 8                        # Ho % ROWS == 0 and ROWS * W <= 512
    out = nl.ndarray((B, Co, Ho, Wo), dtype=x.dtype, buffer=nl.shared_hbm)

    x_flat = x.reshape((B, Ci, H * W))
    w_sb = nl.load(conv_weight.reshape((Co, Ci * NT)))
    w_taps = nl.ndarray((Ci, NT, Co), dtype=conv_weight.dtype, buffer=nl.sbuf)
    for tap in nl.affine_range(NT):
        nc_transpose_out = nl.ndarray((w_sb[0:Co, tap:tap + NT * (Ci - 1) + 1:NT].shape[1], w_sb[0:Co, tap:tap + NT * (Ci - 1) + 1:NT].shape[0]), dtype=nl.bfloat16, buffer=nl.sbuf)
        nisa.nc_transpose(nc_transpose_out, w_sb[0:Co, tap:tap + NT * (Ci - 1) + 1:NT])
        w_taps[:, tap, :] = nl.copy(nc_transpose_out, dtype=conv_weight.dtype)
    cb = nl.load(conv_bias.reshape((Co, 1)), dtype=nl.float32)

    for b in nl.affine_range(B):
        x_sb = nl.zeros((Ci, H * W + KW - 1), dtype=x.dtype, buffer=nl.sbuf)
        x_sb[:, 0:H * W] = nl.load(x_flat[b, 0:Ci, 0:H * W])
        for blk in nl.affine_range(Ho // ROWS):
            acc = nl.zeros((Co, ROWS * W), nl.float32, buffer=nl.psum)
            for kh in nl.affine_range(KH):
                for kw in nl.affine_range(KW):
                    start = (blk * ROWS + kh) * W + kw
                    nisa.nc_matmul(acc, w_taps[:, kh * KW + kw, :], x_sb[:, start:start + ROWS * W], accumulate=True)
            y = nl.ndarray(acc.shape, dtype=nl.float32, buffer=nl.sbuf)
            nisa.tensor_scalar(y, data=acc, op0=nl.add, operand0=cb)                 # fp32
            gate = nl.ndarray(y.shape, dtype=nl.float32, buffer=nl.sbuf)
            nisa.tensor_scalar(gate, data=y, op0=nl.add, operand0=3.0, op1=nl.maximum, operand1=0.0)
            tensor_scalar_out = nl.ndarray(gate.shape, dtype=nl.float32, buffer=nl.sbuf)
            nisa.tensor_scalar(tensor_scalar_out, data=gate, op0=nl.minimum, operand0=6.0, op1=nl.multiply, operand1=1.0 / 6.0)
            gate = tensor_scalar_out
            res = nl.ndarray(y.shape, dtype=out.dtype, buffer=nl.sbuf)
            nisa.scalar_tensor_tensor(res, data=y, op0=nl.maximum, operand0=0.0, op1=nl.multiply, operand1=gate)
            nl.store(out[b, 0:Co, blk * ROWS:blk * ROWS + ROWS, 0:Wo], value=res.ap([[res.strides[0], Co], [W * res.strides[1], ROWS], [res.strides[1], Wo]]))
    return out
