# nki-case: args=512x256:float32
# expect-message: 'acc'
# expect-hint: declare the tensor before the block
# Sums four row blocks by rebinding `acc` inside the loop, then stores `acc` after the loop.
# `acc = ...` inside the loop creates a new loop-local tensor (shadowing warning);
# the name is then used outside the loop body.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def sum_row_blocks(x):
    res = nl.ndarray((128, 256), dtype=x.dtype, buffer=nl.shared_hbm)
    acc = nl.zeros((128, 256), dtype=nl.float32, buffer=nl.sbuf)
    for k in nl.sequential_range(4):
        blk = nl.load(x[k * 128:(k + 1) * 128, :])
        acc = nl.add(acc, blk)
    nl.store(res, value=acc)  # expect-error: err_local_variable_used_out_of_scope  # expect-col: 25
    return res
