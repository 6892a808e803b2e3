# nki-case: args=128x64:float32
# allow-warning: block_dimension_deprecated (the case declares a block-dimension tensor on purpose)
# ncc.sbuf.alloc with an allocation function that stacks four 32-partition tiles in the four
# partition quadrants (start partitions 0/32/64/96, allowed for tiles of at most 32 partitions)
# at the same byte address.
# expect-output: in0 + 1
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.compiler as ncc


def quadrant(idx, pdim_size, fdim_size):
    (q,) = idx
    return (q * 32, 0)


@nki.jit
def add_one_by_quadrant(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray((4, nl.par_dim(32), 64), dtype=x.dtype, buffer=ncc.sbuf.alloc(quadrant))
    r = nl.ndarray((4, nl.par_dim(32), 64), dtype=x.dtype, buffer=ncc.sbuf.alloc(lambda idx, p, f: (idx[0] * 32, 256)))
    for q in nl.affine_range(4):
        t[q] = nl.load(x[q * 32:(q + 1) * 32, :])
        r[q] = nl.add(t[q], 1.0)
        nl.store(out[q * 32:(q + 1) * 32, :], value=r[q])
    return out
