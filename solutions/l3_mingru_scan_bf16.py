import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


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
        z = nisa.activation(op=nl.sigmoid, data=nisa.nc_matmul(wz_t, x_t), bias=bz, dtype=nl.float32)
        c = nisa.activation(op=nl.copy, data=nisa.nc_matmul(wh_t, x_t), bias=bh, dtype=nl.float32)
        keep = nisa.tensor_scalar(data=z, op0=nl.multiply, operand0=-1.0, op1=nl.add, operand1=1.0)
        h_t = nisa.tensor_tensor_scan(keep, nl.multiply(z, c), initial=0.0, op0=nl.multiply, op1=nl.add,
                                      dtype=nl.float32)                     # [D, T]
        for j in nl.affine_range(T // P):
            blk = nisa.nc_transpose(h_t[:, j * P:(j + 1) * P])              # [128 steps, D]
            nl.store(out[b, j * P:(j + 1) * P, 0:D], value=nl.copy(blk, dtype=out.dtype))
    return out
