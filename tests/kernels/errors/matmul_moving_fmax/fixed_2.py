# nki-case: args=128x64:bfloat16,128x768:bfloat16
# nl.matmul(transpose_x=True) with a 768-wide right operand.
# Fix: tile the right operand's free dim to at most 512 (here 2 x 384).
# expect-output: in0.astype(np.float32).T @ in1.astype(np.float32)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def nl_matmul_wide(a, b):
    res = nl.ndarray((64, 768), dtype=nl.float32, buffer=nl.shared_hbm)
    a_sb = nl.load(a)
    for n in nl.affine_range(2):
        b_sb = nl.load(b[:, n * 384:(n + 1) * 384])
        ps = nl.matmul(a_sb, b_sb, transpose_x=True)
        nl.store(res[:, n * 384:(n + 1) * 384], value=nl.copy(ps))
    return res
