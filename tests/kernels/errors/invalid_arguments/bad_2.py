# nki-case: args=128x64:float32
# nl.nc(n) names n physical NeuronCores of a launch-grid dimension: n must be a positive integer.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl

@nki.jit
def copy_rows(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    cores = nl.nc(0)  # expect-error: invalid_arguments  # expect-col: 13
    nl.store(out, value=nl.load(x))
    return out
