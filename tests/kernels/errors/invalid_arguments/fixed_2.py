# nki-case: args=128x64:float32
# Fix of bad_2.py: a positive number of NeuronCores.
# expect-output: in0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl

@nki.jit
def copy_rows(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    cores = nl.nc(2)
    nl.store(out, value=nl.load(x))
    return out
