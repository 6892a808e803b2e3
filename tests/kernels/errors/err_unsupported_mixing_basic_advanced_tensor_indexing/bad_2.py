# nki-case: args=128x128:float32
# Takes the top 64 rows of an SBUF tile with a slice for rows and an arange for columns.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def top_rows_doubled(x):
    res = nl.ndarray((64, 128), dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    i_f = nl.arange(128)[None, :]
    top = nl.multiply(xt[0:64, i_f], 2.0)  # expect-error: err_unsupported_mixing_basic_advanced_tensor_indexing  # expect-col: 23
    nl.store(res, value=top)
    return res
