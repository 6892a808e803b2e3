# nki-case: args=128x128:float32,128x512:float32
# Squares a.T @ b with nl.power straight from the matmul's PSUM tile.
# Fix: copy the PSUM result to SBUF first.
# expect-output: (in0.T @ in1) ** 2
# expect-tol: rtol=1e-3 atol=1e-2
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def squared_product(a, b):
    res = nl.ndarray((128, 512), dtype=a.dtype, buffer=nl.shared_hbm)
    ps = nisa.nc_matmul(nl.load(a), nl.load(b))
    sq = nl.power(nl.copy(ps), 2.0)
    nl.store(res, value=sq)
    return res
