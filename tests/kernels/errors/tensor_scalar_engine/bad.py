# nki-case: args=128x512:float32 target=trn2
# Computes x - 1 with tensor_scalar forced onto the Scalar Engine (trn2).
# Error: the trn2 Scalar Engine runs tensor_scalar only with (multiply, add), (multiply, None) or (add, None).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def minus_one(x):
    out = nl.ndarray((128, 512), dtype=x.dtype, buffer=nl.shared_hbm)
    y = nisa.tensor_scalar(nl.load(x), nl.subtract, 1.0, engine=nisa.scalar_engine)  # expect-error: tensor_scalar_engine  # expect-col: 9
    nl.store(out, value=y)
    return out
