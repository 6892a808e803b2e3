# nki-case: args=128x512:float32
# Direct-allocation kernel with an HBM scratch tensor (buffer=nl.hbm): only kernel inputs and
# returned outputs may be in HBM when direct allocation is used.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.compiler as ncc


@nki.jit
def roundtrip(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    scratch = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.hbm)  # expect-error: non_io_hbm_tensor  # expect-col: 15
    t = nl.ndarray((nl.par_dim(128), 512), dtype=x.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=0))
    u = nl.ndarray((nl.par_dim(128), 512), dtype=x.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=2048))
    t[...] = nl.load(x)
    nl.store(scratch, value=t)
    u[...] = nl.load(scratch)
    nl.store(out, value=u)
    return out
