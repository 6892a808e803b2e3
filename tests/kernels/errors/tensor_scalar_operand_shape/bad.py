# nki-case: args=128x256:float32,128x256:float32
# Passes a full [128, 256] tile as operand0 of nisa.tensor_scalar.
# tensor_scalar operands must be scalars or [P, 1] vectors.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def mul_tiles(x, y):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    yt = nl.load(y)
    z = nisa.tensor_scalar(xt, np.multiply, yt)  # expect-error: tensor_scalar_operand_shape  # expect-col: 9
    nl.store(res, value=z)
    return res
