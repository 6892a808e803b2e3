# nki-case: args=256x64:float32
# A helper object collects per-iteration tiles in a nested list attribute; the kernel reads
# them after the loop. Tiles created in the loop body escape through `acc.parts[0][0]`.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


class Collector:
    def __init__(self):
        self.parts = [[]]

    def add(self, t):
        self.parts[0].append(t)


@nki.jit
def collect(x):
    out = nl.ndarray((128, 64), dtype=x.dtype, buffer=nl.shared_hbm)
    acc = Collector()
    for i in nl.affine_range(2):
        acc.add(nl.load(x[i * 128:(i + 1) * 128, :]))
    first = acc.parts[0][0]  # expect-error: err_local_variable_used_out_of_scope  # expect-col: 13
    nl.store(out, value=first)
    return out
