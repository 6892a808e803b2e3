# nki-case: args=128x512:float32 target=trn2
# Computes x - 1 with tensor_scalar forced onto the Scalar Engine (trn2).
# Fix: add -1.0 instead (op0=add is supported there).
# expect-output: in0 - 1.0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def minus_one(x):
    out = nl.ndarray((128, 512), dtype=x.dtype, buffer=nl.shared_hbm)
    y = nisa.tensor_scalar(nl.load(x), nl.add, -1.0, engine=nisa.scalar_engine)
    nl.store(out, value=y)
    return out
