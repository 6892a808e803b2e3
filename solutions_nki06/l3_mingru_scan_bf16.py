import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def mingru_scan_kernel(x, to_z_weight, to_z_bias, to_h_weight, to_h_bias):
    """minGRU h_t = (1 - z_t) h_{t-1} + z_t c_t over dim 1 of bf16 x [B, T, D], D <= 128, T <= 512.

    The scan runs over the sequence, which is the row axis of x, so everything is computed
    transposed: x^T [D, T] comes from a transposed DMA load, z^T and c^T [D, T] from
    matmuls with W^T as the stationary operand (biases become per-partition activation
    biases), and the recurrence is then one tensor_tensor_scan along the free axis.  The
    result is PE-transposed back in 128-step blocks.
    """
    B, T, D = x.shape
    P = nl.tile_size.pmax
    out = nl.ndarray((B, T, D), dtype=x.dtype, buffer=nl.shared_hbm)

    wz_t = nl.load_transpose2d(to_z_weight[0:D, 0:D])                      # [D_in, D_out]
    wh_t = nl.load_transpose2d(to_h_weight[0:D, 0:D])
    bz = nl.load(to_z_bias.reshape((D, 1)), dtype=nl.float32)
    bh = nl.load(to_h_bias.reshape((D, 1)), dtype=nl.float32)
    for b in nl.affine_range(B):
        x_t = nl.load_transpose2d(x[b, 0:T, 0:D])                          # [D, T]
        nc_matmul_out = nl.ndarray((wz_t.shape[1], x_t.shape[1]), dtype=nl.float32, buffer=nl.psum)
        nisa.nc_matmul(nc_matmul_out, wz_t, x_t)
        z = nl.ndarray((128, 256), dtype=nl.float32, buffer=nl.sbuf)
        nisa.activation(z, op=nl.sigmoid, data=nc_matmul_out, bias=bz)
        nc_matmul_out2 = nl.ndarray((wh_t.shape[1], x_t.shape[1]), dtype=nl.float32, buffer=nl.psum)
        nisa.nc_matmul(nc_matmul_out2, wh_t, x_t)
        c = nl.ndarray((128, 256), dtype=nl.float32, buffer=nl.sbuf)
        nisa.activation(c, op=nl.copy, data=nc_matmul_out2, bias=bh)
        keep = nl.ndarray(z.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(keep, data=z, op0=nl.multiply, operand0=-1.0, op1=nl.add, operand1=1.0)
        h_t = nl.ndarray(keep.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_tensor_scan(h_t, keep, nl.multiply(z, c), initial=0.0, op0=nl.multiply, op1=nl.add)                     # [D, T]
        for j in nl.affine_range(T // P):
            blk = nl.ndarray((h_t[:, j * P:(j + 1) * P].shape[1], h_t[:, j * P:(j + 1) * P].shape[0]), dtype=nl.float32, buffer=nl.psum)
            nisa.nc_transpose(blk, h_t[:, j * P:(j + 1) * P])              # [128 steps, D]
            nl.store(out[b, j * P:(j + 1) * P, 0:D], value=nl.copy(blk, dtype=out.dtype))
    return out
