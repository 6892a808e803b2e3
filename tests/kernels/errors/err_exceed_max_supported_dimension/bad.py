# nki-case: args=32x4x16:float32
# Transposes a 3-D tile in one call.
# nl.transpose only accepts rank-2 tiles.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def flat_transpose(x):
    res = nl.ndarray((64, 32), dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    yt = nl.transpose(xt)  # expect-error: err_exceed_max_supported_dimension  # expect-col: 10
    nl.store(res, value=nl.copy(yt))
    return res
