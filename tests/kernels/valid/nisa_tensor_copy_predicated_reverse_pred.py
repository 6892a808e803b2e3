# nki-case: args=128x64:float32,128x64:float32,128x64:uint8 init2=randint(0,2)
# nisa.tensor_copy_predicated (general/nki/api/nki/isa/__init__.py): where the predicate is true
# src is copied into dst, elsewhere dst keeps its value; reverse_pred reverses the effect of the
# predicate (copy where it is false).
# expect-output: (np.where(in2 != 0, in0, in1), np.where(in2 == 0, in0, in1))
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def copy_predicated(x, y, p):
    o1 = nl.ndarray((128, 64), dtype=nl.float32, buffer=nl.shared_hbm)
    o2 = nl.ndarray((128, 64), dtype=nl.float32, buffer=nl.shared_hbm)
    src = nl.load(x)
    pred = nl.load(p)
    d1 = nl.load(y)
    d2 = nl.load(y)
    nisa.tensor_copy_predicated(src=src, dst=d1, predicate=pred)
    nisa.tensor_copy_predicated(src=src, dst=d2, predicate=pred, reverse_pred=True)
    nl.store(o1, value=d1)
    nl.store(o2, value=d2)
    return o1, o2
