# nki-case: args=4x128x128:float32,128x512:float32
# allow-warning: block_dimension_deprecated (the case declares a block-dimension tensor on purpose)
# Fix: start at bank 4, so the four tiles use banks 4..7.
# expect-output: np.stack([in0[i].T @ in1 for i in range(4)])
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
    acc = nl.ndarray((4, nl.par_dim(128), 512), dtype=nl.float32, buffer=ncc.psum.mod_alloc(base_bank=4, num_bank_tiles=(4,)))
    w_sb[...] = nl.load(w)
    for i in nl.affine_range(4):
        a_sb[i] = nl.load(a[i])
        acc[i] = nisa.nc_matmul(a_sb[i], w_sb)
        r_sb[i] = nl.copy(acc[i])
        nl.store(out[i], value=r_sb[i])
    return out
