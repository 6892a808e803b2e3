# nki-case: args=512x128:float32
# Stages four row blocks in an SBUF tensor with a block dimension in front of the partition dim.
# SDK 2.24 still compiles block dimensions (its own tutorials and the direct-allocation guide use them);
# since 2.23 the compiler only warns.  The err_ code is listed in the 2.24 error page without a
# trigger, so under SDK 2.24 this is a WARNING, not an error.
# expect-output: in0 * 2.0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def blocked_double(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    stage = nl.ndarray((4, nl.par_dim(128), 128), dtype=x.dtype, buffer=nl.sbuf)  # expect-warning: block_dimension_deprecated  # expect-col: 13
    for b in nl.affine_range(4):
        stage[b] = nl.load(x[b * 128:(b + 1) * 128, :])
        nl.store(res[b * 128:(b + 1) * 128, :], value=nl.multiply(stage[b], 2.0))
    return res
