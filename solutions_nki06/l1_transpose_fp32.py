import nki
import nki.language as nl
import nki.isa as nisa
import numpy as np


@nki.jit
def transpose_kernel(x):
    """out = x.T for float32 x [384, 256]: 128 x 128 blocks transposed on the Tensor Engine.

    Block (i, j) of x becomes block (j, i) of the output; every block is independent.
    """
    rows, cols = x.shape
    out = nl.ndarray((cols, rows), dtype=x.dtype, buffer=nl.shared_hbm)
    T = nl.tile_size.pmax
    for i in nl.affine_range(rows // T):
        for j in nl.affine_range(cols // T):
            block = nl.load(x[i * T:(i + 1) * T, j * T:(j + 1) * T])
            nc_transpose_out = nl.ndarray((block.shape[1], block.shape[0]), dtype=nl.float32, buffer=nl.psum)
            nisa.nc_transpose(nc_transpose_out, block)
            block_t = nl.copy(nc_transpose_out, dtype=x.dtype)
            nl.store(out[j * T:(j + 1) * T, i * T:(i + 1) * T], value=block_t)
    return out
