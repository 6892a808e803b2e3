# nki-case: args=128x256:float32
# Cast on load (dtype=nl.bfloat16), compute in bf16 tiles, cast back with nl.copy(dtype=...).
# The kernel rounds to bfloat16 internally; the fp32 expectation is checked with a bf16-sized tolerance.
# expect-output: in0 * 2.0
# expect-tol: rtol=1e-2 atol=1e-2
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def bf16_roundtrip(x):
    out = nl.ndarray(x.shape, dtype=nl.float32, buffer=nl.shared_hbm)
    xb = nl.load(x, dtype=nl.bfloat16)
    yb = nl.multiply(xb, 2.0, dtype=nl.bfloat16)
    nl.store(out, value=nl.copy(yb, dtype=nl.float32))
    return out
