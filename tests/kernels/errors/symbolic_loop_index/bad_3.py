# nki-case: args=512x64:float32
# Picks a per-tile offset table entry with int() of a sequential_range index.
# int() needs a Python int; the index is symbolic while the kernel is traced.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def gather_tiles(x):
    out = nl.ndarray((256, 64), dtype=x.dtype, buffer=nl.shared_hbm)
    order = (3, 1)
    for t in nl.sequential_range(2):
        src = order[int(t)]  # expect-error: symbolic_loop_index  # expect-col: 21
        nl.store(out[t * 128:(t + 1) * 128, :], value=nl.load(x[src * 128:(src + 1) * 128, :]))
    return out
