# nki-case: args=4x2x128x64:float32 grid=4,2
# nl.nc / nl.spmd_dim (2.24 nki.language) describe how a launch-grid dimension is split over
# physical NeuronCores; only the extent matters for what each instance computes. Module-level
# code sizes the grid the way the docs launch it (kernel[nl.spmd_dim(nl.nc(2), 2), 2]), and the
# kernel checks that extent against nl.num_programs(0).
# expect-output: in0 * 2.0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl

GRID = (nl.spmd_dim(nl.nc(2), 2), 2)
SUGAR = (nl.nc(2) * 2, 2 * nl.nc(2))


@nki.jit
def double_blocks(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    assert nl.num_programs(0) == GRID[0] == SUGAR[0] == SUGAR[1]
    i = nl.program_id(0)
    j = nl.program_id(1)
    t = nl.load(x[i, j])
    nl.store(out[i, j], value=nl.multiply(t, 2.0))
    return out
