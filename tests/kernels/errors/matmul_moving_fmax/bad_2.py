# nki-case: args=128x64:bfloat16,128x768:bfloat16
# nl.matmul(transpose_x=True) with a 768-wide right operand.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def nl_matmul_wide(a, b):
    res = nl.ndarray((64, 768), dtype=nl.float32, buffer=nl.shared_hbm)
    a_sb = nl.load(a)
    b_sb = nl.load(b)
    ps = nl.matmul(a_sb, b_sb, transpose_x=True)  # expect-error: matmul_moving_fmax  # expect-col: 10
    nl.store(res, value=nl.copy(ps))
    return res
