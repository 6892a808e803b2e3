# nki-case: args=2x128x512:float32 target=trn1
# allow-warning: block_dimension_deprecated (the case declares a block-dimension tensor on purpose)
# Two 2 KiB tiles from base_addr 174 KiB: the second ends at 178 KiB, past the 176 KiB
# (192 KiB - 16 KiB compiler reserve) that direct allocation may use on trn1.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.compiler as ncc


@nki.jit
def staged_copy(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    stage = nl.ndarray((2, nl.par_dim(128), 512), dtype=x.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=174 * 1024, num_free_tiles=(2,)))  # expect-error: allocation_out_of_bounds  # expect-col: 13
    for i in nl.affine_range(2):
        stage[i] = nl.load(x[i])
        nl.store(out[i], value=stage[i])
    return out
