# nki-case: args=100x256:float32
# Row tiling with `rows // 128` tiles: for 100 rows the loop runs zero times and `res` is never written.
# The diagnostic is expected at the creation of the unwritten output tensor.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def copy_rows(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)  # expect-error: err_tensor_output_not_written_to  # expect-col: 11
    rows_total = x.shape[0]
    i_p = nl.arange(128)[:, None]
    i_f = nl.arange(256)[None, :]
    for i in nl.affine_range(rows_total // 128):
        rows = i * 128 + i_p
        t = nl.load(x[rows, i_f], mask=(rows < rows_total))
        nl.store(res[rows, i_f], value=t, mask=(rows < rows_total))
    return res
