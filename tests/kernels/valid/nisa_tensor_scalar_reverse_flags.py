# nki-case: args=128x64:float32,128x1:float32,128x64:int32 init0=rand(0,1) init1=rand(2,3) init2=randint(0,4)
# nisa.tensor_scalar operand order (general/nki/api/nki/isa/__init__.py, tensor_scalar):
# reverse0 gives tmp = operand0 <op0> data, reverse1 gives operand1 <op1> tmp. All four flag
# combinations with the non-commutative subtract and divide, the example
# (x * 2) then 1 - tmp, and the integer (bitvec) path with shifts.
# expect-output: ((in0 - in1) / 4.0, (in1 - in0) / 4.0, 4.0 / (in0 - in1), 4.0 / (in1 - in0), 1.0 - in0 * 2.0, 256 >> (in2 << 1))
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def reverse_flags(x, s, n):
    outs = [nl.ndarray((128, 64), dtype=nl.float32, buffer=nl.shared_hbm) for _ in range(5)]
    out_i = nl.ndarray((128, 64), dtype=nl.int32, buffer=nl.shared_hbm)
    t = nl.load(x)
    st = nl.load(s)
    r = [
        nisa.tensor_scalar(t, np.subtract, st, op1=np.divide, operand1=4.0),
        nisa.tensor_scalar(t, np.subtract, st, reverse0=True, op1=np.divide, operand1=4.0),
        nisa.tensor_scalar(t, np.subtract, st, op1=np.divide, operand1=4.0, reverse1=True),
        nisa.tensor_scalar(t, np.subtract, st, reverse0=True, op1=np.divide, operand1=4.0, reverse1=True),
        nisa.tensor_scalar(t, np.multiply, 2.0, op1=np.subtract, operand1=1.0, reverse1=True),
    ]
    for i in nl.static_range(5):
        nl.store(outs[i], value=r[i])
    ni = nl.load(n)
    ri = nisa.tensor_scalar(ni, np.left_shift, 1, op1=np.right_shift, operand1=256, reverse1=True)
    nl.store(out_i, value=ri)
    return outs[0], outs[1], outs[2], outs[3], outs[4], out_i
