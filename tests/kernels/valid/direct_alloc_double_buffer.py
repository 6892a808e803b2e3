# nki-case: args=4x128x128:float32,128x512:float32
# allow-warning: block_dimension_deprecated (the case declares a block-dimension tensor on purpose)
# Direct allocation with double buffering (nki_direct_allocation_guide.rst): the four logical
# tiles of a_sb, r_sb and acc rotate through two physical tiles each (mod_alloc with
# num_free_tiles=(2,) in SBUF, num_bank_tiles=(2,) in PSUM banks 2 and 3), and the weights sit in
# a tile placed by an allocation function built from a closure. The activation passes an
# allocated zero bias, as direct allocation requires.
# expect-output: np.exp(np.stack([in0[i].T @ in1 for i in range(4)]) * 0.01)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.compiler as ncc


def fixed_at(byte_addr):
    def place(idx, pdim_size, fdim_size):
        return (0, byte_addr)
    return place


@nki.jit
def exp_batched_matmul(a, w):
    out = nl.ndarray((4, 128, 512), dtype=nl.float32, buffer=nl.shared_hbm)
    a_sb = nl.ndarray((4, nl.par_dim(128), 128), dtype=a.dtype,
                      buffer=ncc.sbuf.mod_alloc(base_addr=0, num_free_tiles=(2,)))
    w_sb = nl.ndarray((nl.par_dim(128), 512), dtype=w.dtype, buffer=ncc.sbuf.alloc(fixed_at(1024)))
    bias = nl.ndarray((nl.par_dim(128), 1), dtype=nl.float32, buffer=ncc.sbuf.mod_alloc(base_addr=3072))
    r_sb = nl.ndarray((4, nl.par_dim(128), 512), dtype=nl.float32,
                      buffer=ncc.sbuf.mod_alloc(base_addr=4096, num_free_tiles=(2,)))
    acc = nl.ndarray((4, nl.par_dim(128), 512), dtype=nl.float32,
                     buffer=ncc.psum.mod_alloc(base_bank=2, num_bank_tiles=(2,)))
    bias[...] = nisa.memset((128, 1), 0.0, dtype=nl.float32)
    w_sb[...] = nl.load(w)
    for i in nl.affine_range(4):
        a_sb[i] = nl.load(a[i])
        acc[i] = nisa.nc_matmul(a_sb[i], w_sb)
        r_sb[i] = nisa.activation(op=nl.exp, data=acc[i], bias=bias, scale=0.01)
        nl.store(out[i], value=r_sb[i])
    return out
