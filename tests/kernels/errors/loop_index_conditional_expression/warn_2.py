# nki-case: args=512x64:float32
# Shifts a tensor down by one 128-row tile: tile i of the result is tile i - 1 of the input,
# and zeros for i = 0. The load of tile i - 1 sits in the conditional expression's true
# branch, so it is only performed (and bounds-checked) in the iterations where i > 0.
# expect-output: np.concatenate([np.zeros((128, 64), np.float32), in0[:384]])
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def shift_tiles(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    zero = nl.zeros((128, 64), dtype=x.dtype, buffer=nl.sbuf)
    for i in nl.affine_range(4):
        t = nl.load(x[(i - 1) * 128:i * 128, :]) if i > 0 else zero  # expect-warning: loop_index_conditional_expression
        nl.store(out[i * 128:(i + 1) * 128, :], value=t)
    return out
