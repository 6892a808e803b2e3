# nki-case: args=4x128x128:float32,128x512:float32
# allow-warning: block_dimension_deprecated (the case declares a block-dimension tensor on purpose)
# Four PSUM tiles from bank 6 with num_bank_tiles=(4,): tiles 2 and 3 would need banks 8 and 9,
# but PSUM has banks 0..7.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.compiler as ncc


@nki.jit
def batched_matmul(a, w):
    out = nl.ndarray((4, 128, 512), dtype=nl.float32, buffer=nl.shared_hbm)
    a_sb = nl.ndarray((4, nl.par_dim(128), 128), dtype=a.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=0, num_free_tiles=(2,)))
    w_sb = nl.ndarray((nl.par_dim(128), 512), dtype=w.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=1024))
    r_sb = nl.ndarray((4, nl.par_dim(128), 512), dtype=nl.float32, buffer=ncc.sbuf.mod_alloc(base_addr=3072, num_free_tiles=(2,)))
    acc = nl.ndarray((4, nl.par_dim(128), 512), dtype=nl.float32, buffer=ncc.psum.mod_alloc(base_bank=6, num_bank_tiles=(4,)))  # expect-error: allocation_out_of_bounds  # expect-col: 11
    w_sb[...] = nl.load(w)
    for i in nl.affine_range(4):
        a_sb[i] = nl.load(a[i])
        acc[i] = nisa.nc_matmul(a_sb[i], w_sb)
        r_sb[i] = nl.copy(acc[i])
        nl.store(out[i], value=r_sb[i])
    return out
