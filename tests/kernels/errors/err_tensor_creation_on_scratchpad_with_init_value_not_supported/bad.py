# nki-case: args=128x512:float32
# Direct-allocation kernel that creates a constant-1 tile with nl.full in an allocated SBUF buffer.
# Allocated SBUF/PSUM tensors cannot be created with an initial value.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.compiler as ncc


@nki.jit
def alloc_plus_one(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    ones = nl.full((nl.par_dim(128), 512), 1.0, dtype=nl.float32, buffer=ncc.sbuf.mod_alloc(base_addr=0))  # expect-error: err_tensor_creation_on_scratchpad_with_init_value_not_supported  # expect-col: 12
    xt = nl.ndarray((nl.par_dim(128), 512), dtype=x.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=2048))
    xt[...] = nl.load(x)
    total = nl.ndarray((nl.par_dim(128), 512), dtype=x.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=4096))
    total[...] = nl.add(xt, ones)
    nl.store(res, value=total)
    return res
