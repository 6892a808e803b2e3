# nki-case: args=256x64:float32 grid=2
# SPMD kernel whose two instances both store into rows 0..127 of the shared output.
# Fix: offset the destination by the program id.
# expect-output: np.exp(in0)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def spmd_exp(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    pid = nl.program_id(0)
    t = nl.load(x[pid * 128:(pid + 1) * 128, :])
    nl.store(res[pid * 128:(pid + 1) * 128, :], value=nl.exp(t))
    return res
