# nki-case: args=128x64:float32,128x256:float32
# Stores the PSUM result of a matmul directly to HBM (SDK 2.24 requires an SBUF value; PSUM sources came in 2.26).
# Fix: evacuate PSUM to SBUF with nl.copy before the store.
# expect-output: in0.T @ in1
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def matmul_store_psum(a, b):
    res = nl.ndarray((64, 256), dtype=a.dtype, buffer=nl.shared_hbm)
    ps = nisa.nc_matmul(nl.load(a), nl.load(b))
    nl.store(res, value=nl.copy(ps))
    return res
