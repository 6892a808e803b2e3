import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


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
    i_co = nl.arange(Co)[:, None]
    i_ci = nl.arange(Ci)[None, :]
    w_taps = nl.ndarray((Ci, NT, Co), dtype=conv_weight.dtype, buffer=nl.sbuf)
    for tap in nl.affine_range(NT):
        w_taps[:, tap, :] = nl.copy(nisa.nc_transpose(w_sb[i_co, i_ci * NT + tap]), dtype=conv_weight.dtype)
    cb = nl.load(conv_bias.reshape((Co, 1)), dtype=nl.float32)

    i_o = nl.arange(Co)[:, None, None]
    i_r = nl.arange(ROWS)[None, :, None]
    i_c = nl.arange(Wo)[None, None, :]
    for b in nl.affine_range(B):
        x_sb = nl.zeros((Ci, H * W + KW - 1), dtype=x.dtype, buffer=nl.sbuf)
        x_sb[:, 0:H * W] = nl.load(x_flat[b, 0:Ci, 0:H * W])
        for blk in nl.affine_range(Ho // ROWS):
            acc = nl.zeros((Co, ROWS * W), nl.float32, buffer=nl.psum)
            for kh in nl.affine_range(KH):
                for kw in nl.affine_range(KW):
                    start = (blk * ROWS + kh) * W + kw
                    acc += nisa.nc_matmul(w_taps[:, kh * KW + kw, :], x_sb[:, start:start + ROWS * W])
            y = nisa.tensor_scalar(data=acc, op0=nl.add, operand0=cb)                 # fp32
            gate = nisa.tensor_scalar(data=y, op0=nl.add, operand0=3.0, op1=nl.maximum, operand1=0.0)
            gate = nisa.tensor_scalar(data=gate, op0=nl.minimum, operand0=6.0, op1=nl.multiply,
                                      operand1=1.0 / 6.0)
            res = nisa.scalar_tensor_tensor(data=y, op0=nl.maximum, operand0=0.0, op1=nl.multiply,
                                            operand1=gate, dtype=out.dtype)
            nl.store(out[b, i_o, blk * ROWS + i_r, i_c], value=res[i_o, i_r * W + i_c])
    return out
