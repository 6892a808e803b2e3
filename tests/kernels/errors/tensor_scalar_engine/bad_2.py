# nki-case: args=128x512:int32
# Keeps the low 4 bits of x with a bitwise_and tensor_scalar on the GpSimd Engine.
# Error: bitvec tensor_scalar operators must run on the Vector Engine.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def low_bits(x):
    out = nl.ndarray((128, 512), dtype=x.dtype, buffer=nl.shared_hbm)
    y = nisa.tensor_scalar(nl.load(x), nl.bitwise_and, 15, engine=nisa.gpsimd_engine)  # expect-error: tensor_scalar_engine  # expect-col: 9
    nl.store(out, value=y)
    return out
