# nki-case: args=32x2x16:float32,64x4x16:float32
# nisa.nc_transpose collapses all free axes into one before the PF-transpose (nc_transpose
# docstring): a [32, 2, 16] tile becomes [32, 32] and is transposed to [32, 32]. The second input is
# read through a strided [32, 2, 16] view (partitions 0..31, blocks 1..2, columns 0..15).
# expect-output: (in0.reshape(32, 32).T, in1[0:32, 1:3, :].reshape(32, 32).T)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def transpose_collapsed(a, b):
    out_a = nl.ndarray((32, 32), dtype=a.dtype, buffer=nl.shared_hbm)
    out_b = nl.ndarray((32, 32), dtype=b.dtype, buffer=nl.shared_hbm)
    at = nisa.nc_transpose(nl.load(a), engine=nisa.vector_engine)
    nl.store(out_a, value=at)
    bt = nl.load(b)
    bt_t = nisa.nc_transpose(bt[0:32, 1:3, :])
    nl.store(out_b, value=nl.copy(bt_t))
    return out_a, out_b
