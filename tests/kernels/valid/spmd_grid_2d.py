# nki-case: args=256x256:float32,256x256:float32 grid=2,2
# 2-D SPMD launch grid: instance (i, j) handles the 128x128 block at (i, j), located with
# nl.program_id(0/1); nl.num_programs gives the grid extents.
# expect-output: in0 * in1
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def blockwise_mul(a, b):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    bi = nl.program_id(0)
    bj = nl.program_id(1)
    rows_per = a.shape[0] // nl.num_programs(0)
    cols_per = a.shape[1] // nl.num_programs(1)
    r0 = bi * rows_per
    c0 = bj * cols_per
    ta = nl.load(a[r0:r0 + rows_per, c0:c0 + cols_per])
    tb = nl.load(b[r0:r0 + rows_per, c0:c0 + cols_per])
    nl.store(out[r0:r0 + rows_per, c0:c0 + cols_per], value=nl.multiply(ta, tb))
    return out
