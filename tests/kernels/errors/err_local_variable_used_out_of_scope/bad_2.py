# nki-case: args=128x256:float32,128x256:float32
# Chooses the source per iteration in an if/else and uses the branch-local tile afterwards.
# `src` is bound inside the if/else blocks, so it is out of scope at the store.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def stack_two(a, b):
    res = nl.ndarray((256, 256), dtype=a.dtype, buffer=nl.shared_hbm)
    for i in nl.affine_range(2):
        if i < 1:
            src = nl.load(a)
        else:
            src = nl.load(b)
        nl.store(res[i * 128:(i + 1) * 128, :], value=src)  # expect-error: err_local_variable_used_out_of_scope  # expect-col: 55
    return res
