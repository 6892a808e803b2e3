# nki-case: args=32x64:float32,32x2:float32,32x1:float32 target=trn2
# nisa.range_select: "bound0 and bound1 must have one element per partition" (2.24 docstring).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def window(x, b0, b1):
    t = nl.load(x)
    l0 = nl.load(b0)
    l1 = nl.load(b1)
    r = nisa.range_select(on_true_tile=t, comp_op0=nl.greater_equal, comp_op1=nl.less, bound0=l0, bound1=l1)  # expect-error: tensor_scalar_operand_shape  # expect-col: 9
    out = nl.ndarray((32, 64), dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(out, r)
    return out
