# nki-case: args=16x64:float32,16x512:uint16 init1=randint(0,16)
# Fix of bad.py: gather in two calls of 16 x 256 = 4096 indices each.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def gather_many(x, i):
    out = nl.ndarray((16, 512, 16), dtype=nl.float32, buffer=nl.shared_hbm)
    t = nl.load(x)
    for h in nl.affine_range(2):
        it = nl.load(i[:, nl.ds(h * 256, 256)])
        r = nisa.local_gather(t, it)
        nl.store(out[:, nl.ds(h * 256, 256), :], r)
    return out
