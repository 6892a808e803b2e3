# nki-case: args=128x256:float32,128x1:float32
# Per-row scaling where only the first 64 scale entries were loaded.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def row_scale(x, scale):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    st = nl.load(scale[0:64, :])
    y = nisa.tensor_scalar(xt, np.multiply, st)  # expect-error: err_num_partition_mismatch  # expect-col: 9
    nl.store(res, value=y)
    return res
