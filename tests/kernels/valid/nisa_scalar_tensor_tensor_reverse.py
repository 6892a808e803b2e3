# nki-case: args=32x64:float32,32x1:float32,32x64:float32
# scalar_tensor_tensor with reverse0: (operand0 - data) * operand1.
# expect-output: (in1 - in0) * in2
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa

@nki.jit
def k(x, s, y):
    t = nl.load(x)
    st = nl.load(s)
    yt = nl.load(y)
    r = nisa.scalar_tensor_tensor(data=t, op0=np.subtract, operand0=st, reverse0=True, op1=np.multiply, operand1=yt)
    out = nl.ndarray((32, 64), dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(out, r)
    return out
