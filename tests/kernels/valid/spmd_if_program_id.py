# nki-case: args=256x128:float32 grid=2
# An `if` on nl.program_id: instance 0 applies exp, instance 1 applies tanh to its half.
# expect-output: np.concatenate([np.exp(in0[:128]), np.tanh(in0[128:])])
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def half_exp_half_tanh(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    pid = nl.program_id(0)
    t = nl.load(x[pid * 128:(pid + 1) * 128, :])
    if pid < 1:
        nl.store(out[pid * 128:(pid + 1) * 128, :], value=nl.exp(t))
    else:
        nl.store(out[pid * 128:(pid + 1) * 128, :], value=nl.tanh(t))
    return out
