# nki-case: args=128x64:float32
# The output buffer is declared once at module level with nl.ndarray and reused by the kernel.
# nl.ndarray is an NKI API too: it cannot run outside a kernel.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa

OUT = nl.ndarray((128, 64), dtype=nl.float32, buffer=nl.shared_hbm)  # expect-error: err_nki_api_outside_of_nki_kernel  # expect-col: 7


@nki.jit
def negate(x):
    nl.store(OUT, value=nl.negative(nl.load(x)))
    return OUT
