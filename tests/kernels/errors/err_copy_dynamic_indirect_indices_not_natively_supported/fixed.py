# nki-case: args=64x256:float32,1x16:int32 init1=randint(0,256)
# Picks 16 columns of an SBUF tile at runtime-loaded offsets with a plain assignment copy.
# Fix: perform the dynamic-offset copy with nisa.tensor_copy_dynamic_src.
# expect-output: np.take(in0, in1[0], axis=1)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def pick_columns(src, offsets):
    res = nl.ndarray((64, 16), dtype=src.dtype, buffer=nl.shared_hbm)
    src_sb = nl.load(src)
    off_sb = nl.load(offsets)
    picked = nl.ndarray((64, 16), dtype=src.dtype, buffer=nl.sbuf)
    ip, ij = nl.mgrid[0:64, 0:1]
    for c in nl.affine_range(16):
        picked[ip, c] = nisa.tensor_copy_dynamic_src(src_sb[ip, off_sb[0, c] + ij])
    nl.store(res, value=picked)
    return res
