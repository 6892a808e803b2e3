# nki-case: args=128x64:float32,128x1:float32,128x64:float32 init0=rand(0,1) init1=rand(2,3) init2=rand(1,2)
# nisa.scalar_tensor_tensor reverse1 (general/nki/api/nki/isa/__init__.py): "if true, operand1 is
# the lhs of op1", i.e. operand1 <op1> (data <op0> operand0); with reverse0 as well,
# operand1 <op1> (operand0 <op0> data). (reverse0 alone: nisa_scalar_tensor_tensor_reverse.py.)
# expect-output: (in2 - in0 * in1, in2 / (in1 - in0), (in0 - in1) / in2)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def stt_reverse1(x, s, y):
    o1 = nl.ndarray((128, 64), dtype=nl.float32, buffer=nl.shared_hbm)
    o2 = nl.ndarray((128, 64), dtype=nl.float32, buffer=nl.shared_hbm)
    o3 = nl.ndarray((128, 64), dtype=nl.float32, buffer=nl.shared_hbm)
    t = nl.load(x)
    st = nl.load(s)
    yt = nl.load(y)
    nl.store(o1, value=nisa.scalar_tensor_tensor(data=t, op0=np.multiply, operand0=st, op1=np.subtract,
                                                 operand1=yt, reverse1=True))
    nl.store(o2, value=nisa.scalar_tensor_tensor(data=t, op0=np.subtract, operand0=st, reverse0=True,
                                                 op1=np.divide, operand1=yt, reverse1=True))
    nl.store(o3, value=nisa.scalar_tensor_tensor(data=t, op0=np.subtract, operand0=st, op1=np.divide,
                                                 operand1=yt))
    return o1, o2, o3
