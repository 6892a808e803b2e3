# nki-case: args=128x512:float32
# A direct-allocation kernel returns a reshaped view of its shared_hbm output. The 2.24 tensor
# docs (general/nki/api/nki/__init__.py, reshape: a new view, no copy) make the view the output
# itself, so the rule that every shared_hbm tensor of an allocated kernel must be returned
# (nki_direct_allocation_guide.rst, Known Limitations #1) is met: no non_io_hbm_tensor.
# expect-output: (in0 * 2.0).reshape(128 * 512)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.compiler as ncc


@nki.jit
def flat_double(x):
    out = nl.ndarray((128, 512), dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray((nl.par_dim(128), 512), dtype=x.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=0))
    u = nl.ndarray((nl.par_dim(128), 512), dtype=x.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=2048))
    t[...] = nl.load(x)
    u[...] = nl.multiply(t, 2.0)
    nl.store(out, value=u)
    return out.reshape((128 * 512,))
