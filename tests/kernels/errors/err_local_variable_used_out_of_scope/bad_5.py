# nki-case: args=512x64:float32
# Loads four row tiles into a Python list inside an affine_range loop, then stores them after it.
# The body is traced once, so the list holds one tile (created in the loop body) for all
# iterations: using it after the loop is a use out of its scope.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def stage_tiles(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    tiles = []
    for i in nl.affine_range(4):
        tiles.append(nl.load(x[i * 128:(i + 1) * 128, :]))
    for i in nl.static_range(4):
        nl.store(out[i * 128:(i + 1) * 128, :], value=tiles[i])  # expect-error: err_local_variable_used_out_of_scope  # expect-col: 55
    return out
