# nki-case: args=128x128:float32,128x512:float32
# Passes the HBM kernel inputs straight to the Tensor Engine.
# Fix: load both operands into SBUF first.
# expect-output: in0.T @ in1
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def matmul_from_hbm(a, b):
    res = nl.ndarray((128, 512), dtype=a.dtype, buffer=nl.shared_hbm)
    ps = nisa.nc_matmul(nl.load(a), nl.load(b))
    nl.store(res, value=nl.copy(ps))
    return res
