# nki-case: args=128x64:float32
# A scratch tile is created at module level and never used by the kernel. Python runs
# module-level statements when the file is imported, so the NKI call fails there, used or not.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl

SCRATCH = nl.zeros((128, 64), dtype=nl.float32, buffer=nl.sbuf)  # expect-error: err_nki_api_outside_of_nki_kernel  # expect-col: 11


@nki.jit
def double(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    nl.store(res, value=nl.multiply(nl.load(x), 2.0))
    return res
