# nki-case: args=32x4x16:float32,32x2x4:uint32 init1=randint(0,64)
# nl.gather_flattened on 3-D data and indices: free dims flattened, uint32 indices.
# expect-output: np.take_along_axis(in0.reshape(32, -1), in1.reshape(32, -1), 1).reshape(32, 2, 4)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa

@nki.jit
def k(x, i):
    a = nl.load(x)
    it = nl.load(i)
    r = nl.gather_flattened(a, it)
    out = nl.ndarray((32, 2, 4), dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(out, r)
    return out
